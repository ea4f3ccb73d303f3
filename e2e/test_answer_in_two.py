"""An answer over its budget comes in two (``screens.parts.answer_later``): the actions, the turn and the undo
bar first, the other players' purses and tracks (then the tiles, then the active player's) in a second answer
the phone asks for at once. Here on a server whose budget is small enough that a bring leaves Ana's purse."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.web import create_app
from e2e.helpers import assert_screen_at_one_seq, create_game, shield, stat
from tests.live_client import serving


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
