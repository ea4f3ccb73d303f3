"""Issue 23's sharing journey: a table imports a checked board and saves it, shares it by its link
(and QR code); a second phone (its own browser context) opens the link, uses the edition in one tap
and starts a new game with it. The first phone's drafts and editions stay its own."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.editions import library
from e2e.helpers import second_phone

WORDS = {
    "en": {
        "file": "Edition file (.json)",
        "import": "Import and edit",
        "name": "Name",
        "save": "Save",
        "share": "Share with another phone",
        "checked": "Every value of the board has been checked against a real board.",
        "claimed": "Checked values claimed by ‘Lucia's board’",
        "checked_on": "Checked against your board on",
        "use": "Use it on this phone",
        "used": "is now this phone's edition for new games",
        "start_with": "Start a new game with it",
        "player": "Player {n}",
        "layout": "Florence location tiles",
        "start": "Start the game",
        "turn": "Ana's turn",
        "uses": "This game uses “Our checked board”.",
    },
    "es": {
        "file": "Archivo de edición (.json)",
        "import": "Importar y editar",
        "name": "Nombre",
        "save": "Guardar",
        "share": "Compartir con otro móvil",
        "checked": "Todos los valores del tablero se han comprobado con un tablero real.",
        "claimed": "Valores comprobados según ‘Lucia's board’",
        "checked_on": "Comprobado con vuestro tablero el",
        "use": "Usarla en este móvil",
        "used": "es ahora la edición de este móvil para las partidas nuevas",
        "start_with": "Empezar una partida nueva con ella",
        "player": "Jugador {n}",
        "layout": "Losetas de ubicación de Florencia",
        "start": "Empezar la partida",
        "turn": "Turno de Ana",
        "uses": "Esta partida usa «Our checked board».",
    },
}

SHIPPED = Path(__file__).resolve().parents[1] / "companion" / "editions" / "inferno-base.json"


def _checked_file() -> bytes:
    """The shipped board with circle 3's infamy corrected and every value checked, as a table's file."""
    raw = library.with_name(json.loads(SHIPPED.read_text(encoding="utf-8")), "Lucia's board")
    raw = library.set_number(raw, "circles[2].infamy", 9)
    for path in library.check_progress(raw)[2]:
        raw = library.mark_checked(raw, path, "2026-11-30")
    return library.to_text(raw).encode("utf-8")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_checked_edition_is_shared_by_its_link_and_used_for_a_new_game_on_another_phone(
    page: Page, browser: Browser, playwright: Any, lang: str
) -> None:
    w = WORDS[lang]
    # phone 1 imports the checked file and saves it under a name
    page.goto(f"/lang/{lang}?next=/editions")
    page.get_by_label(w["file"]).set_input_files(
        {"name": "lucia.json", "mimeType": "application/json", "buffer": _checked_file()}
    )
    page.get_by_role("button", name=w["import"]).click()
    expect(page).to_have_url(re.compile(r"/editions/drafts/"))
    draft_url = page.url
    page.get_by_label(w["name"], exact=True).fill("Our checked board")
    page.get_by_role("button", name=w["save"], exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Our checked board")

    # its share page: the link and its QR code
    item = page.locator(".edition-item", has=page.get_by_text("Our checked board", exact=True))
    item.get_by_role("button", name=w["share"]).click()
    expect(page.get_by_role("heading", name="Our checked board")).to_be_visible()
    expect(page.locator("figure.qr svg")).to_be_visible()
    link = page.locator("figure.qr figcaption a").inner_text()
    assert re.search(r"/editions/s/[A-Za-z0-9_-]{16,}$", link)

    # phone 2 opens the link: the name, how much is checked, whose checks, and one button
    other = second_phone(browser, playwright, link)
    try:
        address = urlsplit(link)
        other.goto(f"{address.scheme}://{address.netloc}/lang/{lang}?next={address.path}")
        expect(other.get_by_role("heading", name="Our checked board")).to_be_visible()
        expect(other.locator("#shared-progress")).to_have_text(w["checked"])
        expect(other.get_by_text(w["claimed"])).to_be_visible()
        other.get_by_role("button", name=w["use"]).click()
        expect(other.get_by_role("status")).to_contain_text(w["used"])
        other.get_by_role("link", name=w["start_with"]).click()
        expect(other.locator("#edition option:checked")).to_have_text("Our checked board")

        other.get_by_label(w["player"].format(n=1), exact=True).fill("Ana")
        other.get_by_label(w["player"].format(n=2), exact=True).fill("Ben")
        other.locator("#plague-0").select_option("9")
        other.locator("#plague-1").select_option("3")
        other.get_by_label(w["layout"]).select_option("default")
        other.get_by_role("button", name=w["start"]).click()
        expect(other.get_by_role("heading", name=w["turn"])).to_be_visible()
        expect(other.locator("#edition-note")).to_contain_text(w["checked_on"])  # a checked board, not the estimate
        other.goto(other.url.split("?")[0].rstrip("/") + "/edition")
        expect(other.get_by_text(w["uses"])).to_be_visible()

        # phone 1's draft is its own: phone 2 cannot open it
        assert other.goto(draft_url).status == 404  # type: ignore[union-attr]
    finally:
        other.context.close()
