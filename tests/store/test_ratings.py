"""Ratings that follow the results (issue 36): kept by the write that finishes, corrects,
undoes or deletes a game, at constant cost for a new finish, and always what rating
every counted game again, in the order the games finished, from their histories gives."""
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.domain import clubs, ratings, seasons, service, tournaments
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.rules.places import places
from scorekeeper.rules.ratings import Rating, rate_places
from scorekeeper.storage import (
    club_writes,
    connection,
    game_reads,
    house_reads,
    house_writes,
    rating_reads,
    rating_writes,
)
from tests.store.test_totals import play, seat_names
from tests.store.test_tournaments import bad_evening_for

POOL = ["Ala", "Bolek", "Cela", "Darek", "Ewa"]
OTHER = "klub2"
OPS = st.lists(st.tuples(st.sampled_from(["new", "new", "deal", "finish", "finish",
                                          "finish", "correct", "correct", "undo", "delete",
                                          "switch"]),
                         st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=14)


class History:
    """What the test itself saw: each game's club, and the order games finished in."""

    def __init__(self):
        self.games: dict[str, tuple[int, str]] = {}  # gid: (who loses, club)
        self.finished: list[str] = []  # in the order they (last) finished

    def saw(self, db, gid):
        """After a write to ``gid``: whether it is finished now keeps its place, goes
        last (newly finished) or leaves the order."""
        try:
            done = service.load(db, gid).state.finished
        except game_reads.GameNotFound:
            done = False
        if not done and gid in self.finished:
            self.finished.remove(gid)
        elif done and gid not in self.finished:
            self.finished.append(gid)


def _apply(db, op, a, b, h: History):
    live = list(h.games)
    gid = live[b % len(live)] if live else None
    if op == "switch":
        club = (connection.HOME_CLUB, OTHER)[a % 2]
        clubs.change(db, clubs.load(db, club), casual_rated=bool(b % 2))
        return
    if op == "new" or gid is None:
        rules = ("standard-4", "kurnik-3")[a % 2]
        club = (connection.HOME_CLUB, OTHER)[b % 3 == 0]
        new = service.create_game(db, rules, seat_names(a, b, 4 if rules == "standard-4"
                                                         else 3), 0, club=club)
        h.games[new] = (a, club)
        return
    if play(db, gid, op, a, b, h.games[gid][0]):
        del h.games[gid]
    h.saw(db, gid)


def from_history(db, h: History):
    """Every person's rating worked out from the games alone: each counted game (a casual
    one while its club counts them) replayed, its places from its totals, in the order
    the test saw the games finish."""
    counts = {c: bool(db.conn.execute("select casual_rated from clubs where id = ?",
                                      [c]).fetchone()[0]) for c in (connection.HOME_CLUB, OTHER)}
    now: dict[int, tuple[Rating, int, str]] = {}
    for gid in h.finished:
        club = h.games[gid][1]
        if not counts[club]:
            continue  # casual games only: none is a tournament's here
        game = service.load(db, gid)
        pids = rating_reads.seat_people(db, gid)
        before = [now.get(p, (Rating(), 0, club))[0] for p in pids]
        after = rate_places(before, places(list(game.state.totals)))
        for p, r in zip(pids, after, strict=True):
            now[p] = (r, now.get(p, (None, 0, club))[1] + 1, club)
    return sorted((p, c, r.mu, r.sigma, n) for p, (r, n, c) in now.items())


def _fresh(tmp):
    db = connection.connect(str(Path(tmp) / "r.sqlite"))
    connection.migrate(db)
    club_writes.create_club(db, OTHER, "Drugi klub")
    service.backfill_figures(db)  # the app's start: nothing to rate, the flag cleared
    return db


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS, st.booleans())
def test_the_kept_ratings_equal_a_full_recomputation_after_any_history(ops, casual):
    with tempfile.TemporaryDirectory() as tmp:
        db = _fresh(tmp)
        h = History()
        try:
            if casual:
                clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)
            for op, a, b in ops:
                _apply(db, op, a, b, h)
            assert rating_reads.finishing_order(db) == h.finished
            assert rating_reads.kept_ratings(db) == from_history(db, h)
            people, seats = ratings.recomputed(db)
            assert rating_reads.kept_ratings(db) == people
            assert rating_reads.kept_rating_seats(db) == seats
            # the same names in two clubs are two people, each rated in their own club
            club_of = dict(db.conn.execute("select id, club_id from people").fetchall())
            assert all(club_of[p] == c for p, c, *_ in rating_reads.kept_ratings(db))
        finally:
            db.close()


