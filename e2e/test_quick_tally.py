"""Issue 4's journey: a quick tally for three players, then the winner and a per-circle row."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

SHOTS = Path(__file__).resolve().parents[1] / "test-results"


def enter_player(page: Page, name: str, infamy: int, skulls: dict[str, int], diplomas: list[str], ship: int) -> None:
    form = page.get_by_role("form", name=f"End state of {name}")
    form.get_by_label(f"Infamy on the track ({name})").fill(str(infamy))
    for sin, level in skulls.items():
        form.get_by_label(f"{name}'s skull on {sin}").select_option(str(level))
    for sin in diplomas:
        form.get_by_label(f"{name}'s diploma on {sin}").check()
    form.get_by_label(f"Ship on the loan track ({name})").select_option(str(ship))
    form.get_by_role("button", name=f"Save {name}").click()
    expect(page.get_by_role("heading", name=f"{name} entered")).to_be_visible()


def test_a_quick_tally_for_three_players(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Quick tally").click()
    for i, name in enumerate(["Ana", "Ben", "Cleo"]):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the tally").click()
    expect(page.get_by_role("heading", name="Quick tally", exact=True)).to_be_visible()

    page.get_by_label("Empty shields in circle 3").select_option("1")
    page.get_by_label("Cube of circle 3 (value of its space)").select_option(label="space 4 (value 4)")
    page.get_by_role("button", name="Save circle 3").click()
    expect(page.get_by_text("Entered: 1 of 8 circles")).to_be_visible()
    for circle in (2, 4, 5, 6, 7, 8, 9):
        page.get_by_role("button", name=f"Save circle {circle}").click()
        expect(page.get_by_text(f"Entered: {circle - 1 if circle > 3 else 2} of 8 circles")).to_be_visible()

    enter_player(page, "Ana", 20, {"Gluttony": 2}, ["Gluttony"], ship=1)
    enter_player(page, "Ben", 25, {"Lust": 1}, [], ship=0)
    enter_player(page, "Cleo", 18, {"Gluttony": 3, "Sloth": 1}, ["Gluttony", "Sloth"], ship=2)

    # Ana: 20 + green (cube 4, one empty → 3) × 2 = 26 − 1 = 25. Ben: 25. Cleo: 18 + 3×3 + blue 3×1 − 2 = 28.
    expect(page.get_by_role("heading", name="Winner: Cleo with 28 infamy")).to_be_visible()
    row = page.get_by_role("row", name="Cleo, circle 3")
    expect(row).to_contain_text("3 × 3 = 9")
    expect(page.get_by_role("heading", name="2. Ana — 25 infamy")).to_be_visible()
    expect(page.get_by_role("heading", name="2. Ben — 25 infamy")).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "quick-tally-pixel7.png"), full_page=True)
