"""A club's season over two nights (issue 36): the table adds up each night's standings
as the nights' own pages show them, best N of M and places as the manager chooses, each
player's history and two players head to head; another club's night with the same names
stays out."""
from datetime import date

import pytest

from scorekeeper.domain import seasons, service, tournaments
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.storage import club_writes, connection, rating_writes
from tests.store.test_tournaments import bad_evening_for

EIGHT = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Hubert"]
TODAY = date.today()


def night(db, name, club=connection.HOME_CLUB, loser=max):
    """A night of two rounds for the eight, the ``loser`` of each table's names taking
    every penalty."""
    t = tournaments.create(db, name, "\n".join(EIGHT), 2, {"4": "standard-4"}, seed=name,
                           club=club)
    for number in (1, 2):
        t = tournaments.load(db, t.id)
        for table in t.rounds[number - 1]:
            names = [t.name_of(s) for s in table.seats]
            game = service.load(db, table.game_id)
            deals = bad_evening_for("standard-4", names.index(loser(names)))
            for n, raw in enumerate(deals, start=1):
                game = service.enter_deal(db, game, n, raw, game.version)
        if number == 1:
            tournaments.draw_next(db, t.id)
    return tournaments.load(db, t.id)


def test_a_season_over_two_nights(db):
    club_writes.create_club(db, "other", "Inny klub")
    first, second = night(db, "Piątek 1"), night(db, "Piątek 2", loser=min)
    night(db, "Obcy", club="other")  # the same names, another club: other people
    season = seasons.current(db, connection.HOME_CLUB)
    assert season.id is None and season.name == str(TODAY.year)  # no season named yet
    table = seasons.table(db, season)
    assert sorted(line.name for line in table) == sorted(EIGHT)
    want = {}
    for t in (first, second):
        for s in t.overall:
            want.setdefault(t.name_of(s.player), []).append(s)
    for line in table:
        mine = want[line.name]
        assert line.nights == 2
        assert line.games == sum(s.games for s in mine) == 4
        assert line.wins == sum(s.wins for s in mine)
        assert line.points == sum(s.points for s in mine)
        assert line.rating is not None  # a tournament's games are rated
    assert [line.rank for line in table] == sorted(line.rank for line in table)
    assert table[0].rank == 1
    # Hubert lost all of night 1, Ala all of night 2: best 1 of 2 forgives one night
    best = seasons.define(db, connection.HOME_CLUB, "Jesień", f"{TODAY.year}-01-01",
                          f"{TODAY.year}-12-31", "places", 1)
    assert seasons.current(db, connection.HOME_CLUB) == best
    lines = {line.name: line for line in seasons.table(db, best)}
    assert all(line.counted == 1 and line.nights == 2 for line in lines.values())
    for line in lines.values():  # the better of the two nights' place points
        _, nights, _ = seasons.history(db, best, line.player)
        assert line.points == max(9 - h.place for h in nights)
    name, history, rating = seasons.history(db, best, lines["Hubert"].player)
    assert name == "Hubert" and [h.name for h in history] == ["Piątek 1", "Piątek 2"]
    assert history[0].place == 8 and history[0].scored == 1  # last of eight: 1 point
    assert rating is not None and rating[3] == 4
    h2h = seasons.head_to_head(db, best, lines["Ala"].player, lines["Hubert"].player)
    assert h2h.games == h2h.a_above + h2h.b_above + h2h.level
    with pytest.raises(rating_writes.SeasonNotFound):
        seasons.find(db, "other", best.id)  # another club's season is not there


def test_a_season_is_checked_before_it_is_kept(db):
    with pytest.raises(InvalidInput) as e:
        seasons.define(db, connection.HOME_CLUB, "", "2026-13-01", "2026-01-01", "elo", "0")
    assert {p.field for p in e.value.problems} == {"name", "starts", "scoring", "best"}
    with pytest.raises(InvalidInput) as e:
        seasons.define(db, connection.HOME_CLUB, "Zima", "2026-12-01", "2026-01-01", "points")
    assert [p.field for p in e.value.problems] == ["ends"]
    assert seasons.all_of(db, connection.HOME_CLUB) == []
