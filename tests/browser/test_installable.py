"""On a phone: the app installable, the QR code to share a game, and a Wi-Fi drop in the
middle of a deal (the deal kept on the phone, sent when the network is back; refused if
another phone entered it meanwhile)."""
import pytest

from scorekeeper.domain import service
from scorekeeper.web.db import get_db

from .conftest import at_table, shot

PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]


def start(app) -> str:
    with app.app_context():
        return service.create_game(get_db(), "standard-4", PLAYERS, 0)


def stored(app, gid):
    with app.app_context():
        return service.load(get_db(), gid)


def tap(page, name, value):
    page.locator(f'.qv:has(input[name="{name}"][value="{value}"])').click()


def controlled(page, url):
    """Open ``url`` until the service worker controls the page (it claims it on activation;
    a reload is what a phone does anyway)."""
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


@pytest.fixture
def phone(open_phone):
    """``phone(scheme="light", locale="en-GB")``: a phone in that colour scheme."""
    return lambda scheme="light", locale="en-GB": open_phone(scheme=scheme, locale=locale)


def test_installable_with_a_service_worker_and_a_qr_code(phone, server_app):
    app, base = server_app
    gid = start(app)
    page = phone()
    at_table(page, app, base, gid)  # this phone is at the table (it may enter deals)
    controlled(page, f"{base}/games/{gid}")
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{base}/sw.js"
    qr = page.locator("details.share svg")
    assert not qr.is_visible()  # closed: the score table is not pushed down
    page.locator("details.share summary").click()
    assert qr.is_visible()
    box = qr.bounding_box()
    assert box["width"] >= 150 and abs(box["width"] - box["height"]) < 1
    code = stored(app, gid).stored.join_code
    with app.test_request_context():  # the table's link: its code and the game's secret
        from scorekeeper.web import access
        secret = access.join_secret(gid)
    assert page.locator("details.share .share-link").inner_text() == \
        f"{base}/join/{code}/{secret}"
    assert not page.errors


def test_a_deal_entered_offline_is_sent_when_the_wifi_is_back(phone, server_app):
    app, base = server_app
    gid = start(app)
    page = phone()
    at_table(page, app, base, gid)  # this phone is at the table (it may enter deals)
    controlled(page, f"{base}/games/{gid}")
    page.context.set_offline(True)
    for seat, value in enumerate([1, 4, 5]):
        tap(page, f"tricks-{seat}", value)
    page.locator("form.deal-form button[type=submit]").click()
    note = page.locator("[data-kept-note]")
    note.wait_for(state="visible")
    assert note.inner_text() == ("Deal 1 is saved on this phone and will be sent when the "
                                 "Wi-Fi is back.")
    assert stored(app, gid).version == 1  # nothing reached the server
    # a reload while offline: the page kept by the service worker, with its note
    page.reload()
    assert page.locator("[data-offline-note]").is_visible()
    assert page.locator("[data-kept-note]").is_visible()
    page.context.set_offline(False)
    page.locator("[data-sent-note=sent]").wait_for(timeout=20_000)
    game = stored(app, gid)
    assert game.version == 2 and game.stored.results[0] == {"tricks": [1, 4, 5, 3]}
    assert page.locator("[data-sent-note=sent]").inner_text().startswith(
        "The deal kept on this phone was sent. Deal 1:")
    assert not page.locator("[data-offline-note]").is_visible()
    assert page.locator(".deal-no").first.inner_text() == "Deal 2 of 12"
    assert not page.errors


def test_a_kept_deal_another_phone_entered_meanwhile_is_refused(phone, server_app):
    app, base = server_app
    gid = start(app)
    page = phone(locale="pl-PL")
    at_table(page, app, base, gid)  # this phone is at the table (it may enter deals)
    controlled(page, f"{base}/games/{gid}")
    page.context.set_offline(True)
    for seat, value in enumerate([1, 4, 5]):
        tap(page, f"tricks-{seat}", value)
    page.locator("form.deal-form button[type=submit]").click()
    page.locator("[data-kept-note]").wait_for(state="visible")
    with app.app_context():  # meanwhile, on another phone
        db = get_db()
        service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    page.context.set_offline(False)
    refused = page.locator("[data-sent-note=refused]")
    refused.wait_for(timeout=20_000)
    assert refused.inner_text().startswith(
        "Rozdanie zapisane na tym telefonie nie zostało przyjęte: Rozdanie 1 zostało już wpisane")
    assert stored(app, gid).stored.results == [{"tricks": [13, 0, 0, 0]}]  # theirs stays
    assert page.locator(".deal-no").first.inner_text().startswith("Rozdanie 2")
    assert not page.errors


@pytest.mark.parametrize("scheme,locale", [("light", "en-GB"), ("dark", "pl-PL"),
                                           ("dark", "en-GB"), ("light", "pl-PL")])
def test_screens_of_sharing_and_of_a_drop(phone, server_app, scheme, locale):
    """Screenshots to look at (tests/artifacts/): the QR opened, and the offline notes."""
    app, base = server_app
    gid = start(app)
    page = phone(scheme, locale)
    at_table(page, app, base, gid)  # this phone is at the table (it may enter deals)
    controlled(page, f"{base}/games/{gid}")
    page.locator("details.share summary").click()
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0
    shot(page, f"share-{scheme}-{locale[:2]}")
    page.context.set_offline(True)
    tap(page, "tricks-0", 13)
    page.locator("form.deal-form button[type=submit]").click()
    page.locator("[data-kept-note]").wait_for(state="visible")
    page.reload()
    page.locator("[data-offline-note]").wait_for(state="visible")
    shot(page, f"offline-{scheme}-{locale[:2]}")
    page.context.set_offline(False)
    page.locator("[data-sent-note]").wait_for(timeout=20_000)
    assert not page.errors
