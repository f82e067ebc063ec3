"""Taps per paper number: how many touches a deal costs on the phone against pen and paper.

Run (with the package installed, e.g. in .venv):  python bench/taps.py [--samples N]

Starts the app here on a free loopback port (werkzeug's ``make_server``, a temporary
database), then drives headless Chromium (Playwright, ``/usr/bin/chromium`` or
``KIERKI_CHROMIUM``) at 360 × 740 as a player would, counting every tap (click) and key
press on the way. Set-up is left out: each game is started through the new-game form
before counting begins. Scenarios:

``4p``      a whole standard-4 game (12 deals) entered through the game page;
``3p``      a whole standard-3 game (11 deals);
``robber``  one robber deal (standard-4, deals 1-6 stored beforehand), player by player;
``tybet``   a Tybet game to 21 entered as card points, with one declaration and one special win.

The player taps the values in seat order and skips a count the page has already filled
in correctly (the last one, or zeros once nothing is left). A select (Tybet's cezar)
costs two taps: open it, choose. Each game's totals on the page are checked against the
rules' own replay of the same results.

Paper numbers are what a score keeper would write: one per player per count (a robber
has four counts), one per K♥ deal, one per penalty-trick position, one per player for the
loteryjka, one per pair for a Tybet deal. Scrolls: a target not whole on the screen, or
under what stays at its bottom (the Save button, the robber's picker), costs a scroll
before its tap (the page's own moves, e.g. the robber's grid keeping its active cell in
sight, cost nothing). Prints, one line each::

    4p: 0.95 taps per paper number (55 taps / 58 paper numbers); 0 scrolls in 12 deals, at most 0 a deal

then the weight of the game page (HTML, CSS and JavaScript, plain and gzip) and how long
a second phone on the same game takes to show a deal saved on the first (median, worst).
"""
from __future__ import annotations

import argparse
import gzip
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset, replay
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.families.tybet.rules import get_rules as tybet_rules
from scorekeeper.families.tybet.rules import replay as tybet_replay
from scorekeeper.web.db import get_db

CHROMIUM = os.environ.get("KIERKI_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 360, "height": 740}
PLAYERS_4 = ["Ala", "Bolek", "Cela", "Darek"]
PLAYERS_3 = ["Ala", "Bolek", "Cela"]

#: An evening's results, as a score keeper would hear them (first dealer: seat 0).
GAME_4 = SAMPLE_GAME_4
GAME_3 = [
    {"tricks": [6, 5, 6]},
    {"hearts": [5, 4, 4]},
    {"queens": [2, 1, 1]},
    {"gentlemen": [3, 3, 2]},
    {"king_of_hearts": 1},
    {"positions": [0, 2]},
    {"tricks": [7, 4, 6], "hearts": [5, 3, 5], "queens": [2, 0, 2], "gentlemen": [3, 2, 3],
     "king_of_hearts": 0, "positions": [1, 2]},
    {"trump": "S", "tricks": [7, 5, 5]},
    {"trump": "D", "tricks": [4, 8, 5]},
    {"trump": "H", "tricks": [6, 6, 5]},
    {"order": [1, 0]},
]
#: Tybet deals as played: declarations (seat, kind, rank or suit and run), pair 0's aces
#: and honours, the last trick's pair, a special win.
GAME_TYBET = [  # "points": the first pair's card points (the other pair's fill themselves)
    {"points": 7},
    {"declare": [(1, "trio", "3")], "points": 3},
    {"points": 7},
    {"special": "kalanda:p1", "points": 0},
]


# -- the server and the phone ------------------------------------------------------------

@contextmanager
def serving():
    """The app on a free loopback port with a temporary database; yields (app, base URL)."""
    from werkzeug.serving import make_server
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "taps.sqlite"), "SECRET_KEY": "taps"})
        srv = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=srv.serve_forever, daemon=True)
        thread.start()
        try:
            yield app, f"http://127.0.0.1:{srv.server_port}"
        finally:
            srv.shutdown()
            thread.join()


