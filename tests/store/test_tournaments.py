"""A tournament as its director and players see it (issue 27), through the domain service:
the draw creates each table's game with its players seated, the next round waits for every
game, standings follow the games (a correction after the round too), late arrivals and
withdrawals change who is drawn, and nothing is stored from a refused request.
"""
import pytest

from scorekeeper.domain import service, tournaments
from scorekeeper.domain.tournaments import NotNow
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.families.kierki.rules.rulesets import get_ruleset
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.storage import game_reads, tournament_reads

TWELVE = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Henio", "Iza", "Jacek",
          "Kasia", "Łucja"]
FOUR = {"4": "standard-4"}


def bad_evening_for(rules_id, seat):
    """A whole game in which ``seat`` takes every penalty (plausible_results' seat 0,
    rotated), so that who wins is known."""
    rs = get_ruleset(rules_id)
    n = rs.players
    out = []
    for contract, raw in zip(rs.deals(), plausible_results(rs), strict=True):
        kinds = {f.name: f.type for f in contract.fields()}
        turned = {}
        for key, value in raw.items():
            if kinds.get(key) == "counts" or (key == "tricks" and isinstance(value, list)):
                value = value[-seat:] + value[:-seat] if seat else value
            elif kinds.get(key) == "seat":
                value = (value + seat) % n
            elif kinds.get(key) == "seats":
                value = [(v + seat) % n for v in value]
            turned[key] = value
        out.append(turned)
    return out


