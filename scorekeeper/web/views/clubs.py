"""Clubs' pages: making a club, its page (and its manager's tools), joining by invitation
link or code, and the manager's and directors' links. :mod:`..access` decides every
right: a stranger of a private club gets 404 on every page of it, a member 403 where only
the manager may."""
from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectChoice, SelectField, StringField

from ...common.i18n import field_errors, lang
from ...domain import clubs, people, reads, variants
from ...domain.errors import ClubNotFound
from ...outputs import share
from ...rules.errors import InvalidInput
from .. import access, adapters, limits
from ..db import get_db
from .games import _listed_name, messages

bp = Blueprint("clubs", __name__)

#: The latest evenings and tournaments a club's page lists.
LATEST = 12
#: The latest lines of the club's log its manager's page shows.
LOG = 50


class ClubForm(FlaskForm):
    name = StringField(_l("Club name"))
    public = BooleanField(_l("Anyone may read the club's pages"), default=True)


class SettingsForm(FlaskForm):
    public = BooleanField(_l("Anyone may read the club's pages (public)"))
    casual_rated = BooleanField(_l("Casual games count for the ratings too"))
    ruleset = SelectField(_l("Rules a new game starts with"), validate_choice=False)


class DirectorForm(FlaskForm):
    name = StringField(_l("Director's name"))


@bp.get("/clubs")
def index():
    db = get_db()
    mine = []
    for cid in access.my_clubs():
        try:
            club = clubs.load(db, cid)
        except ClubNotFound:
            continue
        right = access.club_right(db, cid)
        if right is not None or club.public:  # a former member is told nothing private
            mine.append((club, right))
    return render_template("clubs/index.html", mine=mine, form=ClubForm(),
                           join=FlaskForm(), errors={})


@bp.route("/clubs/new", methods=["GET", "POST"])
def new():
    form = ClubForm()
    errors: dict[str, list[str]] = {}
    if form.is_submitted():
        try:
            club = clubs.create(get_db(), form.name.data or "", bool(form.public.data))
        except InvalidInput as e:
            errors = field_errors(e.problems)
        else:
            access.remember_club(club.id, access.MANAGER)
            flash(gettext("The club is made. Invite its members with the link or code "
                          "below."), "ok")
            return redirect(url_for("clubs.show", cid=club.id))
    return render_template("clubs/new.html", form=form, errors=errors), (422 if errors else 200)


def _settings_form(club: clubs.Club) -> SettingsForm:
    form = SettingsForm(data={"public": club.public, "casual_rated": club.casual_rated,
                              "ruleset": club.default_ruleset or ""})
    form.ruleset.choices = [SelectChoice("", gettext("the server's default"))] + [
        SelectChoice(rs.id, _listed_name(rs, row))
        for _, rs, row in variants.listing(get_db(), club.id)]
    return form


@bp.get("/clubs/<cid>")
def show(cid: str):
    club = access.readable_club(get_db(), cid)
    return redirect(url_for("people.index")) if club.home else _page(club)


def _page(club: clubs.Club, errors: dict | None = None, status: int = 200):
    db = get_db()
    right = access.club_right(db, club.id)
    listed, more = reads.players_page(db, lang(), 1, 30, club.id)
    evenings = people.latest_evenings(db, LATEST, club.id)
    names = reads.names(db, [pid for ev in evenings for pid in ev.people])
    manager = right == access.MANAGER
    directors = [{**d, "link": url_for("clubs.director_link", cid=club.id, did=d["id"],
                                       token=access.club_director_token(club.id, d["id"]),
                                       _external=True)}
                 for d in reads.club_directors(db, club.id)] if manager else []
    return render_template(
        "clubs/show.html", club=club, right=right, people=listed, more_people=more,
        people_count=reads.count_people(db, club.id), evenings=evenings, names=names,
        tournaments=reads.club_tournaments(db, club.id, LATEST),
        invitation=share.describe(
            request.scheme, request.host, url_for("clubs.join_link", code=club.invite_code),
            club.invite_code, current_app.config.get("PUBLIC_URL")) if manager else None,
        manager_link=url_for("clubs.manager_link", cid=club.id,
                             token=access.club_token(club.id), _external=True)
        if manager else None,
        settings=_settings_form(club) if manager else None, directors=directors,
        members=clubs.members(db, club) if manager else [],
        log=clubs.log(db, club, LOG) if manager else [],
        director_form=DirectorForm(), button=FlaskForm(), errors=errors or {},
        may_direct=access.at_least(right, access.DIRECTOR),
        variant_base=_variant_base(club) if manager else None,
        may_play=access.at_least(right, access.MEMBER)), status


