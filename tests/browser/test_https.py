"""The app as a host serves it for real: ``kierki serve`` behind Caddy (the repo's own
``deploy/Caddyfile.lan``, HTTPS from Caddy's internal authority), opened in Chromium at
phone width by a name that is not this machine's loopback (``kierki.test``), so that only
HTTPS makes it a secure context. Over it: the service worker, the install prompt's
conditions, the screen kept awake, the live table through the proxy, an https join link,
and the kept page offline. Needs Debian's ``caddy`` (``.ci/run`` installs it): skipped
without it, failed without it under ``CI=true``."""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import results_for

from .conftest import CHROMIUM, FLAGS, PHONE, Devices, shot

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NAME = "kierki.test"  # resolved to 127.0.0.1 by Chromium alone (--host-resolver-rules)
PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]
RESULTS = results_for(get_ruleset("standard-4"))
STARTED_WITHIN = 30.0  # seconds a server may take to start on a busy machine
#: How long the test waits for the other phone (a busy machine is slow, not wrong); the
#: time it took is printed, never asserted: timing belongs in bench/
LIVE_WAIT_MS = 15_000


def _under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _caddy() -> str:
    found = shutil.which("caddy")
    if not found:
        message = "no caddy (apt-get install caddy)"
        if _under_ci():
            pytest.fail(f"The HTTPS test cannot run under CI: {message}")
        pytest.skip(message)
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:  # the child keeps its own copy of the file
        return subprocess.Popen(command, env=env, cwd=log.parent, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def _wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    end = time.monotonic() + STARTED_WITHIN
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"{what} stopped: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{what} did not start on port {port}: {log.read_text()}")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass(frozen=True)
class Site:
    base: str
    """The app through Caddy, over HTTPS."""
    plain: str
    """The app itself, over plain HTTP by the same name (what a LAN table has without
    a proxy)."""
    root: Path
    """Caddy's root certificate (its internal authority, made at its first start)."""


def caddyfile(tmp: Path, https_port: int, http_port: int) -> str:
    """The repo's LAN Caddyfile as it is, after global options that keep this Caddy to
    itself: no admin endpoint, free ports, its authority and certificates in ``tmp``,
    and nothing installed in this machine's trust store."""
    return (f"{{\n\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
            f"\tlocal_certs\n\tskip_install_trust\n\tstorage file_system {tmp / 'data'}\n"
            f"\tauto_https disable_redirects\n}}\n\n"
            + (DEPLOY / "Caddyfile.lan").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """``kierki serve`` behind Caddy: (the HTTPS address, Caddy's root certificate)."""
    caddy = _caddy()
    tmp = tmp_path_factory.mktemp("https")
    app_port, https_port, http_port = _free_port(), _free_port(), _free_port()
    env = {**os.environ, "HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "xdg-data"),
           "XDG_CONFIG_HOME": str(tmp / "xdg-config"), "PYTHONPATH": str(ROOT),
           "KIERKI_INSTANCE": str(tmp / "instance"), "KIERKI_PROXY_HOPS": "1",
           "KIERKI_ALLOWED_HOSTS": NAME,  # a name of the table's own, as kierki.lan
           "KIERKI_SITE": f"https://{NAME}:{https_port}",
           "KIERKI_UPSTREAM": f"127.0.0.1:{app_port}"}
    app_log, proxy_log = tmp / "kierki.log", tmp / "caddy.log"
    app = _start([sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
                  "--port", str(app_port)], env, app_log)
    config = tmp / "Caddyfile"
    config.write_text(caddyfile(tmp, https_port, http_port), encoding="utf-8")
    proxy = _start([caddy, "run", "--config", str(config), "--adapter", "caddyfile"], env,
                   proxy_log)
    try:
        _wait_for_port(app_port, app, "kierki serve", app_log)
        _wait_for_port(https_port, proxy, "caddy", proxy_log)
        yield Site(base=f"https://{NAME}:{https_port}", plain=f"http://{NAME}:{app_port}",
                   root=tmp / "data" / "pki" / "authorities" / "local" / "root.crt")
    finally:
        _stop(proxy)
        _stop(app)


def _trusting_home(tmp: Path, root: Path) -> Path:
    """A home folder whose NSS database (what Chromium on Linux reads) trusts Caddy's
    root, as a phone does once its owner installed it: nothing else on the machine does."""
    certutil = shutil.which("certutil")
    if not certutil:
        message = "no certutil (apt-get install libnss3-tools)"
        if _under_ci():
            pytest.fail(f"The HTTPS test cannot run under CI: {message}")
        pytest.skip(message)
    nssdb = tmp / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n",
                    "Caddy Local Authority (test)", "-i", str(root)], check=True)
    return tmp


