"""Issue 8's journeys: two phones at one table, live; a viewer; a stale phone; languages; dark."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from e2e.helpers import create_game, second_phone, shield, stat

SHOTS = Path(__file__).resolve().parents[1] / "test-results"


def test_an_action_on_one_phone_appears_on_the_other_without_a_reload(page: Page, browser: Browser, playwright) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    other = second_phone(browser, playwright, page.url)
    expect(stat(other, "Ana", "Drachmas")).to_have_text("3")
    expect(other.get_by_text("shared phones: 2")).to_be_visible()  # presence: both phones are connected

    page.get_by_role("link", name="Bring in one blue soul").click()
    shield(page, "1D", "button").click()
    expect(stat(other, "Ana", "Drachmas")).to_have_text("2")  # no reload on the second phone
    expect(other.get_by_role("heading", name="Florence phase")).to_be_visible()
    other.context.close()


def test_a_phone_that_was_offline_catches_up(page: Page, browser: Browser, playwright) -> None:
    create_game(page, ["Cleo", "Dino"], plague=["blue", "green"])
    other = second_phone(browser, playwright, page.url)
    other.context.set_offline(True)
    page.get_by_text("Take a loan", exact=True).click()
    page.get_by_role("button", name="Take a loan (+2 drachmas)").click()
    expect(stat(page, "Cleo", "Drachmas")).to_have_text("5")
    page.get_by_text("Take a loan", exact=True).click()
    page.get_by_role("button", name="Take a loan (+2 drachmas)").click()
    expect(stat(page, "Cleo", "Drachmas")).to_have_text("7")
    expect(stat(other, "Cleo", "Drachmas")).to_have_text("3")  # still the old screen while offline
    other.context.set_offline(False)
    expect(stat(other, "Cleo", "Drachmas")).to_have_text("7")
    expect(stat(other, "Cleo", "Ship")).to_have_text("2")
    other.context.close()


def test_a_viewer_sees_the_game_live_and_cannot_act(page: Page, browser: Browser, playwright) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    game_url = page.url
    page.get_by_role("link", name="Join").click()
    viewer_url = page.get_by_role("link", name=re.compile(r"v\/[A-Za-z0-9_-]{20,}$")).get_attribute("href")
    assert viewer_url
    page.goto(game_url)
    screen = second_phone(browser, playwright, viewer_url)
    expect(screen.get_by_text("Big screen · read only")).to_be_visible()
    expect(screen.get_by_role("button")).to_have_count(0)
    assert game_url.rsplit("/", 1)[-1] not in screen.content()  # the write address never leaks
    page.get_by_role("link", name="Bring in one blue soul").click()
    shield(page, "1A", "button").click()
    expect(shield(screen, "1A", "img")).to_have_accessible_name(re.compile("blue soul, standing"))
    screen.context.close()


def test_a_stale_phone_gets_the_conflict_notice(page: Page, browser: Browser, playwright) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    other = second_phone(browser, playwright, page.url)
    other.route("**/events**", lambda route: route.abort())  # this phone hears nothing live...
    other.route("**/seq", lambda route: route.abort())
    other.reload()
    other.wait_for_function("() => window.htmx !== undefined")
    page.get_by_text("Take a loan", exact=True).click()
    page.get_by_role("button", name="Take a loan (+2 drachmas)").click()
    expect(stat(page, "Ana", "Drachmas")).to_have_text("5")
    other.get_by_text("Take a loan", exact=True).click()  # ...and acts on its old screen
    other.get_by_role("button", name="Take a loan (+2 drachmas)").click()
    expect(other.get_by_role("status")).to_contain_text("This screen was out of date")
    expect(stat(other, "Ana", "Drachmas")).to_have_text("5")  # the fresh state; nothing was recorded twice
    other.context.close()


def test_the_language_switch_speaks_spanish(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    page.get_by_role("link", name="Español").click()
    expect(page.get_by_role("heading", name="Turno de Ana")).to_be_visible()
    expect(page.get_by_role("link", name="English")).to_be_visible()
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("heading", name="Ana's turn")).to_be_visible()


def test_dark_mode_follows_the_phone(browser: Browser, playwright, base_url: str) -> None:
    context = browser.new_context(**playwright.devices["Pixel 7"], color_scheme="dark", base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(8000)
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(x) for x in re.findall(r"\d+", background)[:3]]
    assert max(channels) < 60, background  # a dark page
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-page-dark-pixel7.png"), full_page=True)
    context.close()
