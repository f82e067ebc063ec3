"""A real server and headless Chromium (Debian's, driven by Playwright) at phone width."""
import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 360, "height": 780}
PROJECTOR = {"width": 1920, "height": 1080}


def _browser_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"Browser tests cannot run under CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield browser
        browser.close()


def _closing(app):
    """``app`` with every answer's body closed when its connection ends: Werkzeug's
    development server skips ``close()`` when a browser drops a connection mid-answer
    (it reads the reset socket first), and a static file left open is a ResourceWarning,
    an error here. A generator is closed when it is dropped, so its ``finally`` runs."""
    def closing_app(environ, start_response):
        body = app(environ, start_response)
        try:
            yield from body
        finally:
            if hasattr(body, "close"):
                body.close()
    return closing_app


@pytest.fixture
def server_app(tmp_path):
    """The app and the address of a real server running it on a free port."""
    from werkzeug.serving import make_server

    from scorekeeper import create_app
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite"), "SECRET_KEY": "browser",
                      "TESTING": True})
    srv = make_server("127.0.0.1", 0, _closing(app), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join()


@pytest.fixture
def server(server_app):
    return server_app[1]


class Devices:
    """Phones and projectors on one browser, each in its own context (its own cookies: a
    phone of its own), every page's uncaught errors in ``page.errors``, its server's address
    in ``page.base``; :meth:`close` closes them all."""

    def __init__(self, browser, base: str):
        self.browser, self.base, self.contexts = browser, base, []

    def _open(self, init, timeout: int, **options):
        context = self.browser.new_context(**options)
        self.contexts.append(context)
        for script in [init] if isinstance(init, str) else init or ():
            context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(timeout)
        page.base = self.base
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    def phone(self, width: int = PHONE["width"], height: int = PHONE["height"],
              locale: str = "en-GB", scheme: str = "light", js: bool = True, init=None,
              timeout: int = 10_000):
        """A phone: ``width`` × ``height`` CSS pixels at twice the density, touch, the page
        in ``locale`` and colour ``scheme``, JavaScript on or off, ``init`` (a script or a
        list) run before every page's own."""
        return self._open(init, timeout, viewport={"width": width, "height": height},
                          device_scale_factor=2, is_mobile=True, has_touch=True,
                          locale=locale, color_scheme=scheme, java_script_enabled=js)

    def projector(self, locale: str = "en-GB", timeout: int = 10_000):
        """The club's projector: a 1920×1080 screen, no touch."""
        return self._open(None, timeout, viewport=PROJECTOR, device_scale_factor=1,
                          locale=locale)

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts = []


@pytest.fixture
def devices(browser, server):
    """Open phones (``devices.phone(...)``) and projectors (``devices.projector()``) on the
    test's server; all closed after the test."""
    made = Devices(browser, server)
    yield made
    made.close()


@pytest.fixture
def open_phone(devices):
    """``open_phone(width=360, locale="en-GB", scheme="light", js=True, init=None)``: a new
    phone's page (:meth:`Devices.phone`)."""
    return devices.phone


@pytest.fixture
def open_projector(devices):
    """``open_projector(locale="en-GB")``: a new projector's page (:meth:`Devices.projector`)."""
    return devices.projector


@pytest.fixture
def page(open_phone):
    return open_phone()


def expect(locator):
    """Playwright's ``expect`` (imported here: the modules import without Playwright, and
    the fixtures skip)."""
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect(locator)


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def at_table(page, app, base: str, gid: str, then: str = "") -> None:
    """This phone joins the game's table (the table card's QR code: its join link), so it
    may write the game, then opens ``then`` (a path under the game; its page by default).
    A phone that only opens the game's address reads it."""
    from scorekeeper.domain import service
    from scorekeeper.web.db import get_db
    with app.app_context():
        code = service.load(get_db(), gid).stored.join_code
    page.goto(f"{base}/join/{code}")
    if then:
        page.goto(f"{base}/games/{gid}{then}")
