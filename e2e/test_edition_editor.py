"""Issue 15's journey, in English and in Spanish: correct the board in the editor, save it as
"Our copy", play a game on it (a move along the new line), and switch a running game to it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

WORDS = {
    "en": {
        "edit": "Edit a copy",
        "shield": "Shield",
        "lines": "Lines",
        "choose": "Choose {s} to edit its lines down",
        "unlink": "Unlink {a} from {b}",
        "link": "Link {a} to {b}",
        "infamy": "Infamy on arrival",
        "apply": "Apply",
        "name": "Name",
        "save": "Save",
        "saved": "Saved as “Our copy”",
        "player": "Player {n}",
        "layout": "Florence location tiles",
        "start": "Start the game",
        "turn": "{name}'s turn",
        "bank": "Bank",
        "banquet": "Banquet",
        "end": "End {name}'s turn",
        "landing": "A legal landing",
        "key": "Key",
        "circle": "circle",
        "switch_edition": "Switch the edition",
        "preview": "Preview: Our copy",
        "holds": "Every entry still holds",
        "switch": "Switch the game to this edition",
        "history": "History",
        "switched": "switched the game to the edition “Our copy”",
        "soul": "ice-blue soul",
    },
    "es": {
        "edit": "Editar una copia",
        "shield": "Escudo",
        "lines": "Líneas",
        "choose": "Elegir {s} para editar sus líneas hacia abajo",
        "unlink": "Separar {a} de {b}",
        "link": "Unir {a} con {b}",
        "infamy": "Infamia al llegar",
        "apply": "Aplicar",
        "name": "Nombre",
        "save": "Guardar",
        "saved": "Guardada como «Our copy»",
        "player": "Jugador {n}",
        "layout": "Losetas de ubicación de Florencia",
        "start": "Empezar la partida",
        "turn": "Turno de {name}",
        "bank": "Banca",
        "banquet": "Banquete",
        "end": "Terminar el turno de {name}",
        "landing": "Destino válido",
        "key": "Llave",
        "circle": "círculo",
        "switch_edition": "Cambiar la edición",
        "preview": "Vista previa: Our copy",
        "holds": "Todas las entradas siguen valiendo",
        "switch": "Cambiar la partida a esta edición",
        "history": "Historial",
        "switched": "cambió la partida a la edición «Our copy»",
        "soul": "azul hielo",
    },
}

SHIPPED = "Inferno (Red Mojo Games, 2024) with Plutus & Phlegyas"


def _cell(page: Page, shield: str):  # type: ignore[no-untyped-def]
    """A shield of the map of Hell, whatever tapping it does."""
    return page.locator(f'svg.hell [aria-label^="{shield}, "]')


def _new_game(page: Page, w: dict[str, str], edition: str | None = None) -> None:
    page.goto("/")
    page.get_by_label(w["player"].format(n=1), exact=True).fill("Ana")
    page.get_by_label(w["player"].format(n=2), exact=True).fill("Ben")
    page.locator("#plague-0").select_option("9")
    page.locator("#plague-1").select_option("3")
    if edition:
        page.locator("#edition").select_option(label=edition)
    page.get_by_label(w["layout"]).select_option("default")
    page.get_by_role("button", name=w["start"]).click()
    expect(page.get_by_role("heading", name=w["turn"].format(name="Ana"))).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_correct_the_board_play_on_it_and_switch_a_running_game(page: Page, lang: str) -> None:
    w = WORDS[lang]
    page.goto(f"/lang/{lang}?next=/editions")
    page.get_by_role("button", name=w["edit"]).first.click()

    # a shield's symbol: 1A turns from the Eagle to the Key, in the editor and on the map preview
    symbol = page.get_by_role("button", name=re.compile(rf"^{w['shield']} 1A:"))
    symbol.click()
    expect(page.get_by_role("button", name=re.compile(rf"^{w['shield']} 1A:"))).to_have_text("1A K")
    expect(_cell(page, "1A")).to_have_attribute("aria-label", re.compile(rf"1A, {w['circle']} 1, {w['key']}"))

    # an invalid change is refused with the validator's message, naming the entry
    page.get_by_role("link", name=w["lines"], exact=True).click()
    page.get_by_role("link", name=w["choose"].format(s="2E")).click()
    page.get_by_role("button", name=w["unlink"].format(a="2E", b="3E")).click()
    expect(page.get_by_role("alert")).to_contain_text("shield '2e' has no line down")

    # unlink and link a line: 1B no longer reaches 2B, and now reaches 2A
    page.get_by_role("link", name=w["choose"].format(s="1B")).click()
    page.get_by_role("button", name=w["unlink"].format(a="1B", b="2B")).click()
    page.get_by_role("button", name=w["link"].format(a="1B", b="2A")).click()
    expect(page.locator("#circle-1 .lines-down")).to_contain_text("1B → 2C/2A")

    # circle 3's infamy
    circle3 = page.locator("#circle-3")
    circle3.get_by_label(w["infamy"]).fill("6")
    circle3.get_by_role("button", name=w["apply"]).click()
    expect(page.locator("#circle-3").get_by_label(w["infamy"])).to_have_value("6")

    # saved as "Our copy", it is this phone's edition for the next game
    page.get_by_label(w["name"], exact=True).fill("Our copy")
    page.get_by_role("button", name=w["save"], exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(w["saved"])
    page.goto("/")
    expect(page.locator("#edition option:checked")).to_have_text("Our copy")

    # a game on it: the map follows, and a soul falls along the new line 1B → 2A
    _new_game(page, w)
    expect(_cell(page, "1A")).to_have_attribute("aria-label", re.compile(rf"1A, {w['circle']} 1, {w['key']}"))
    page.locator('a[href*="select=cemetery-9"]').first.click()
    page.get_by_role("button", name=re.compile(r"^1B, ")).click()
    page.get_by_role("button", name=w["bank"]).click()
    page.get_by_role("button", name=w["end"].format(name="Ana")).click()
    page.locator('a[href*="select=cemetery-3"]').first.click()
    page.get_by_role("button", name=re.compile(r"^1E, ")).click()
    page.get_by_role("button", name=w["banquet"]).click()
    page.get_by_role("button", name=w["end"].format(name="Ben")).click()
    page.get_by_role("link", name=re.compile(r"^1B, ")).click()
    landing = page.get_by_role("button", name=re.compile(r"^2A, "))
    expect(landing).to_have_accessible_name(re.compile(w["landing"]))
    landing.click()
    expect(_cell(page, "2A")).to_have_attribute("aria-label", re.compile(w["soul"]))

    # a running game on the shipped edition is switched to "Our copy" through the preview
    _new_game(page, w, edition=SHIPPED)
    expect(_cell(page, "1A")).not_to_have_attribute("aria-label", re.compile(w["key"]))
    page.get_by_role("link", name=w["switch_edition"]).click()
    page.get_by_role("link", name=w["preview"]).click()
    expect(page.get_by_role("status")).to_contain_text(w["holds"])
    page.get_by_role("button", name=w["switch"]).click()
    expect(page.get_by_role("heading", name=w["turn"].format(name="Ana"))).to_be_visible()
    expect(_cell(page, "1A")).to_have_attribute("aria-label", re.compile(rf"1A, {w['circle']} 1, {w['key']}"))
    page.get_by_role("link", name=w["history"], exact=True).first.click()
    expect(page.get_by_text(w["switched"])).to_be_visible()
