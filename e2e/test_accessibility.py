"""Issue 24, accessibility: axe-core finds no violation on any page a table meets, in English and in
Spanish — the game page (as it starts and with a soul being brought in), its history, score and
join pages, the big screen, the editions, the check, the tally, the imports, our games and an error page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import create_game, settle

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
WORDS = {
    "en": {"bring": "Bring in one ice-blue soul", "check": "Check against your board"},
    "es": {"bring": "Traer un Alma de color azul hielo", "check": "Comprobar con tu tablero"},
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
