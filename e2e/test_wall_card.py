"""Issue 27: the Wall's fraud card comes in an answer of its own, right after the Wall's options show.

A table plays a card at the Wall as before — no extra tap — while the answer that brought the Wall
carries none of the card's 8–11 KB: the page fetches it as soon as it shows. A loan taken at the Wall
then sends the next loan and the purse, not the Wall's options: the card the page fetched stays, and
its seq is brought to the new one by the page, so playing it is recorded, not refused as out of date.
axe-core finds no violation on the Wall with its card, nor on the card's page of its own (for a
browser without script), in English and in Spanish. A card lost to a dropped connection comes when it
returns.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from e2e.helpers import assert_screen_at_one_seq, create_game, location, settle, stat
from e2e.test_accessibility import _violations

WORDS = {
    "en": {"bring": "Bring in one yellow soul", "wall": "Wall", "page": "Play a fraud card (2 drachmas)"},
    "es": {
        "bring": "Traer un Alma de color amarillo",
        "wall": "Muralla",
        "page": "Jugar una carta de fraude (2 dracmas)",
    },
}


def _at_the_wall(page: Page, lang: str, wait_for_card: bool = True) -> str:
    """A new game of Ana and Ben (the standard layout: the Wall is in the Eagle quarter, shown by 1A);
    Ana brings a yellow soul to 1A and sends her noble to the Wall. Answers the game's address."""
    if lang == "en":
        create_game(page, ["Ana", "Ben"], plague=["yellow", "green"])
    else:
        page.goto("/lang/es?next=/")
        page.get_by_label("Jugador 1", exact=True).fill("Ana")
        page.get_by_label("Jugador 2", exact=True).fill("Ben")
        page.locator("#plague-0").select_option("4")
        page.locator("#plague-1").select_option("3")
        page.locator("#layout").select_option("default")
        page.locator("form button.primary[type=submit]").first.click()
        expect(page.get_by_role("heading", name="Turno de Ana")).to_be_visible()
        page.wait_for_function("() => window.htmx !== undefined")
        settle(page)
    page.get_by_role("link", name=WORDS[lang]["bring"]).click()
    page.get_by_role("button", name=re.compile(r"^1A, ")).click()
    location(page, WORDS[lang]["wall"]).click()
    if wait_for_card:
        expect(page.locator('#fraud-form input[name="fraud_source"]').first).to_be_attached()  # fetched on its own
        settle(page)
    return page.url.split("?")[0]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_no_violation_at_the_wall_nor_on_the_cards_page(page: Page, lang: str) -> None:
    game = _at_the_wall(page, lang)
    found = {"the Wall with its card": _violations(page)}
    page.goto(game + "/card/fraud")  # the link a browser without script follows
    expect(page.get_by_role("heading", level=1, name=WORDS[lang]["page"])).to_be_visible()
    found["the card's page"] = _violations(page)
    assert {name: v for name, v in found.items() if v} == {}


def test_a_card_fetched_at_the_wall_is_played_after_a_loan_there(page: Page) -> None:
    _at_the_wall(page, "en")
    page.evaluate("document.getElementById('fraud-form').dataset.fetched = 'before the loan'")
    drachmas = int(stat(page, "Ana", "Drachmas").inner_text())
    page.get_by_text("Take a loan", exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Take a loan \(")).click()
    expect(stat(page, "Ana", "Drachmas")).to_have_text(str(drachmas + 2))
    settle(page)
    expect(page.locator("#fraud-form")).to_have_attribute(
        "data-fetched", "before the loan"
    )  # the Wall's options stayed
    assert_screen_at_one_seq(page)  # its seq brought to the loan's
    effect = page.get_by_role("radiogroup", name="Effect")
    effect.get_by_role("radio", name=re.compile("half diploma")).click()
    page.get_by_role("button", name="Play the card").click()
    expect(page.get_by_role("listitem", name="Ana")).to_contain_text("played: 1")
    expect(page.locator(".notice.conflict")).to_have_count(0)


def test_a_card_lost_to_a_dropped_connection_comes_when_it_returns(page: Page) -> None:
    """The Wi-Fi drops just as the Wall shows: the card's fetch fails, its place says the choices are on
    their way; when the connection returns, the card comes by itself."""
    lost: list[str] = []

    def drop_the_first(route: Route) -> None:
        if not lost:
            lost.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/card/fraud*", drop_the_first)
    with page.expect_event("requestfailed", lambda request: "/card/fraud" in request.url):
        _at_the_wall(page, "en", wait_for_card=False)
    expect(page.get_by_text("The card's choices are on their way…")).to_be_visible()
    assert lost and page.locator('input[name="fraud_source"]').count() == 0
    expect(page.locator("#offline [data-unsent]")).to_be_hidden()  # no tap was lost: nothing to send again
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the browser does when the Wi-Fi returns
    expect(page.locator('#game #part-actions #fraud-form input[name="fraud_source"]').first).to_be_attached()
    expect(page.locator("#game")).to_have_count(1)  # in its own place: the game around it stays
    assert_screen_at_one_seq(page)
    page.get_by_role("button", name="Play the card").click()
    expect(page.get_by_role("listitem", name="Ana")).to_contain_text("played: 1")
