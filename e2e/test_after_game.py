"""Issue 18's journey, in English and Spanish: finish a game, log it in BG Stats, share it, print it,
play again with the same table (a second phone is offered the new game live), and find both games
on "Our games"."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.formats.export import score_export
from tests.web.pages.test_after_game import timed_log

SHOTS = Path(__file__).resolve().parents[1] / "test-results"

WORDS = {
    "en": {
        "locale": "en-GB",
        "import": "Import",
        "end_turn": "End Ana's turn",
        "over": "The game is over",
        "see_score": "See the final score",
        "final": "Final score",
        "projection": "If the game ended now",
        "copied": "The result is copied: paste it in your chat.",
        "bgstats": "Log this play in BG Stats",
        "share": "Share the result",
        "summary": "Inferno: Ana wins (Ana {a}, Ben {b}).",
        "again": "Same table, new game",
        "soul": "Soul {n}",
        "blue": "blue",
        "green": "green",
        "start": "Start the new game",
        "new_turn": "Ben's turn",
        "offered": "Your table started a new game",
        "join": "Join the new game",
        "our_games": "Our games",
        "winner": "Winner: Ana",
        "going": "still going",
    },
    "es": {
        "locale": "es-ES",
        "import": "Importar",
        "end_turn": "Terminar el turno de Ana",
        "over": "La partida ha terminado",
        "see_score": "Ver la puntuación final",
        "final": "Puntuación final",
        "projection": "Si la partida terminara ahora",
        "copied": "El resultado está copiado: pégalo en tu chat.",
        "bgstats": "Anotar esta partida en BG Stats",
        "share": "Compartir el resultado",
        "summary": "Inferno: gana Ana (Ana {a}, Ben {b}).",
        "again": "Misma mesa, partida nueva",
        "soul": "Alma {n}",
        "blue": "azul",
        "green": "verde",
        "start": "Empezar la nueva partida",
        "new_turn": "Turno de Ben",
        "offered": "Tu mesa empezó una partida nueva",
        "join": "Unirse a la partida nueva",
        "our_games": "Nuestras partidas",
        "winner": "Ganador: Ana",
        "going": "en curso",
    },
}

SHARE_STUB = """
window.__shared = [];
navigator.share = function (data) { window.__shared.push(data); return Promise.resolve(); };
"""


def phone(browser: Browser, playwright: Any, locale: str) -> Page:
    context = browser.new_context(**playwright.devices["Pixel 7"], locale=locale)
    context.add_init_script(SHARE_STUB)
    page = context.new_page()
    page.set_default_timeout(8000)
    return page


@pytest.mark.parametrize("lang", ["en", "es"])
def test_finish_log_share_print_play_again_and_find_both_games(
    browser: Browser, playwright: Any, base_url: str, lang: str, tmp_path: Path
) -> None:
    words = WORDS[lang]
    _edition, sheet = score_export(timed_log())
    ana, ben = (p.total for p in sheet.players)
    log = tmp_path / "almost-over.json"
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=69)
    log.write_text(json.dumps(timed_log(last_action=69, start=start)), encoding="utf-8")

    host = phone(browser, playwright, words["locale"])
    host.goto(base_url + "/import")
    host.locator("input[type=file]").set_input_files(str(log))
    host.get_by_role("button", name=words["import"], exact=True).click()
    game_url = host.url
    host.wait_for_function("() => window.htmx !== undefined")

    guest = phone(browser, playwright, words["locale"])
    guest.goto(game_url)
    guest.wait_for_function("() => window.htmx !== undefined")
    host.goto(game_url + "/join")
    viewer_url = host.get_by_role("link", name=re.compile(r"v\/[A-Za-z0-9_-]{20,}$")).get_attribute("href")
    assert viewer_url
    host.goto(game_url)
    screen = phone(browser, playwright, words["locale"])
    screen.goto(viewer_url)
    expect(screen.get_by_role("heading", name=words["projection"])).to_be_visible()
    screen.wait_for_function("() => window.htmx !== undefined")

    # The last turn, played on the page; the other phone sees the end live.
    host.get_by_role("button", name=words["end_turn"]).click()
    expect(host.get_by_role("heading", name=words["over"])).to_be_visible()
    expect(guest.get_by_role("heading", name=words["over"])).to_be_visible()
    expect(screen.get_by_role("heading", name=words["final"])).to_be_visible()  # the big screen, live
    expect(screen.locator(".player-score")).to_have_count(2)
    host.get_by_role("link", name=words["see_score"]).click()
    expect(host.get_by_role("heading", name=words["final"])).to_be_visible()
    guest.get_by_role("link", name=words["see_score"]).click()  # the other phone waits on the score
    expect(guest.get_by_role("heading", name=words["final"])).to_be_visible()
    guest.wait_for_function("() => window.htmx !== undefined")

    # Log the play: the link's JSON, decoded, matches the score breakdown.
    href = host.get_by_role("link", name=words["bgstats"]).get_attribute("href")
    assert href and href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(parse_qs(urlsplit(href).query)["data"][0])
    assert play["game"]["name"] == "Inferno" and play["game"]["highestWins"] is True
    assert game_url.rsplit("/", 1)[1] not in href
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        (p.name, p.total, p.place, p.place == 1) for p in sheet.players
    ]
    assert play["playDate"] == start.strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] in (69, 70)  # 68 minutes of imported turns, then the last one, played now

    # Share: the phone's share sheet gets the summary and the big screen's link.
    host.get_by_role("button", name=words["share"]).click()
    host.wait_for_function("() => window.__shared.length === 1")
    shared = host.evaluate("() => window.__shared[0]")
    assert shared["text"] == words["summary"].format(a=ana, b=ben)
    assert shared["url"] == viewer_url
    # Without a share sheet, the result goes to the clipboard.
    host.evaluate(
        "() => { delete navigator.share; window.__copied = [];"
        " navigator.clipboard.writeText = (t) => { window.__copied.push(t); return Promise.resolve(); }; }"
    )
    host.get_by_role("button", name=words["share"]).click()
    expect(host.get_by_role("status").filter(has_text=words["copied"])).to_be_visible()
    assert host.evaluate("() => window.__copied") == [shared["text"] + " " + viewer_url]

    # Print: one page with the breakdown table and the chart, and no navigation.
    host.emulate_media(media="print")
    expect(host.locator(".topbar")).to_be_hidden()
    expect(host.get_by_role("link", name=words["bgstats"])).to_be_hidden()
    expect(host.locator(".score-table").first).to_be_visible()
    expect(host.locator(".chart svg")).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    host.set_viewport_size({"width": 718, "height": 1000})  # an A4 page's printable width
    host.screenshot(path=str(SHOTS / f"after-game-print-{lang}.png"), full_page=True)
    for paper in ("A4", "Letter"):
        pdf = host.pdf(format=paper, print_background=True)
        assert re.findall(rb"/Count (\d+)", pdf) == [b"1"], f"the score sheet prints on more than one {paper} page"
    host.emulate_media(media="screen")

    # Play again: the table enters the plague card it turned over; the other phone, still on the old
    # game, is offered the new game live and the big screen moves to it by itself.
    host.get_by_role("button", name=words["again"]).click()
    host.get_by_label(words["soul"].format(n=1), exact=True).select_option(label=words["blue"])
    host.get_by_label(words["soul"].format(n=2), exact=True).select_option(label=words["green"])
    host.get_by_role("button", name=words["start"]).click()
    expect(host.get_by_role("heading", name=words["new_turn"])).to_be_visible()
    new_url = host.url
    assert new_url != game_url
    expect(guest.get_by_role("heading", name=words["offered"])).to_be_visible()
    expect(screen).not_to_have_url(viewer_url)  # the big screen follows by itself
    expect(screen.get_by_role("heading", name=words["new_turn"])).to_be_visible()
    assert "/v/" in screen.url and "/g/" not in screen.url
    guest.get_by_role("link", name=words["join"]).click()
    expect(guest.get_by_role("heading", name=words["new_turn"])).to_be_visible()
    assert guest.url == new_url

    # Our games: both games, with the finished one's result and the figures.
    host.goto(base_url + "/our-games")
    expect(host.get_by_role("heading", name=words["our_games"], exact=True)).to_be_visible()
    games = host.locator(".played-games li")
    expect(games).to_have_count(2)
    expect(games.nth(1)).to_contain_text(f"Ana {ana}, Ben {ben}")
    expect(games.nth(1)).to_contain_text(words["winner"])
    expect(games.nth(0)).to_contain_text(words["going"])
    expect(host.get_by_role("row", name="Ana").locator("td")).to_have_text(["1", "1", str(float(ana)), str(ana)])
    expect(host.get_by_role("row", name="Ben").locator("td")).to_have_text(["1", "0", str(float(ben)), str(ben)])
    expect(host.locator(".chart svg")).to_be_visible()
    for page in (host, guest, screen):
        page.context.close()
