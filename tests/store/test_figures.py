"""The figures kept per finished game (issue 25): what a player's page sums instead of
replaying every game. What a player checks: their figures follow the game's own score
table through every change of it (the last deal, a correction, an undo, a deletion, a
rename), and a server that ran an older version shows the same figures after it starts.

The game is the sample game (first dealer seat 0): totals by seat 185, -165, 35, -55.
"""
import json

from scorekeeper.domain import people, service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.storage import connection, game_writes, migrations, people_reads, people_writes

NAMES = ["Ala", "Bolek", "Cela", "Darek"]
TOTALS = [185, -165, 35, -55]


def play(db, names=NAMES, deals=SAMPLE_GAME_4):
    gid = service.create_game(db, "standard-4", names, 0)
    for number, raw in enumerate(deals, start=1):
        game = service.load(db, gid)
        service.enter_deal(db, game, number, raw, game.version)
    return gid


def ids(db):
    return {r["name"]: r["id"] for r in people_reads.people(db)}


def kierki(db, name):
    """A person's Kierki figures as their page and the API give them."""
    stats = people.statistics(db, ids(db)[name])
    return stats["families"].get("kierki")


def kept(db, gid):
    return db.execute("select seat, total, place, won from figures where game_id = ? "
                      "order by seat", [gid]).fetchall()


def test_a_finished_game_is_kept_as_its_score_table_says(db):
    gid = play(db, deals=SAMPLE_GAME_4[:-1])
    assert kept(db, gid) == []  # unfinished: nothing counted yet
    assert kierki(db, "Ala")["games"] == 0 and kierki(db, "Ala")["unfinished"] == 1
    game = service.load(db, gid)
    service.enter_deal(db, game, len(SAMPLE_GAME_4), SAMPLE_GAME_4[-1], game.version)
    assert service.load(db, gid).state.totals == TOTALS
    assert kept(db, gid) == [(0, 185, 1, 1), (1, -165, 4, 0), (2, 35, 2, 0), (3, -55, 3, 0)]
    ala = kierki(db, "Ala")
    assert (ala["games"], ala["wins"], ala["points"], ala["unfinished"]) == (1, 1, 185, 0)
    # the points per kind of deal add up to the game's total, deal by deal
    assert sum(k["points"] for k in ala["kinds"]) == 185
    assert sum(k["deals"] for k in ala["kinds"]) == len(SAMPLE_GAME_4)


def test_a_correction_of_a_finished_game_changes_its_figures(db):
    gid = play(db)
    game = service.load(db, gid)
    first = SAMPLE_GAME_4[0]
    swapped = {**first, "tricks": [first["tricks"][1], first["tricks"][0],
                                   *first["tricks"][2:]]}
    after = service.enter_deal(db, game, 1, swapped, game.version)
    assert after.state.finished and after.state.totals != TOTALS
    assert [t for _, t, _, _ in kept(db, gid)] == after.state.totals
    assert kierki(db, "Bolek")["points"] == after.state.totals[1]


def test_undoing_the_last_deal_takes_the_game_out_until_it_ends_again(db):
    gid = play(db)
    game = service.load(db, gid)
    service.undo_last(db, game, game.version)
    assert kept(db, gid) == []
    assert kierki(db, "Ala")["games"] == 0
    game = service.load(db, gid)
    service.enter_deal(db, game, len(SAMPLE_GAME_4), SAMPLE_GAME_4[-1], game.version)
    assert kierki(db, "Ala")["points"] == 185


def test_a_deleted_game_counts_no_more(db):
    keep, gone = play(db), play(db, names=["Cela", "Darek", "Ala", "Bolek"])
    assert kierki(db, "Ala")["games"] == 2
    service.delete_game(db, service.load(db, gone), service.load(db, gone).version)
    assert db.execute("select count(*) from figures where game_id = ?",
                      [gone]).fetchone()[0] == 0
    assert kierki(db, "Ala")["games"] == 1 and kierki(db, "Ala")["points"] == 185
    assert kept(db, keep)


def test_a_rename_keeps_every_figure(db):
    play(db)
    before = kierki(db, "Ala")
    people_writes.rename_person(db, ids(db)["Ala"], "Alicja")
    assert kierki(db, "Alicja") == before


def test_figures_sum_what_each_games_own_table_says(db):
    """Three games in turn around the table: each person's points and wins are their
    totals and first places read off the three games themselves."""
    games = [play(db, names=NAMES[i:] + NAMES[:i]) for i in range(3)]
    loaded = [service.load(db, gid) for gid in games]
    for name in NAMES:
        seats = [(g.state.totals[g.players.index(name)], g.state.totals) for g in loaded]
        figures = kierki(db, name)
        assert figures["points"] == sum(t for t, _ in seats)
        assert figures["wins"] == sum(t == max(all_) for t, all_ in seats)
        assert [f["total"] for f in figures["form"]] == [t for t, _ in seats]


def test_an_older_database_gets_its_figures_on_start(tmp_path):
    """A server whose database was made before the figures were kept: its finished games
    count from the first start of this version on, as if played today."""
    db = connection.connect(str(tmp_path / "old.sqlite"))
    migrations.apply(db, stop_before="0007_figures")
    state = service.registry.get("kierki").fold(
        service.registry.find("standard-4")[1], {"first_dealer": 0}, SAMPLE_GAME_4)
    rules = service.registry.find("standard-4")[1]
    at = "2024-03-01T20:00:00+00:00"
    with db.conn:  # as the older version wrote a game: rows of its own tables only
        db.execute("insert into games (id, family, ruleset_id, ruleset, settings, version, "
                   "finished, created_at, updated_at, join_code) values "
                   "('old', 'kierki', 'standard-4', ?, ?, 20, 1, ?, ?, 'ABCDEF')",
                   [json.dumps(rules.snapshot()), json.dumps({"first_dealer": 0}), at, at])
        for seat, name in enumerate(NAMES):
            pid = db.execute("insert into people (name, key, created_at) values (?, ?, ?)",
                             [name, name.lower(), at]).lastrowid
            db.execute("insert into players (game_id, seat, name, person_id) "
                       "values ('old', ?, ?, ?)", [seat, name, pid])
        for number, s in enumerate(state.scored, start=1):
            db.execute("insert into deals (game_id, number, result, recorded_at) "
                       "values ('old', ?, ?, ?)", [number, json.dumps(s.result), at])
    connection.migrate(db)
    service.backfill_figures(db)  # what the app does when it starts
    assert kept(db, "old") == [(0, 185, 1, 1), (1, -165, 4, 0), (2, 35, 2, 0), (3, -55, 3, 0)]
    assert kierki(db, "Darek")["points"] == -55
    assert people.evening(db, game_writes.evening_id("old")).games == ["old"]
    # and the people sort as the language does, not by code point
    listed, more = people_reads.people_page(db, "pl", 1, 10)
    assert [r["name"] for r in listed] == ["Ala", "Bolek", "Cela", "Darek"] and not more
    db.close()
