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


@pytest.fixture
def server_app(tmp_path):
    """The app and the address of a real server running it on a free port."""
    from werkzeug.serving import make_server

    from scorekeeper import create_app
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite"), "SECRET_KEY": "browser",
                      "TESTING": True})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join()


@pytest.fixture
def server(server_app):
    return server_app[1]


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-GB",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = server
    yield page
    context.close()


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
