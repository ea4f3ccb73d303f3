"""Issue 24, the big screen on a TV: at 1920 × 1080 the map of Hell and the score stand side by side,
the whole map within the screen's height, and nothing on it is a control."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from e2e.helpers import create_game


def test_the_big_screen_shows_the_map_and_the_score_side_by_side_on_a_tv(
    page: Page, browser: Browser, base_url: str
) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green"])
    page.goto(page.url.split("?")[0] + "/join")
    viewer = page.locator("a[href*='/v/']").first.get_attribute("href")
    assert viewer is not None
    tv_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        tv = tv_context.new_page()
        tv.goto(viewer)
        hell = tv.locator(".hell-stack")
        score = tv.locator("#viewer-score")
        expect(hell).to_be_visible()
        expect(score).to_be_visible()
        map_box: Any = hell.bounding_box()
        score_box: Any = score.bounding_box()
        assert score_box["x"] >= map_box["x"] + map_box["width"]  # beside the map, not 2,000 px below it
        assert map_box["y"] + map_box["height"] <= 1080 + 60  # the map in one screen (the last row's edge at most)
        assert tv.locator("main :is(button, input, select, textarea):visible").count() == 0  # nothing to tap
        if os.environ.get("E2E_SCREENSHOTS"):
            tv.screenshot(path=str(Path(os.environ["E2E_SCREENSHOTS"]) / "big-screen.png"))
    finally:
        tv_context.close()
