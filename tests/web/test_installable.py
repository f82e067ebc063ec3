"""The app on a phone's home screen and through a Wi-Fi drop: the manifest, its icons,
the service worker's headers, and a deal kept during a drop refused when it is stale."""
import io
import json
from urllib.parse import urlsplit

import pytest
from PIL import Image

from scorekeeper.families.kierki.web.forms import form_values
from scorekeeper.web import hardening
from tests.fixtures import join, new_game, state


def fetched(client, url):
    """A static file's answer and its bytes (the streamed file closed)."""
    got = client.get(url)
    try:
        return got, got.get_data()
    finally:
        got.close()


def test_the_manifest_names_the_app_and_its_icons(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    manifest = json.loads(r.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"] == "Kierki"
    assert (manifest["theme_color"], manifest["background_color"]) == ("#1f5f3f", "#fbf8f2")
    sizes = {}
    for icon in manifest["icons"]:
        got, data = fetched(client, icon["src"])
        assert got.status_code == 200 and got.mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            image = Image.open(io.BytesIO(data))
            assert image.format == "PNG"
            assert f"{image.width}x{image.height}" == icon["sizes"], icon
            sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
        assert urlsplit(icon["src"]).query.startswith("v=")  # versioned, long cache
    assert sizes == {"any": {"192x192", "512x512"}, "maskable": {"512x512"}}
    assert any(i["type"] == "image/svg+xml" for i in manifest["icons"])


def test_the_manifest_speaks_polish(client):
    client.set_cookie("lang", "pl")
    assert json.loads(client.get("/manifest.webmanifest").data)["lang"] == "pl"


def test_every_page_links_the_manifest_and_the_touch_icon(client):
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    touch = html.split('rel="apple-touch-icon" href="')[1].split('"')[0]
    image = Image.open(io.BytesIO(fetched(client, touch)[1]))
    assert image.format == "PNG" and image.size == (180, 180)
    assert '<meta name="service-worker" content="/sw.js">' in html


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    # the shell it keeps is the current, versioned static files, each of them served
    shell = json.loads(r.text.split("var SHELL = ")[1].split(";\n")[0])
    assert any(u.startswith("/static/app.css?v=") for u in shell)
    assert any(u.startswith("/static/offline.js?v=") for u in shell)
    for url in shell:
        assert fetched(client, url)[0].status_code == 200, url


def test_a_changed_static_file_changes_the_worker(app, client, tmp_path, monkeypatch):
    before = client.get("/sw.js").text
    monkeypatch.setattr(hardening.versions, "version", lambda folder, name: "0123456789ab")
    assert client.get("/sw.js").text != before


def test_the_game_page_has_the_offline_notes_hidden(app, client):
    gid = new_game(client)
    html = client.get(f"/games/{gid}").text
    assert 'data-offline-note hidden' in html  # templates/sw.js uncovers exactly this
    assert "data-kept-note" in html and "will be sent when the Wi-Fi is back" in html


@pytest.fixture
def two_phones(app, client):
    gid = new_game(client)
    other = join(app.test_client(), app, gid)  # the table's second phone
    return gid, client, other


def test_a_kept_deal_made_stale_by_another_phone_is_refused_with_409(app, two_phones):
    gid, phone, other = two_phones
    results = [{"tricks": [2, 3, 4, 4]}]  # theirs: not the deal this phone kept
    other.post(f"/games/{gid}/deals/1", data={"version": 1, **form_values(results[0])})
    assert state(app, gid).version == 2
    mine = {"version": 1, **form_values({"tricks": [13, 0, 0, 0]})}
    r = phone.post(f"/games/{gid}/deals/1", data=mine, headers={"X-Kierki-Kept": "1"})
    assert r.status_code == 409
    assert r.get_json()["error"] == ("Deal 1 was already entered, maybe on another phone. "
                                     "Nothing was changed; check it below.")
    assert state(app, gid).stored.results[0] == results[0]  # theirs stays
    phone.set_cookie("lang", "pl")
    r = phone.post(f"/games/{gid}/deals/1", data=mine, headers={"X-Kierki-Kept": "1"})
    assert r.status_code == 409 and "zostało już wpisane" in r.get_json()["error"]


def test_a_kept_deal_still_current_is_saved_like_any_form(app, two_phones):
    gid, phone, _ = two_phones
    data = {"version": 1, **form_values({"tricks": [1, 4, 5, 3]})}
    r = phone.post(f"/games/{gid}/deals/1", data=data, headers={"X-Kierki-Kept": "1"})
    assert r.status_code == 302 and state(app, gid).version == 2


def test_a_kept_deal_that_already_arrived_is_not_a_conflict(app, two_phones):
    """The Wi-Fi dropped after the deal reached the server but before its answer came
    back: sent again, the same deal is told as saved and stored once; typed twice by
    hand (no kept header), the second is still refused as before."""
    gid, phone, _ = two_phones
    data = {"version": 1, **form_values({"tricks": [1, 4, 5, 3]})}
    assert phone.post(f"/games/{gid}/deals/1", data=data).status_code == 302
    phone.get(f"/games/{gid}")  # the first answer, lost on the way
    r = phone.post(f"/games/{gid}/deals/1", data=data, headers={"X-Kierki-Kept": "1"})
    assert r.status_code == 302
    page = phone.get(r.location).get_data(as_text=True)
    assert "Deal 1: Ala −20, Bożena −80, Czesław −100" in page
    game = state(app, gid)
    assert game.version == 2 and game.stored.results[0] == {"tricks": [1, 4, 5, 3]}
    again = phone.post(f"/games/{gid}/deals/1", data=data)
    assert again.status_code == 302 and state(app, gid).version == 2
    assert "already entered" in phone.get(again.location).get_data(as_text=True)
