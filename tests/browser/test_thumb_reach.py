"""Every deal at thumb reach: on a phone of 360 × 740 and one of 320 × 640 the current deal's
first input and its Save (the trump suit's buttons, the K♥'s one-tap players) lie on the
first screen, neither covering the other nor covered by anything else, when the game page
is opened and after every save (the page the save lands on); the totals are in sight as a
compact line. Every deal of standard-4, kurnik-3, a five-player ruleset (zdanowicz-5) and
Tybet to 21, each deal saved through its page."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.web.forms import form_values
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import at_table

PLAYERS = ["Ala", "Brzęczyszczykiewicz", "Celina", "Darek", "Edward"]

#: The deal's first input and its Save as the player sees them: their boxes, whether each
#: lies on the screen whole and is what a tap at its centre reaches (nothing sticky over
#: it), and the totals' box. The first input: the first visible tap target of the deal's
#: form (a number of a picker, a cell of the robber's grid, a player, a declaration).
REACH = """() => {
  const form = document.querySelector('[data-live="deal"] form.deal-form');
  if (!form) return null;
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const target = (el) => el.closest("label") || el;
  const controls = [...form.querySelectorAll(
    "input:not([type=hidden]), select, button, summary")].filter(shown);
  const first = controls[0];
  const saves = [...form.querySelectorAll("button[type=submit]")].filter(shown);
  const save = saves.find((b) => b.classList.contains("primary")) || saves[0];
  const seen = (el) => { const r = target(el).getBoundingClientRect();
    const inside = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {inside, reached: !!hit && (target(el).contains(hit) || hit.contains(el))}; };
  const totals = document.querySelector('[data-live="totals"]');
  const t = totals.getBoundingClientRect();
  return {first: {...box(target(first)), ...seen(first), what: first.outerHTML.slice(0, 90)},
          save: {...box(save), ...seen(save), what: save.textContent.trim()},
          totals: {top: t.top, bottom: t.bottom, height: t.height}, same: first === save};
}"""


def _overlap(a, b) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and \
        a["top"] < b["bottom"] and b["top"] < a["bottom"]


def check_reach(page, where: str) -> list[str]:
    """What is out of reach on this page, in words (nothing: all in reach)."""
    r = page.evaluate(REACH)
    if r is None:
        return [f"{where}: no deal form"]
    problems = []
    for name in ("first", "save"):
        if not r[name]["inside"]:
            problems.append(f"{where}: the {name} control is not on the first screen {r[name]}")
        elif not r[name]["reached"]:
            problems.append(f"{where}: the {name} control is covered {r[name]}")
    if not r["same"] and _overlap(r["first"], r["save"]):
        problems.append(f"{where}: the first control and the save overlap {r}")
    if not (0 <= r["totals"]["top"] and r["totals"]["bottom"] <= page.viewport_size["height"]):
        problems.append(f"{where}: the totals are out of sight {r['totals']}")
    if r["totals"]["height"] > 60:  # two lines at most (long names wrap)
        problems.append(f"{where}: the totals are not a compact line {r['totals']}")
    return problems


def fill(page, values: dict[str, str]) -> None:
    """The deal's values into its form (radios checked, the robber's selects set) and the
    Save tapped: the primary button, or the one-tap button the values name."""
    one_tap = page.evaluate("""(values) => {
      const form = document.querySelector('[data-live="deal"] form.deal-form');
      let tap = null;
      for (const [name, value] of Object.entries(values)) {
        for (const el of form.querySelectorAll(`[name="${name}"]`)) {
          if (el.type === "radio" || el.type === "checkbox") {
            if (el.value === value && !el.checked) {
              el.checked = true; el.dispatchEvent(new Event("change", {bubbles: true})); }
          } else if (el.tagName === "SELECT") {
            el.value = value; el.dispatchEvent(new Event("change", {bubbles: true}));
          } else if (el.tagName === "BUTTON" && el.value === value) { tap = `${name}=${value}`; }
        }
      }
      return tap;
    }""", values)
    if one_tap:
        name, value = one_tap.split("=")
        save = page.locator(f'[data-live="deal"] button[name="{name}"][value="{value}"]')
    else:
        save = page.locator('[data-live="deal"] form.deal-form button.primary[type=submit]')
    with page.expect_navigation():
        save.click()


def _game(app, ruleset: str, n: int, **given) -> str:
    with app.app_context():
        return service.create_game(get_db(), ruleset, PLAYERS[:n], 0, given=given or None)


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
@pytest.mark.parametrize("ruleset", ["standard-4", "kurnik-3", "zdanowicz-5"])
def test_every_kierki_deal_at_thumb_reach(open_phone, server_app, ruleset, size):
    app, base = server_app
    rs = get_ruleset(ruleset)
    gid = _game(app, ruleset, rs.players)
    page = open_phone(width=size[0], height=size[1], locale="pl-PL")
    at_table(page, app, base, gid, "")
    problems = []
    results = results_for(rs)
    for number, raw in enumerate(results, start=1):
        problems += check_reach(page, f"{ruleset} deal {number}, landed")
        page.goto(f"{base}/games/{gid}")
        problems += check_reach(page, f"{ruleset} deal {number}, opened")
        fill(page, form_values(raw))
        if number < len(results):
            assert page.locator('[data-live="deal"]').get_attribute("data-deal-number") == \
                str(number + 1), page.locator(".error").all_inner_texts()
    assert page.locator("#final").count() == 1
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", [(360, 740), (320, 640)], ids=["360x740", "320x640"])
def test_every_tybet_deal_at_thumb_reach(open_phone, server_app, size):
    app, base = server_app
    gid = _game(app, "tybet-21", 4, target=21)
    page = open_phone(width=size[0], height=size[1], locale="pl-PL")
    at_table(page, app, base, gid, "")
    problems = []
    for number in range(1, 4):  # 11 card points a deal: 7 + 7 + 7 reaches 21
        problems += check_reach(page, f"tybet deal {number}, landed")
        page.goto(f"{base}/games/{gid}")
        problems += check_reach(page, f"tybet deal {number}, opened")
        fill(page, {"card_points-0": "7", "card_points-1": "4"})
    assert page.locator("#final").count() == 1
    assert not problems, "\n".join(problems)


def test_the_measure_sees_a_control_below_the_screen_or_under_the_save(open_phone, server_app):
    """The measure itself: with the deal's head made tall, the first input falls below
    the screen (or under the Save that stays at the bottom), and is found."""
    app, base = server_app
    gid = _game(app, "standard-4", 4)
    page = open_phone(width=360, height=740)
    at_table(page, app, base, gid, "")
    assert check_reach(page, "as made") == []
    tall = "(h) => { document.querySelector('.deal-title').style.minHeight = h; }"
    page.evaluate(tall, "420px")
    problems = check_reach(page, "tall head")
    assert problems and "first control" in problems[0], problems
    page.evaluate(tall, "900px")
    assert any("not on the first screen" in p for p in check_reach(page, "taller"))
