"""kill -9 under load: the production server dies mid-write, no answered write is lost.

``kierki serve`` runs in a subprocess on a free loopback port with its own instance
folder. Client threads create games and enter deals through the API and note every
write the server answered with 2xx; the server then gets SIGKILL while they are still
writing. Opening the database afterwards (SQLite replays its WAL) must find it intact,
with every answered write in it, and each game whole: its deals 1..n and version n + 1
(a deal and its version bump are one transaction). Nothing here depends on timing:
the kill waits for a number of answered writes (or a deadline), not for a moment.
"""
import http.client
import json
import os
import signal
import sqlite3
import threading

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import connection
from tests.server.serving import request, start_server

CLIENTS = 4
KILL_AFTER_WRITES = 60  # answered writes before the kill
DEADLINE = 6.0  # seconds of writing at most, whatever the machine
RESULTS = plausible_results(get_ruleset("standard-4"))


def test_acknowledged_writes_survive_kill_9(tmp_path):
    instance, log = tmp_path / "instance", tmp_path / "server.log"
    proc, port = start_server(instance, log)
    acked_games: dict[str, list[str]] = {}  # id -> players, for every 201
    acked_deals: dict[tuple[str, int], dict] = {}  # (id, number) -> result, for every 200
    lock = threading.Lock()
    stop = threading.Event()
    enough = threading.Event()

    def answered() -> int:
        return len(acked_games) + len(acked_deals)

    def client(n: int) -> None:
        try:
            while not stop.is_set():
                players = [f"P{n}-{len(acked_games)}-{seat}" for seat in range(4)]
                status, _, body = request(port, "POST", "/api/games", {
                    "ruleset": "standard-4", "players": players, "first_dealer": 0})
                assert status == 201, body
                game = json.loads(body)
                gid = game["id"]
                with lock:
                    acked_games[gid] = players
                for number, result in enumerate(RESULTS, start=1):
                    if stop.is_set():
                        return
                    status, _, body = request(port, "PUT", f"/api/games/{gid}/deals/{number}",
                                              {"version": number, "result": result},
                                              token=game["token"])
                    assert status == 200, body
                    with lock:
                        acked_deals[(gid, number)] = result
                        if answered() >= KILL_AFTER_WRITES:
                            enough.set()
        except (OSError, http.client.HTTPException):
            return  # the server is gone: this write was not answered

    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            client(n)
        except (AssertionError, ValueError, KeyError) as e:  # an unexpected answer
            errors.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    enough.wait(DEADLINE)
    os.kill(proc.pid, signal.SIGKILL)  # while the clients are still writing
    proc.wait(10)
    stop.set()
    for t in threads:
        t.join(10)
    assert errors == [], log.read_text(errors="replace")
    assert acked_games and acked_deals, "no write was answered before the kill"

    path = instance / "kierki.sqlite"
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert raw.execute("pragma foreign_key_check").fetchall() == []
        versions = dict(raw.execute("select id, version from games"))
        numbers: dict[str, list[int]] = {}
        for gid, number in raw.execute("select game_id, number from deals order by number"):
            numbers.setdefault(gid, []).append(number)
    finally:
        raw.close()

    print(f"answered: {len(acked_games)} games, {len(acked_deals)} deals; stored: "
          f"{len(versions)} games, {sum(map(len, numbers.values()))} deals")
    for gid, version in versions.items():  # every game whole: a deal and its version bump
        deals = numbers.get(gid, [])
        assert deals == list(range(1, len(deals) + 1))
        assert version == len(deals) + 1

    db = connection.connect(str(path))
    try:
        for gid, players in acked_games.items():
            game = service.load(db, gid)
            assert game.players == players
        for (gid, number), result in acked_deals.items():
            game = service.load(db, gid)
            assert game.recorded >= number
            assert game.stored.results[number - 1] == result
            assert game.state.totals is not None  # the history still replays
    finally:
        db.close()

    proc, port = start_server(instance, log)  # and the server starts again on the same files
    try:
        (gid, number), result = next(iter(acked_deals.items()))
        status, _, body = request(port, "GET", f"/api/games/{gid}")
        assert status == 200 and json.loads(body)["deals"][number - 1]["result"] == result
    finally:
        proc.terminate()
        proc.wait(10)
