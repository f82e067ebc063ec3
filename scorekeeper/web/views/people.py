"""Players across games on pages: everyone, one player's figures (and renaming them), a
table's comparison, an evening with its settlement, and the rematch. A page links only to
the games this browser knows; others are listed without a link."""
from __future__ import annotations

import dataclasses
from collections import Counter

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from ...common import charts, formats
from ...common.i18n import lang
from ...domain import people, reads, service
from ...domain.errors import GameNotFound, NameTaken, PersonNotFound, RenameChanged
from ...rules import checks
from ...rules.errors import InvalidInput, UnknownRuleset
from .. import access, limits
from ..db import get_db
from .games import club_page, messages

bp = Blueprint("people", __name__)


#: People listed on one page of ``/players`` (and ``/api/players``).
PAGE_SIZE = 50
#: The latest evenings the players page lists.
LATEST_EVENINGS = 12


def page_number() -> int:
    """``?page=`` (from 1); anything else is the first page."""
    return checks.page(request.args.get("page", "1"), 10**6) or 1


@bp.get("/players")
@bp.get("/clubs/<cid>/players", endpoint="club_index")
def index(cid: str | None = None):
    """A club's players (the home club's: everyone who played here), a page at a time in
    the order of their names, and the latest evenings (on the first page)."""
    db = get_db()
    club, cid = club_page(cid)
    page = page_number()
    listed, more = reads.players_page(db, lang(), page, PAGE_SIZE, cid)
    if page > 1 and not listed:
        abort(404)
    evenings = people.latest_evenings(db, LATEST_EVENINGS, cid) if page == 1 else []
    names = reads.names(db, [pid for ev in evenings for pid in ev.people])
    names.update((row["id"], row["name"]) for row in listed)
    return render_template(
        "players.html", people=listed, evenings=[_named(db, ev, names) for ev in evenings],
        names=names, club=club, page=page, pages=-(-reads.count_people(db, cid) // PAGE_SIZE),
        more=more, renames=reads.renames(db) if page == 1 and not club and access.is_host() else [],
        games_label={n: ngettext("%(num)s game", "%(num)s games", n)
                     for n in {row["games"] for row in listed}})


@bp.post("/renames/<int:rid>/undo")
def undo_rename(rid: int):
    """The host takes a rename back: the person's old name again, in every game."""
    if not access.is_host():
        return render_template("error.html", message=gettext(
            "Only the host can take a rename back.")), 403
    try:
        pid = people.undo_rename(get_db(), rid)
    except PersonNotFound:
        abort(404)
    except (RenameChanged, NameTaken) as e:
        flash(gettext("Someone else here is already called %(name)s.", name=str(e))
              if isinstance(e, NameTaken) else gettext(
                  "This rename was taken back already, or the person was renamed again "
                  "since."), "error")
        return redirect(url_for("people.index") + "#renames")
    flash(gettext("The rename was taken back."), "ok")
    return redirect(url_for("people.player", pid=pid))


def _named(db, ev: people.Evening, names: dict[int, str]) -> people.Evening:
    """The evening with its people in the order of their names in the page's language."""
    return dataclasses.replace(ev, people=tuple(reads.in_name_order(db, ev.people, names, lang())))


#: The tables a player page lists: the ones with the most games.
PLAYER_TABLES = 20


@bp.get("/players/<int:pid>")
def player(pid: int, errors: dict | None = None, status: int = 200):
    db = get_db()
    try:
        club = access.club_of_person_readable(db, pid)
        stats = people.statistics(db, pid)
    except PersonNotFound:
        abort(404)
    rows = reads.person_tables(db, pid, PLAYER_TABLES + 1)  # (key, games), the most first
    tables = [(key, [int(p) for p in key.split("-")], n) for key, n in rows[:PLAYER_TABLES]]
    return render_template(
        "player.html", stats=stats, can_rename=access.may_rename(db, pid) is not None,
        form_charts={key: _form_chart(stats["name"], fam)
                     for key, fam in stats["families"].items()},
        tables=tables, names=reads.names(db, [p for _, ids, _ in tables for p in ids]),
        more_tables=len(rows) > PLAYER_TABLES, table_limit=PLAYER_TABLES,
        errors=errors or {}, club=club), status


def _form_chart(name: str, fam: dict) -> charts.LineChart | None:
    """One card game's form: the totals of the last games (of that game only)."""
    if len(fam["form"]) < 2:
        return None
    return charts.LineChart(
        gettext("Form"), gettext("%(name)s's totals in their last games of %(game)s, "
                                 "oldest first", name=name, game=fam["name"]),
        [charts.Series(name, [g["total"] for g in fam["form"]])],
        _game_days([g["date"] for g in fam["form"]]), gettext("Game"), origin=None)


def _game_days(days: list[str]) -> list[str]:
    """The games of a chart by the day they were played, as the language writes a day
    (``25 lis``; with the year when they span more than one), and, where one day had more
    than one of them, which game of that day (``25 lis, 2. gra``)."""
    show = formats.date if len({d[:4] for d in days}) > 1 else formats.day
    per_day = Counter(days)
    return [gettext("%(day)s, game %(num)s", day=show(d), num=days[:i + 1].count(d))
            if per_day[d] > 1 else show(d) for i, d in enumerate(days)]


@bp.post("/players/<int:pid>/rename")
def rename(pid: int):
    """A new name for a person, in every game they played."""
    db = get_db()
    try:
        access.club_of_person_readable(db, pid)  # PersonNotFound for no such person too
    except PersonNotFound:
        abort(404)
    right = access.may_rename(db, pid)
    if right is None:
        return render_template("error.html", message=gettext(
            "Only the host, or a phone that entered every game this person played, can "
            "rename them.")), 403
    try:
        name = checks.names([request.form.get("name")], 1)[0]  # present, not too long
        people.rename(db, pid, name, right)
    except InvalidInput as e:
        return player(pid, errors={"name": messages(e)}, status=422)
    except NameTaken:
        return player(pid, errors={"name": [gettext(
            "Someone else here is already called %(name)s.", name=name)]}, status=422)
    flash(gettext("Renamed in every game."), "ok")
    return redirect(url_for("people.player", pid=pid))


@bp.get("/tables/<key>")
def table(key: str):
    """The people of one table side by side, over the games they played together."""
    db = get_db()
    try:
        ids = sorted(int(part) for part in key.split("-"))
        games = reads.table_count(db, key) if people.table_key(ids) == key else 0
        if games:  # a table's people are of one club: a private club's table is its members'
            access.club_of_person_readable(db, ids[0])
    except (ValueError, PersonNotFound):
        abort(404)
    if not games:
        abort(404)
    figures = [people.statistics(db, pid, table=key) for pid in ids]
    sections = []
    for fam_key, first in figures[0]["families"].items():
        mine = [f["families"][fam_key] for f in figures]
        groups = {k["group"]: k["group_name"] for k in first["kinds"]}
        averages = [[round(sum(k["points"] for k in f["kinds"] if k["group"] == g)
                           / max(1, sum(k["deals"] for k in f["kinds"] if k["group"] == g)), 1)
                     for f in mine] for g in groups]
        bars = charts.BarChart(
            gettext("Average points per deal"), gettext("Each player's average points in "
                                                        "each kind of deal at this table"),
            list(groups.values()), [f["name"] for f in figures], averages,
            gettext("Deal")) if groups and first["games"] else None
        sections.append({"name": first["name"], "figures": mine, "bars": bars})
    return render_template("table.html", figures=figures, sections=sections, games=games)


@bp.get("/evenings/<eid>")
def evening(eid: str):
    """An evening: each game's result, the standings, and what the stakes come to."""
    db = get_db()
    try:
        ev = people.evening(db, eid)
    except people.EveningNotFound:
        abort(404)
    standing = people.standings(db, ev, lang())
    per = request.args.get("per") if request.args.get("per") in ("point", "place") else "point"
    stake_text = request.args.get("stake", "")
    stake = people.parse_stake(stake_text)
    errors: dict[str, list[str]] = {}
    owed, parts = None, []
    if stake_text and stake is None:
        errors["stake"] = [gettext("Write the stake as money, for example 0.05.")]
    elif stake:
        owed, parts = people.settle(standing["families"], stake, per)
    names = {row["id"]: row["name"] for row in standing["people"]}
    return render_template(
        "evening.html", ev=_named(db, ev, names), standing=standing, names=names, per=per,
        stake=stake_text, owed=owed, parts=parts, errors=errors,
        transfers=None if owed is None else people.transfers(owed))


@bp.get("/games/<gid>/evening")
def evening_of(gid: str):
    """The evening a game belongs to."""
    try:
        ev = people.evening_of(get_db(), gid)
    except (GameNotFound, people.EveningNotFound):
        abort(404)
    return redirect(url_for("people.evening", eid=ev.id, **request.args))


@bp.post("/games/<gid>/rematch")
def rematch(gid: str):
    """The next game of this table, one per game: the same people, the seats turned one
    place. The first phone to ask makes it; any other phone of the table joins it."""
    db = get_db()
    game = service.load(db, gid)
    access.require_write(db, gid)  # the table's own next game
    names, dealer = people.rematch_seats(game.players, game.state.first_dealer)
    try:
        new, made = service.rematch(db, game, names, dealer,
                                    max_games=current_app.config["MAX_GAMES"])
    except InvalidInput as e:
        for m in messages(e):
            flash(m, "error")
        return redirect(url_for("games.show", gid=gid))
    except UnknownRuleset:
        flash(gettext("These rules are no longer on this server: start the next game "
                      "from the new-game page."), "error")
        return redirect(url_for("games.show", gid=gid))
    limits.made_games(1 if made else 0)
    if not made:
        flash(gettext("You joined the rematch another phone of this table started."), "ok")
    access.remember(new)
    return redirect(url_for("games.show", gid=new))
