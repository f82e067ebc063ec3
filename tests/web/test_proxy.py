"""Behind a reverse proxy (Caddy, nginx): the proxies' forwarded scheme, host and client
address are trusted only as far as ``KIERKI_PROXY_HOPS`` says, and an HTTPS request gets
a ``Secure`` cookie and ``Strict-Transport-Security`` whatever layer answers it; join links
and QR codes say the address the phones opened (or ``KIERKI_PUBLIC_URL``)."""
import json
from html import unescape

import pytest
from flask import request

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import new_game, results_for, state
from tests.web.test_share import join_path, segno_svg

RESULTS = results_for(get_ruleset("standard-4"))
#: What a TLS-terminating proxy in front of the app adds to a phone's request.
FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "kierki.example.org",
             "X-Forwarded-For": "203.0.113.9"}
HSTS = "Strict-Transport-Security"


#: The names the tests' server answers to (KIERKI_ALLOWED_HOSTS).
HOSTS = "localhost, 127.0.0.1, 192.168.1.20, kierki.example.org, kierki.lan"


def make_app(tmp_path, **config):
    app = create_app({"DATABASE": str(tmp_path / "proxy.sqlite"), "SECRET_KEY": "proxy",
                      "TESTING": True, "WTF_CSRF_ENABLED": False, "ALLOWED_HOSTS": HOSTS,
                      "PDF_CACHE_DIR": str(tmp_path / "sheets"), **config})

    @app.get("/test/seen")
    def seen():  # what the app's views see of the request
        return {"scheme": request.scheme, "host": request.host,
                "remote": request.remote_addr, "url": request.url_root}

    return app


@pytest.fixture
def proxied(tmp_path):
    """The app behind one trusted proxy."""
    return make_app(tmp_path, PROXY_HOPS=1)


@pytest.fixture
def direct(tmp_path):
    """The app as ``make run`` serves it: no proxy trusted (the default)."""
    return make_app(tmp_path)


def session_cookie(response) -> str:
    cookies = [v for v in response.headers.getlist("Set-Cookie") if v.startswith("session=")]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def test_one_trusted_proxy_gives_the_phones_scheme_host_and_address(proxied):
    seen = proxied.test_client().get("/test/seen", headers=FORWARDED).get_json()
    assert seen == {"scheme": "https", "host": "kierki.example.org", "remote": "203.0.113.9",
                    "url": "https://kierki.example.org/"}
    # a chain of two proxies: only the last one's word (the address that reached ours)
    seen = proxied.test_client().get("/test/seen", headers={
        **FORWARDED, "X-Forwarded-For": "198.51.100.1, 203.0.113.9"}).get_json()
    assert seen["remote"] == "203.0.113.9"


def test_without_a_trusted_proxy_the_forwarded_headers_are_ignored(direct):
    assert direct.config["PROXY_HOPS"] == 0
    seen = direct.test_client().get("/test/seen", headers=FORWARDED).get_json()
    assert seen == {"scheme": "http", "host": "localhost", "remote": "127.0.0.1",
                    "url": "http://localhost/"}


def test_the_host_check_reads_the_name_the_phone_opened(proxied, direct):
    """Behind the proxy the forwarded host is the one checked (and refused if unknown);
    without a trusted proxy the forwarded one is ignored, the Host header is checked."""
    elsewhere = {**FORWARDED, "X-Forwarded-Host": "rebinding.example.net"}
    r = proxied.test_client().get("/", headers=elsewhere)
    assert r.status_code == 400 and r.headers["Strict-Transport-Security"]
    assert proxied.test_client().get("/", headers=FORWARDED).status_code == 200
    assert direct.test_client().get("/", headers=elsewhere).status_code == 200
    assert direct.test_client().get("/", headers=FORWARDED,
                                    base_url="http://rebinding.example.net").status_code == 400


def test_the_proxy_hops_are_read_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("KIERKI_INSTANCE", str(tmp_path))
    monkeypatch.setenv("KIERKI_SECRET_KEY", "env")
    monkeypatch.setenv("KIERKI_PROXY_HOPS", "1")
    monkeypatch.setenv("KIERKI_PUBLIC_URL", "https://kierki.example.org/")
    app = create_app()
    assert app.config["PROXY_HOPS"] == 1
    assert app.config["PUBLIC_URL"] == "https://kierki.example.org"
    client = app.test_client()
    r = client.get("/", headers=FORWARDED)
    assert r.status_code == 200 and r.headers[HSTS].startswith("max-age=")


@pytest.mark.parametrize("config, message", [
    ({"PROXY_HOPS": -1}, "KIERKI_PROXY_HOPS must be a whole number"),
    ({"PROXY_HOPS": "one"}, "KIERKI_PROXY_HOPS must be a whole number"),
    ({"PUBLIC_URL": "kierki.example.org"}, "KIERKI_PUBLIC_URL must be an address like"),
    ({"PUBLIC_URL": "https://kierki.example.org/games"}, "KIERKI_PUBLIC_URL must be"),
    ({"PUBLIC_URL": "ftp://kierki.example.org"}, "KIERKI_PUBLIC_URL must be"),
])
def test_a_wrong_setting_is_refused_at_start_with_its_name(tmp_path, config, message):
    with pytest.raises(ValueError, match=message):
        make_app(tmp_path, **config)


