"""Forms carry CSRF tokens; an installed copy (not editable) finds its files."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_a_forged_form_is_refused_and_changes_nothing(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "s", "TESTING": True})
    client = app.test_client()
    r = client.post("/games/new", data={"ruleset": "standard-4", "player_0": "A",
                                        "player_1": "B", "player_2": "C", "player_3": "D"})
    assert r.status_code == 400
    assert "nothing was saved" in r.text
    page = client.get("/games/new").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = client.post("/games/new", data={"csrf_token": token, "ruleset": "standard-4",
                                        "first_dealer": "1", "player_0": "A", "player_1": "B",
                                        "player_2": "C", "player_3": "D"})
    assert r.status_code == 302


@pytest.mark.skipif(os.environ.get("KIERKI_SKIP_INSTALL_TEST") == "1", reason="asked to skip")
def test_a_non_editable_install_finds_templates_and_static(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True)
    script = (
        "import scorekeeper, sys\n"
        "assert 'site' in scorekeeper.__file__, scorekeeper.__file__\n"
        "app = scorekeeper.create_app({'DATABASE': sys.argv[1], 'SECRET_KEY': 'x'})\n"
        "c = app.test_client()\n"
        "assert c.get('/').status_code == 200\n"
        "assert 'Kierki' in c.get('/games/new').text\n"
        "assert c.get('/static/app.css').status_code == 200\n"
        "pl = c.get('/', headers={'Accept-Language': 'pl'}).text\n"
        "assert 'Nowa gra' in pl, pl\n"
        "print('ok')\n")
    env = {**os.environ, "PYTHONPATH": str(target), "KIERKI_INSTANCE": str(tmp_path / "inst")}
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "db.sqlite")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
