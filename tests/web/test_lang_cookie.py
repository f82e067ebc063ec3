"""The language cookie (``/lang/<code>``) is kept as the session cookie is: ``Secure`` on
an answer to an HTTPS request (behind a trusted proxy: the scheme the phone used), never
over plain HTTP (a laptop on the table's Wi-Fi), and ``SameSite=Lax`` always."""
from tests.web.test_proxy import FORWARDED, make_app


def lang_cookie(response) -> str:
    cookies = [v for v in response.headers.getlist("Set-Cookie") if v.startswith("lang=")]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def attributes(cookie: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}


def test_the_language_cookie_is_secure_over_https_only(tmp_path):
    proxied = make_app(tmp_path, PROXY_HOPS=1).test_client()
    over_https = proxied.get("/lang/pl?next=/", headers=FORWARDED)
    assert over_https.status_code == 302 and lang_cookie(over_https).startswith("lang=pl;")
    assert {"secure", "samesite", "httponly"} <= attributes(lang_cookie(over_https))
    assert "SameSite=Lax" in lang_cookie(over_https)
    direct = proxied.get("/lang/en?next=/")  # plain HTTP, no proxy header
    assert "secure" not in attributes(lang_cookie(direct))
    assert "SameSite=Lax" in lang_cookie(direct)
    served_https = make_app(tmp_path).test_client()  # HTTPS to the app itself
    answer = served_https.get("/lang/pl", base_url="https://localhost")
    assert "secure" in attributes(lang_cookie(answer))


def test_the_chosen_language_is_used(tmp_path):
    client = make_app(tmp_path, PROXY_HOPS=1).test_client()
    client.get("/lang/pl?next=/", headers=FORWARDED)
    assert 'lang="pl"' in client.get("/", headers=FORWARDED).text
