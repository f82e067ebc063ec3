"""Every screen on the smallest phones, light and dark: nothing wider than the screen, no
column of the score table out of sight, every target at least 44 × 44 px, text at WCAG AA
contrast, and a long player name shown whole.

Targets are every visible ``a, button, select, summary, label.pick, label.choice,
input[type=radio] + label, .cardbtn``. A link inside a sentence (an inline ``a`` with
text around it in its paragraph) is allowed to be text-sized, as WCAG 2.5.8 allows. A
screenshot of each page at 320 px, light and dark, goes to ``tests/artifacts/``.
"""
import copy

import pytest

from scorekeeper.domain import service, variants
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import at_table, expect, shot

LONG = "Małgorzata Konstantynowicz-Wiśniewska"  # 37 of the 40 characters a name may have
PLAYERS = [LONG, "Bożena", "Czesław", "Żaneta"]

TARGETS = ("a, button, select, summary, label.pick, label.choice, input[type=radio] + label,"
           " .cardbtn")

# What a page measures of itself, in one call.
MEASURE = """(targets) => {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && !el.closest("[hidden]");
  };
  const inSentence = (a) => {
    if (a.tagName !== "A" || getComputedStyle(a).display !== "inline") return false;
    const block = a.parentElement;
    return block.textContent.trim().length > a.textContent.trim().length;
  };
  const small = [];
  for (const el of document.querySelectorAll(targets)) {
    if (!visible(el) || inSentence(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) {
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ` +
                 `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  const hiddenColumns = [...document.querySelectorAll(".table-wrap")]
    .filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => `${w.scrollWidth} > ${w.clientWidth}`)
    .concat([...document.querySelectorAll(".scores td.num")]  // a number wider than its column
      .filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => `${td.textContent.trim()} cut`));

  // contrast: each visible text against the colour behind it
  const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return m.length === 3 ? [...m, 1] : m; };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255, 1];
    if (!layers.length || layers[layers.length - 1][3] < 1) colour = rgba(getComputedStyle(document.documentElement).backgroundColor);
    for (let i = layers.length - 1; i >= 0; i--) colour = over(layers[i], colour);
    return colour;
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const faint = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("option, select, [aria-hidden=true], .used") || !visible(el)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let dimmed = false;
    for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) dimmed = true;
    if (dimmed) continue;  // a deliberately dimmed, inactive thing (a finished player)
    const s = getComputedStyle(el);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const got = ratio(over(rgba(s.color), behind(el)), behind(el));
    if (got < (large ? 3 : 4.5)) faint.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 25)}" ${got.toFixed(2)}`);
  }

  // the long name: shown somewhere, and nowhere cut off
  const names = [...document.querySelectorAll("body *")].filter((el) =>
    !el.closest("option, select") && visible(el) && el.children.length === 0 && el.textContent.includes(NAME));
  const cut = names.filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
    .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  return {
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    small, hiddenColumns, faint, cut, names: names.length,
    dark: lum(rgba(getComputedStyle(document.body).backgroundColor)) < 0.05,
  };
}""".replace("NAME", repr(LONG))


def _auction(db):
    """A house variant of standard-4 whose trump deals are auctioned (its id)."""
    data = copy.deepcopy(get_ruleset("standard-4").data)
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key)
    data["name"] = {"en": "Trumps auctioned", "pl": "Licytacja atu"}
    data["contracts"]["trumps"]["auction"] = True
    return variants.create(db, data)


