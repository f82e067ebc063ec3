"""Makes ``main-4a1b4ea.sqlite`` and ``main-4a1b4ea.json``: a database as the server at
commit 4a1b4ea (the last before clubs, issue 36) left it, and what its API answered then,
for ``tests/store/test_clubs_migration.py``. Run with that commit's code, not this one's:

    git archive 4a1b4ea | tar -x -C /tmp/main   # main when clubs began
    PYTHONPATH=/tmp/main .venv/bin/python tests/store/data/make_main_db.py
"""
import json
import sqlite3
import sys
from pathlib import Path

import scorekeeper
from scorekeeper import create_app
from scorekeeper.domain import people
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

HERE = Path(__file__).parent
DB, ANSWERS = HERE / "main-4a1b4ea.sqlite", HERE / "main-4a1b4ea.json"


def main() -> None:
    if "clubs" in Path(scorekeeper.__file__).read_text() or hasattr(
            __import__("scorekeeper.storage.store").storage.store, "HOME_CLUB"):
        sys.exit("run it with the code of commit 4a1b4ea (see the docstring)")
    for path in (DB, Path(f"{DB}-wal"), Path(f"{DB}-shm")):
        path.unlink(missing_ok=True)
    app = create_app({"DATABASE": str(DB), "SECRET_KEY": "main", "TESTING": True,
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    client = app.test_client()

    def play(names, deals=SAMPLE_GAME_4):
        game = client.post("/api/games", json={"ruleset": "standard-4", "players": names,
                                               "first_dealer": 0}).get_json()
        auth = {"Authorization": f"Bearer {game['token']}"}
        for number, result in enumerate(deals, start=1):
            game = {**client.put(f"/api/games/{game['id']}/deals/{number}", headers=auth,
                                 json={"version": game["version"], "result": result}
                                 ).get_json()}
        return game

    play(["Ala", "Bolek", "Cela", "Darek"])
    play(["bolek", "Cela", "Darek", "Ewa"])
    play(["Ala", "Cela", "Ewa", "Franek"], SAMPLE_GAME_4[:5])  # unfinished
    t = client.post("/api/tournaments", json={
        "name": "Czwartek", "players": ["Ala", "Bolek", "Gosia", "Henio", "Igor", "Jola",
                                        "Kuba", "Lena"],
        "rounds": 2, "rulesets": {"4": "standard-4"}, "seed": "main"}).get_json()
    table = t["round"]["tables"][0]
    auth = {"Authorization": f"Bearer {table['token']}"}
    version = 1
    for number, result in enumerate(SAMPLE_GAME_4, start=1):
        version = client.put(f"/api/games/{table['game']}/deals/{number}", headers=auth,
                             json={"version": version, "result": result}).get_json()["version"]
    with app.app_context():
        ewa = next(p["id"] for p in client.get("/api/players").get_json() if p["name"] == "Ewa")
        people.rename(get_db(), ewa, "Ewelina")
    players = client.get("/api/players").get_json()
    answers = {
        "players": players,
        "player": {str(p["id"]): client.get(f"/api/players/{p['id']}").get_json()
                   for p in players},
        "tournament": {"id": t["id"],
                       "answer": client.get(f"/api/tournaments/{t['id']}").get_json()},
        "players_page": [p["name"] for p in players],
    }
    ANSWERS.write_text(json.dumps(answers, ensure_ascii=False, indent=1, sort_keys=True))
    conn = sqlite3.connect(DB)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.execute("pragma journal_mode=delete")
    conn.execute("vacuum")
    conn.close()


if __name__ == "__main__":
    main()