def _variant_base(club: clubs.Club) -> str | None:
    """The ruleset a club's new house variant starts from: its default, if its game
    offers variants, else the first ruleset whose game does."""
    found = [rules.id for family, rules, _ in variants.listing(get_db(), club.id)
             if adapters.of(family).editor is not None]
    default = clubs.default_ruleset(get_db(), club)
    return default if default in found else next(iter(found), None)


@bp.post("/clubs/<cid>/settings")
def settings(cid: str):
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    form = SettingsForm()
    try:
        clubs.change(db, club, public=bool(form.public.data),
                     casual_rated=bool(form.casual_rated.data),
                     default_ruleset=form.ruleset.data or "")
    except InvalidInput as e:
        return _page(club, field_errors(e.problems), 422)
    flash(gettext("The club's settings are saved."), "ok")
    return redirect(url_for("clubs.show", cid=cid) + "#manage")


def _managed(cid: str, anchor: str, change, message) -> Response:
    """A manager's button: ``change(db, club)``, then ``message(what it gave)`` flashed
    when it changed something; back to the club page's ``anchor``."""
    db = get_db()
    done = change(db, access.require_club(db, cid, access.MANAGER))
    if done is not False:
        flash(message(done), "ok")
    return redirect(url_for("clubs.show", cid=cid) + anchor)


@bp.post("/clubs/<cid>/invitation")
def renew_invitation(cid: str):
    return _managed(cid, "#invite", clubs.renew_code, lambda _: gettext(
        "A new invitation is made: the old link and code invite nobody more. Members who "
        "joined stay members."))


@bp.post("/clubs/<cid>/directors")
def name_director(cid: str):
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    try:
        clubs.name_director(db, club, DirectorForm().name.data or "")
    except InvalidInput as e:
        return _page(club, {"director": messages(e)}, 422)
    flash(gettext("The director is named: give them their link below."), "ok")
    return redirect(url_for("clubs.show", cid=cid) + "#directors")


@bp.post("/clubs/<cid>/directors/<int:did>/remove")
def remove_director(cid: str, did: int):
    return _managed(cid, "#directors",
                    lambda db, club: clubs.remove_director(db, club, did),
                    lambda _: gettext("The director is removed: their link works no more."))


@bp.post("/clubs/<cid>/members/<int:mid>/remove")
def remove_member(cid: str, mid: int):
    return _managed(cid, "#members",
                    lambda db, club: clubs.remove_member(db, club, mid),
                    lambda _: gettext("The member is removed: they read nothing more of a "
                                      "private club."))


@bp.post("/clubs/<cid>/members/renew")
def renew_members(cid: str):
    """Every member removed at once, and a new invitation."""
    return _managed(cid, "#members", clubs.renew_members, lambda count: ngettext(
        "%(num)s member removed. A new invitation is made: whoever should stay joins again "
        "with it.", "%(num)s members removed. A new invitation is made: whoever should "
        "stay joins again with it.", count))


@bp.get("/clubs/<cid>/manage/<token>")
def manager_link(cid: str, token: str):
    """The manager's link: this browser manages the club from now on."""
    club = clubs.load(get_db(), cid)
    if club.home or not access.is_club_manager_link(cid, token):
        limits.wrong_guess()
        raise ClubNotFound(cid)
    access.remember_club(cid, access.MANAGER)
    return redirect(url_for("clubs.show", cid=cid))


@bp.get("/clubs/<cid>/director/<int:did>/<token>")
def director_link(cid: str, did: int, token: str):
    """A director's link: this browser directs the club's tournaments from now on."""
    club = clubs.load(get_db(), cid)
    named = {d["id"] for d in reads.club_directors(get_db(), club.id)}
    if club.home or did not in named or not access.is_club_director_link(cid, did, token):
        limits.wrong_guess()
        raise ClubNotFound(cid)
    access.remember_club(cid, access.DIRECTOR, did)
    clubs.joined(club)
    flash(gettext("You are a director of this club: you can make and direct its "
                  "tournaments."), "ok")
    return redirect(url_for("clubs.show", cid=cid))


@bp.post("/clubs/join")
def join():
    """Join a club by the invitation code a member was given."""
    return _join(request.form.get("code"))


@bp.get("/clubs/join/<code>")
def join_link(code: str):
    """The invitation link (the club page's QR code): the same as typing the code."""
    return _join(code)


def _join(typed: object):
    code = access.normalise_code(typed)
    try:
        club = clubs.by_code(get_db(), code) if code else None
    except ClubNotFound:
        club = None
    if club is None:
        limits.wrong_guess()
        flash(gettext("No club has this invitation code. Check its letters and digits, "
                      "or ask the club's manager for a new one."), "error")
        return redirect(url_for("clubs.index"))
    if access.club_right(get_db(), club.id) is None:
        access.remember_member(club.id, clubs.join(get_db(), club))
        flash(gettext("Welcome to %(club)s: you are a member now.", club=club.name), "ok")
    return redirect(url_for("clubs.show", cid=club.id))