def _finish(db, gid, loser, club=connection.HOME_CLUB):
    game = service.load(db, gid)
    for number, raw in enumerate(bad_evening_for(game.rules.id, loser), start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    return game


def _rating(db, name, club=connection.HOME_CLUB):
    pid = db.conn.execute("select id from people where name = ? and club_id = ?",
                          [name, club]).fetchone()[0]
    row = db.conn.execute("select mu, sigma, conservative, games from ratings "
                          "where person_id = ?", [pid]).fetchone()
    return row


EIGHT = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Hubert"]


def test_a_tournaments_games_count_and_the_repeated_loser_falls(tmp_path):
    """A club night of eight, three rounds, in which the last of each table's names (in
    the alphabet) takes every penalty: Hubert loses every game he plays and ends rated
    below everyone, each player's certainty grown with their three games; casual games
    of a club that does not count them move nothing, until its manager counts them."""
    db = _fresh(tmp_path)
    t = tournaments.create(db, "Piątek", "\n".join(EIGHT), 3, {"4": "standard-4"},
                           seed="r")
    for number in range(1, 4):
        t = tournaments.load(db, t.id)
        for table in t.rounds[number - 1]:
            names = [t.name_of(s) for s in table.seats]
            _finish(db, table.game_id, names.index(max(names)))
        if number < 3:
            tournaments.draw_next(db, t.id)
    ranked = sorted(EIGHT, key=lambda n: _rating(db, n)[2], reverse=True)
    assert ranked[-1] == "Hubert"
    assert _rating(db, "Hubert")[0] < 25
    assert all(_rating(db, n)[3] == 3 and _rating(db, n)[1] < 25 / 3 for n in EIGHT)
    casual = service.create_game(db, "standard-4", EIGHT[:4], 0)
    before = rating_reads.kept_ratings(db)
    _finish(db, casual, 0)
    assert rating_reads.kept_ratings(db) == before  # the home club counts no casual games
    clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)
    assert _rating(db, "Ala")[3] == 4  # counted now, from the history
    assert rating_reads.kept_ratings(db) == ratings.recomputed(db)[0]
    db.close()


def test_ratings_follow_the_results(tmp_path):
    """Ala beats Bolek and Cela game after game: her rating climbs above theirs, theirs
    fall, and a correction that gives the last game to Cela moves them exactly back to
    what a replay gives."""
    db = _fresh(tmp_path)
    clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)
    games = []
    for _ in range(6):
        gid = service.create_game(db, "kurnik-3", ["Ala", "Bolek", "Cela"], 0)
        games.append(_finish(db, gid, 2))  # Cela takes every penalty
    ala, bolek, cela = (_rating(db, n) for n in ("Ala", "Bolek", "Cela"))
    assert ala[2] > bolek[2] > cela[2]
    assert ala[0] > 25 > cela[0]
    last = games[-1]
    other = bad_evening_for("kurnik-3", 0)  # now Ala takes every penalty
    game = service.load(db, last.id)
    for number in range(1, game.recorded + 1):
        try:
            game = service.enter_deal(db, game, number, other[number - 1], game.version)
        except InvalidInput:
            continue
    assert rating_reads.kept_ratings(db) == ratings.recomputed(db)[0]
    assert _rating(db, "Ala")[0] < ala[0]
    db.close()


def test_a_database_older_than_the_ratings_gets_them_when_the_app_starts(tmp_path):
    """Ratings made by the app's start (migration 0014's flag) equal those kept live."""
    db = _fresh(tmp_path)
    clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)
    for i in range(4):
        gid = service.create_game(db, "standard-4", POOL[i:i + 4] if i < 2 else POOL[:4], 0)
        _finish(db, gid, i % 4)
    live = rating_reads.kept_ratings(db)
    house_writes.set_setting(db, rating_writes.RATINGS_WANTED, "1")
    service.backfill_figures(db)
    assert rating_reads.kept_ratings(db) == live
    assert house_reads.setting(db, rating_writes.RATINGS_WANTED) is None
    db.close()


def test_a_database_made_by_main_before_clubs_gets_its_ratings_and_season(tmp_path):
    """Migration 0014 on the database commit 4a1b4ea's server made (tests/store/data):
    at the app's start its finished games are put in the order they finished, the
    tournament's finished table is rated (the home club counts no casual game), and the
    season of the home club shows that table's players with their ratings."""
    import shutil

    from scorekeeper import create_app
    path = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "main-4a1b4ea.sqlite", path)
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "main", "TESTING": True})
    db = connection.connect(str(path))
    try:
        assert house_reads.setting(db, rating_writes.RATINGS_WANTED) is None
        finished = {r[0] for r in db.conn.execute(
            "select id from games where finished and family = 'kierki'")}
        assert set(rating_reads.finishing_order(db)) == finished
        tournament_games = {r[0] for r in db.conn.execute(
            "select t.game_id from tournament_tables t join games g on g.id = t.game_id "
            "where g.finished")}
        assert tournament_games and {r[0] for r in rating_reads.kept_rating_seats(db)} \
            == tournament_games
        assert rating_reads.kept_ratings(db) == ratings.recomputed(db)[0]
        created = db.conn.execute("select created_at from tournaments").fetchone()[0]
        season = seasons.define(db, connection.HOME_CLUB, "Tamten dzień", created[:10],
                                created[:10], "points")
    finally:
        db.close()
    answer = app.test_client().get(f"/api/clubs/home/season?season={season.id}").get_json()
    assert answer["standings"] and all(line["rating"] is not None and line["nights"] == 1
                                       for line in answer["standings"])


def test_a_tybet_game_of_pairs_moves_no_rating(tmp_path):
    """A Tybet game is two pairs: its result is no one player's, so it is not rated even
    where casual games count; a Kierki game at the same table is."""
    db = _fresh(tmp_path)
    clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)
    plain = {"declarations": [[], [], [], []], "aces": [3, 1], "honours": [11, 9], "last": 0}
    sweep = {"declarations": [[], [], [], []], "aces": [4, 0], "honours": [20, 0], "last": 0}
    gid = service.create_game(db, "tybet-21", POOL[:4], 0)
    game = service.load(db, gid)
    for number, raw in enumerate([plain, sweep, sweep], start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    assert game.state.finished
    assert rating_reads.rated_game(db, gid) is None and rating_reads.kept_ratings(db) == []
    _finish(db, service.create_game(db, "standard-4", POOL[:4], 0), 0)
    assert len(rating_reads.kept_ratings(db)) == 4
    db.close()
