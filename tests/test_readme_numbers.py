"""The README's numbers are the server's: each figure it gives for a limit is read from
the constant the server enforces, so a changed constant fails here until the README says
it too."""
import re
from pathlib import Path

import pytest

from scorekeeper import cli, create_app
from scorekeeper.web import limits, live

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
#: Its prose with every line break and run of spaces as one space.
FLAT = " ".join(README.split())


def shown(n: int) -> str:
    """A number as the README writes it (a comma between thousands)."""
    return f"{n:,}"


def _setting(name):
    return next(s for s in cli.SETTINGS if s.name == name)


def _windows(limit: str) -> list[tuple[int, str]]:
    """ "10 per minute; 50 per hour" → [(10, "minute"), (50, "hour")]."""
    return [(int(n), unit) for n, unit in re.findall(r"(\d+) per (?:(?:\d+ )?)(\w+)", limit)]


@pytest.mark.parametrize("phrase, value", [
    ("have a budget of their own, {} (`KIERKI_STREAM_LIMIT`", live.STREAM_LIMIT),
    ("on top of {} connections for pages (`KIERKI_CONNECTION_LIMIT`)",
     _setting("connection_limit").default),
    ("gives a connection {} s between requests", _setting("channel_timeout").default),
    ("a request {} s to send its line and headers (`KIERKI_CHANNEL_TIMEOUT`",
     _setting("channel_timeout").default),
])
def test_the_connection_figures(phrase, value):
    assert phrase.format(shown(value)) in FLAT


def test_the_limits_table():
    rows = {
        "wrong join codes, per phone": limits.JOIN_PHONE,
        "wrong join codes, per address": limits.JOIN_ADDRESS,
        "games made, per address": limits.CREATE,
        "house variants saved": limits.VARIANTS,
        "wrong host passwords and host links": limits.LOGIN,
    }
    for what, limit in rows.items():
        line = next(line for line in README.splitlines() if line.startswith(f"| {what}"))
        cell = line.split("|")[2]
        for number, unit in _windows(limit):
            assert shown(number) in cell and unit in cell, (what, number, unit, cell)


def test_the_servers_caps(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "x",
                      "TESTING": True})
    assert f"`KIERKI_MAX_GAMES` ({shown(app.config['MAX_GAMES'])})" in FLAT
    assert f"`KIERKI_MAX_VARIANTS` ({shown(app.config['MAX_VARIANTS'])})" in FLAT
