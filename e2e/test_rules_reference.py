"""Issue 24, item 8: a citation opens what it cites. A refused tap's "Rule: Reference §x.y" is a link;
tapped in Chromium (Pixel 7), the rules reference opens at that section, its heading on screen and
not under the sticky top bar; the top bar's "Rules" opens the reference from any page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.helpers import create_game, shield


def _uncovered(page: Page, selector: str) -> None:
    """The element is in the viewport and what is drawn at its centre is the element itself (not the
    sticky top bar)."""
    heading = page.locator(selector)
    expect(heading).to_be_in_viewport()
    on_top = heading.evaluate(
        """h => { const r = h.getBoundingClientRect();
        const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return e !== null && h.contains(e); }"""
    )
    assert on_top, f"{selector} is covered"


def test_a_refused_tap_links_to_the_section_it_cites(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    shield(page, "1B", "button").click()
    page.get_by_role("button", name="Bank").click()
    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    shield(page, "1B", "link").click()
    shield(page, "4C", "button").click()  # refused: the soul stops on the first empty shield
    refusal = page.locator("#refusal-move")
    expect(refusal).to_contain_text("first empty shield")
    link = refusal.locator(".rule a")
    expect(link).to_have_text("Rulebook p. 11")  # the falling rule, as the rulebook cites itself
    link.click()
    expect(page).to_have_url(re.compile(r"/rules#p11$"))
    expect(page.locator("#p11")).to_contain_text("Rulebook p. 11: Moving a soul: it falls past taken shields")
    _uncovered(page, "#p11 strong")


def test_the_top_bar_opens_the_reference_and_a_section_opens_under_the_bar(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page.get_by_role("heading", name="Rules reference")).to_be_visible()
    page.goto("/lang/es?next=/")
    page.goto("/rules#s10-15")
    _uncovered(page, "#s10-15-title")
    expect(page.locator("#s10-15-title")).to_have_text("§10.15 Los efectos exactos de los guardianes")
    expect(page.locator("#s10-15")).to_contain_text("Desconocido")
    page.locator("#s3-3").get_by_role("link", name="§4.6").click()  # a section pointing to another
    _uncovered(page, "#s4-6-title")
