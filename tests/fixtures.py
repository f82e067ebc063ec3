"""Builders the tests share: games started and deals sent as the phones send them."""
from __future__ import annotations

import re
from contextlib import contextmanager
from html import unescape

from scorekeeper.domain import bus, service
from scorekeeper.domain.events import Event
from scorekeeper.families.kierki.rules.examples import plausible_results as results_for
from scorekeeper.families.kierki.web.forms import form_values
from scorekeeper.web.db import get_db

PLAYERS = ["Ala", "Bożena", "Czesław", "<b>Dżon</b>"]

__all__ = ["PLAYERS", "authorize", "become_host", "errors_in", "join", "new_game", "play_api",
           "post_deal", "recorded", "results_for", "state"]


@contextmanager
def recorded():
    """Every event the bus publishes meanwhile, in order."""
    seen: list[Event] = []
    stop = bus.subscribe(Event, seen.append)
    try:
        yield seen
    finally:
        stop()


def errors_in(html: str) -> list[str]:
    """The messages a player sees on a page (inline errors and flashes)."""
    found = re.findall(r'class="(?:error|flash error)"[^>]*>([^<]*)<', html)
    return [unescape(m.strip()) for m in found]


def new_game(client, ruleset="standard-4", players=PLAYERS, dealer="0", **extra):
    """Start a game through the set-up form; returns its id."""
    data = {"ruleset": ruleset, "first_dealer": dealer, **extra}
    data.update({f"player_{i}": p for i, p in enumerate(players)})
    r = client.post("/games/new", data=data)
    assert r.status_code == 302, errors_in(r.text)
    return r.location.rsplit("/", 1)[1]


def state(app, gid):
    """The game as stored, with its computed state."""
    with app.app_context():
        return service.load(get_db(), gid)


def post_deal(client, gid, number, version, raw, **extra):
    """Send a Kierki deal's raw result through the deal form."""
    data = {"version": version, **form_values(raw), **extra}
    return client.post(f"/games/{gid}/deals/{number}", data=data)


def join(client, app, gid):
    """This client joins the game's table with its join code (as a phone scanning the
    table card or typing the code): from now on it may write the game."""
    code = state(app, gid).stored.join_code
    r = client.get(f"/join/{code}")
    assert r.status_code == 302 and r.location.endswith(f"/games/{gid}"), r.status_code
    return client


def authorize(client, app, gid):
    """Send the game's API token with every later request of this client (as its table
    would after creating or joining the game)."""
    from scorekeeper.web import access
    with app.test_request_context():
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {access.token(gid)}"


def become_host(client, app=None):
    """Make this client the host as the laptop at the table does: a new host link (what
    ``kierki serve`` prints), opened in its browser. Returns the client."""
    from scorekeeper.web import access
    app = app or client.application
    with app.app_context():
        token = access.new_host_link(get_db())
    r = client.get(f"/host/{token}")
    assert r.status_code == 302, r.text
    return client


def play_api(client, ruleset, players, results, first_dealer=0) -> list[dict]:
    """A game played through the JSON API alone, as a program would: its answer after
    each deal (the last is the game at the end)."""
    made = client.post("/api/games", json={"ruleset": ruleset, "players": players,
                                           "first_dealer": first_dealer})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    auth = {"Authorization": f"Bearer {game['token']}"}
    answers = []
    for number, result in enumerate(results, start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}", headers=auth,
                       json={"version": game["version"], "result": result})
        assert r.status_code == 200, (number, r.get_json())
        game = r.get_json()
        answers.append(game)
    return answers
