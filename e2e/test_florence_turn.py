"""Issue 5's journey: a full turn on a phone — move a soul, place a member, take the action."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from e2e.helpers import assert_parts_as_fresh, create_game, shield, stat


def test_a_full_turn_hell_then_florence_then_the_location_action(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    page.get_by_role("link", name="Bring in one blue soul").click()
    shield(page, "1D", "button").click()  # 1D shows the Lily: Haystack and Bonfire this turn
    expect(page.get_by_role("heading", name="Florence phase")).to_be_visible()

    page.get_by_role("button", name="Bonfire").click()  # a noble pays 1 florin to enter
    expect(page.get_by_role("heading", name="Bonfire")).to_be_visible()
    expect(stat(page, "Ana", "Florins")).to_have_text("2")
    board = page.get_by_role("group", name="Lily quarter, this turn")
    expect(board).to_contain_text("Ana (noble)")

    page.get_by_label("Change florins into drachmas (up to 3)").select_option("2")
    page.get_by_role("button", name="Change", exact=True).click()
    expect(stat(page, "Ana", "Florins")).to_have_text("0")
    expect(stat(page, "Ana", "Drachmas")).to_have_text("4")  # 3 − Charon's 1 + 2

    page.get_by_label("Move a Phlegethon cube one space right").select_option(label="Heresy (3)")
    page.get_by_role("button", name="Raise").click()
    expect(page.get_by_text("Or place a safe-passage disc")).to_have_count(0)  # one or the other

    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    assert_parts_as_fresh(page)  # five answers of parts, each merged into what the phone holds
