"""Issue 3's journey: tap a soul on the map of Hell, tap a highlighted shield, see the move and
the quarter; tap an illegal shield and read the reason."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from e2e.helpers import bring_and_end_turn, create_game, shield


def test_tap_a_soul_then_a_highlighted_shield_and_an_illegal_one(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    shield(page, "1B", "button").click()
    expect(page.get_by_text("Florence quarter this turn:")).to_be_visible()
    page.get_by_role("button", name="Bank").click()  # 1B shows the Key: the Bank's quarter
    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()

    shield(page, "1B", "link").click()
    expect(page.get_by_text("The ice-blue soul on 1B is chosen.")).to_be_visible()
    expect(shield(page, "2B", "button")).to_have_accessible_name(re.compile("A legal landing"))
    expect(shield(page, "2C", "button")).to_have_accessible_name(re.compile("A legal landing"))

    shield(page, "3C", "button").click()  # not reachable: the soul stops on the first empty shield
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The soul stops on the first empty shield it reaches")

    shield(page, "2C", "button").click()
    expect(page.get_by_text("Florence quarter this turn:")).to_contain_text("Lily")
    expect(shield(page, "2C", "img")).to_have_accessible_name(re.compile("ice-blue soul, standing"))
    expect(page.get_by_role("heading", name="Florence phase")).to_be_visible()


def test_a_laid_down_soul_explains_why_it_cannot_move(page: Page) -> None:
    create_game(page, ["Cleo", "Dino"], plague=["beige", "green"])
    bring_and_end_turn(page, "Cleo", "beige", to="1A", place="Banquet")  # 1A shows the Eagle
    shield(page, "1A", "link").click()
    expect(page.get_by_role("alert")).to_contain_text("is laid down: it never moves again")


def test_a_refused_tap_offers_our_board_is_different_which_opens_the_editor_at_that_soul(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    bring_and_end_turn(page, "Ana", "ice-blue", to="1B", place="Bank")
    shield(page, "1B", "link").click()
    shield(page, "3C", "button").click()  # refused: the soul stops on the first empty shield
    board_differs = page.get_by_role("button", name="Our board is different")
    expect(board_differs).to_be_in_viewport()
    board_differs.click()  # a form posted by the browser itself, with the token filled into the answer
    # a new draft of this edition, open at the circle of that soul with its shield picked
    expect(page).to_have_url(re.compile(r"/editions/drafts/[^/?]+/q/circle-0-1\?.*pick=1b"))
    expect(page.get_by_role("heading", name="Symbol of 1B")).to_be_visible()
    if os.environ.get("E2E_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["E2E_SCREENSHOTS"]) / "board-differs.png"))


def _map(page: Page) -> list[list[str | None]]:
    """Every shield of the map as the phone shows it: its name, role and description, in order."""
    return page.eval_on_selector_all(
        "#map-taps .cell",
        "els => els.map(e => [e.getAttribute('aria-label'), e.getAttribute('role') || e.tagName,"
        " (document.getElementById(e.getAttribute('aria-describedby') || '') || {}).textContent || ''])",
    )


def test_the_map_swapped_shield_by_shield_is_the_map_of_a_fresh_page(page: Page) -> None:
    """Answers carry only the shields that changed (nested svgs swapped out of band): after a turn of
    taps the map reads exactly as a fresh page draws it, every shield once, and it still answers taps."""
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    bring_and_end_turn(page, "Ana", "ice-blue", to="1B", place="Bank")
    shield(page, "1B", "link").click()
    expect(shield(page, "2C", "button")).to_have_accessible_name(re.compile("A legal landing"))
    expect(shield(page, "3C", "button")).to_have_accessible_description("Not a legal landing: tap to see why.")
    shield(page, "1B", "link").click()  # chosen again: let go
    expect(page.get_by_text("The ice-blue soul on 1B is chosen.")).to_have_count(0)
    shield(page, "1B", "link").click()
    shield(page, "2C", "button").click()
    expect(page.get_by_role("heading", name="Florence phase")).to_be_visible()
    expect(shield(page, "2C", "img")).to_have_accessible_name(re.compile("ice-blue soul, standing"))
    expect(shield(page, "3C", "img")).to_have_accessible_description("")  # no soul to land: nothing to tap
    swapped = _map(page)
    ids = page.eval_on_selector_all("#map-taps [data-part]", "els => els.map(e => e.id)")
    assert len(ids) == len(set(ids)) and len(swapped) == len(ids) - 1  # a part per shield, and the desks
    if os.environ.get("E2E_SCREENSHOTS"):
        page.locator(".hell-figure").screenshot(path=str(Path(os.environ["E2E_SCREENSHOTS"]) / "map-swapped.png"))
    page.reload()
    page.wait_for_function("() => window.htmx !== undefined")
    assert _map(page) == swapped
