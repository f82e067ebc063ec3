"""A house variant made in the editor on a phone: the sums follow each change as it is
typed, a variant that does not balance is refused (its sum shown) until the maker
accepts it, and a game started with it shows its name on the game page and the PDF."""
import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from .conftest import shot

NAME = "Bez rozbójnika, wyścig 200/100"


def game_sum(page) -> str:
    return page.locator("output[data-game]").inner_text().strip()


def test_make_a_variant_and_play_it(page, tmp_path):
    page.goto(page.base + "/rules/standard-4")
    page.get_by_role("link", name="Make a house variant of these rules").click()
    page.get_by_label("Name of the variant").fill(NAME)
    page.get_by_label("Made by (optional)").fill("Ala")
    page.get_by_role("button", name="Without the robber", exact=True).click()
    page.wait_for_load_state()
    assert game_sum(page) == "+1300"
    assert page.get_by_label("Name of the variant").input_value() == NAME  # kept

    prizes = page.locator("input[name='c.loteryjka.prizes']")
    prizes.fill("0")  # no loteryjka prizes: the trump deals alone balance the negatives
    expect(page.locator("output[data-game]")).to_have_text("0")
    assert page.locator("[data-balanced]").is_visible()
    assert page.locator("output[data-contract='loteryjka']").inner_text() == "0"
    prizes.fill("200, 100")
    expect(page.locator("output[data-game]")).to_have_text("+300")
    assert page.locator("[data-unbalanced]").is_visible()
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 360, width
    shot(page, "variant-editor")

    page.get_by_role("button", name="Save the variant").click()
    page.wait_for_load_state()
    message = page.locator("[data-errors-for=unbalanced] .error")
    assert "300" in message.inner_text()
    page.get_by_label("We mean it").check()
    page.get_by_role("button", name="Save the variant").click()
    page.wait_for_url(re.compile(r"/rules/house-"))
    assert page.get_by_role("heading", level=1).inner_text() == NAME
    assert "add up to +300, not zero" in page.content()

    page.get_by_role("link", name="New game with these rules").click()
    for i, name in enumerate(["Ala", "Bożena", "Czesław", "Dorota"]):
        page.locator(f"input[name=player_{i}]").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert page.get_by_role("link", name=f"Rules: {NAME}").is_visible()
    assert "Deal 1 of 11" in page.content()

    pdf = page.request.get(page.url + "/sheet.pdf")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext missing (apt-get install poppler-utils)")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf.body())
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert NAME in " ".join(text.split())
    assert "not zero" in text