#: Whether a tap target is where the thumb can reach it now: whole on the screen, and what a
#: tap at its centre would hit (not under the Save button or the robber's picker that stay
#: at the bottom of the screen).
IN_REACH = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return !!hit && (el.contains(hit) || hit.contains(el));
}"""


class Phone:
    """A page and the taps, key presses and scrolls spent on it. A target out of reach
    costs a scroll (the player swipes it into the middle of the screen) before its tap;
    ``scrolls_by_deal`` keeps each deal's."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.scrolls = 0
        self.scrolls_by_deal: list[int] = []

    def reach(self, locator) -> None:
        """Scroll (and count it) if ``locator`` is out of the thumb's reach."""
        if not locator.evaluate(IN_REACH):
            self.scrolls += 1
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, locator, navigates: bool = False, count: int = 1) -> None:
        self.reach(locator)
        self.taps += count
        if navigates:
            with self.page.expect_navigation():
                locator.click()
        else:
            locator.click()

    def deal_done(self, since: int) -> None:
        """One deal entered: the scrolls it took since ``since``."""
        self.scrolls_by_deal.append(self.scrolls - since)

    def chosen(self, name: str) -> str | None:
        checked = self.page.locator(f'input[name="{name}"]:checked')
        return checked.get_attribute("value") if checked.count() else None

    def deal_number(self) -> int | None:
        deal = self.page.locator("[data-live=deal]")
        return int(deal.get_attribute("data-deal-number")) if deal.count() else None


def start_game(phone: Phone, base: str, ruleset: str, players: list[str], **extra) -> str:
    """Set-up through the new-game form (not counted); returns the game's id."""
    page = phone.page
    page.goto(base + "/games/new")
    page.select_option("select[name=ruleset]", ruleset)
    for i, name in enumerate(players):
        page.fill(f"input[name=player_{i}]", name)
    page.locator('input[name=first_dealer][value="0"]').check()
    for name, value in extra.items():
        page.select_option(f"select[name={name}]", value)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    return page.url.rsplit("/", 1)[1]


# -- Kierki ------------------------------------------------------------------------------

def paper_numbers(contract, players: int) -> int:
    n = 0
    for field in contract.fields():
        if field.type == "counts":
            n += players
        elif field.type == "seat":
            n += 1
        elif field.type == "seats":
            n += players if field.name == "order" else len(field.labels)
    return n


def tap_counts(phone: Phone, name: str, values: list[int]) -> None:
    """Seat by seat; a count the page already shows right is not tapped."""
    for seat, value in enumerate(values):
        if phone.chosen(f"{name}-{seat}") != str(value):
            phone.tap(phone.page.locator(f'.qv:has(input[name="{name}-{seat}"][value="{value}"])'))
    got = [phone.chosen(f"{name}-{s}") for s in range(len(values))]
    assert got == [str(v) for v in values], (name, got, values)


def tap_robber_grid(phone: Phone, raw: dict) -> None:
    """Player by player: look at the highlighted cell, tap its value on the picker below."""
    page = phone.page
    while page.locator(".robber .dock").is_visible():
        cell = page.locator(".robber td.rc.active")
        part = cell.get_attribute("data-part")
        seat = int(cell.get_attribute("id").rsplit("-", 1)[1])
        phone.tap(page.locator(f".dock-part[data-part={part}] button[data-v='{raw[part][seat]}']"))
    for part in ("tricks", "hearts", "queens", "gentlemen"):
        got = [page.locator(f"select[name={part}-{s}]").input_value()
               for s in range(len(raw[part]))]
        assert got == [str(v) for v in raw[part]], (part, got)


def enter_kierki_deal(phone: Phone, deal, raw: dict) -> None:
    page = phone.page
    before = phone.deal_number()
    scrolled = phone.scrolls
    assert before == deal.number, (before, deal.number)
    fields = deal.contract.fields()
    if deal.contract.kind == "robber":
        tap_robber_grid(phone, raw)
    saved = False
    for field in fields:
        value = raw[field.name]
        if field.type == "counts" and deal.contract.kind != "robber":
            tap_counts(phone, field.name, value)
        elif field.type == "seat" and len(fields) == 1:
            phone.tap(page.locator(f"button[name={field.name}][value='{value}']"), navigates=True)
            saved = True
        elif field.type == "seat":
            phone.tap(page.locator(f".pick:has(input[name={field.name}][value='{value}'])"))
        elif field.type == "seats":
            for i, seat in enumerate(value):
                phone.tap(page.locator(f".pick:has(input[name={field.name}-{i}][value='{seat}'])"))
    suit = [f for f in fields if f.type == "suit"]
    if suit:
        phone.tap(page.locator(f"button[name={suit[0].name}][value='{raw[suit[0].name]}']"),
                  navigates=True)
        saved = True
    if not saved:
        phone.tap(page.locator("form.deal-form button.primary[type=submit]"), navigates=True)
    errors = page.locator("form.deal-form .error").all_inner_texts()
    assert phone.deal_number() != before, f"deal {before} was refused: {errors}"
    phone.deal_done(scrolled)


def totals_on_page(page) -> list[int]:
    return [int(t.replace("−", "-").replace("+", ""))
            for t in page.locator("[data-live=totals] strong").all_inner_texts()]


