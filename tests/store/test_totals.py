"""Stats at constant cost (issue 34): the running totals a player's, a table's and the
players' pages read are kept by the write that changes a game, and always equal what a
full recomputation from the games' history gives, whatever happened in between:
games finished in any order, corrected (a win moving to another player), undone,
deleted, people renamed.
"""
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain import evenings, figures, people, service
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.storage import (
    connection,
    figure_reads,
    figure_writes,
    house_reads,
    people_reads,
    people_writes,
)
from tests.store.test_tournaments import bad_evening_for

POOL = ["Ala", "Bolek", "Cela", "Darek", "Ewa"]
RULESETS = ["standard-4", "kurnik-3"]
OPS = st.lists(st.tuples(st.sampled_from(["new", "new", "deal", "finish", "finish",
                                          "finish", "correct", "correct", "undo", "delete",
                                          "rename"]),
                         st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=14)


def _deals(game, loser):
    return bad_evening_for(game.rules.id, loser % len(game.players))


def seat_names(a, b, n):
    """The names a random history's new game of ``n`` seats is made with."""
    names = [POOL[(a + i * (1 + b % 2)) % len(POOL)] for i in range(n)]
    return (list(dict.fromkeys(names)) + [p for p in POOL if p not in names])[:n]


def play(db, gid, op, a, b, loser):
    """One step of a random history on game ``gid`` (``loser`` has the bad evening): a
    deal, the rest of it, a correction, an undo or a deletion; refusals the app gives a
    player are fine (a correction that would end the game early, as the page refuses
    it). Whether the game is gone."""
    game = service.load(db, gid)
    deals = _deals(game, loser)
    try:
        if op in ("deal", "finish"):
            while not game.state.finished:
                game = service.enter_deal(db, game, game.recorded + 1,
                                          deals[game.recorded], game.version)
                if op == "deal":
                    break
        elif op == "correct" and game.recorded:
            number = a % game.recorded + 1
            other = bad_evening_for(game.rules.id, (loser + 1 + b) % len(game.players))
            service.enter_deal(db, game, number, other[number - 1], game.version)
        elif op == "undo" and game.recorded:
            service.undo_last(db, game, game.version)
        elif op == "delete":
            service.delete_game(db, game, game.version)
            return True
    except InvalidInput:
        pass
    return False


def _apply(db, op, a, b, games):
    """One step of a random history; refusals the app gives a player are fine."""
    live = [g for g in games if g in games]
    gid = live[b % len(live)] if live else None
    if op == "new" or gid is None:
        rules = RULESETS[a % 2]
        new = service.create_game(db, rules, seat_names(a, b, 4 if rules == "standard-4"
                                                         else 3), 0)
        games[new] = a  # who has the bad evening
        return
    if op == "rename":
        pid = {r["name"]: r["id"] for r in people_reads.people(db)}.get(POOL[a % len(POOL)])
        if pid is not None:
            try:
                people.rename(db, pid, f"{POOL[a % len(POOL)]} {b}")
            except people_writes.NameTaken:
                pass
        return
    if play(db, gid, op, a, b, games[gid]):
        del games[gid]


def from_history(db, pid, table=None):
    """A person's Kierki figures worked out from every game's history: each finished game
    they played replayed, oldest first."""
    out = {"games": 0, "wins": 0, "places": 0, "points": 0, "wins_in_order": [],
           "rulesets": Counter(), "kinds": defaultdict(lambda: [0, 0]),
           "counts": Counter()}
    for row in people_reads.seatings(db):
        if not row["finished"] or pid not in row["people"]:
            continue
        if table is not None and people.table_key(row["people"]) != table:
            continue
        game = service.load(db, row["id"])
        seat = row["people"].index(pid)
        p = evenings.played(game, seat)
        out["games"] += 1
        out["wins"] += p.won
        out["places"] += p.place
        out["points"] += p.total
        out["wins_in_order"].append(p.won)
        out["rulesets"][game.rules.id] += 1
        numbers = game.family.seat_numbers(game, seat)
        for key, (points, deals, _) in numbers.get("kinds", {}).items():
            out["kinds"][key][0] += points
            out["kinds"][key][1] += deals
        for key, n in numbers.get("counts", {}).items():
            out["counts"][key] += n
    return out


def assert_pages_agree(db, pid, table=None):
    stats = people.statistics(db, pid, table)
    fam = stats["families"].get("kierki")
    want = from_history(db, pid, table)
    if fam is None:
        assert want["games"] == 0
        return
    assert (fam["games"], fam["wins"], fam["points"]) == \
        (want["games"], want["wins"], want["points"])
    assert fam["average_place"] == (round(want["places"] / want["games"], 2)
                                    if want["games"] else None)
    assert fam["streaks"] == figures.streaks(want["wins_in_order"])
    assert {r["ruleset"]: r["games"] for r in fam["by_ruleset"]} == dict(want["rulesets"])
    assert {k["key"]: [k["points"], k["deals"]] for k in fam["kinds"]} == dict(want["kinds"])
    assert {c["key"]: c["count"] for c in fam["counts"]} == dict(want["counts"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_the_totals_equal_a_full_recomputation_after_any_history(ops):
    with tempfile.TemporaryDirectory() as tmp:
        db = connection.connect(str(Path(tmp) / "t.sqlite"))
        connection.migrate(db)
        service.backfill_figures(db)  # the app's start: nothing to fill, the flag cleared
        games: dict[str, int] = {}
        try:
            for op, a, b in ops:
                _apply(db, op, a, b, games)
            assert figure_reads.all_totals(db) == figures.recomputed(db)
            seatings = people_reads.seatings(db)
            seats = Counter(pid for r in seatings for pid in r["people"])
            tables = Counter((pid, people.table_key(r["people"]))
                             for r in seatings for pid in r["people"])
            for person in people_reads.people(db):
                pid = person["id"]
                assert person["games"] == seats[pid]
                assert people_reads.people_page(db, "en", 1, 50)[0]  # reads the kept count
                assert dict(people_reads.person_tables(db, pid)) == \
                    {key: n for (p, key), n in tables.items() if p == pid}
                assert_pages_agree(db, pid)
                for key, _ in people_reads.person_tables(db, pid):
                    assert_pages_agree(db, pid, key)
                    assert people_reads.table_count(db, key) == tables[pid, key]
        finally:
            db.close()


def test_each_change_of_a_finished_game_moves_the_totals_exactly(tmp_path):
    """Three games of one table and one elsewhere, then every kind of change: after each,
    the kept totals are what a recomputation from the figures gives, and the pages what
    the games' history gives (wins in a row, the first game of each total included)."""
    db = connection.connect(str(tmp_path / "t.sqlite"))
    connection.migrate(db)
    table = POOL[:4]

    def check():
        assert figure_reads.all_totals(db) == figures.recomputed(db)
        for person in people_reads.people(db):
            assert_pages_agree(db, person["id"])
            for key, _ in people_reads.person_tables(db, person["id"]):
                assert_pages_agree(db, person["id"], key)

    def finished(names, loser):
        gid = service.create_game(db, "standard-4", names, 0)
        game = service.load(db, gid)
        for number, raw in enumerate(bad_evening_for("standard-4", loser), start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
        return game

    early = service.create_game(db, "standard-4", table, 0)  # finished last, played first
    games = [finished(table, 1), finished(table, 1), finished(POOL[1:], 0)]
    check()
    game = service.load(db, early)
    for number, raw in enumerate(bad_evening_for("standard-4", 2), start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    check()  # a game finished before others it was started before
    game = service.load(db, games[0].id)
    seat0 = bad_evening_for("standard-4", 0)
    won = game.state.winners
    for number in range(1, game.recorded + 1):
        try:
            game = service.enter_deal(db, game, number, seat0[number - 1], game.version)
        except InvalidInput:
            continue
    assert game.state.winners != won  # the win moved to another player
    check()
    game = service.load(db, games[1].id)
    service.undo_last(db, game, game.version)  # unfinished again: out of every total
    check()
    game = service.load(db, early)
    service.delete_game(db, game, game.version)  # the first game of every total at the table
    check()
    people.rename(db, {r["name"]: r["id"] for r in people_reads.people(db)}["Bolek"], "Bolesław")
    check()
    db.close()


def test_a_database_older_than_the_totals_gets_them_when_the_app_starts(tmp_path):
    """Migration 0011 counts every person's games and tables from the rows there, and asks
    the domain for the totals, which the app's start makes from the figures kept."""
    db = connection.connect(str(tmp_path / "old.sqlite"))
    connection.migrate(db)
    gids = [service.create_game(db, "standard-4", POOL[i:i + 4], 0) for i in (0, 1, 0)]
    for i, gid in enumerate(gids):
        game = service.load(db, gid)
        for number, raw in enumerate(bad_evening_for("standard-4", i), start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
    kept = figure_reads.all_totals(db)
    assert kept == figures.recomputed(db) and kept
    parts = [(gid, seat, pid, family, *p) for gid, seat, pid, family, text in db.conn.execute(
        "select game_id, seat, person_id, family, parts from figures")
        for p in figure_reads.seat_parts(text)]
    with db.conn:  # as an older version left it: no totals, nothing counted, each figure
        # part a row of its own (before migration 0016)
        db.execute("delete from _sqlite_migrations where name = '0016_packed_parts'")
        db.execute("create table figure_parts (game_id text references games(id), seat "
                   "integer, person_id integer, family text not null, part text not null, "
                   "key text not null, table_key text, played text, game_row integer, "
                   "position integer, grp text, points integer not null, deals integer, "
                   "primary key (game_id, seat, part, key))")
        db.conn.executemany("insert into figure_parts (game_id, seat, person_id, family, "
                            "part, key, position, grp, points, deals) values "
                            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", parts)
        db.execute("alter table figures drop column parts")
        db.execute("delete from figure_totals")
        db.execute("delete from table_seats")
        db.execute("update people set games = 0")
        db.execute("delete from _sqlite_migrations where name = '0011_figure_totals'")
        db.execute("drop table figure_totals")
        db.execute("drop table table_seats")
        db.execute("drop index idx_figures_table_key_person_id_family_total_played_game_row")
        db.execute("drop index idx_figures_person_id_family_total_played_game_row")
        db.execute("create index idx_figures_person_id_family_total on figures "
                   "(person_id, family, total)")
        db.execute("alter table people drop column games")
    connection.migrate(db)
    assert figure_reads.all_totals(db) == []
    assert service.backfill_figures(db) == 0  # every game has its figures: totals only
    assert figure_reads.all_totals(db) == kept
    assert house_reads.setting(db, figure_writes.TOTALS_WANTED) is None
    ala = {r["name"]: r for r in people_reads.people(db)}["Ala"]
    assert ala["games"] == 2
    assert people_reads.person_tables(db, ala["id"]) == [(people.table_key(
        [ala["id"], *[r["id"] for r in people_reads.people(db) if r["name"] in POOL[1:4]]]), 2)]
    assert_pages_agree(db, ala["id"])
    db.close()


def test_games_finished_out_of_the_order_they_were_played_keep_the_runs_exact(
        tmp_path, monkeypatch):
    """Eight games of one table started first and finished in another order (a table
    that left a game and came back to it, tournaments' tables finishing at once), each
    won by one of two players: after each, the wins in a row are what the games in the
    order played give, and most are worked out from the games next to the one added,
    not by counting every game again."""
    db = connection.connect(str(tmp_path / "t.sqlite"))
    connection.migrate(db)
    table = POOL[:4]
    started = [service.create_game(db, "standard-4", table, 0) for _ in range(8)]
    counted = []
    every = figure_reads.figure_wins
    monkeypatch.setattr(figure_reads, "figure_wins", lambda *a: counted.append(a) or every(*a))
    # the loser of each game's bad evening: Ala (seat 0) wins when Bolek has it, and so on
    losers = [1, 1, 0, 1, 1, 0, 1, 1]
    for i in (3, 1, 7, 0, 5, 2, 6, 4):
        game = service.load(db, started[i])
        for number, raw in enumerate(bad_evening_for("standard-4", losers[i]), start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
        assert figure_reads.all_totals(db) == figures.recomputed(db)
        for person in people_reads.people(db):
            assert_pages_agree(db, person["id"])
    assert len(counted) < 8 * 4 * 2 / 4  # of 64 runs moved, a few counted whole
    db.close()


def test_the_figures_a_write_keeps_are_what_is_read_back(tmp_path):
    """``put_figures`` answers the rows it wrote (the running totals are moved by them, not
    by a second read): the same, key for key and in the same order, as reading them."""
    from scorekeeper.families.kierki.rules import get_ruleset
    from scorekeeper.families.kierki.rules.examples import plausible_results

    db = connection.connect(str(tmp_path / "t.sqlite"))
    connection.migrate(db)
    for rid in ("standard-4", "kurnik-3"):
        rules = get_ruleset(rid)
        game = service.load(db, service.create_game(db, rid, POOL[:rules.players], 0))
        for number, raw in enumerate(plausible_results(rules), start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
        with db.conn:
            kept = figure_writes.put_figures(db, game.id, figures.rows(game))
        assert kept[0] and kept[1]
        assert kept == figure_reads.game_figures(db, game.id)
    db.close()
