"""Issue 13's proof: a real table finishes whole games on the phone pages, tap by tap.

Two journeys: a three-player base game (seven turns) and a two-player Plutus & Phlegyas game (six
turns). Each was planned as commands and tried through ``GameService`` first (legal, ending by
sudden death); here they are played only through the pages. After every tap: no 5xx
answer, no raw refusal code, ``choice.`` key or ``%(`` placeholder on screen, and the element the
page focused (the result or the next step) lies inside the viewport.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from playwright.sync_api import Locator, Page, Response, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.game.refusals import CHOICES, REFUSALS
from e2e.helpers import assert_in_sight, fill_new_game, location, next_step_problems, shield, stat

RAW_CODES = sorted({code for code in REFUSALS if "_" in code} | set(CHOICES), key=len, reverse=True)
RAW_PATTERN = re.compile(r"(?<![\w.])(" + "|".join(re.escape(c) for c in RAW_CODES) + r")(?![\w])|choice\.|%\(")

FOCUSED_IN_VIEW = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return true; }
  const r = el.getBoundingClientRect();
  return r.height === 0 || (r.top >= 0 && r.top + Math.min(r.height, 100) <= window.innerHeight);
}"""

FOCUSED_BOX = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) { return null; }
  const r = el.getBoundingClientRect();
  return {id: el.id, tag: el.tagName, top: r.top, bottom: r.bottom, height: r.height, vh: window.innerHeight};
}"""


class Table:
    """Drives one journey: counts taps by turn kind and checks the screen after every tap."""

    def __init__(self, page: Page, journey: str) -> None:
        self.page = page
        self.journey = journey
        self.taps: Counter[str] = Counter()
        self.kind = "set-up"
        self.failures: list[str] = []
        self.shots = 0
        self.screens: list[str] = []  # every address the journey showed, in order
        self.hidden: list[str] = []  # the next steps found hidden or covered, after which tap
        folder = os.environ.get("E2E_SCREENSHOTS")
        self.folder = Path(folder) / journey if folder else None
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)
        page.on("response", self._answer)

    def _answer(self, response: Response) -> None:
        if response.status >= 500:
            self.failures.append(f"{response.status} {response.request.method} {response.url}")

    def turn(self, kind: str) -> None:
        self.kind = kind

    def tap(self, target: Locator, local: bool = False) -> None:
        """Tap ``target``; ``local`` when the tap only opens or ticks something on this screen."""
        target.click()
        self.after_tap(target if local else None)

    def choose(self, target: Locator, **option: str) -> None:
        target.scroll_into_view_if_needed()  # as a thumb would: a select does not scroll itself
        target.select_option(**option)  # type: ignore[arg-type]
        self.after_tap(target)

    def after_tap(self, local: Locator | None = None) -> None:
        self.taps[self.kind] += 1
        page = self.page
        page.wait_for_load_state()
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        if page.url not in self.screens:
            self.screens.append(page.url)
        self.check_words()
        if local is not None:  # nothing was asked of the server: what was tapped stays in view
            expect(local).to_be_in_viewport()
            self.shot()
            return
        try:
            page.wait_for_function(FOCUSED_IN_VIEW, timeout=3000)
        except PlaywrightTimeout:
            box = page.evaluate(FOCUSED_BOX)
            raise AssertionError(f"the focused element is out of view: {box} at {page.url}") from None
        problems = next_step_problems(page)
        if problems:
            self.hidden.append(f"{self.kind} tap {self.taps[self.kind]}: " + "; ".join(problems))
        self.shot()

    def check_words(self) -> None:
        """No 5xx so far, and no raw refusal code, ``choice.`` key or ``%(`` on the screen."""
        assert self.failures == [], self.failures
        body = self.page.inner_text("body")
        raw = RAW_PATTERN.search(body)
        assert raw is None, (raw.group(0), self.page.url, body[max(0, raw.start() - 200) : raw.end() + 200])

    def revisit_in_spanish(self) -> None:
        """Every screen of the journey again, in Spanish, and the game at every entry of its History."""
        page = self.page
        self.turn("spanish")
        self.tap(page.get_by_role("link", name="Español"))
        expect(page.locator("html")).to_have_attribute("lang", "es")
        game = re.search(r"/g/([^/?#]+)", self.screens[-1])
        assert game is not None
        page.goto(f"/g/{game.group(1)}/history")
        steps = list(dict.fromkeys(page.eval_on_selector_all("a[href*='/at/']", "els => els.map(e => e.href)")))
        assert len(steps) > 30, steps
        for address in [*self.screens, *steps]:
            answer = page.goto(address)
            assert answer is not None, address
            # a screen of the journey may be stale now (an undo preview of an entry undone since)
            assert answer.status == 200 or (address not in steps and answer.status < 500), (address, answer.status)
            self.check_words()
            self.shot()

    def shot(self) -> None:
        if self.folder is None:
            return
        self.shots += 1
        self.page.screenshot(path=str(self.folder / f"{self.shots:03d}-{self.kind}.png"))


def cemetery_link(page: Page, colour: str) -> Locator:
    return page.get_by_role("link", name=f"Bring in one {colour} soul")


def start_game(table: Table, names: list[str], soul: str, expansion: bool = False) -> None:
    """The new-game form with a plague card of one ``soul`` (every other slot blank), started by a tap."""
    page = table.page
    fill_new_game(page, names, [soul], expansion, blank_rest=True)
    table.tap(page.get_by_role("button", name="Start the game"))
    expect(page.get_by_role("heading", name=f"{names[0]}'s turn")).to_be_visible()
    page.wait_for_function("() => window.htmx !== undefined")


def use_guardian(table: Table, guardian: str, to: str, then: str) -> None:
    """At a location that offers ``guardian``: move it to the shield ``to``, tap the shield ``then``
    (the soul it acts on, or where its Desk goes) and use it."""
    page = table.page
    table.tap(page.get_by_role("link", name=guardian))
    table.tap(shield(page, to, "button"))  # an empty shield's steady tap: the map's values make it this choice
    table.tap(shield(page, then, "link"))
    table.tap(page.get_by_role("button", name=f"Use {guardian}"))


def play_a_fraud_card_for_a_half_diploma(table: Table) -> None:
    """At the Wall: a fraud card whose end-game half is "always: a half diploma" (its instant half
    left as it is)."""
    page = table.page
    expect(page.get_by_role("heading", name="Wall")).to_be_visible()
    effect = page.get_by_role("radiogroup", name="Effect")
    table.tap(effect.get_by_role("radio", name=re.compile("half diploma")), local=True)
    table.tap(page.get_by_role("button", name="Play the card"))


def end_turn(table: Table, name: str, next_name: str | None) -> None:
    table.tap(table.page.get_by_role("button", name=f"End {name}'s turn"))
    if next_name:
        title = table.page.get_by_role("heading", name=f"{next_name}'s turn")
        expect(title).to_be_visible()
        assert_in_sight(title)  # the next player's name, not under the sticky header


def end_the_game(table: Table, name: str) -> None:
    """``name`` ends the last turn: the game is over, and the final score is opened."""
    page = table.page
    end_turn(table, name, None)
    expect(page.get_by_role("heading", name="The game is over")).to_be_visible()
    table.turn("score")
    table.tap(page.get_by_role("link", name="See the final score"))
    expect(page.get_by_role("heading", name="Final score")).to_be_visible()


def play_the_base_game(page: Page, table: Table) -> None:
    """The seven turns of the planned base game (the expected scores: EXPECTED_TOTALS)."""
    start_game(table, ["Ana", "Ben", "Cleo"], "purple")

    # T1 Ana brings the purple soul to 1B (Key); the Cemetery is empty: a plague card of two green
    # souls refills it (fewer than six); a noble to the Bank.
    table.turn("bring + plague card + location")
    table.tap(cemetery_link(page, "purple"))
    table.tap(shield(page, "1B"))
    expect(page.get_by_role("heading", name="The Cemetery is empty")).to_be_visible()
    table.tap(page.get_by_role("button", name="One more green soul"), local=True)
    table.tap(page.get_by_role("button", name="One more green soul"), local=True)
    table.tap(page.get_by_role("button", name="Refill the Cemetery"))
    table.tap(location(page, "Bank"))
    end_turn(table, "Ana", "Ben")

    # T2 Ben brings a green soul to 1D (Lily); the Bonfire; across the Styx with the last green soul
    # (+1 skull on lust); the Cemetery is empty and the plague deck too.
    table.turn("bring + location + Styx")
    table.tap(cemetery_link(page, "green"))
    table.tap(shield(page, "1D"))
    table.tap(location(page, "Bonfire"))
    expect(page.get_by_role("heading", name="Bonfire")).to_be_visible()
    table.tap(page.get_by_text("Or cross the Styx (2 drachmas)"), local=True)
    table.choose(page.get_by_label("Colour"), label="green (1)")
    table.choose(page.get_by_label("Souls", exact=True), value="1")
    table.choose(page.get_by_label("First four: track"), value="2")
    table.tap(page.get_by_role("button", name="Cross the Styx"))
    table.tap(page.get_by_role("button", name="The plague deck is empty"))
    end_turn(table, "Ben", "Cleo")

    # T3 Cleo moves the green soul 1D → 2D (Eagle); the Wall; a fraud card from her hand, with no
    # barrel for its instant half, whose end-game half is "always: a half diploma".
    table.turn("move + location + fraud card")
    table.tap(shield(page, "1D", "link"))
    table.tap(shield(page, "2D"))
    table.tap(location(page, "Wall"))
    play_a_fraud_card_for_a_half_diploma(table)
    expect(page.get_by_role("listitem", name="Cleo")).to_contain_text("played: 1")
    end_turn(table, "Cleo", "Ana")

    # T4 Ana moves the purple soul 1B → 2B (Cross): laid down, +1. She accuses at the Bank (Key:
    # a bribe of 2 drachmas); the bonus tile gives a half diploma; Dante takes his first step.
    table.turn("move + accusation")
    table.tap(shield(page, "1B", "link"))
    table.tap(shield(page, "2B"))
    accuse = page.get_by_role("link", name=re.compile("^Accuse at the Bank"))
    expect(accuse).to_be_in_viewport()  # right under the phase, not below the eight locations
    table.tap(accuse)
    table.tap(page.get_by_role("radio", name="a half diploma"), local=True)
    table.tap(page.get_by_role("button", name="Accuse", exact=True))
    expect(stat(page, "Ana", "Infamy")).to_have_text("1")
    end_turn(table, "Ana", "Ben")

    # T5 Ben, out of drachmas, brings the yellow soul to 1D: a loan, confirmed first (Ship 1,
    # +2 drachmas − 1 for Charon). The Bonfire: Medusa to 2E petrifies the yellow soul on 1D.
    table.turn("bring with a loan + location + guardian")
    table.tap(cemetery_link(page, "yellow"))
    table.tap(shield(page, "1D"))
    expect(page.locator("#loan-confirm")).to_contain_text("this needs 1 loan")
    table.tap(page.get_by_role("button", name="Take the loan and go on"))
    table.tap(location(page, "Bonfire"))
    use_guardian(table, "Medusa", to="2E", then="1D")
    expect(shield(page, "1D", "img")).to_have_accessible_name(re.compile("petrified"))
    end_turn(table, "Ben", "Cleo")

    # T6 Cleo brings the pagan (beige) soul to 1B: laid down in Limbo at once, +1; the Bank.
    table.turn("bring + location")
    table.tap(cemetery_link(page, "beige"))
    table.tap(shield(page, "1B"))
    table.tap(location(page, "Bank"))
    # Undo and redo from the undo bar: the Bank choice comes back as it was.
    table.turn("undo / redo")
    table.tap(page.get_by_role("button", name="Undo last entry"))
    expect(location(page, "Bank")).to_be_visible()
    table.tap(page.get_by_role("button", name="Redo"))
    expect(page.get_by_role("button", name="End Cleo's turn")).to_be_visible()
    # In the History, "correct this entry": the noble went to the Market, not the Bank. Then the
    # table changes its mind: "undo to here" on the correction takes it back (the Bank again).
    table.turn("correct an entry + undo to here")
    table.tap(page.locator(".undo-bar").get_by_role("link", name="History"))
    correct = page.get_by_role("link", name="Correct this entry…")
    bank_entry = page.locator("li.entry", has_text="Cleo sent a noble to the Bank", has=correct)
    table.tap(bank_entry.get_by_role("link", name="Correct this entry…"))
    table.tap(page.get_by_role("link", name=re.compile("Market")))
    table.tap(page.get_by_role("button", name="Record the correction"))
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    newest = page.locator("li.entry").first
    table.tap(newest.get_by_role("link", name="Undo to here…"))
    table.tap(page.get_by_role("button", name=re.compile("^Undo 1 entry")))
    table.tap(page.get_by_role("link", name="Game", exact=True))
    expect(page.get_by_role("button", name="End Cleo's turn")).to_be_visible()
    expect(stat(page, "Cleo", "Florins")).to_have_text("4")  # the Bank's 2 florins, not the Market's barrel
    table.turn("bring + location")
    end_turn(table, "Cleo", "Ana")

    # T7 Ana moves the green soul 2D → 3D (Key): laid down, +2. She bribes her way to the Wall
    # (Eagle, 2 drachmas: a loan, Ship 1) and plays a fraud card (2 drachmas: a second loan, Ship 2)
    # whose end-game half is a half diploma. Ben then has no soul to move and the Cemetery is
    # empty with the deck exhausted: sudden death.
    table.turn("move + bribe with loans + fraud card (last turn)")
    table.tap(shield(page, "2D", "link"))
    table.tap(shield(page, "3D"))
    table.tap(location(page, "Wall"))
    table.tap(page.get_by_role("button", name="Take the loan and go on"))
    play_a_fraud_card_for_a_half_diploma(table)
    table.tap(page.get_by_role("button", name="Take the loan and go on"))
    expect(stat(page, "Ana", "Ship")).to_have_text("2")
    end_the_game(table, "Ana")
    table.tap(page.get_by_role("button", name="Confirm Ana's choice"))  # her two halves → Greed
    expect(page.get_by_role("row", name="Ana, circle 4")).to_contain_text("1 × 1 = 1")


# The final totals, worked out by hand from the plan (not read from the program):
# Phlegethon: every cube starts on space 3 (value 3) and nobody raised one; at the end each cube
# moves one space left per empty shield of its circle, never below 1. Circles 2-9 keep at most one
# filled shield (2B purple, 3D green; Medusa's and the Minotaur's standees fill none), so each has
# 4+ empty shields and every value falls to 1.
# Diplomas: each scores its circle's value × the player's skull on that track. In a three-player
# game Dante's first step is a pagan step (no diploma). Ana's two halves (the Greed bonus tile of
# her accusation, T4, and her fraud card's end-game half, T7) make one diploma, placed on Greed
# (circle 4), where her skull is 1: 1 × 1 = 1. Cleo's lone half (her fraud card) is left over.
# Loans: −1 for a Ship on space 1, −2 on space 2.
#   Ana:  +1 (purple laid on 2B, T4) + 2 (green laid on 3D, T7) + 1 (Greed diploma) − 2 (Ship 2) = 2
#   Cleo: +1 (the beige pagan laid in Limbo at once, T6)                                       = 1
#   Ben:   0 − 1 (Ship 1, the loan of T5)                                                      = −1
EXPECTED_TOTALS = [("Ana", 2), ("Cleo", 1), ("Ben", -1)]


def final_totals(page: Page) -> list[tuple[str, int]]:
    rows = page.locator("ol.ranking li")
    return [
        (row.locator("strong").inner_text(), int(row.locator(".total").inner_text().replace("−", "-")))
        for row in rows.all()
    ]


def test_a_three_player_base_game_to_the_score_page(page: Page) -> None:
    table = Table(page, "base-en")
    play_the_base_game(page, table)
    assert table.hidden == [], "\n".join(table.hidden)
    assert final_totals(page) == EXPECTED_TOTALS
    print(f"taps per turn kind (English): {dict(table.taps)}")
    table.revisit_in_spanish()


def play_the_expansion_game(page: Page, table: Table) -> None:
    """Plutus & Phlegyas, two players, six turns to a sudden death: a Desk, a toll paid with a loan,
    a Bell from Phlegyas and the ferry (planned and tried through the service first)."""
    start_game(table, ["Ana", "Ben"], "yellow", expansion=True)

    # T1 Ana brings the yellow soul to 1D; a plague card of one purple soul; the Bonfire: Plutus
    # to 3D, her Desk right below 2D.
    table.turn("bring + plague card + location + Plutus desk")
    table.tap(cemetery_link(page, "yellow"))
    table.tap(shield(page, "1D"))
    table.tap(page.get_by_role("button", name="One more purple soul"), local=True)
    table.tap(page.get_by_role("button", name="Refill the Cemetery"))
    table.tap(location(page, "Bonfire"))
    use_guardian(table, "Plutus", to="3D", then="2D")
    expect(shield(page, "3D", "img")).to_have_accessible_name(re.compile("Plutus"))
    end_turn(table, "Ana", "Ben")

    # T2 Ben moves the yellow soul into 2D and stops there: no toll. He bribes his way to the
    # Bonfire (Lily, 2 drachmas), where Phlegyas gives him a Bell (1 drachma).
    table.turn("move + bribe + Phlegyas bell")
    table.tap(shield(page, "1D", "link"))
    table.tap(shield(page, "2D"))
    table.tap(location(page, "Bonfire"))
    table.tap(page.get_by_role("link", name="Phlegyas"))
    table.tap(page.get_by_role("button", name="Use Phlegyas"))
    expect(stat(page, "Ben", "Bells")).to_have_text("1")
    end_turn(table, "Ben", "Ana")

    # T3 Ana brings the purple soul to 1B; the plague deck is exhausted; the Market.
    table.turn("bring + plague deck empty + location")
    table.tap(cemetery_link(page, "purple"))
    table.tap(shield(page, "1B"))
    table.tap(page.get_by_role("button", name="The plague deck is empty"))
    table.tap(location(page, "Market"))
    end_turn(table, "Ana", "Ben")

    # T4 Ben moves the yellow soul on from 2D across Ana's Desk to 3E: a toll of 1 drachma to Ana,
    # which Ben (0 drachmas) pays with a loan, confirmed first. The Palace.
    table.turn("move across a Desk (toll, loan) + location")
    ana_drachmas = int(stat(page, "Ana", "Drachmas").inner_text())
    table.tap(shield(page, "2D", "link"))
    table.tap(page.get_by_text(re.compile(r"^Land on 3E .* 1 toll")))  # the move list names the toll
    expect(page.locator("#loan-confirm")).to_contain_text("this needs 1 loan")
    table.tap(page.get_by_role("button", name="Take the loan and go on"))
    expect(stat(page, "Ana", "Drachmas")).to_have_text(str(ana_drachmas + 1))
    expect(stat(page, "Ben", "Ship")).to_have_text("1")
    table.tap(location(page, "Palace"))
    end_turn(table, "Ben", "Ana")

    # T5 Ana lays the yellow soul on 4E (+2); the Haystack.
    table.turn("move + location")
    table.tap(shield(page, "3E", "link"))
    table.tap(page.get_by_text(re.compile(r"^Land on 4E ")))
    table.tap(location(page, "Haystack"))
    end_turn(table, "Ana", "Ben")

    # T6 Ben rings his Bell: Phlegyas to 1C, the purple soul from 1B sideways to 1E, then on to
    # 2E, laid down (+1). The Bank. Then Ana has no soul to move, the Cemetery and the deck are
    # empty: sudden death.
    table.turn("ferry + location")
    table.tap(page.get_by_role("link", name=re.compile("^Summon the ferryman instead")))
    steps = page.locator("#part-actions")
    table.tap(steps.get_by_role("link", name="1C", exact=True))
    table.tap(steps.get_by_role("link", name=re.compile("1B")))
    table.tap(steps.get_by_role("link", name=re.compile("1E")))
    landing = steps.get_by_role("button", name=re.compile("^Land on 2E"))
    expect(landing).to_be_in_viewport()  # the last step is above the map: it comes into view
    table.tap(landing)
    expect(stat(page, "Ben", "Bells")).to_have_text("0")
    table.tap(location(page, "Bank"))
    end_the_game(table, "Ben")


# Worked out by hand: every circle keeps at least four empty shields (one soul at most; Plutus's
# standee and Ana's Desk fill none), so every Phlegethon value falls to 1; nobody holds a diploma
# or a half diploma, so diplomas score 0. Totals = infamy during play − loans:
#   Ana: +2 (the yellow soul laid on 4E, T5)                                   = 2
#   Ben: +1 (the purple soul laid on 2E by the ferry, T6) − 1 (Ship on loan space 1, T4) = 0
EXPANSION_TOTALS = [("Ana", 2), ("Ben", 0)]


def test_an_expansion_game_with_desks_tolls_bells_and_the_ferry(page: Page) -> None:
    table = Table(page, "expansion-en")
    play_the_expansion_game(page, table)
    assert table.hidden == [], "\n".join(table.hidden)
    assert final_totals(page) == EXPANSION_TOTALS
    print(f"taps per turn kind (expansion): {dict(table.taps)}")
