"""In real Chromium the Content-Security-Policy blocks nothing the app needs: a game journey
(map of Hell by keyboard, history, score, join, tally, a hostile player name) raises no CSP
violation and no console error, the print button prints, and Enter on a shield still moves."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from e2e.helpers import create_game, shield

WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


def watch(page: Page) -> list[str]:
    """Collect console errors and CSP reports for the whole test, across navigations."""
    problems: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.add_init_script(WATCH_VIOLATIONS)
    return problems


def violations(page: Page) -> list[str]:
    return list(page.evaluate("window.__csp || []"))


def test_a_game_journey_raises_no_csp_violation(page: Page) -> None:
    problems = watch(page)
    create_game(page, ["Ana\u202e", "Ben"], plague=["blue", "purple", "green", "beige"])
    page.get_by_role("link", name="Bring in one blue soul").click()
    target = shield(page, "1A", "button")
    # the tap's answer (and any live refresh) has settled, so the focused shield is the one on screen
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    target.focus()
    expect(target).to_be_focused()
    page.keyboard.press("Enter")  # the shield acts on Enter without an inline handler or eval
    expect(page.get_by_text("Florence quarter this turn:")).to_be_visible()
    assert violations(page) == []
    base = page.url.split("?")[0]
    for path in ("/history", "/score", "/join", "/at/3"):
        page.goto(base + path)
        expect(page.locator("main")).to_be_visible()
        assert violations(page) == [], path
    page.goto(base + "/score")
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.__printed === true")
    page.goto(base + "/join")
    viewer = page.locator("a[href*='/v/']").first.get_attribute("href")
    for address in (viewer, "/tally", "/j", "/import", "/"):
        page.goto(str(address))
        expect(page.locator("main")).to_be_visible()
        assert violations(page) == [], path
    assert problems == []
