"""Steps a player takes on the phone, written with role and label locators."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect


def create_game(page: Page, names: list[str], plague: list[str] | None = None, expansion: bool = False) -> None:
    """Fill the new-game form and start the game."""
    page.goto("/")
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    for i, colour in enumerate(plague or []):
        page.get_by_label(f"Soul {i + 1}", exact=True).select_option(label=colour)
    if expansion:
        page.get_by_label("Play with the Plutus & Phlegyas expansion").check()
    # The edition's standard layout keeps journeys deterministic (Lily: Haystack + Bonfire, Eagle:
    # Banquet + Wall, Key: Bank + Market, Cross: Courtyard + Palace).
    page.get_by_label("Florence location tiles").select_option("default")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=f"{names[0]}'s turn")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")  # the deferred script has run
    settle(page)


def settle(page: Page) -> None:
    """The page's live stream is open (its first presence list arrived) and no htmx request or swap
    is in flight, so the next tap's answer is not raced by the page's own first refresh."""
    expect(page.locator("#presence .presence-list")).to_have_count(1)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def stat(page: Page, player: str, name: str) -> Locator:
    """A player's resource on the players panel, e.g. stat(page, "Ana", "Drachmas")."""
    return page.get_by_role("listitem", name=player).get_by_role("group", name=name).get_by_role("definition")


def shield(page: Page, name: str, role: str = "button") -> Locator:
    """A shield on the map of Hell by its name (e.g. "2C"), as a button, a link or an image."""
    return page.get_by_role(role, name=re.compile(rf"^{name}, circle "))  # type: ignore[arg-type]
