"""Issue 23's switch journey on a phone (Chromium, Pixel 7): a game is switched mid-play after the
table corrects its board where a played entry depends on it, the entries from there are recorded
again ("Switch from there"), the one no longer legal is entered again, and the game is finished and
scored. The corrected edition is saved in the test's own set-up (the editor has journeys of its own).

The plan, tried through ``GameService`` first: a plague card of one purple soul. Ana brings it to 1A
(Eagle), the plague deck runs out, she sends a noble to the Banquet. Ben moves it 1A → 2B, where the
shipped estimate shows the Cross: laid down (purple is circle 2's colour), +1 infamy, and a noble to
the Courtyard (Cross). Our board shows the Eagle on 2B (and the Cross on 2D): Ben's move now sets the
Eagle quarter, so the Courtyard is no longer his free location. After the switch Ben sends a noble to
the Banquet instead and ends his turn; Ana has no soul to move and the Cemetery and the deck are
empty: sudden death. Ben scores 1 (the purple soul laid on 2B), Ana 0.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from companion.editions.library import validated
from companion.web import create_app
from companion.web.http.db import service
from e2e.helpers import location, shield
from testkit.live_client import serving


@pytest.fixture(scope="module")
def table_server() -> Iterator[tuple[Flask, str]]:
    """A server of its own, so the test's set-up can save the table's corrected edition in its database."""
    folder = tempfile.mkdtemp(prefix="companion-e2e-switch-")
    app = create_app({"DATABASE": str(Path(folder) / "e2e.sqlite3"), "SECRET_KEY": "e2e"})
    with serving(app) as (host, port):
        yield app, f"http://{host}:{port}"
    shutil.rmtree(folder, ignore_errors=True)


def _our_copy(app: Flask) -> str:
    """The shipped board with 2B showing the Eagle and 2D the Cross, saved as "Our copy"."""
    with app.app_context():
        svc = service()
        raw = json.loads(json.dumps(next(iter(svc.library.shipped.values()))[1].raw))
        row = raw["sides"][0]["circles"]["2"]
        row[1]["quarter"], row[3]["quarter"] = row[3]["quarter"], row[1]["quarter"]
        raw["name"] = "Our copy"
        text, _ = validated(raw)
        return svc.library.save_edition("Our copy", text).content_hash


def test_a_game_switched_from_a_played_entry_is_re_recorded_finished_and_scored(
    page: Page, table_server: tuple[Flask, str]
) -> None:
    app, url = table_server
    failures: list[str] = []
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    ours = _our_copy(app)

    # the game: two players, a plague card of one purple soul, the standard Florence layout
    page.goto(f"{url}/")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    slots = page.locator("select[name=plague]").count()
    page.get_by_label("Soul 1", exact=True).select_option(label="purple")
    for i in range(2, slots + 1):
        page.get_by_label(f"Soul {i}", exact=True).select_option(label="—")
    page.get_by_label("Florence location tiles").select_option("default")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Ana's turn")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")
    game_url = page.url
    expect(page.locator("#edition-note")).to_contain_text("This board is an estimate")

    # Ana brings the purple soul to 1A (Eagle); the deck is empty; a noble to the Banquet
    page.get_by_role("link", name="Bring in one purple soul").click()
    shield(page, "1A").click()
    page.get_by_role("button", name="The plague deck is empty").click()
    location(page, "Banquet").click()
    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()

    # Ben moves it 1A → 2B (the Cross on the estimate) and sends a noble to the Courtyard
    shield(page, "1A", "link").click()
    shield(page, "2B").click()
    location(page, "Courtyard").click()
    expect(page.get_by_role("button", name="End Ben's turn")).to_be_visible()

    # the table checks its board: 2B shows the Eagle. The preview names Ben's move and what changes
    page.goto(f"{url}{game_url.split(url, 1)[1].split('?')[0]}/edition?to={ours}")
    breaks = page.locator("#switch-breaks")
    expect(breaks).to_contain_text(re.compile(r"Entry #\d+ would be recorded otherwise on this board"))
    expect(breaks).to_contain_text("Ben moved")
    expect(breaks).to_contain_text("Instead:")
    expect(breaks).to_contain_text("Eagle")
    expect(page.locator("ul.dropped")).to_contain_text("Courtyard")
    expect(page.locator("#for-this-game")).to_contain_text("Shield 2B shows the Eagle, not the Cross")
    body = page.inner_text("body")
    assert "sides[" not in body and "circles[" not in body and "{'" not in body

    # "Switch from there": Ben's move is recorded again (the Eagle now), the Courtyard is to enter again
    page.get_by_role("button", name="Switch from there").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    expect(page.locator("#edition-note")).to_contain_text("Our copy")
    page.wait_for_function("() => window.htmx !== undefined")

    # one undo takes the whole switch back, one redo puts it back
    page.get_by_role("button", name="Undo last entry").click()
    expect(page.locator("#edition-note")).to_contain_text("This board is an estimate")
    expect(page.get_by_role("button", name="End Ben's turn")).to_be_visible()  # the Courtyard is back
    page.get_by_role("button", name="Redo").click()
    expect(page.locator("#edition-note")).to_contain_text("Our copy")

    # Ben enters his Florence action again: the Banquet (Eagle); then the game ends by sudden death
    location(page, "Banquet").click()
    page.get_by_role("button", name="End Ben's turn").click()
    expect(page.get_by_role("heading", name="The game is over")).to_be_visible()
    page.get_by_role("link", name="See the final score").click()
    expect(page.get_by_role("heading", name="Final score")).to_be_visible()
    ranking = page.locator("ol.ranking li")
    totals = [(r.locator("strong").inner_text(), r.locator(".total").inner_text()) for r in ranking.all()]
    assert totals == [("Ben", "1"), ("Ana", "0")]

    # the history tells the switch in words, in English and Spanish
    game_id = re.search(r"/g/([^/?#]+)", game_url)
    assert game_id is not None
    page.goto(f"{url}/g/{game_id.group(1)}/history")
    expect(page.locator("body")).to_contain_text("were taken back and recorded again")
    expect(page.locator("body")).to_contain_text("enter it again")
    page.get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("body")).to_contain_text("se deshicieron y se anotaron de nuevo")
    assert failures == []
