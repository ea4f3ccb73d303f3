"""Issue 13's journeys: a real table plays on the phone without blockers, jumps, hidden answers or
silent loans. After every tap the result or the next step is on screen and has focus."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from e2e.helpers import Taps, assert_parts_as_fresh, bring_and_end_turn, create_game, shield, stat


def in_view_with_focus(page: Page, element_id: str) -> None:
    """The element with this id has focus and lies inside the viewport (below the sticky bars)."""
    target = page.locator(f"#{element_id}")
    expect(target).to_be_focused()
    box = target.bounding_box()
    assert box is not None
    viewport = page.viewport_size
    assert viewport is not None
    height = viewport["height"]
    assert box["y"] >= 0 and box["y"] + min(box["height"], 200) <= height, (element_id, box, height)
    covered_top = page.locator(".topbar").bounding_box()
    assert covered_top is not None and box["y"] >= covered_top["height"] - 1, (element_id, box)


SMALL_CONTROLS = """() => [...document.querySelectorAll(
      '#part-actions button, #part-actions a, #part-actions input:not([type=hidden]), #part-actions select,'
      + ' #part-actions summary, #part-actions label.chip, #part-loan summary, #part-loan button,'
      + ' #part-undo button, #part-undo a,'
      + ' #map-prompt button, #map-prompt a')]
    .filter(e => e.offsetParent !== null)
    .map(e => {
      const r = e.getBoundingClientRect(); return {what: e.outerHTML.slice(0, 90), w: r.width, h: r.height}; })
    .filter(b => b.w < 44 || b.h < 44)"""


def small_controls(page: Page) -> list[dict[str, object]]:
    """Visible controls of the action areas smaller than 44 × 44 CSS px."""
    return page.evaluate(SMALL_CONTROLS)


def test_a_plague_card_of_three_souls_refills_the_cemetery(page: Page) -> None:
    page.goto("/")
    slots = page.locator("select[name=plague]").count()
    create_game(page, ["Ana", "Ben"], plague=["ice-blue"] + ["—"] * (slots - 1))
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    shield(page, "1B", "button").click()
    expect(page.get_by_role("heading", name="The Cemetery is empty")).to_be_visible()
    assert small_controls(page) == []
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name="One more green soul"))
    taps.tap(page.get_by_role("button", name="One more green soul"))
    taps.tap(page.get_by_role("button", name="One more blue soul"))
    expect(page.locator("#plague-3")).to_have_value("2")
    taps.tap(page.get_by_role("button", name="Refill the Cemetery"))
    cemetery = page.get_by_role("list", name="Souls in the Cemetery")
    expect(cemetery).to_contain_text("2 × green")
    expect(cemetery).to_contain_text("1 × blue")
    assert taps.count == 4


def test_after_every_tap_the_next_step_is_on_screen_with_focus(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Bring in one ice-blue soul"))
    in_view_with_focus(page, "map-prompt")
    taps.tap(shield(page, "1B", "button"))  # the Limbo shield: Florence comes next
    in_view_with_focus(page, "actions-title")
    expect(page.get_by_role("button", name="Bank")).to_be_in_viewport()
    taps.tap(page.get_by_role("button", name="Bank"))  # the location
    in_view_with_focus(page, "actions-title")
    expect(page.get_by_role("button", name="End Ana's turn")).to_be_in_viewport()

    page.get_by_role("button", name="Undo last entry").click()
    in_view_with_focus(page, "actions-title")
    expect(page.get_by_role("button", name="Bank")).to_be_in_viewport()
    page.get_by_role("button", name="Redo").click()
    in_view_with_focus(page, "actions-title")
    expect(page.get_by_role("button", name="End Ana's turn")).to_be_in_viewport()
    taps.tap(page.get_by_role("button", name="End Ana's turn"))
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    assert taps.count == 4  # a normal turn: a Cemetery colour, a Limbo shield, a location, end
    assert_parts_as_fresh(page)  # with an undo and a redo among the answers

    shield(page, "1B", "link").click()
    in_view_with_focus(page, "map-prompt")
    shield(page, "4C", "button").click()  # refused: the soul stops on the first empty shield
    in_view_with_focus(page, "refusal-move")
    expect(page.locator("#refusal-move")).to_contain_text("first empty shield")
    expect(page.locator("#map-prompt")).to_contain_text("soul on 1B chosen")  # the choice is kept


def at_the_bonfire(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["yellow", "purple", "purple", "green"])
    page.get_by_role("link", name="Bring in one yellow soul").click()
    shield(page, "1D", "button").click()  # 1D shows the Lily: the Bonfire
    page.get_by_role("button", name="Bonfire").click()
    expect(page.get_by_role("heading", name="Bonfire")).to_be_visible()


def test_a_guardian_is_picked_and_used_on_the_map(page: Page) -> None:
    at_the_bonfire(page)
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Medusa"))
    in_view_with_focus(page, "map-prompt")
    expect(page.locator("#map-prompt")).to_contain_text("Step 1: tap a highlighted empty shield for Medusa")
    taps.tap(shield(page, "2D", "button"))  # an empty shield's steady tap, which the map's values make this choice
    in_view_with_focus(page, "map-prompt")
    taps.tap(shield(page, "1D", "link"))  # the soul next to Medusa's new shield
    expect(page.locator("#map-prompt")).to_contain_text("Chosen: 1D")
    taps.tap(page.get_by_role("button", name="Use Medusa"))
    expect(shield(page, "1D", "img")).to_have_accessible_name(re.compile("petrified"))
    expect(shield(page, "2D", "img")).to_have_accessible_name(re.compile("guardian Medusa"))
    assert taps.count == 4  # the guardian, its new shield, the soul next to it, use


def test_a_refused_styx_crossing_shows_in_view_and_keeps_the_choices(page: Page) -> None:
    at_the_bonfire(page)
    page.get_by_text("Or cross the Styx (2 drachmas)").click()
    page.get_by_label("Colour").select_option(label="purple (2)")
    page.get_by_label("Souls", exact=True).select_option("3")
    page.get_by_label("First four: track").select_option(index=1)
    page.get_by_role("button", name="Cross the Styx").click()
    in_view_with_focus(page, "refusal-location-styx")
    expect(page.locator("#refusal-location-styx")).to_be_visible()
    expect(page.get_by_label("Colour")).to_have_value("2")
    expect(page.get_by_label("Souls", exact=True)).to_have_value("3")


def test_a_loan_is_confirmed_first_and_cancel_takes_nothing(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple", "blue"])
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    shield(page, "1B", "button").click()
    page.get_by_role("button", name=re.compile("^Banquet")).click()  # another quarter: 2 drachmas
    expect(page.locator("#loan-confirm")).to_have_count(0)  # she had the drachmas: nothing to confirm
    page.get_by_role("button", name="End Ana's turn").click()
    bring_and_end_turn(page, "Ben", "green", to="1A", place="Banquet")
    expect(stat(page, "Ana", "Drachmas")).to_have_text("0")

    page.get_by_role("link", name="Bring in one purple soul").click()
    shield(page, "1C", "button").click()  # Charon's fee with no drachma: a loan
    in_view_with_focus(page, "loan-confirm")
    confirm = page.locator("#loan-confirm")
    expect(confirm).to_contain_text("You have 0 drachmas: this needs 1 loan, +2 drachmas.")
    expect(confirm).to_contain_text("Move the soul on 1B")  # the free alternative
    page.get_by_role("link", name="Cancel: take nothing").click()
    expect(page.locator("#loan-confirm")).to_have_count(0)
    expect(stat(page, "Ana", "Drachmas")).to_have_text("0")
    expect(stat(page, "Ana", "Ship")).to_have_text("0")

    shield(page, "1C", "button").click()
    page.get_by_role("button", name="Take the loan and go on").click()
    expect(stat(page, "Ana", "Ship")).to_have_text("1")
    expect(stat(page, "Ana", "Drachmas")).to_have_text("1")


def test_a_choice_does_not_leak_to_the_next_player(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green"])
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    expect(page).to_have_url(re.compile(r"select=cemetery-9"))
    shield(page, "1B", "button").click()
    expect(page).not_to_have_url(re.compile(r"select="))
    page.get_by_role("button", name="Bank").click()
    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Ben's turn")).to_be_visible()
    expect(page.locator("#map-prompt")).not_to_contain_text("chosen")
    expect(page.get_by_text("Tap a soul on the map, then a highlighted shield.")).to_be_visible()
    page.go_back()  # even an old address with Ana's choice draws nothing chosen for Ben
    page.reload()
    expect(page.get_by_text("Bring one ice-blue soul from the Cemetery")).to_have_count(0)


def test_every_control_in_the_action_areas_is_at_least_44_px(page: Page) -> None:
    at_the_bonfire(page)
    page.get_by_text("Or cross the Styx (2 drachmas)").click()
    assert small_controls(page) == []


def test_a_fraud_card_takes_four_taps(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple", "blue"])
    page.get_by_role("link", name="Bring in one ice-blue soul").click()
    shield(page, "1B", "button").click()  # the Key: the Market, for a barrel
    page.get_by_role("button", name=re.compile("^Market")).click()
    page.get_by_role("button", name="Take the barrel").click()
    expect(page.get_by_role("button", name="Take the barrel")).to_have_count(0)
    page.get_by_role("button", name="End Ana's turn").click()
    bring_and_end_turn(page, "Ben", "green", to="1E", place="Banquet")
    shield(page, "1E", "link").click()  # a free move keeps her 2 drachmas for the card
    shield(page, "2D", "button").click()  # the Eagle: the Wall
    page.get_by_role("button", name=re.compile("^Wall")).click()
    expect(page.get_by_role("heading", name="Wall")).to_be_visible()
    florins = int(stat(page, "Ana", "Florins").inner_text())
    assert small_controls(page) == []

    taps = Taps(page)  # a card showing her barrel: 2 florins now, 3 infamy at the end
    reward = page.locator("fieldset.reward")
    taps.tap(reward.get_by_role("radio", name=re.compile("^florins$", re.I)))
    taps.tap(reward.get_by_role("radio", name="2", exact=True))
    endgame = page.get_by_role("group", name="Its end-game half: what")
    taps.tap(endgame.get_by_role("radio", name="3", exact=True))
    taps.tap(page.get_by_role("button", name="Play the card"))
    expect(stat(page, "Ana", "Florins")).to_have_text(str(florins + 2))
    expect(page.get_by_role("listitem", name="Ana")).to_contain_text("played: 1")
    assert taps.count == 4


def test_preparing_an_accusation_brings_its_form_into_view_with_focus(page: Page) -> None:
    create_game(page, ["Ana", "Ben"], plague=["ice-blue", "green", "purple"])
    bring_and_end_turn(page, "Ana", "ice-blue", to="1B", place="Bank")
    bring_and_end_turn(page, "Ben", "green", to="1E", place="Banquet")
    shield(page, "1B", "link").click()
    shield(page, "2B", "button").click()
    page.get_by_role("link", name=re.compile("^Accuse at the Bank")).click()
    in_view_with_focus(page, "accuse-title")
    expect(page.get_by_role("button", name="Accuse", exact=True)).to_be_attached()
