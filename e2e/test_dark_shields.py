"""Issue 24, item 6: the quarter letter on a highlighted shield is readable in dark mode (and in light
mode): its contrast with the shield's fill is measured in Chromium, every highlighted shield."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, expect

from e2e.helpers import create_game

CONTRAST = """() => {
  const rgb = (c) => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = rgb(c).map(channel); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const lit = '.cell.tap-bring, .cell.tap-land, .cell.tap-confirm, .cell.tap-ferry, .cell.tap-guard';
  return [...document.querySelectorAll(lit)]
    .filter(c => c.querySelector('.quarter'))
    .map(c => [c.getAttribute('aria-label') || '', ratio(getComputedStyle(c.querySelector('.quarter')).fill,
                                                        getComputedStyle(c.querySelector('.shield')).fill)]);
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_quarter_letter_on_a_highlighted_shield_is_readable(
    browser: Browser, playwright: Any, base_url: str, scheme: Literal["dark", "light"], tmp_path: Any
) -> None:
    context = browser.new_context(**playwright.devices["Pixel 7"], color_scheme=scheme, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(8000)
    try:
        create_game(page, ["Ana", "Ben"], plague=["purple", "green", "blue", "red"])
        page.get_by_role("link", name="Bring in one purple soul").click()
        expect(page.locator(".cell.tap-bring").first).to_be_visible()
        measured = page.evaluate(CONTRAST)
        assert measured, "no highlighted shield with a quarter letter"
        low = [(label, round(r, 2)) for label, r in measured if r < 4.5]
        assert not low, f"{scheme}: the quarter letter is hard to read on {low}"
        page.locator("svg").first.screenshot(path=str(tmp_path / f"shields-{scheme}.png"))
    finally:
        context.close()