def kierki_game(browser, base: str, ruleset: str, players: list[str],
                results: list[dict]) -> tuple[Phone, int]:
    rs = get_ruleset(ruleset)
    phone = Phone(new_phone(browser))
    start_game(phone, base, ruleset, players)
    state = replay(rs, 0, [])
    paper = 0
    for raw in results:
        deal = state.current
        enter_kierki_deal(phone, deal, raw)
        paper += paper_numbers(deal.contract, len(players))
        state = replay(rs, 0, [s.result for s in state.scored] + [raw])
    assert state.finished and phone.page.locator("#final").count() == 1
    assert totals_on_page(phone.page) == state.totals, (totals_on_page(phone.page), state.totals)
    phone.page.context.close()
    return phone, paper


def robber_deal(browser, app, base: str) -> tuple[Phone, int]:
    rs = get_ruleset("standard-4")
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS_4, 0)
        for number, raw in enumerate(GAME_4[:6], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    phone = Phone(new_phone(browser))
    join(phone.page, app, base, gid)
    deal = replay(rs, 0, GAME_4[:6]).current
    assert deal.contract.kind == "robber"
    enter_kierki_deal(phone, deal, GAME_4[6])
    phone.page.context.close()
    return phone, paper_numbers(deal.contract, 4)


# -- Tybet -------------------------------------------------------------------------------

def enter_tybet_deal(phone: Phone, deal: dict) -> None:
    page = phone.page
    before = phone.deal_number()
    scrolled = phone.scrolls
    opened: set[int] = set()
    points = f'.qv:has(input[name="card_points-0"][value="{deal["points"]}"])'
    if not deal.get("special"):  # the page's first input (a special win may set it)
        phone.tap(page.locator(points))
    for seat, kind, what in deal.get("declare", []):
        if seat not in opened:
            phone.tap(page.locator("details.decl").nth(seat).locator("summary"))
            opened.add(seat)
        if kind == "cezar":  # what: (suit, extra cards)
            phone.reach(page.locator(f"select[name=cezar-{seat}-{what[0]}]"))
            phone.taps += 2  # a select: open it, choose
            page.select_option(f"select[name=cezar-{seat}-{what[0]}]", str(what[1]))
        else:
            phone.tap(page.locator(f".pick:has(input[name={kind}-{seat}][value='{what}'])"))
    if deal.get("special"):
        phone.tap(page.locator("details.specials summary"))
        phone.tap(page.locator(f".specials .pick:has(input[value='{deal['special']}'])"))
    if phone.chosen("card_points-0") != str(deal["points"]):  # a sweep changed it
        phone.tap(page.locator(points))
    phone.tap(page.locator("form.deal-form button[type=submit].primary"), navigates=True)
    errors = page.locator("form.deal-form .error").all_inner_texts()
    assert phone.deal_number() != before, f"deal {before} was refused: {errors}"
    phone.deal_done(scrolled)


def tybet_raw(deal: dict) -> dict:
    """The raw result the page should have sent for one scripted deal."""
    declarations: list[list[dict]] = [[], [], [], []]
    for seat, kind, what in deal.get("declare", []):
        declarations[seat].append({"kind": "cezar", "suit": what[0], "extra": what[1]}
                                  if kind == "cezar" else {"kind": kind, "rank": what})
    special = None
    if deal.get("special"):
        kind, _, who = deal["special"].partition(":")
        special = {"kind": kind, ("pair" if who[0] == "p" else "seat"): int(who[1:])}
    return {"declarations": declarations, "card_points": [deal["points"], 11 - deal["points"]],
            "special": special}


def tybet_game(browser, base: str) -> tuple[Phone, int]:
    phone = Phone(new_phone(browser))
    start_game(phone, base, "tybet-21", PLAYERS_4, target="21")
    for deal in GAME_TYBET:
        enter_tybet_deal(phone, deal)
    state = tybet_replay(tybet_rules("tybet-21"), 0, [tybet_raw(d) for d in GAME_TYBET], 21)
    assert state.finished and phone.page.locator("#final").count() == 1
    assert totals_on_page(phone.page) == state.totals, (totals_on_page(phone.page), state.totals)
    phone.page.context.close()
    return phone, 2 * len(GAME_TYBET)


# -- page weight and the second phone ------------------------------------------------------

def fetch(url: str, compressed: bool) -> bytes:
    headers = {"Accept-Encoding": "gzip" if compressed else "identity"}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as r:
        body = r.read()
        if compressed and r.headers.get("Content-Encoding") != "gzip":
            body = gzip.compress(body)  # too small for the server to bother: as gzip would
        return body


def page_weight(base: str, path: str) -> str:
    html = fetch(base + path, False).decode()
    assets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html) + \
        re.findall(r'<script src="([^"]+)"', html)
    kinds = {"HTML": [path], "CSS": [a for a in assets if ".css" in a],
             "JS": [a for a in assets if ".js" in a]}
    plain = {k: sum(len(fetch(base + u, False)) for u in urls) for k, urls in kinds.items()}
    packed = {k: sum(len(fetch(base + u, True)) for u in urls) for k, urls in kinds.items()}
    return (f"{sum(plain.values())} B plain ("
            + ", ".join(f"{k} {v}" for k, v in plain.items()) + f"), {sum(packed.values())} B gzip ("
            + ", ".join(f"{k} {v}" for k, v in packed.items()) + ")")