def start_game(app, **headers):
    """A game started in the browser: its session cookie now lists it."""
    return app.test_client().post("/games/new", headers=headers, data={
        "ruleset": "standard-4", "first_dealer": "0",
        **{f"player_{i}": p for i, p in enumerate(["Ala", "Bożena", "Czesław", "Dżon"])}})


def test_the_session_cookie_is_secure_over_https_only(proxied, direct):
    r = start_game(proxied, **FORWARDED)
    assert r.status_code == 302 and r.location.startswith("/games/")
    over_https = session_cookie(r)
    assert "; Secure" in over_https and "SameSite=Lax" in over_https
    assert "HttpOnly" in over_https
    for app, headers in ((proxied, {}), (direct, FORWARDED)):
        plain = session_cookie(start_game(app, **headers))
        assert "Secure" not in plain and "SameSite=Lax" in plain  # a LAN table over HTTP


def api_game(client, **headers):
    r = client.post("/api/games", headers=headers, json={
        "ruleset": "standard-4", "players": ["Ala", "Bożena", "Czesław", "Dżon"],
        "first_dealer": 0})
    assert r.status_code == 201
    return r


def put_deal(client, gid, token, number, **headers):
    return client.put(f"/api/games/{gid}/deals/{number}",
                      data=json.dumps({"version": number, "result": RESULTS[number - 1]}),
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {token}", **headers})


def test_hsts_on_every_kind_of_https_answer_and_never_over_http(proxied, monkeypatch):
    client = proxied.test_client()
    made = api_game(client, **FORWARDED)
    gid, token = made.get_json()["id"], made.get_json()["token"]
    assert made.headers[HSTS] == "max-age=31536000"
    flask_puts = []
    view = proxied.view_functions["api.put_deal"]
    monkeypatch.setitem(proxied.view_functions, "api.put_deal",
                        lambda **kw: flask_puts.append(kw) or view(**kw))
    routed = put_deal(client, gid, token, 1, **FORWARDED)
    assert routed.status_code == 200 and len(flask_puts) == 1  # through Flask's view
    assert routed.headers[HSTS] == "max-age=31536000"
    client.get(f"/games/{gid}", headers=FORWARDED)  # the session now knows the game
    page = client.get(f"/games/{gid}", headers=FORWARDED)
    kept = client.get(f"/games/{gid}", headers=FORWARDED)
    assert page.status_code == kept.status_code == 200
    assert kept.headers["ETag"] == page.headers["ETag"]  # the same game, reader, address
    answers = {"page": page, "kept page": kept,
               "API": client.get(f"/api/games/{gid}", headers=FORWARDED),
               "error": client.get("/games/no-such-game", headers=FORWARDED)}
    for name, r in answers.items():
        assert r.headers.get(HSTS) == "max-age=31536000", name
        assert r.headers.get("X-Frame-Options") == "DENY", name  # beside the others

    # the same requests over plain HTTP: none of them
    plain = {"routed deal": put_deal(client, gid, token, 2),
             "first page": client.get(f"/games/{gid}"), "page": client.get(f"/games/{gid}"),
             "kept page": client.get(f"/games/{gid}"),
             "API": client.get(f"/api/games/{gid}")}
    assert len(flask_puts) == 2
    for name, r in plain.items():
        assert r.status_code == 200 and HSTS not in r.headers, name


def test_hsts_is_not_trusted_from_an_untrusted_proxy(direct):
    client = direct.test_client()
    made = api_game(client, **FORWARDED)
    gid, token = made.get_json()["id"], made.get_json()["token"]
    for r in (made, put_deal(client, gid, token, 1, **FORWARDED),
              client.get(f"/games/{gid}", headers=FORWARDED),
              client.get(f"/games/{gid}", headers=FORWARDED)):
        assert HSTS not in r.headers


def share_box(html: str) -> str:
    start = html.index('<details class="share">')
    return unescape(html[start:html.index("</details>", start)])


def test_the_join_link_and_qr_code_say_https_and_the_public_host(proxied):
    client = proxied.test_client()
    gid = new_game(client)
    code = state(proxied, gid).stored.join_code
    for host in ("kierki.example.org", "kierki.lan:8443"):
        for _ in range(2):  # the second answer is a kept one: the host is in its key
            html = client.get(f"/games/{gid}", headers={**FORWARDED,
                                                         "X-Forwarded-Host": host}).text
            url = f"https://{host}{join_path(proxied, gid, code)}"
            assert segno_svg(url) in html and url in share_box(html)
            assert "http://" not in share_box(html)


def test_the_public_url_is_put_in_every_link_and_qr_code(tmp_path):
    app = make_app(tmp_path, PUBLIC_URL="https://kierki.example.org")
    client = app.test_client()
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    url = f"https://kierki.example.org{join_path(app, gid, code)}"
    for base in ("http://192.168.1.20:5000", "http://localhost:5000"):
        client.get(f"/join/{code}", base_url=base)  # a phone of the table, at this address
        html = client.get(f"/games/{gid}", base_url=base).text
        assert segno_svg(url) in html and url in share_box(html)
        assert "192.168" not in share_box(html) and 'class="loopback"' not in html
    assert client.get(url).location.endswith(f"/games/{gid}")  # the link works
