"""One rematch per table (issue 35): the first "Rematch" makes the next game, every later
tap (any phone of the table) joins that same game, the other phones' pages offer it at
once, and the evening links the two games."""
import re

from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import join, play_api, recorded

NAMES = ["Ala", "Bolek", "Celina", "Darek"]


def finished(client):
    game = play_api(client, "standard-4", NAMES, SAMPLE_GAME_4)[-1]
    assert game["finished"]
    return game["id"]


def new_id(answer):
    assert answer.status_code == 302, answer.status_code
    return answer.location.rsplit("/", 1)[1]


def test_two_phones_tapping_rematch_get_one_game(app, client):
    gid = finished(client)
    first = join(app.test_client(), app, gid)
    second = join(app.test_client(), app, gid)
    before = client.get(f"/games/{gid}/version").get_json()["version"]

    made = new_id(first.post(f"/games/{gid}/rematch"))
    assert made != gid
    # the old game moved: every phone on it learns of the rematch (live.js follows this)
    assert client.get(f"/games/{gid}/version").get_json()["version"] > before
    page = second.get(f"/games/{gid}").get_data(as_text=True)
    assert "The rematch has started." in page and "Join the rematch" in page
    assert "Rematch: the next game of this table" not in page

    joined = second.post(f"/games/{gid}/rematch")
    assert new_id(joined) == made  # the same game, not a second one
    assert new_id(first.post(f"/games/{gid}/rematch")) == made  # a third tap too
    # the phone that joined writes the rematch, as a join code would let it
    page = second.get(f"/games/{made}").get_data(as_text=True)
    assert "You joined the rematch another phone of this table started." in page
    assert "Save deal 1" in page
    rematch = client.get(f"/api/games/{made}").get_json()
    assert [p["name"] for p in rematch["players"]] == NAMES[1:] + NAMES[:1]
    # one new game in all: the table's evening holds the first game and its rematch only
    evening = client.get(f"/games/{gid}/evening", follow_redirects=True).get_data(as_text=True)
    assert len(re.findall(r'href="/games/[^"/]+"', evening)) == 2
    assert "rematch of game 1" in evening


def test_a_watching_phone_is_given_the_rematchs_link_not_a_right(app, client):
    gid = finished(client)
    table = join(app.test_client(), app, gid)
    made = new_id(table.post(f"/games/{gid}/rematch"))
    watcher = app.test_client()
    page = watcher.get(f"/games/{gid}").get_data(as_text=True)
    assert f'href="/games/{made}"' in page and "Watch the rematch" in page
    assert "Join the rematch" not in page
    assert watcher.post(f"/games/{gid}/rematch").status_code == 403


def test_the_service_makes_one_rematch_from_stale_pages_and_tells_of_it(app):
    """Two phones that loaded the finished game before either asked: the second ask finds
    the first's rematch (checked under the write lock), and only the first raised events."""
    from scorekeeper.domain import people, service
    from scorekeeper.domain.events import GameCreated, RematchStarted
    from scorekeeper.web.db import get_db
    client = app.test_client()
    gid = finished(client)
    with app.app_context():
        db = get_db()
        game = service.load(db, gid)
        names, dealer = people.rematch_seats(game.players, game.state.first_dealer)
        with recorded() as seen:
            one, made_one = service.rematch(db, game, names, dealer)
            two, made_two = service.rematch(db, game, names, dealer)  # the same stale game
        assert (one, made_one) == (two, True) and made_two is False
        assert [type(e) for e in seen] == [GameCreated, RematchStarted]
        started = seen[1]
        assert started.gid == gid and started.rematch == one
        assert started.version == service.load(db, gid).version == game.version + 1
        assert service.load(db, gid).stored.rematch == one
        assert service.load(db, one).stored.rematch_of == gid


def test_a_deleted_rematch_can_be_started_again(app, client):
    gid = finished(client)
    table = join(app.test_client(), app, gid)
    made = new_id(table.post(f"/games/{gid}/rematch"))
    version = table.get(f"/api/games/{made}").get_json()["version"]
    assert table.post(f"/games/{made}/delete", data={"version": version}).status_code == 302
    page = table.get(f"/games/{gid}").get_data(as_text=True)
    assert "Rematch: the next game of this table" in page  # offered again
    again = new_id(table.post(f"/games/{gid}/rematch"))
    assert again != made and table.get(f"/games/{again}").status_code == 200


def test_a_tybet_tables_rematch_is_one_game_too(app, client):
    from tests.web.test_players_per_family import PLAIN, PLAYERS, SWEEP
    game = play_api(client, "tybet-21", PLAYERS, [PLAIN, SWEEP, SWEEP])[-1]
    assert game["finished"]
    first, second = (join(app.test_client(), app, game["id"]) for _ in range(2))
    assert "Rematch: the next game of this table" in first.get(f"/games/{game['id']}").text
    made = new_id(first.post(f"/games/{game['id']}/rematch"))
    assert "Join the rematch" in second.get(f"/games/{game['id']}").text
    assert new_id(second.post(f"/games/{game['id']}/rematch")) == made


def test_a_rematch_stays_in_its_games_evening_after_a_long_pause():
    from scorekeeper.domain.evenings import _evenings_of
    row = {"people": [1, 2, 3, 4], "played_at": "2026-11-27T18:40:00+00:00"}
    rows = [{**row, "id": "a", "created_at": "2026-11-27T18:00:00+00:00", "rematch_of": None},
            {**row, "id": "b", "created_at": "2026-11-28T02:00:00+00:00", "rematch_of": "a"},
            {**row, "id": "c", "created_at": "2026-11-28T09:00:00+00:00", "rematch_of": None}]
    first, second = _evenings_of(rows)
    assert first.games == ["a", "b"] and first.rematches == {"b": "a"}
    assert second.games == ["c"]  # a new game after the pause opens a new evening
