"""Presence on real phones: every join and every leave shows on the other phones at once, and a
reload leaves no ghost behind."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from e2e.helpers import create_game, second_phone


def test_a_phone_that_joins_and_leaves_shows_on_the_other_phone_live(page: Page, browser: Browser, playwright) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    expect(page.get_by_text("shared phones: 1")).to_be_visible()
    other = second_phone(browser, playwright, page.url)
    expect(page.get_by_text("shared phones: 2")).to_be_visible()  # the join, without a reload
    other.context.close()
    expect(page.get_by_text("shared phones: 1")).to_be_visible()  # the leave, without a reload


def test_reloading_a_phone_leaves_no_ghost(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    for _ in range(3):
        page.reload()
        page.wait_for_function("() => window.htmx !== undefined")
    expect(page.get_by_text("shared phones: 1")).to_be_visible()
    expect(page.get_by_text("shared phones: 2")).to_have_count(0)
