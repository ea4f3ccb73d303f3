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
        "shipped": "Inferno (Red Mojo Games, 2024) with Plutus & Phlegyas",
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
        "shipped": "Inferno (Red Mojo Games, 2024) con Pluto y Flegias",  # the shipped edition's name, in Spanish
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


def _cell(page: Page, shield: str):
    """A shield of the map of Hell, whatever tapping it does."""
    return page.locator(f'svg.hell [aria-label^="{shield}, "]')


def _new_game(page: Page, w: dict[str, str], edition: str | None = None) -> None:
    page.goto("/")
    page.get_by_label(w["player"].format(n=1), exact=True).fill("Ana")
    page.get_by_label(w["player"].format(n=2), exact=True).fill("Ben")
    page.locator("#plague-0").select_option("9")
    page.locator("#plague-1").select_option("3")
    page.locator("#plague-2").select_option("5")  # nothing is pre-filled: a third soul keeps the Cemetery from emptying
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

    draft = page.url.split("?")[0]

    def circle(number: int) -> None:
        page.locator(f"#q-circle-0-{number} a").click() if "/q/" not in page.url else page.goto(
            f"{draft}/q/circle-0-{number}?mode=edit"
        )
        expect(page.locator("#circle-taps")).to_be_visible()

    def shield(name: str) -> None:
        page.locator("#circle-taps .shield-button", has_text=name).first.click()

    # a shield's symbol: 1A turns from the Eagle to the Key, on the circle and on the map preview
    circle(1)
    shield("1A")
    page.locator("#circle-taps .symbol-choice", has_text=w["key"]).click()
    expect(page.locator("#picture-words")).to_contain_text(f"1A {w['key']}")

    # a circle left invalid is refused when the table leaves it, naming the shield
    circle(2)
    shield("2E")
    page.get_by_role("button", name=w["unlink"].format(a="2E", b="3E")).click()
    page.locator("#done").click()
    expect(page.get_by_role("alert")).to_contain_text(re.compile("2E", re.I))
    shield("2E")
    page.get_by_role("button", name=w["link"].format(a="2E", b="3E")).click()
    page.locator("#done").click()
    expect(page.locator("#check-progress")).to_be_visible()

    # unlink and link a line: 1B no longer reaches 2B, and now reaches 2A
    circle(1)
    shield("1B")
    page.get_by_role("button", name=w["unlink"].format(a="1B", b="2B")).click()
    page.get_by_role("button", name=w["link"].format(a="1B", b="2A")).click()
    expect(page.locator("#picture-words")).to_contain_text("1B → 2C/2A")
    page.locator("#done").click()

    # circle 3's infamy
    circle(3)
    page.locator("[name='v:circles[2].infamy']").fill("6")
    page.locator("#done").click()
    page.goto(f"{draft}/q/circle-0-3")
    expect(page.locator("#picture-words")).to_contain_text("6")
    page.goto(draft)
    expect(_cell(page, "1A")).to_have_attribute("aria-label", re.compile(rf"1A, {w['circle']} 1, {w['key']}"))

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
    _new_game(page, w, edition=w["shipped"])
    expect(_cell(page, "1A")).not_to_have_attribute("aria-label", re.compile(w["key"]))
    page.get_by_role("link", name=w["switch_edition"]).click()
    page.get_by_role("link", name=w["preview"]).click()
    expect(page.get_by_role("status")).to_contain_text(w["holds"])
    page.get_by_role("button", name=w["switch"]).click()
    expect(page.get_by_role("heading", name=w["turn"].format(name="Ana"))).to_be_visible()
    expect(_cell(page, "1A")).to_have_attribute("aria-label", re.compile(rf"1A, {w['circle']} 1, {w['key']}"))
    page.get_by_role("link", name=w["history"], exact=True).first.click()
    expect(page.get_by_text(w["switched"])).to_be_visible()
