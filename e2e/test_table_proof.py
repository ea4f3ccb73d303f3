"""Issue 24's proof: a table of three phones and a
big screen, in "a phone per player".

Three Pixel 7 contexts and a 1920×1080 screen. Ana creates the game and is asked "Who are you?";
Ben joins by the QR code's address and Cleo by the short code, each with the seat prompt (Cleo first
taps Ana's seat, and is told another phone holds it). Then the whole planned base game of
``test_full_game`` is played, each turn on the active player's own phone, the others waiting live;
after every tap the focused next step and its main button are inside the viewport and under no
sticky bar; mid-game a tap is made with the connection cut, said unsent, and sent when it returns.
The big screen follows every turn by itself. At the end the last player's phone plays again, entering
the new first plague card; the two other phones are offered the new game live, join it in their own
seats (no "Who are you?" again), and the big screen moves to the new game by itself. A shorter run
does the seat prompt and a turn in Spanish (play again in Spanish: ``e2e/test_play_again_live.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from e2e import test_full_game as full
from e2e.helpers import assert_in_sight, assert_next_step_reachable, fill_new_game, second_phone, settle
from e2e.test_accessibility import _violations

NAMES = ("Ana", "Ben", "Cleo")


class Phones:
    """The table's phones, by player: whatever the journey asks of "the page" goes to the phone of the
    player whose turn it is (``current``)."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        self.current = pages["Ana"]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current, name)


class ProofTable(full.Table):
    """The full game's table, plus one tap made while the connection is cut (the Bank, turn 6)."""

    cut_done = False

    def tap(self, target: Locator, local: bool = False) -> None:
        if self.kind == "bring + location" and self.taps[self.kind] == 2 and not self.cut_done:
            self.cut_done = True
            self.tap_offline(target)
            return
        super().tap(target, local)

    def tap_offline(self, target: Locator) -> None:
        page: Page = self.page.current  # type: ignore[attr-defined]
        banner = page.locator("#offline")
        page.context.set_offline(True)
        target.click()  # the tap cannot reach the server: said at once, the choice kept
        expect(banner.locator("[data-unsent]")).to_be_visible()
        expect(banner).to_contain_text("Not sent — no connection")
        expect(target).to_be_visible()
        page.context.set_offline(False)  # back: the kept tap goes, with its key
        expect(banner).to_be_hidden()
        expect(page.locator("#part-undo .last")).to_contain_text("Cleo sent a noble to the Bank.")
        self.after_tap()


