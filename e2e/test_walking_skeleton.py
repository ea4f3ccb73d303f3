"""Issue 2's journey: create a game, bring a soul in from the Cemetery, undo, redo — on a phone."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from e2e.helpers import create_game, stat

SHOTS = Path(__file__).resolve().parents[1] / "test-results"


def test_bring_a_soul_in_then_undo_and_redo(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "purple", "green", "beige"])
    assert page.evaluate("htmx.version") == "2.0.11"
    expect(stat(page, "Ana", "Drachmas")).to_have_text("3")

    page.get_by_role("link", name="Bring in one blue soul").click()
    page.get_by_role("button", name="1A · Eagle").click()
    expect(stat(page, "Ana", "Drachmas")).to_have_text("2")
    expect(page.get_by_role("heading", name="Florence phase")).to_be_visible()

    page.get_by_role("button", name="Undo last entry").click()
    expect(stat(page, "Ana", "Drachmas")).to_have_text("3")
    expect(page.get_by_role("heading", name="Hell phase: one soul move")).to_be_visible()

    page.get_by_role("button", name="Redo").click()
    expect(stat(page, "Ana", "Drachmas")).to_have_text("2")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-page-pixel7.png"), full_page=True)


def test_a_loan_moves_the_ship_and_gives_two_drachmas(page: Page) -> None:
    create_game(page, ["Cleo", "Dino"], plague=["red"])
    expect(page.get_by_role("button", name="End Cleo's turn")).to_have_count(0)
    page.get_by_text("Take a loan", exact=True).click()
    page.get_by_role("button", name="Take a loan (+2 drachmas)").click()
    expect(stat(page, "Cleo", "Drachmas")).to_have_text("5")
    expect(stat(page, "Cleo", "Ship")).to_have_text("1")
