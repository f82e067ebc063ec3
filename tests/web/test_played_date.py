"""Issue 25: the front page shows when a game was played (its last deal, else its
creation), so renaming a player does not move the date of every game they sat in."""
from scorekeeper.web.db import get_db
from tests.fixtures import new_game, post_deal


def test_a_rename_leaves_the_front_pages_dates(app, client):
    gid = new_game(client, players=["Ala", "Bożena", "Czesław", "Dżon"])
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    other = new_game(client, players=["Ala", "Ela", "Fryderyk", "Gosia"])
    with app.app_context():
        db = get_db()
        db.execute("update deals set recorded_at = '2024-03-02T21:15:00+00:00' "
                   "where game_id = ?", [gid])
        db.execute("update games set created_at = '2024-03-01T20:00:00+00:00', "
                   "updated_at = created_at where id = ?", [other])
        db.conn.commit()
    played, made = "Mar 2, 2024, 9:15\u202fPM", "Mar 1, 2024, 8:00\u202fPM"
    before = client.get("/").text
    assert played in before and made in before
    assert before.index(gid) < before.index(other)  # the latest played first
    ala = next(p for p in client.get("/api/players").get_json() if p["name"] == "Ala")
    assert client.post(f"/players/{ala['id']}/rename",
                       data={"name": "Alicja"}).status_code in (200, 302, 303)
    after = client.get("/").text
    assert "Alicja" in after and played in after and made in after
    assert after.index(gid) < after.index(other)


def test_a_rename_leaves_the_evenings_as_they_were_played(app, client):
    """Two evenings of the same table, a week apart: renaming one of them later merges
    nothing (an evening ends when its games were played, not when a name changed)."""
    players = ["Ala", "Bożena", "Czesław", "Dżon"]
    first, second = new_game(client, players=players), new_game(client, players=players)
    for gid, day in ((first, "2024-03-01"), (second, "2024-03-08")):
        post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
        with app.app_context():
            db = get_db()
            db.execute("update games set created_at = ?, updated_at = ? where id = ?",
                       [f"{day}T20:00:00+00:00", f"{day}T21:00:00+00:00", gid])
            db.execute("update deals set recorded_at = ? where game_id = ?",
                       [f"{day}T20:30:00+00:00", gid])
            db.conn.commit()

    def evenings():
        from scorekeeper.domain import evenings
        with app.app_context():
            return sorted(tuple(e.games) for e in evenings.evenings(get_db()))

    before = evenings()
    assert before == sorted([(first,), (second,)])
    ala = next(p for p in client.get("/api/players").get_json() if p["name"] == "Ala")
    client.post(f"/players/{ala['id']}/rename", data={"name": "Alicja"})
    assert evenings() == before