@pytest.fixture
def big_screen(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context
    context.close()


def _seat_the_table(
    table: full.Table, phones: Phones, browser: Browser, playwright: Any, screen: BrowserContext
) -> Page:
    """Ana creates the game in "a phone per player" and takes her seat; Ben joins by the QR code's
    address, Cleo by the short code; the big screen opens the viewer address. Answers the screen."""
    ana = phones.pages["Ana"]
    fill_new_game(ana, list(NAMES), ["purple"], blank_rest=True)
    ana.get_by_label("Phones").select_option("seats")
    table.tap(ana.get_by_role("button", name="Start the game"))
    expect(ana.get_by_role("heading", name="Who are you?")).to_be_visible()  # the creating phone too
    expect(ana.get_by_role("button", name="Undo last entry")).to_have_count(0)
    table.tap(ana.get_by_role("button", name="Ana", exact=True))  # one tap
    expect(ana.get_by_role("link", name="Bring in one purple soul")).to_be_visible()
    ana.wait_for_function("() => window.htmx !== undefined")
    settle(ana)

    ana.get_by_role("link", name="Join").click()
    game_url = ana.locator("figure.qr figcaption a").first.get_attribute("href")
    viewer_url = ana.locator("figure.qr figcaption a").nth(1).get_attribute("href")
    code = ana.locator(".join-code strong").inner_text()
    assert game_url and viewer_url and re.fullmatch(r"[A-Z0-9]{5}-[A-Z0-9]{5}", code)
    ana.goto(game_url)
    settle(ana)

    # Ben scans the QR code: the game asks who he is, Ana's seat marked as open on another phone.
    ben = second_phone(browser, playwright, game_url)
    phones.pages["Ben"] = ben
    ben.on("response", table._answer)
    expect(ben.get_by_role("heading", name="Who are you?")).to_be_visible()
    expect(ben.get_by_role("button", name=re.compile(r"^Ana \(open on another phone\)"))).to_be_visible()
    assert_next_step_reachable(ben)
    assert _violations(ben) == []  # axe-core, on the seat prompt
    ben.get_by_role("button", name="Ben", exact=True).click()
    expect(ben.get_by_role("heading", name="Waiting for Ana")).to_be_visible()
    assert _violations(ben) == []  # and on a waiting phone
    expect(ben.get_by_role("link", name="Bring in one purple soul")).to_have_count(0)  # not Ana's controls
    settle(ben)

    # Cleo types the short code; she taps Ana's seat by mistake and is told before it is taken.
    cleo = second_phone(browser, playwright, ana.url.split("/g/")[0] + "/j")
    phones.pages["Cleo"] = cleo
    cleo.on("response", table._answer)
    cleo.get_by_label("The short code on the table's phone").fill(code.lower())
    cleo.get_by_role("button", name="Join").click()
    expect(cleo.get_by_role("heading", name="Which seat is this phone?")).to_be_visible()
    cleo.get_by_role("button", name=re.compile(r"^I am Ana")).click()
    expect(cleo.get_by_role("heading", name="Ana's seat is held by another phone")).to_be_visible()
    assert _violations(cleo) == []
    cleo.get_by_role("button", name=re.compile(r"^I am Cleo")).click()
    expect(cleo.get_by_role("heading", name="Waiting for Ana")).to_be_visible()
    settle(cleo)

    big = screen.new_page()
    big.goto(viewer_url)
    expect(big.get_by_text("Big screen · read only")).to_be_visible()
    expect(big.get_by_role("heading", name="Ana's turn")).to_be_visible()
    return big


def test_three_phones_and_a_big_screen_play_a_whole_game_in_seats(
    page: Page, browser: Browser, playwright: Any, big_screen: BrowserContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    phones = Phones({"Ana": page})
    table = ProofTable(phones, "proof-en")  # type: ignore[arg-type]
    screens: list[Page] = []

    def start_game(table: full.Table, names: list[str], soul: str, expansion: bool = False) -> None:
        assert (tuple(names), soul, expansion) == (NAMES, "purple", False)
        screens.append(_seat_the_table(table, phones, browser, playwright, big_screen))

    def end_turn(table: full.Table, name: str, next_name: str | None) -> None:
        original_end_turn(table, name, next_name)
        if next_name is None:
            return
        phones.current = phones.pages[next_name]  # the next player's own phone, updated live
        expect(phones.current.get_by_role("heading", name=f"{next_name}'s turn")).to_be_visible()
        expect(phones.current.locator("#waiting-title")).to_have_count(0)
        assert_in_sight(phones.current.get_by_role("heading", name=f"{next_name}'s turn"))  # brought into view
        assert_next_step_reachable(phones.current)
        for other in NAMES:
            if other != next_name:
                waiting = phones.pages[other].get_by_role("heading", name=f"Waiting for {next_name}")
                expect(waiting).to_be_visible()
        expect(screens[0].get_by_role("heading", name=f"{next_name}'s turn")).to_be_visible()  # the TV follows

    original_end_turn = full.end_turn
    monkeypatch.setattr(full, "start_game", start_game)
    monkeypatch.setattr(full, "end_turn", end_turn)
    full.play_the_base_game(phones, table)  # type: ignore[arg-type]

    assert table.cut_done
    assert table.hidden == [], "\n".join(table.hidden)
    assert full.final_totals(phones.current) == full.EXPECTED_TOTALS
    screen = screens[0]
    expect(screen.get_by_role("heading", name="The game is over")).to_be_visible()
    screen.screenshot(path=str(Path(__file__).resolve().parents[1] / "test-results" / "proof-big-screen.png"))
    _play_again_live(phones, screen)
    for other in ("Ben", "Cleo"):
        phones.pages[other].context.close()


def _play_again_live(phones: Phones, screen: Page) -> None:
    """The phone that ended the game plays again with a new plague card; every other phone is offered
    the new game live and joins in its seat; the big screen follows by itself."""
    last: Page = phones.current
    found = re.match(r".*/g/[^/?#]+", last.url)  # the game, whichever of its pages the phone shows
    assert found is not None
    old_game, old_screen = found.group(0), screen.url
    last.goto(old_game + "/score")
    last.get_by_role("button", name="Same table, new game").click()
    slots = last.locator("select[name=plague]")
    expect(slots.first).to_have_value("")  # nothing chosen for the table
    for i in range(slots.count()):
        slots.nth(i).select_option(index=1 + i % 2)
    last.get_by_role("button", name="Start the new game").click()
    expect(last.locator("#turn-title")).to_have_text(re.compile(r"(’s|'s) turn$"))
    new_game = last.url.split("?")[0].split("#")[0]
    assert new_game != old_game
    for other in phones.pages.values():
        if other is last:
            continue
        join = other.get_by_role("link", name="Join the new game")
        expect(join).to_be_visible(timeout=2500)  # live: no reload
        join.click()
        expect(other).to_have_url(re.compile(re.escape(new_game)))
        expect(other.get_by_role("heading", name="Who are you?")).to_have_count(0)  # joined in its seat
        expect(other.locator("#turn-title")).to_have_text(re.compile(r"(’s|'s) turn$"))
        assert_next_step_reachable(other)
    expect(screen).not_to_have_url(old_screen, timeout=2500)  # the big screen follows by itself
    assert "/v/" in screen.url
    turns = [p for p in phones.pages.values() if p.locator("#waiting-title").count() == 0]
    assert len(turns) == 1  # one phone plays, the others wait for it


def test_the_seat_prompt_and_a_turn_in_spanish(page: Page, browser: Browser, playwright: Any) -> None:
    page.goto("/")
    page.get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_label("Jugador 1", exact=True).fill("Ana")
    page.get_by_label("Jugador 2", exact=True).fill("Ben")
    page.locator("select[name=table_mode]").select_option("seats")
    page.locator("#plague-0").select_option("9")  # the card the table turned over: nothing is pre-filled
    page.locator("#plague-1").select_option("3")
    page.get_by_role("button", name="Empezar la partida").click()
    expect(page.get_by_role("heading", name="¿Quién eres?")).to_be_visible()
    assert_next_step_reachable(page)
    assert _violations(page) == []
    page.get_by_role("button", name="Ana", exact=True).click()
    expect(page.get_by_role("heading", name="Turno de Ana")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")
    settle(page)

    ben = second_phone(browser, playwright, page.url)
    ben.get_by_role("link", name="Español").click()
    expect(ben.get_by_role("heading", name="¿Quién eres?")).to_be_visible()
    expect(ben.get_by_role("button", name=re.compile(r"^Ana \(abierto en otro móvil\)"))).to_be_visible()
    ben.get_by_role("button", name="Ben", exact=True).click()
    expect(ben.get_by_role("heading", name="Esperando a Ana")).to_be_visible()
    assert _violations(ben) == []
    settle(ben)

    bring = page.get_by_role("link", name=re.compile(r"^Traer"))
    bring.first.click()
    expect(page.locator(".cell.tap-bring").first).to_be_visible()
    page.locator(".cell.tap-bring").first.click()
    expect(page.get_by_role("heading", name="Fase de Florencia")).to_be_visible()
    assert_next_step_reachable(page)
    expect(ben.get_by_role("heading", name="Fase de Florencia")).to_have_count(0)  # Ben still waits…
    expect(ben.get_by_role("heading", name="Esperando a Ana")).to_be_visible()
    ben.context.close()
