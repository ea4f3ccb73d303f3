"""Issue 14 item 2 on a phone, in English and Spanish: finish a game whose edition scores fraud cards
left in hand, enter one of Ana's on the score page, and see her total change by the card's effect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from companion.formats.export import score_export
from tests.web.screens.test_hand_cards import hand_scoring_log

WORDS = {
    "en": {
        "locale": "en-GB",
        "import": "Import",
        "end_turn": "End Ana's turn",
        "see_score": "See the final score",
        "final": "Final score",
        "hand": "Cards left in hand",
        "record": "Record this card",
        "ana_left": "Ana: {n} fraud card{s} left in hand",
        "in_words": "Fraud card:",
    },
    "es": {
        "locale": "es-ES",
        "import": "Importar",
        "end_turn": "Terminar el turno de Ana",
        "see_score": "Ver la puntuación final",
        "final": "Puntuación final",
        "hand": "Cartas que quedan en la mano",
        "record": "Anotar esta carta",
        "ana_left": "Ana: {n} carta{s} de fraude en la mano",
        "in_words": "Carta de fraude:",
    },
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_card_left_in_hand_is_entered_on_the_score_page_and_the_total_changes(
    browser: Browser, playwright: Any, base_url: str, lang: str, tmp_path: Path
) -> None:
    words = WORDS[lang]
    _edition, sheet = score_export(hand_scoring_log(True))
    ana = sheet.players[0].total
    log = tmp_path / "almost-over.json"
    log.write_text(json.dumps(hand_scoring_log(True, last_action=69)), encoding="utf-8")

    context = browser.new_context(**playwright.devices["Pixel 7"], locale=words["locale"])
    page = context.new_page()
    page.set_default_timeout(8000)
    page.goto(base_url + "/import")
    page.locator("input[type=file]").set_input_files(str(log))
    page.get_by_role("button", name=words["import"], exact=True).click()
    page.wait_for_function("() => window.htmx !== undefined")

    # The last turn, then the final score, with Ana's and Ben's cards still in hand.
    page.get_by_role("button", name=words["end_turn"]).click()
    page.get_by_role("link", name=words["see_score"]).click()
    expect(page.get_by_role("heading", name=words["final"])).to_be_visible()
    expect(page.get_by_role("heading", name=words["hand"])).to_be_visible()
    expect(page.get_by_text(words["ana_left"].format(n=2, s="s"))).to_be_visible()
    ana_total = page.locator("#score-0").locator("xpath=..").locator(".total dd")
    expect(ana_total).to_have_text(str(ana))

    # One of Ana's cards: always, +5 infamy, tapped on the chips.
    form = page.locator("form[action$='/hand-card']")
    expect(form.locator("input[name=player][value='0']")).to_be_checked()
    expect(form.locator("input[name=eg_requirement][value=always]")).to_be_checked()
    form.locator("label.chip", has=page.locator("input[name=eg_effect][value=infamy]")).click()
    form.locator("label.chip", has=page.locator("input[name=eg_effect_amount][value='5']")).click()
    form.get_by_role("button", name=words["record"]).click()

    # The total moves by exactly the card's effect, and the breakdown says why.
    expect(ana_total).to_have_text(str(ana + 5))
    expect(page.get_by_text(words["ana_left"].format(n=1, s=""))).to_be_visible()
    expect(page.locator("#score-0").locator("xpath=..").get_by_text(words["in_words"]).last).to_be_visible()
    context.close()
