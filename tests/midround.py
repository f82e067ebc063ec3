"""A club night caught mid-round (issue 35): a tournament of Polish names whose first
round's tables are at different deals, some finished, for the projector's tests."""
from scorekeeper.domain import service, tournaments
from tests.store.test_tournaments import bad_evening_for

FIRST = ["Agnieszka", "Małgorzata", "Bartłomiej", "Krzysztof", "Zofia", "Władysław",
         "Katarzyna", "Przemysław", "Józefina", "Grzegorz", "Elżbieta", "Stanisław",
         "Bożena", "Mieczysław", "Jadwiga", "Wojciech", "Urszula", "Zbigniew", "Dorota",
         "Łukasz"]
LAST = ["Kowalska", "Jankowska", "Wiśniewski", "Zieliński", "Wójcik", "Kamiński",
        "Lewandowska-Nowak", "Dąbrowski", "Szymańska", "Woźniak", "Kozłowska", "Jabłoński",
        "Mazurkiewicz", "Krawczyk", "Pietrzak-Sobczyk", "Grabowski", "Pawłowska", "Michalski",
        "Żółkiewska", "Król"]


def names(count: int) -> list[str]:
    """``count`` different players' whole names, long ones among them."""
    return [f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
            for i in range(count)]


#: Deals entered at each table of round 1, in turn: one finished, the rest mid-game, one
#: not started.
PROGRESS = [12, 6, 3, 9, 0, 7, 1, 11]


def mid_round(db, count: int, scoring: str = "points") -> tournaments.Tournament:
    """A tournament of ``count`` players, its first round part played (:data:`PROGRESS`):
    the table that loses at seat ``i % 4`` takes every penalty there."""
    t = tournaments.create(db, "Czwartek w klubie", names(count), 3, {"4": "standard-4"},
                           scoring, seed="czwartek")
    for i, table in enumerate(t.rounds[0]):
        game = service.load(db, table.game_id)
        deals = bad_evening_for(game.rules.id, i % 4)[:PROGRESS[i % len(PROGRESS)]]
        for number, raw in enumerate(deals, start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
    return tournaments.load(db, t.id)
