"""Dante's end trigger and the last turns, played through the pages (Chromium, Pixel 7).

``test_full_game.py`` ends its games by sudden death. Here a three-player base game is first
played through ``GameService`` (a seeded, deterministic run of legal commands from
``testkit/random_play``) up to the moment the next accusation moves Dante onto the Purgatory gate;
the log is imported on the /import page. Then, only through the pages: Ben's accusation at the
Haystack (Dante's final step: +2 infamy, the treason diploma, the end triggered), the "Last
turns" banner, Cleo's and Ana's last turns, and the Score page with hand-computed totals. After
every tap: no 5xx, no raw refusal code, ``choice.`` key or ``%(`` on screen, and the focused next
step inside the viewport (``Table`` of test_full_game.py).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from companion.editions import load_all
from companion.formats.export import export_game
from companion.game.commands import Accuse, BringSoul, Command, CreateGame, EndTurn, SendMember, TakeLoan
from companion.game.rules.accusation import dante_path
from companion.game.state import Phase
from companion.service import GameService
from e2e.helpers import location, shield, stat
from e2e.test_full_game import Table, cemetery_link, end_the_game, end_turn, final_totals
from events.catalog import SeatSetup
from events.sqlite import SqliteStore
from testkit.random_play import choices
from tests.builders import game_view

SEED = 5  # the first seed whose run leaves every player a last turn to play (no sudden death)


def one_accusation_from_the_gate(folder: Path) -> dict[str, object]:
    """Play legal commands until the active player, in Florence, may accuse without a bribe while
    Dante stands one step before the gate; the exported log, cut just before that accusation.

    The policy: a soul brought in rather than moved when possible, never a voluntary loan; in
    Florence an accusation without a bribe if one is allowed (Dante advances), else a member sent
    without a bribe; after the location, the turn ends.
    """
    service = GameService(SqliteStore.open(folder / "build.sqlite3"), load_all())
    edition = service.library.edition(next(iter(service.library.shipped)))
    seats = (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy"), SeatSetup("Cleo", "gold"))
    game = service.create_game(
        CreateGame(seats, plague_card=(2, 3, 5, 9), florence=service.deal_florence(edition, "default")), "create"
    )
    rng = random.Random(SEED)
    for n in range(3000):
        view = game_view(service.view(game))
        state = view.state
        assert state.phase is not Phase.OVER, "the prepared game ended before Dante reached the gate"
        options = choices(state, rng, allow_deck_end=False)
        accusations: list[Command] = [c for c in options if isinstance(c, Accuse) and not c.bribe]
        if state.phase is Phase.FLORENCE and state.dante == len(dante_path(state)) - 2 and accusations:
            return export_game(service, game)
        pool: list[Command]
        if state.phase is Phase.FLORENCE:
            pool = accusations or [c for c in options if isinstance(c, SendMember) and not c.bribe]
        elif state.phase is Phase.ACTION:
            pool = [c for c in options if isinstance(c, EndTurn)]
        else:
            pool = [c for c in options if not isinstance(c, TakeLoan)]
            pool = [c for c in pool if isinstance(c, BringSoul)] or pool
        service.execute(game, view.rows[-1].seq, rng.choice(pool or options), f"build-{n}")
    raise AssertionError("Dante never came one step from the gate")


# The position the import leaves (checked on the page before the accusation): Ben's turn, Lily
# quarter, Florence phase; Dante one step before the gate. Every Phlegethon cube stands on space 2
# (value 3; scale 1-5). Empty shields: circles 2 and 4 none, 3 one (3D), 5 one (5A), 6-9 four each.
#   Ana:  infamy −1, Ship on loan space 6, diploma of circle 3 (skull 1), skull 2 on circle 2,
#         one fraud end-game half "always: +2 infamy".
#   Ben:  infamy −6, Ship on space 5, diplomas of circles 3 (skull 2) and 4 (skull 1).
#   Cleo: infamy −15, Ship on space 6, diploma of circle 5 (skull 2), one fraud half "always: +2".
#   Nobody has a skull on circle 9.
# The journey:
#   Ben accuses at the Haystack (Lily, his quarter: no bribe). His skull rises on circle 2, the
#   known bonus tile pays a florin, and Dante takes his final step: +2 infamy to Ben (−6 → −4);
#   the treason diploma (circle 9) goes to the highest skull there, and nobody has one; the end is
#   triggered. Ben ends his turn; each other player takes one more turn.
#   Cleo moves the green soul 1D → 3D (two steps), laid down: +2 (−15 → −13); 3D was circle 3's one empty
#   shield. The Banquet (Eagle, her quarter). She ends her turn.
#   Ana brings a purple soul to 1D (1 drachma, her last: no loan), not laid down. The Haystack.
#   She ends her turn: the last turns are done, final scoring.
# Final scoring (companion/game/scoring.py): (1) fraud halves "always" hold: +2 each to Ana and
# Cleo; (2) cubes move one space left per empty shield: circles 2, 3, 4 stay on space 2 (value
# 3), circle 5 falls to space 1 (value 2), circles 6-9 to space 0 (value 1, nobody's diploma);
# (3) no half diplomas; (4) diploma = value × skull; (5) loan penalty [0, 1, 2, 4, 6, 9, 12] at
# the Ship's space: space 5 → −9, space 6 → −12.
#   Ana:  −1 + 2 (fraud) + 3 × 1 (circle 3) − 12 (Ship 6)                 = −8
#   Ben:  −4 + 3 × 2 (circle 3) + 3 × 1 (circle 4) − 9 (Ship 5)            = −4
#   Cleo: −13 + 2 (fraud) + 2 × 2 (circle 5) − 12 (Ship 6)                 = −19
EXPECTED_TOTALS = [("Ben", -4), ("Ana", -8), ("Cleo", -19)]


def number(value: int) -> re.Pattern[str]:
    """A stat as the page shows it (a negative number may carry a true minus sign)."""
    return re.compile(rf"^\s*[−-]{abs(value)}\s*$" if value < 0 else rf"^\s*{value}\s*$")


def test_dante_reaches_the_gate_and_the_last_turns_lead_to_the_score(page: Page, tmp_path: Path) -> None:
    log = tmp_path / "one-step-from-the-gate.json"
    log.write_text(json.dumps(one_accusation_from_the_gate(tmp_path)), encoding="utf-8")
    table = Table(page, "end-trigger")
    banner = page.locator(".last-turns")

    table.turn("import")
    page.goto("/import")
    page.locator("input[type=file]").set_input_files(str(log))
    table.tap(page.get_by_role("button", name="Import", exact=True))
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")
    expect(banner).to_have_count(0)
    for name, infamy, ship in (("Ana", -1, 6), ("Ben", -6, 5), ("Cleo", -15, 6)):
        expect(stat(page, name, "Infamy")).to_have_text(number(infamy))
        expect(stat(page, name, "Ship")).to_have_text(number(ship))

    # Ben's accusation moves Dante onto the gate: the end is triggered.
    table.turn("accusation: Dante's final step")
    table.tap(page.get_by_role("link", name=re.compile("^Accuse at the Haystack")))
    table.tap(page.get_by_role("button", name="Accuse", exact=True))
    expect(stat(page, "Ben", "Infamy")).to_have_text(number(-4))
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Last turns:")
    expect(banner).to_contain_text("Dante reached the Purgatory gate")
    end_turn(table, "Ben", "Cleo")

    # Cleo's last turn: 2 left, this one included.
    table.turn("last turn (Cleo)")
    expect(banner).to_contain_text("Last turns:")
    expect(banner).to_contain_text("2 turns left")
    table.tap(shield(page, "1D", "link"))
    table.tap(shield(page, "3D"))
    expect(stat(page, "Cleo", "Infamy")).to_have_text(number(-13))
    table.tap(location(page, "Banquet"))
    end_turn(table, "Cleo", "Ana")

    # Ana's turn is the very last one.
    table.turn("last turn (Ana)")
    expect(banner).to_contain_text("This is the last turn before final scoring.")
    table.tap(cemetery_link(page, "purple"))
    table.tap(shield(page, "1D"))
    table.tap(location(page, "Haystack"))
    end_the_game(table, "Ana")
    assert final_totals(page) == EXPECTED_TOTALS
