"""The HTTP layer: security headers on every kind of answer, a CSP the templates keep,
versioned static files cached for a year, ETags and 304s, no compression of the app's
own (the proxy in front compresses)."""
import re
from pathlib import Path

from scorekeeper.web import hardening
from tests.fixtures import new_game

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
EXPECTED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def directives(csp: str) -> dict[str, list[str]]:
    parts = (d.split() for d in csp.split(";") if d.strip())
    return {p[0]: p[1:] for p in parts}


def assert_hardened(r):
    for name, value in EXPECTED.items():
        assert r.headers.get(name) == value, (r.request.path, name)
    csp = directives(r.headers["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"] and csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert csp["form-action"] == ["'self'"] and csp["img-src"] == ["'self'", "data:"]
    assert "Server" not in r.headers and "X-Powered-By" not in r.headers


def fetch(client, url, **headers):
    """A static file, read whole and closed (the test client leaves files open otherwise)."""
    return client.get(url, headers=headers, buffered=True)


def static_urls(html: str) -> list[str]:
    return [u.replace("&amp;", "&") for u in re.findall(r'(?:href|src)="(/static/[^"]*)"', html)]


def test_every_kind_of_answer_carries_the_headers(client):
    gid = new_game(client)
    front = client.get("/")
    answers = {
        "front page": front,
        "game page": client.get(f"/games/{gid}"),
        "trick checker": client.get("/tools/trick"),
        "API JSON": client.get(f"/api/games/{gid}"),
        "static file": fetch(client, static_urls(front.text)[0]),
        "unversioned static file": fetch(client, "/static/app.js"),
        "PDF": client.get(f"/games/{gid}/sheet.pdf"),
        "print page": client.get(f"/games/{gid}/sheet"),
        "CSV": client.get(f"/games/{gid}/export.csv"),
        "error page": client.get("/games/no-such-game"),
        "API error": client.get("/api/games/no-such-game"),
        "redirect": client.get("/lang/pl?next=/"),
    }
    expected_status = {"error page": 404, "API error": 404, "redirect": 302}
    for kind, r in answers.items():
        assert r.status_code == expected_status.get(kind, 200), kind
        assert_hardened(r)
    assert answers["PDF"].mimetype == "application/pdf"


def test_a_500_and_a_304_carry_them_too(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("boom")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = client.get("/boom")
    assert r.status_code == 500
    assert_hardened(r)
    r = fetch(client, "/static/app.css")
    again = fetch(client, "/static/app.css", **{"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    assert_hardened(again)


def test_scripts_never_inline():
    csp = directives(hardening.CONTENT_SECURITY_POLICY)
    for directive in ("default-src", "script-src", "script-src-elem", "script-src-attr"):
        values = csp.get(directive, [])
        assert "'unsafe-inline'" not in values and "'unsafe-eval'" not in values, directive
        assert "'unsafe-hashes'" not in values and "data:" not in values, directive
    # Inline styles only as attributes (the templates' --n seat counts), never <style>.
    assert "'unsafe-inline'" not in csp["style-src"] and "style-src-elem" not in csp


def template_files():
    files = sorted(TEMPLATES.rglob("*.html"))
    assert len(files) > 10
    return files


def test_no_template_has_inline_script_or_event_handler():
    for path in template_files():
        text = path.read_text()
        for m in re.finditer(r"<script\b([^>]*)>(.*?)</script\s*>", text, re.DOTALL | re.IGNORECASE):
            assert "src=" in m.group(1), f"{path}: script without src"
            assert not m.group(2).strip(), f"{path}: inline script body"
        for tag in re.findall(r"<[a-zA-Z][^<>]*>", text):
            assert not re.search(r"\son[a-z]+\s*=", tag, re.IGNORECASE), f"{path}: handler in {tag}"
            assert "javascript:" not in tag.lower(), f"{path}: javascript: URL in {tag}"


def test_inline_styles_are_only_seat_counts():
    """The one inline thing the CSP allows (style attributes): keep it to --n."""
    for path in template_files():
        for style in re.findall(r'\sstyle="([^"]*)"', path.read_text()):
            assert re.fullmatch(r"--n: \{\{ [\w |]+ \}\}", style), f"{path}: style={style!r}"


def test_trick_checker_rules_choice_submits_without_an_inline_handler(client):
    html = client.get("/tools/trick").text
    select = re.search(r"<select name=\"ruleset\"[^>]*>", html).group(0)
    assert "data-autosubmit" in select and "onchange" not in select
    assert re.search(r'<button[^>]*type="submit"', html)  # works without JavaScript too


def test_static_urls_are_versioned_and_cached_for_a_year(client):
    html = client.get("/").text
    urls = static_urls(html)
    assert {u.split("?")[0] for u in urls} >= {"/static/app.css", "/static/app.js"}
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{8,}$", url), url
        r = fetch(client, url)
        assert r.status_code == 200
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Expires" not in r.headers
    path = urls[0].split("?")[0]
    for unversioned in (path, path + "?v=0000000000"):
        r = fetch(client, unversioned)
        assert r.status_code == 200 and "immutable" not in r.headers["Cache-Control"]
        assert "max-age=300" in r.headers["Cache-Control"]


def test_static_version_follows_the_file_content(app, tmp_path):
    (tmp_path / "x.css").write_text("a{}")
    v1 = hardening.StaticVersions().version(str(tmp_path), "x.css")
    versions = hardening.StaticVersions()
    assert versions.version(str(tmp_path), "x.css") == v1
    (tmp_path / "x.css").write_text("a{color:red}")
    assert versions.version(str(tmp_path), "x.css") != v1
    for name in ("", "missing.css", "../x.css", "."):
        assert versions.version(str(tmp_path), name) is None


def test_print_page_stylesheet_still_loads(client):
    gid = new_game(client)
    html = client.get(f"/games/{gid}/sheet").text
    hrefs = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert hrefs == ["/static/sheet.css"]
    r = fetch(client, hrefs[0])
    assert r.status_code == 200 and r.mimetype == "text/css" and b"@font-face" in r.data


def test_nothing_is_compressed_by_the_app_and_every_page_revalidates(client):
    gid = new_game(client)
    for url in ("/", f"/games/{gid}", f"/api/games/{gid}", f"/games/{gid}/export.csv",
                "/static/app.js"):
        r = fetch(client, url, **{"Accept-Encoding": "gzip, deflate"})
        assert r.status_code == 200 and "Content-Encoding" not in r.headers, url
        again = fetch(client, url, **{"Accept-Encoding": "gzip",
                                      "If-None-Match": r.headers["ETag"]})
        assert again.status_code == 304 and not again.data, url
        assert_hardened(again)


def test_a_pdf_revalidates_by_its_bytes(client):
    gid = new_game(client)
    first = client.get(f"/games/{gid}/sheet.pdf")
    assert first.status_code == 200 and "Content-Encoding" not in first.headers
    assert first.data.startswith(b"%PDF")
    etag = first.headers["ETag"]
    again = client.get(f"/games/{gid}/sheet.pdf", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag


def test_hsts_only_over_https(client):
    assert "Strict-Transport-Security" not in client.get("/").headers
    secure = client.get("/", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert_hardened(secure)