def finish(db, gid, loser_seat=0):
    game = service.load(db, gid)
    for number, raw in enumerate(bad_evening_for(game.rules.id, loser_seat), start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    assert game.state.finished
    return game


def test_round_one_seats_every_player_at_a_game_of_its_own(db):
    t = tournaments.create(db, "Klub czwartkowy", TWELVE, 2, FOUR, seed="abc")
    assert t.current == 1 and len(t.rounds[0]) == 3
    seated = sorted(n for table in t.rounds[0] for n in table.seats)
    assert seated == list(range(1, 13))
    for table in t.rounds[0]:
        game = service.load(db, table.game_id)
        assert game.players == [t.name_of(n) for n in table.seats]
        assert game.rules.id == "standard-4" and game.recorded == 0
    # the same seed draws the same round 1
    again = tournaments.create(db, "Klub czwartkowy", TWELVE, 2, FOUR, seed="abc")
    assert [tb.seats for tb in again.rounds[0]] == [tb.seats for tb in t.rounds[0]]


def test_the_next_round_waits_for_every_table_and_standings_follow_the_games(db):
    t = tournaments.create(db, "Klub", TWELVE, 2, FOUR, seed="s1")
    first, *others = t.rounds[0]
    finish(db, first.game_id, loser_seat=0)
    with pytest.raises(NotNow) as refused:
        tournaments.draw_next(db, t.id)
    assert "Round 1 is still being played" in refused.value.text()
    assert tournaments.load(db, t.id).current == 1  # nothing drawn
    for table in others:
        finish(db, table.game_id, loser_seat=1)
    t = tournaments.load(db, t.id)
    loser = first.seats[0]
    line = t.rank_of(loser)
    assert line.games == 1 and line.points < 0 and line.rank > 1
    assert sum(s.points for s in t.overall) == 0  # every game sums to zero
    t = tournaments.draw_next(db, t.id, number=2)
    assert t.current == 2 and len(t.rounds[1]) == 3
    with pytest.raises(NotNow):  # the same form sent again draws nothing more
        tournaments.draw_next(db, t.id, number=2)
    assert tournaments.load(db, t.id).current == 2
    # a round-1 game corrected now still moves the standings
    game = service.load(db, first.game_id)
    before = tournaments.load(db, t.id).rank_of(loser).points
    raw = dict(game.stored.results[0])
    fixed = bad_evening_for("standard-4", 1)[0]
    service.enter_deal(db, game, 1, fixed, game.version)
    assert tournaments.load(db, t.id).rank_of(loser).points != before
    assert raw != fixed


def test_fourteen_players_sit_at_two_tables_of_four_and_two_of_three(db):
    names = TWELVE + ["Marek", "Nina"]
    t = tournaments.create(db, "Czternastu", names, 2,
                           {"4": "standard-4", "3": "standard-3"}, seed="x")
    sizes = [len(tb.seats) for tb in t.rounds[0]]
    assert sizes == [4, 4, 3, 3]
    assert [service.load(db, tb.game_id).rules.id for tb in t.rounds[0]] == \
        ["standard-4", "standard-4", "standard-3", "standard-3"]


def test_late_arrival_and_withdrawal_change_who_is_drawn_next(db):
    t = tournaments.create(db, "Klub", TWELVE, 3, {"4": "standard-4", "3": "standard-3"},
                           seed="s2")
    for table in t.rounds[0]:
        finish(db, table.game_id)
    number = tournaments.add_player(db, t.id, "Zenek")
    tournaments.withdraw(db, t.id, 2)
    t = tournaments.draw_next(db, t.id)
    seated = sorted(n for table in t.rounds[1] for n in table.seats)
    assert number in seated and 2 not in seated and len(seated) == 12
    assert t.rank_of(2).games == 1  # their first game still counts


def test_a_tournament_game_cannot_be_deleted(db):
    t = tournaments.create(db, "Klub", TWELVE, 1, FOUR)
    game = service.load(db, t.rounds[0][0].game_id)
    with pytest.raises(InvalidInput):
        service.delete_game(db, game, game.version)
    assert service.load(db, game.id).id == game.id


@pytest.mark.parametrize("kwargs, field", [
    ({"name": ""}, "name"),
    ({"players": TWELVE[:7]}, "players"),
    ({"players": TWELVE + ["ala"]}, "players"),
    ({"rounds": 0}, "rounds"),
    ({"rulesets": {"4": "tybet-21"}}, "rulesets.4"),
    ({"rulesets": {"4": "standard-3"}}, "rulesets.4"),
    ({"rulesets": {}}, "rulesets"),
])
def test_a_wrong_tournament_is_refused_and_nothing_is_stored(db, kwargs, field):
    given = {"name": "Klub", "players": TWELVE, "rounds": 2, "rulesets": FOUR, **kwargs}
    with pytest.raises(InvalidInput) as refused:
        tournaments.create(db, **given)
    assert field in [p.field for p in refused.value.problems]
    assert game_reads.count_games(db) == 0
    assert db.execute("select count(*) from tournaments").fetchone()[0] == 0


def test_thirteen_players_with_only_tables_of_four_cannot_be_drawn(db):
    with pytest.raises(InvalidInput):
        tournaments.create(db, "Klub", TWELVE + ["Marek"], 2, FOUR)
    assert game_reads.count_games(db) == 0


def test_every_save_at_a_table_moves_the_tournament_version(db):
    t = tournaments.create(db, "Klub", TWELVE, 1, FOUR)
    before = tournament_reads.tournament_version(db, t.id)
    game = service.load(db, t.rounds[0][0].game_id)
    service.enter_deal(db, game, 1, bad_evening_for("standard-4", 0)[0], game.version)
    assert tournament_reads.tournament_version(db, t.id) == before + 1


def test_each_game_names_the_tournament_round_and_table_it_was_drawn_for(db):
    t = tournaments.create(db, "Klub czwartkowy", TWELVE, 2, FOUR, seed="abc")
    for table in t.rounds[0]:
        finish(db, table.game_id)
    t = tournaments.draw_next(db, t.id)
    for round_tables in t.rounds:
        for table in round_tables:
            where = tournaments.table_of_game(db, table.game_id)
            assert (where.tournament_id, where.name, where.round, where.table) == \
                (t.id, "Klub czwartkowy", table.round, table.number)
    alone = service.create_game(db, "standard-4", TWELVE[:4], 0)
    assert tournaments.table_of_game(db, alone) is None


def test_each_table_knows_its_first_dealer(db):
    t = tournaments.create(db, "Klub", TWELVE, 1, FOUR, seed="d")
    for table in t.rounds[0]:
        assert service.load(db, table.game_id).state.first_dealer == table.first_dealer
