"""Goal 3 of "Your board in ten minutes", tapped as a table would on a Pixel 7, in English and in
Spanish: a board equal to the estimate checked and saved in at most 40 taps, and a board with seven
differences (a line, two symbols swapped, a circle's infamy, the Phlegethon scale, the start florins,
the loan penalties, a guardian's start) checked, corrected and saved in at most 70."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import Taps

WORDS = {
    "en": {"check": "Check against your board", "matches": "Matches", "different": "Different", "save": "Save"},
    "es": {"check": "Comprobar con tu tablero", "matches": "Coincide", "different": "Es distinto", "save": "Guardar"},
}


def _start(page: Page, lang: str, base_url: str) -> Taps:
    page.context.set_extra_http_headers({"Accept-Language": lang})
    page.goto(f"{base_url}/editions")
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name=WORDS[lang]["check"]).first)
    return taps


def _question(page: Page) -> str:
    match = re.search(r"/q/([\w-]+)", page.url)
    return match.group(1) if match else ""


def _save(page: Page, taps: Taps, lang: str, name: str) -> dict[str, Any]:
    page.locator("#edition-name").fill(name)  # typing a name is not a tap on the board
    taps.tap(page.locator("#save-button"))
    expect(page.locator(".notice.info")).to_contain_text(name)
    href = page.locator(".edition-item", has_text=name).get_by_role("link").last.get_attribute("href")
    assert href is not None
    return dict(json.loads(page.request.get(href).text()))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_board_equal_to_the_estimate_is_checked_and_saved_in_at_most_40_taps(
    page: Page, base_url: str, lang: str
) -> None:
    taps = _start(page, lang, base_url)
    while _question(page):
        taps.tap(page.locator("#matches"))
    saved = _save(page, taps, lang, f"Exact copy {lang}")
    assert taps.count <= 40, taps.count
    assert saved["checks"] and saved["sides"][0]["source"]["geometry"] == "checked"
    print(f"\n[{lang}] a board equal to the estimate: {taps.count} taps")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_board_with_seven_differences_is_corrected_and_saved_in_at_most_70_taps(
    page: Page, base_url: str, lang: str
) -> None:
    words = WORDS[lang]
    taps = _start(page, lang, base_url)
    while key := _question(page):
        if key == "circle-0-2":  # a line from 2B down to 3A that the estimate lacks
            taps.tap(page.locator("#different"))
            taps.tap(page.locator("#circle-taps .shield-button", has_text="2B"))
            taps.tap(page.locator("#circle-taps form:has(input[name=other][value='3a']) button"))
            taps.tap(page.locator("#done"))
        elif key == "circle-0-3":  # 3A and 3B carry each other's symbols
            taps.tap(page.locator("#different"))
            taps.tap(page.locator("#circle-taps .shield-button", has_text="3A"))
            taps.tap(
                page.locator(
                    "#circle-taps form:has(input[name=op][value=swap]):has(input[name=other][value='3b']) button"
                )
            )
            taps.tap(page.locator("#done"))
        elif key == "circle-0-4":  # circle 4 scores 3 infamy, not 2
            taps.tap(page.locator("#different"))
            taps.fill(page.locator("[name='v:circles[3].infamy']"), "3")
            taps.tap(page.locator("#done"))
        elif key in ("phlegethon", "purse", "loan_track"):
            field, value = {
                "phlegethon": ("v:phlegethon.scale", "1 2 3 5 8"),
                "purse": ("v:economy.start_florins", "4"),
                "loan_track": ("v:loan_track.penalties", "0 1 3 5 7 10 13"),
            }[key]
            taps.tap(page.locator("#different"))
            taps.fill(page.locator(f"[name='{field}']"), value)
            taps.tap(page.locator("#done"))
        elif key == "guardian-0":  # Medusa starts on circle 5
            taps.tap(page.locator("#different"))
            taps.choose(page.locator("[name='v:guardians[0].start.circle']"), "5")
            taps.tap(page.locator("#done"))
        else:
            taps.tap(page.locator("#matches"))
        expect(page.locator("#question-error")).to_have_count(0)
    saved = _save(page, taps, lang, f"Our copy {lang}")
    assert taps.count <= 70, taps.count
    side = saved["sides"][0]
    assert "3a" in side["lines"]["2b"]
    row3 = {e["id"]: e["quarter"] for e in side["circles"]["3"]}
    assert (row3["3a"], row3["3b"]) == ("lily", "cross")
    assert saved["circles"][3]["infamy"] == 3 and saved["phlegethon"]["scale"] == [1, 2, 3, 5, 8]
    assert saved["economy"]["start_florins"] == 4 and saved["loan_track"]["penalties"][2] == 3
    assert saved["guardians"][0]["start"]["circle"] == 5
    assert all(
        ok == "checked" for ok in [saved["circles"][3]["source"]["infamy"], saved["economy"]["source"]["start_florins"]]
    )
    assert words["different"]  # the journey used the buttons' words in this language
    print(f"\n[{lang}] a board with seven differences: {taps.count} taps")