def _tables(app):
    """A Kierki game at its first trump deal, one at the loteryjka, one finished, one of
    a trump auction at its first auction (the long name bids), and a Tybet game two deals
    in."""
    rs = get_ruleset("standard-4")
    results = results_for(rs)
    games = {}
    with app.app_context():
        db = get_db()
        auction = _auction(db)
        for key, rid, upto in (("mid", "standard-4", 8), ("lot", "standard-4", 11),
                               ("done", "standard-4", 12), ("auction", auction, 7)):
            gid = service.create_game(db, rid, PLAYERS, 0)
            for number, raw in enumerate(results[:upto], start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
            games[key] = gid
        gid = service.create_game(db, "tybet-21", PLAYERS, 0, given={"target": "21"})
        deals = [{"declarations": [[], [], [], []], "aces": [3, 1], "honours": [11, 9], "last": 0},
                 {"declarations": [[], [], [], []], "aces": [0, 4], "honours": [0, 20], "last": 1,
                  "special": {"kind": "kalanda", "pair": 1}}]
        for number, raw in enumerate(deals, start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
        games["tybet"] = gid
    return games


def _pages(games):
    return {
        "front": "/",
        "setup": "/games/new",
        "kierki-trumps": f"/games/{games['mid']}",
        "kierki-auction": f"/games/{games['auction']}",
        "kierki-loteryjka": f"/games/{games['lot']}",
        "kierki-finished": f"/games/{games['done']}",
        "loteryjka-board": f"/games/{games['lot']}/loteryjka?moves=7S,7H&me=0&hand=6S,8S,KH",
        "trick-checker": f"/games/{games['mid']}/trick?trump=H&cards=2S,3H",
        "tybet": f"/games/{games['tybet']}",
        "rules": "/rules/standard-4",
        "rules-tybet": "/rules/tybet-21-italian",
        "variant-editor": "/rules/standard-4/variant",
        "players": "/players",
        "player": "/players/1",
        "evening": f"/games/{games['done']}/evening?stake=0.05&per=point",
        "correction": f"/games/{games['done']}/deals/8/edit",
        "delete": f"/games/{games['mid']}/delete",
        "import": "/games/import",
        "not-found": "/games/no-such-game",
    }


@pytest.mark.parametrize("width,scheme,locale", [
    (320, "light", "pl-PL"), (320, "dark", "pl-PL"), (320, "light", "en-GB"),
    (360, "light", "en-GB"), (360, "dark", "pl-PL"), (414, "light", "pl-PL"),
])
def test_every_screen_fits_a_small_phone(open_phone, server_app, width, scheme, locale):
    app, base = server_app
    games = _tables(app)
    page = open_phone(width=width, height=720, scheme=scheme, locale=locale)
    problems = []
    for gid in games.values():  # this phone is at every table: its forms are shown
        at_table(page, app, base, gid)
    for name, path in _pages(games).items():
        page.goto(base + path)
        page.wait_for_load_state()
        got = page.evaluate(MEASURE, TARGETS)
        where = f"{name} at {width} px, {scheme}, {locale}"
        if got["overflow"] > 0:
            problems.append(f"{where}: {got['overflow']} px wider than the screen")
        if got["hiddenColumns"]:
            problems.append(f"{where}: score table scrolls {got['hiddenColumns']}")
        if got["small"]:
            problems.append(f"{where}: targets under 44 px: {got['small']}")
        if got["faint"]:
            problems.append(f"{where}: text under AA contrast: {got['faint']}")
        if got["cut"]:
            problems.append(f"{where}: {LONG!r} cut off in {got['cut']}")
        if got["dark"] != (scheme == "dark"):
            problems.append(f"{where}: the page does not follow the {scheme} scheme")
        if name not in ("front", "setup", "rules", "rules-tybet", "variant-editor", "import",
                        "not-found") \
                and not got["names"]:
            problems.append(f"{where}: {LONG!r} is not shown whole")
        if width == 320 and (locale.startswith("pl") or scheme == "light"):
            shot(page, f"screen-{name}-{width}-{scheme}-{locale[:2]}")
    assert not problems, "\n".join(problems)


WAKE_LOCK_STUB = """
window.wakeCalls = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request(type) {
    window.wakeCalls.push(type);
    const sentinel = new EventTarget();
    sentinel.release = () => { window.wakeCalls.push("released"); return Promise.resolve(); };
    window.sentinel = sentinel;
    return Promise.resolve(sentinel);
  }}});
"""


def test_a_game_page_keeps_the_screen_awake(open_phone, server_app):
    app, base = server_app
    games = _tables(app)
    page = open_phone(height=720, init=WAKE_LOCK_STUB)
    page.goto(f"{base}/")  # until "load": the deferred scripts have run, and on a game
    # page static/screen.js asks for the lock as it runs (as the next page shows)
    assert page.evaluate("window.wakeCalls") == []  # the list of games: no need
    page.goto(f"{base}/games/{games['mid']}")
    page.wait_for_function("window.wakeCalls.length === 1")
    assert page.evaluate("window.wakeCalls") == ["screen"]
    # the browser drops the lock when the tab is hidden; back in view, it is asked again
    page.evaluate("window.sentinel.dispatchEvent(new Event('release'));"
                  "document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeCalls.length === 2")
    assert page.evaluate("window.wakeCalls") == ["screen", "screen"]
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pagehide'))")
    assert page.evaluate("window.wakeCalls") == ["screen", "screen", "released"]
    # where the browser has no Wake Lock API, nothing happens and nothing breaks
    other = open_phone(height=720, init="delete Navigator.prototype.wakeLock;")
    other.goto(f"{base}/games/{games['mid']}")
    # screen.js has run to its end (it chose the video instead), and live.js with it
    expect(other.locator("[data-keep-awake]")).to_have_attribute("data-way", "video")
    expect(other.locator(".live")).to_have_attribute("data-stream", "open")
    assert not page.errors and not other.errors
