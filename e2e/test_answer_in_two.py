"""An answer over its budget comes in two (``screens.parts.answer_later``): the actions, the turn and the undo
bar first, the other players' purses and tracks (then the tiles, then the active player's) in a second answer
the phone asks for at once. Here on a server whose budget is small enough that a bring leaves Ana's purse."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, expect

from companion.web import create_app
from e2e.helpers import assert_screen_at_one_seq, create_game, location, settle, shield, stat
from testkit.live_client import serving


@pytest.fixture(scope="module")
def small_budget() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="companion-e2e-budget-")
    app = create_app({"DATABASE": str(Path(folder) / "e2e.sqlite3"), "SECRET_KEY": "e2e", "ANSWER_BUDGET": 1800})
    with serving(app) as (host, port):
        yield f"http://{host}:{port}"
    shutil.rmtree(folder, ignore_errors=True)


def test_the_parts_left_for_a_second_answer_arrive_and_the_screen_holds_the_whole_game(
    page: Page, small_budget: str
) -> None:
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"], server=small_budget)
    expect(stat(page, "Ana", "Drachmas")).to_have_text("3")
    answers: list[str] = []
    page.on("response", lambda r: answers.append(r.headers.get("hx-trigger-after-settle") or ""))
    page.get_by_role("link", name="Bring in one blue soul").click()
    shield(page, "1D", "button").click()
    expect(page.get_by_role("heading", name="Florence phase")).to_be_visible()  # in the first answer
    expect(stat(page, "Ana", "Drachmas")).to_have_text("2")  # Charon's drachma: Ana's purse, in the second
    assert any('"more": true' in a for a in answers), answers
    assert_screen_at_one_seq(page)
    shown = page.locator("#game").get_attribute("data-parts")
    page.reload()
    assert page.locator("#game").get_attribute("data-parts") == shown  # every part is the fresh page's


FRESH_AT_URL = """async () => {
  const answer = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  const found = (await answer.text()).match(/data-parts="([^"]*)"/);
  return found ? found[1] : null;
}"""


def test_a_page_reloaded_mid_guardian_takes_its_next_tap_in_two_answers_under_8_kb(page: Page) -> None:
    """A page reloaded in the middle of a guardian's choice is drawn for a browser without script (a link on every
    empty shield); the next tap, from htmx, turns them back to their steady taps. The guardian's new shield comes in
    the first answer, the other shields in the second, each under 8 KB, and the screen ends as the page drawn
    afresh at that step."""
    create_game(page, ["Ana", "Ben"], plague=["blue", "green"])
    page.get_by_role("link", name="Bring in one blue soul").click()
    shield(page, "1D", "button").click()  # 1D shows the Lily: the Bonfire this turn
    location(page, "Bonfire").click()
    expect(page.get_by_role("heading", name="Bonfire")).to_be_visible()
    page.get_by_role("link", name="Medusa").click()
    expect(page).to_have_url(re.compile(r"guardian=medusa"))
    page.reload()  # the whole page at ?guardian=medusa: a link on every empty shield
    settle(page)
    answers: list[tuple[str, int]] = []

    def heard(response: Response) -> None:
        if response.request.headers.get("hx-request"):
            answers.append((response.headers.get("hx-trigger-after-settle") or "", len(response.body())))

    page.on("response", heard)
    shield(page, "2B", "link").click()
    expect(page.locator("#part-s-2b .is-selected")).to_have_count(1)  # Medusa's new shield, chosen
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    page.wait_for_function(f"() => ({FRESH_AT_URL})().then(f => f === document.getElementById('game').dataset.parts)")
    assert len(answers) == 2 and '"more": true' in answers[0][0], answers
    assert all(size <= 8 * 1024 for _, size in answers), answers
    assert_screen_at_one_seq(page)