@pytest.fixture(scope="module")
def launch(site, tmp_path_factory):
    """Chromium's launch options: kierki.test is this machine, Caddy's root is trusted."""
    home = _trusting_home(tmp_path_factory.mktemp("home"), site.root)
    return {"executable_path": CHROMIUM, "headless": True,
            "args": [*FLAGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
            "env": {**os.environ, "HOME": str(home)}}


@pytest.fixture(scope="module")
def chromium_type(site, browser):
    """Playwright's Chromium (the session's Playwright: one may run at a time)."""
    return browser.browser_type


@pytest.fixture(scope="module")
def chromium(chromium_type, launch):
    browser = chromium_type.launch(**launch)
    yield browser
    browser.close()


@pytest.fixture
def phone(chromium, site):
    """``phone(locale="en-GB", width=360)``: a phone on this Chromium, at the site's address."""
    devices = Devices(chromium, site.base)
    yield lambda locale="en-GB", width=PHONE["width"]: devices.phone(width=width, locale=locale)
    devices.close()


def adapted(name: str, **env: str) -> dict:
    """A Caddyfile of ``deploy/`` as Caddy reads it (its JSON config; nothing is started)."""
    out = subprocess.run([_caddy(), "adapt", "--config", str(DEPLOY / name), "--adapter",
                          "caddyfile"], env={**os.environ, **env}, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def proxies(config: dict) -> list[tuple[list, dict]]:
    """Every reverse_proxy handler in ``config``, with the matchers on the way to it."""
    found = []

    def walk(node, matchers):
        if isinstance(node, dict):
            if node.get("handler") == "reverse_proxy":
                found.append((matchers, node))
            for key, value in node.items():
                walk(value, matchers + node.get("match", []) if key == "handle" else matchers)
        elif isinstance(node, list):
            for item in node:
                walk(item, matchers)

    walk(config, [])
    return found


@pytest.mark.parametrize("name, hosts, issuer", [
    ("Caddyfile.lan", ["kierki.lan", "192.168.1.20"], "internal"),
    ("Caddyfile.public", ["kierki.example.org"], None)])
def test_the_deploy_caddyfiles_pass_the_live_table_on_unbuffered(name, hosts, issuer):
    config = adapted(name, KIERKI_SITE=", ".join(hosts), KIERKI_UPSTREAM="127.0.0.1:5000")
    server = config["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == [":443"]
    assert server["routes"][0]["match"] == [{"host": hosts}]
    found = proxies(config)
    assert {p["upstreams"][0]["dial"] for _, p in found} == {"127.0.0.1:5000"}
    streams = [p for matchers, p in found
               if any(m.get("path_regexp", {}).get("pattern") == r"^/games/[^/]+/events$"
                      for m in matchers)]
    assert len(streams) == 1 and streams[0]["flush_interval"] == -1
    assert not {"headers", "transport"} & set(streams[0])  # Caddy's X-Forwarded-* as they are
    policies = config["apps"].get("tls", {}).get("automation", {}).get("policies", [])
    issuers = [i["module"] for p in policies for i in p.get("issuers", [])]
    assert issuers == ([issuer] if issuer else [])  # public: Caddy's ACME default


#: Every Wake Lock the page is granted, kept where the test can look (before any script).
WAKE_LOCK_PROBE = """
if (navigator.wakeLock) {
  const asked = navigator.wakeLock.request.bind(navigator.wakeLock);
  window.wakeLocks = [];
  navigator.wakeLock.request = (type) => asked(type).then((sentinel) => {
    window.wakeLocks.push(sentinel);
    return sentinel;
  });
}
"""
HELD = "() => (window.wakeLocks || []).some(s => s.type === 'screen' && !s.released)"


# Predicates are written as functions: Playwright polls a bare expression with eval(),
# which the app's Content-Security-Policy (no 'unsafe-eval') refuses.


def expect(locator):
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect(locator)


def api(page, method: str, path: str, body: dict, token: str | None = None) -> dict:
    """A JSON request from the page (through Caddy, as the phone's own scripts send)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    answer = page.evaluate("""([method, path, headers, body]) =>
        fetch(path, {method, headers, body}).then(async r => [r.status, await r.json()])""",
                           [method, path, headers, json.dumps(body)])
    assert answer[0] in (200, 201), answer
    return answer[1]


def new_game(page) -> dict:
    if not page.url.startswith(page.base):
        page.goto(page.base + "/")
    return api(page, "POST", "/api/games", {"ruleset": "standard-4", "players": PLAYERS,
                                            "first_dealer": 0})


def controlled(page, url):
    """Open ``url``, then reload it once: the service worker controls the page."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def chips(page) -> list[str]:
    return [li.inner_text().split()[-1]
            for li in page.locator('[data-live="totals"] li').all()]


def shown(totals: list[int]) -> list[str]:
    return [str(t).replace("-", "\u2212") for t in totals]


def test_over_https_the_service_worker_controls_the_page_after_one_reload(phone, site):
    page = phone()
    answer = page.goto(page.base + "/")
    assert page.evaluate("window.isSecureContext") is True
    assert answer.headers["strict-transport-security"] == "max-age=31536000"
    game = new_game(page)
    controlled(page, f"{page.base}/games/{game['id']}")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") \
        == f"{site.base}/sw.js"
    session = [c for c in page.context.cookies() if c["name"] == "session"]
    assert session and session[0]["secure"] and session[0]["sameSite"] == "Lax"
    assert not page.errors


def test_over_https_the_app_is_installable(chromium_type, launch, site, tmp_path):
    """Chromium's own verdict (the DevTools protocol's installability errors): none over
    HTTPS, where plain HTTP by the same name is refused; and the page is offered the
    install prompt (``beforeinstallprompt``). A profile on disk, as a phone's
    browser has (a private window is never offered the install)."""
    context = chromium_type.launch_persistent_context(
        str(tmp_path / "profile"), viewport=PHONE, device_scale_factor=2, is_mobile=True,
        has_touch=True, locale="en-GB", **launch)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(10_000)
        cdp = context.new_cdp_session(page)
        page.goto(site.plain + "/")
        plain = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")[
            "installabilityErrors"]]
        assert "not-from-secure-origin" in plain  # what the LAN table over HTTP lacks
        page.add_init_script("window.offered = false; addEventListener("
                             "'beforeinstallprompt', () => { window.offered = true; });")
        page.goto(site.base + "/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        page.reload()
        page.wait_for_function("() => window.offered")  # the page is offered the install prompt
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{site.base}/manifest.webmanifest"
        assert not manifest.get("errors")
        shot(page, "https-install")
    finally:
        context.close()


def test_the_screen_is_kept_awake_while_a_game_is_open(phone):
    page = phone()
    page.add_init_script(WAKE_LOCK_PROBE)
    page.goto(page.base + "/")
    assert page.evaluate("window.wakeLocks.length") == 0  # the front page leaves it be
    game = new_game(page)
    page.goto(f"{page.base}/join/{game['join_code']}")  # at the table: its game page
    page.wait_for_function(HELD)  # granted, and not released
    page.locator("details.share summary").click()  # a tap does not let it go
    page.locator("details.share summary").click()
    assert page.evaluate(HELD)
    assert not page.errors


def test_the_live_table_updates_through_the_proxy(phone):
    a, b = phone(), phone()
    game = new_game(a)
    url = f"{a.base}/games/{game['id']}"
    for page in (a, b):
        page.goto(url)
        expect(page.locator(".live")).to_have_attribute("data-stream", "open")
    b.evaluate("window.liveMark = 'kept'")
    started = time.monotonic()
    saved = api(a, "PUT", f"/api/games/{game['id']}/deals/1",
                {"version": 1, "result": RESULTS[0]}, game["token"])
    expect(b.locator(".live")).to_have_attribute("data-version", str(saved["version"]),
                                                 timeout=LIVE_WAIT_MS)
    print(f"\nthrough Caddy: shown on the other phone {(time.monotonic() - started) * 1000:.0f}"
          " ms after the save")
    assert chips(b) == shown(saved["totals"])
    assert b.evaluate("window.liveMark") == "kept"  # the same page: no reload
    assert not a.errors and not b.errors


@pytest.mark.parametrize("locale, width", [("en-GB", 360), ("pl-PL", 320)])
def test_the_qr_code_links_to_the_https_address(phone, site, locale, width):
    from tests.web.test_share import segno_svg

    page = phone(locale, width)
    game = new_game(page)
    page.goto(f"{page.base}/join/{game['join_code']}")  # a phone of the table
    page.locator("details.share summary").click()
    url = page.locator("details.share .share-link").inner_text()
    # the table's link: its code and the game's secret, at the HTTPS address
    assert re.fullmatch(re.escape(f"{site.base}/join/{game['join_code']}/") + r"[\w-]{16}", url)
    assert page.locator("details.share svg").is_visible()
    html = page.evaluate("fetch(location.href).then(r => r.text())")
    assert segno_svg(url) in html  # the code a camera reads is that link
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    shot(page, f"https-qr-{locale[:2]}-{width}")
    other = phone()
    other.goto(url)  # scanned by another phone: it joins the game
    assert other.url == f"{site.base}/games/{game['id']}"
    assert not page.errors


def test_an_offline_reload_shows_the_kept_page(phone):
    page = phone()
    game = new_game(page)
    api(page, "PUT", f"/api/games/{game['id']}/deals/1", {"version": 1, "result": RESULTS[0]},
        game["token"])
    controlled(page, f"{page.base}/games/{game['id']}")
    before = chips(page)
    # The worker keeps the page after answering it: wait until it is kept (a loaded
    # machine may take a moment), as a phone that goes offline later would find it.
    page.wait_for_function("""async () => {
        const kept = await caches.keys().then(names => Promise.all(
            names.map(n => caches.open(n).then(c => c.match(location.pathname)))));
        return kept.some(Boolean);
    }""", timeout=30_000)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-note]")).to_be_visible()
    assert chips(page) == before and len(before) == 4
    shot(page, "https-offline")
    page.context.set_offline(False)  # back online, the page fetches itself again
    # (once the server answers: it looks every 3 s, a Wi-Fi back may not carry at once)
    expect(page.locator("[data-offline-note]")).to_be_hidden(timeout=20_000)
    assert chips(page) == before
