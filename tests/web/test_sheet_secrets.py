"""Issue 25: a printed sheet, the print page and the exports meant for reading carry
nothing that opens the game (its id is its link; its join code and token let anyone
write). A short reference that cannot open it is printed instead."""
import io
import json

from scorekeeper.web import access
from tests.families.tybet.test_flow import new_tybet
from tests.fixtures import new_game, post_deal, state
from tests.web.test_sheets import pdf_text, poppler  # noqa: F401 (a fixture)


def secrets_of(app, gid) -> dict[str, str]:
    game = state(app, gid)
    with app.test_request_context():
        token = access.token(gid)
    assert game.stored.join_code
    return {"id": gid, "join code": game.stored.join_code, "token": token}


def assert_none_in(text: str, secrets: dict[str, str], where: str) -> None:
    for name, value in secrets.items():
        assert value not in text, f"the {name} is on the {where}"
        assert value.lower() not in text.lower(), f"the {name} is on the {where}"


def kierki_game(client):
    gid = new_game(client, players=["Ala", "Bożena", "Czesław", "Dżon"])
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    return gid


def test_print_page_and_csv_of_a_kierki_game_carry_no_secret(app, client):
    gid = kierki_game(client)
    secrets = secrets_of(app, gid)
    page = client.get(f"/games/{gid}/sheet")
    assert page.status_code == 200 and "Ala" in page.text
    assert_none_in(page.text, secrets, "print page")
    with app.test_request_context():
        ref = access.reference(gid)
    assert f"ref. {ref}" in page.text  # a reference to match two sheets by is still there
    csv = client.get(f"/games/{gid}/export.csv")
    assert csv.status_code == 200 and "Ala" in csv.text
    assert_none_in(csv.text, secrets, "CSV")


def test_print_page_and_csv_of_a_tybet_game_carry_no_secret(app, client):
    gid = new_tybet(client)
    secrets = secrets_of(app, gid)
    for url in (f"/games/{gid}/sheet", f"/games/{gid}/export.csv"):
        r = client.get(url)
        assert r.status_code == 200, url
        assert_none_in(r.text, secrets, url)


def test_printed_pdf_carries_no_secret(app, client, tmp_path, poppler):  # noqa: F811
    gid = kierki_game(client)
    secrets = secrets_of(app, gid)
    r = client.get(f"/games/{gid}/sheet.pdf")
    assert r.status_code == 200
    text = pdf_text(r.data, tmp_path)
    assert "Ala" in text and "Kierki scorekeeper" in text
    assert_none_in(text, secrets, "PDF's text")
    assert gid.encode() not in r.data  # nor hidden in the file (a link, its metadata)


def test_json_backup_has_no_id_and_still_imports(app, client):
    gid = kierki_game(client)
    exported = client.get(f"/games/{gid}/export.json")
    data = json.loads(exported.data)
    assert "id" not in data
    assert_none_in(exported.text, secrets_of(app, gid), "JSON backup")
    r = client.post("/games/import", data={"file": (io.BytesIO(exported.data), "g.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302
    assert r.location.rsplit("/", 1)[1] != gid