def shown_deal(page) -> str | None:
    """The deal number a page shows, or None (it is between pages)."""
    from playwright.sync_api import Error
    try:
        return page.evaluate("() => { const d = document.querySelector('[data-live=deal]');"
                             " return d ? d.dataset.dealNumber : null; }")
    except Error:  # reloading: no page to ask
        return None


def wait_for_deal(page, number: int, since: float) -> float:
    while shown_deal(page) != str(number):
        if time.monotonic() - since > 60:
            raise SystemExit(f"the other phone never showed deal {number}")
        time.sleep(0.01)
    return time.monotonic() - since


def second_phone(browser, app, base: str, samples: int) -> list[float]:
    """Seconds from a save on one phone until another phone on the game shows the next deal.
    Each save comes at a random moment, as at a table; then deal 1 is taken back (and the
    other phone waited for) before the next one."""
    with app.app_context():
        gid = service.create_game(get_db(), "standard-4", PLAYERS_4, 0)
    first, other = new_phone(browser), new_phone(browser)
    join(first, app, base, gid)
    other.goto(f"{base}/games/{gid}")
    rng = random.Random(3)
    waits = []
    for _ in range(samples):
        first.goto(f"{base}/games/{gid}")
        for seat, value in enumerate([4, 3, 3]):
            first.locator(f'.qv:has(input[name="tricks-{seat}"][value="{value}"])').click()
        time.sleep(rng.uniform(0, 5))
        start = time.monotonic()
        with first.expect_navigation():
            first.locator("form.deal-form button.primary[type=submit]").click()
        waits.append(wait_for_deal(other, 2, start))
        with app.app_context():
            db = get_db()
            game = service.load(db, gid)
            service.undo_last(db, game, game.version)
        wait_for_deal(other, 1, time.monotonic())
    first.context.close()
    other.context.close()
    return waits


def join(page, app, base: str, gid: str) -> None:
    """The phone joins the game's table (its join link, as the QR code gives it): only a
    phone of the table enters deals; then it shows the game."""
    with app.app_context():
        code = service.load(get_db(), gid).stored.join_code
    page.goto(f"{base}/join/{code}")
    page.goto(f"{base}/games/{gid}")


def new_phone(browser):
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=2, locale="en-GB",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=8,
                        help="saves timed for the second phone (default 8)")
    args = parser.parse_args(argv)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    from playwright.sync_api import sync_playwright
    with serving() as (app, base), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        scenarios = {
            "4p": lambda: kierki_game(browser, base, "standard-4", PLAYERS_4, GAME_4),
            "3p": lambda: kierki_game(browser, base, "standard-3", PLAYERS_3, GAME_3),
            "robber": lambda: robber_deal(browser, app, base),
            "tybet": lambda: tybet_game(browser, base),
        }
        for name, run in scenarios.items():
            phone, paper = run()
            deals = phone.scrolls_by_deal
            print(f"{name}: {phone.taps / paper:.2f} taps per paper number "
                  f"({phone.taps} taps / {paper} paper numbers); {phone.scrolls} scrolls in "
                  f"{len(deals)} deals, at most {max(deals, default=0)} a deal"
                  + (f" (by deal: {deals})" if any(deals) else ""), flush=True)
        print("(set-up is not counted: each game is started through the new-game form first)")
        with app.app_context():
            db = get_db()
            gid = service.create_game(db, "standard-4", PLAYERS_4, 0)
            robber = service.create_game(db, "standard-4", PLAYERS_4, 0)
            for number, raw in enumerate(GAME_4[:6], start=1):
                service.enter_deal(db, service.load(db, robber), number, raw, number)
        print(f"page weight, game page at deal 1: {page_weight(base, f'/games/{gid}')}")
        print(f"page weight, game page at the robber: {page_weight(base, f'/games/{robber}')}")
        waits = second_phone(browser, app, base, args.samples)
        print(f"second phone shows a saved deal after: median {statistics.median(waits):.2f} s, "
              f"worst {max(waits):.2f} s ({len(waits)} saves at random moments)")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
