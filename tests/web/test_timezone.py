"""Times on the pages are the table's own: a game played at 21:15 in Warsaw says 21:15,
not the 20:15 stored in UTC (issue 25's note: times were shown in UTC)."""
import pytest

from scorekeeper import create_app
from scorekeeper.common.formats import display_zone
from scorekeeper.web.db import get_db
from tests.fixtures import new_game


@pytest.mark.parametrize("zone, shown", [("Europe/Warsaw", "21:15"), ("UTC", "20:15"),
                                         ("America/New_York", "15:15")])
def test_the_front_page_shows_when_a_game_was_played_in_the_servers_zone(tmp_path, zone, shown):
    app = create_app({"DATABASE": str(tmp_path / "z.sqlite"), "SECRET_KEY": "x",
                      "TESTING": True, "WTF_CSRF_ENABLED": False, "TIMEZONE": zone})
    client = app.test_client()
    client.set_cookie("lang", "pl")
    gid = new_game(client, players=["Ala", "Bożena", "Czesław", "Dżon"])
    with app.app_context():
        db = get_db()
        db.execute("update games set created_at = '2026-11-20T20:15:00+00:00' where id = ?",
                   [gid])
        db.conn.commit()
    page = client.get("/").text
    assert f"20 lis 2026, {shown}" in page


def test_a_wrong_zone_is_refused_when_the_server_starts(tmp_path):
    with pytest.raises(ValueError, match="KIERKI_TIMEZONE"):
        create_app({"DATABASE": str(tmp_path / "z.sqlite"), "SECRET_KEY": "x",
                    "TIMEZONE": "Mars/Olympus"})
    assert display_zone(None, machine="Europe/Warsaw") == "Europe/Warsaw"


def test_a_zone_name_too_long_for_a_file_is_refused_as_no_zone(tmp_path):
    with pytest.raises(ValueError, match="KIERKI_TIMEZONE"):
        display_zone("Europe/" + "W" * 300)
    assert display_zone(None, machine="W" * 300) == "UTC"
