"""Issue 24, accessibility: axe-core finds no violation on any page a table meets, in English and in
Spanish — the game page (as it starts and with a soul being brought in), its history, score and
join pages, the big screen, the editions, the check, the tally, the imports, our games and an error page;
after a game: its score, the play-again step (as asked and as refused), our games, and the rules reference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import create_game, settle
from tests.web.pages.test_after_game import timed_log

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
WORDS = {
    "en": {"bring": "Bring in one ice-blue soul", "check": "Check against your board"},
    "es": {"bring": "Traer un Alma de color azul hielo", "check": "Comprobar con tu tablero"},
}
AFTER = {
    "en": {"import": "Import", "again": "Same table, new game", "start": "Start the new game"},
    "es": {"import": "Importar", "again": "Misma mesa, partida nueva", "start": "Empezar la nueva partida"},
}


def _violations(page: Page) -> list[Any]:
    """axe-core's violations on the page as it stands (run through the DevTools protocol, so the
    page's own Content Security Policy stays as strict as ever)."""
    page.wait_for_load_state("load")
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    page.evaluate(AXE)
    where = "v.nodes.map(n => n.target.join(' ')).slice(0, 3)"
    return list(page.evaluate(f"axe.run().then(r => r.violations.map(v => [v.id, v.impact, {where}]))"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_no_violation_on_any_page(page: Page, base_url: str, lang: str) -> None:
    page.goto(f"{base_url}/lang/{lang}?next=/")
    found: dict[str, list[Any]] = {}

    def scan(name: str, url: str | None = None) -> None:
        if url:
            page.goto(url if url.startswith("http") else base_url + url)
        found[name] = _violations(page)

    for name, url in [
        ("home", "/"),
        ("editions", "/editions"),
        ("import", "/import"),
        ("tally", "/tally"),
        ("our games", "/our-games"),
        ("not found", "/g/no-such-game"),
    ]:
        scan(name, url)
    page.goto(f"{base_url}/editions")
    page.get_by_role("button", name=WORDS[lang]["check"]).first.click()
    expect(page.locator("#matches")).to_be_visible()
    scan("a circle of the check")
    page.locator("#different").click()
    page.locator("#circle-taps .shield-button").first.click()
    expect(page.locator(".symbol-choice").first).to_be_visible()
    scan("a circle being corrected")
    scan("a part of the box", page.url.split("/q/")[0] + "/q/dante?mode=edit")
    scan("the draft", page.url.split("/q/")[0])

    page.goto(f"{base_url}/")
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green"]) if lang == "en" else _create_es(page)
    settle(page)
    game = page.url.split("?")[0]
    scan("the game")
    page.get_by_role("link", name=WORDS[lang]["bring"]).click()
    expect(page.locator("#map-prompt")).to_be_visible()
    scan("the game, bringing a soul")
    for name, suffix in [("history", "/history"), ("score", "/score"), ("switch", "/edition"), ("join", "/join")]:
        scan(name, game + suffix)
    viewer = page.locator("a[href*='/v/']").first.get_attribute("href")  # on the join page
    assert viewer is not None
    scan("the big screen", viewer)
    assert {name: v for name, v in found.items() if v} == {}


def _create_es(page: Page) -> None:
    page.get_by_label("Jugador 1", exact=True).fill("Ana")
    page.get_by_label("Jugador 2", exact=True).fill("Ben")
    page.locator("#plague-0").select_option("9")
    page.locator("#plague-1").select_option("3")
    page.get_by_role("button", name="Empezar la partida").click()
    expect(page.get_by_role("heading", name="Turno de Ana")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_no_violation_after_a_game(page: Page, base_url: str, lang: str, tmp_path: Path) -> None:
    words = AFTER[lang]
    page.goto(f"{base_url}/lang/{lang}?next=/")
    log = tmp_path / "finished.json"
    log.write_text(json.dumps(timed_log()), encoding="utf-8")
    page.goto(base_url + "/import")
    page.locator("input[type=file]").set_input_files(str(log))
    page.get_by_role("button", name=words["import"], exact=True).click()
    game = page.url.split("?")[0]
    found: dict[str, list[Any]] = {}
    page.goto(game + "/score")
    found["the final score"] = _violations(page)
    page.get_by_role("button", name=words["again"]).click()
    expect(page.locator("select[name=plague]").first).to_be_visible()
    found["play again: the first plague card"] = _violations(page)
    page.get_by_role("button", name=words["start"]).click()  # nothing chosen: refused with a message
    expect(page.locator("#error-plague")).to_be_visible()
    found["play again, refused"] = _violations(page)
    for name, url in [("our games with a finished game", "/our-games"), ("the rules reference", "/rules#s4-3")]:
        page.goto(base_url + url)
        found[name] = _violations(page)
    assert {name: v for name, v in found.items() if v} == {}
