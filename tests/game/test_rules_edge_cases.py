"""Rules that had no test: given / when / then, each stating the rulebook's (or the digest's) words.

Two players on the 1–2 side unless said (three or four players use the 3–4 side); default
layout (Key: Bank + Market, Lily: Haystack + Bonfire); Dante's four-player path starts with a
pagan step.
"""

from __future__ import annotations

from companion.game.commands import (
    Accuse,
    CreateGame,
    EndTurn,
    PlaceDisc,
    RaiseCube,
    RevealPlagueCard,
    SendMember,
    SummonFerryman,
)
from companion.game.rules import decide_create
from companion.game.scoring import score_state
from events.catalog import (
    BellTaken,
    CoinsPaid,
    Corrected,
    DanteMoved,
    DeskPlaced,
    DiscPlaced,
    GameEnded,
    GuardianMoved,
    GuardianUse,
    Reward,
    SkullAdvanced,
    SoulAddedToCemetery,
    SupplyExhausted,
    TollPaid,
    TurnQuarterSet,
)
from tests.builders import Table, place, seats
from tests.game.test_expansion_rules import expansion
from tests.game.test_florence_rules import earlier
from tests.game.variants import variant

PAGAN, PURPLE, GREEN, YELLOW, RED = 1, 2, 3, 4, 7
FLORINS = Reward("florins", 1)


def test_a_petrified_soul_fills_its_shield_at_final_scoring(table: Table) -> None:
    # RULES.md §6: a petrified soul keeps occupying a shield. Given the circle-5 cube on space 4
    # and a soul petrified on 5b, with three more shields empty
    table.create().given(place("5b", RED, petrified=True), Corrected("cube", 0, "5", 4, 2, "test"))
    # When the game is scored, then only 3 shields move the cube: space 4 → 1, value 2
    five = next(c for c in score_state(table.state).circles if c.circle == 5)
    assert (five.empty, five.after) == (3, 2)


def test_dantes_pagan_step_puts_a_pagan_soul_into_the_cemetery_and_offers_a_free_guardian(table: Table) -> None:
    # RULES.md §3.6: the pagan step puts a pagan soul into the Cemetery; the player may also use
    # a guardian, presumably free. Given four players and Ana's member already at the Bank
    table.log = decide_create(table.edition, CreateGame(seats(4), plague_card=(2,)))
    table.given(earlier(0, "noble", "bank")[0], TurnQuarterSet(0, "key"))
    cemetery = dict(table.state.cemetery)
    # When she accuses there, moving Medusa as the pagan step allows
    events = table.when(Accuse(0, "bank", bonus=FLORINS, dante_guardian=GuardianUse("medusa", "6a", effect=False)))
    # Then Dante stands on the pagan step, a pagan soul joins the Cemetery, Medusa moved for free
    assert DanteMoved(0, 1, "pagan", 0) in events
    assert SoulAddedToCemetery(PAGAN, "dante") in events
    assert GuardianMoved(0, "medusa", "6e", "6a", "dante") in events  # 3–4 side: Medusa starts on 6E
    assert not any(isinstance(e, CoinsPaid) and e.reason == "guardian" for e in events)
    assert table.state.cemetery[PAGAN] == cemetery.get(PAGAN, 0) + 1


def test_a_colour_run_out_in_the_supply_adds_no_soul_to_the_cemetery(table: Table) -> None:
    # RULES.md §10.19 (supply counts bound accusations): given no yellow soul left in the supply
    table.edition = variant(lambda raw: raw["souls"]["supply"].__setitem__("4", 0))
    table.create().given(*earlier(0, "noble", "bank"), TurnQuarterSet(0, "key"))
    # When Ana accuses at the Bank (yellow, greed)
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    # Then no yellow soul goes to the Cemetery, and the accusation still resolves
    assert SupplyExhausted(YELLOW, "accusation") in events
    assert YELLOW not in table.state.cemetery
    assert table.state.p[0].skull(YELLOW) == 1


def test_a_skull_at_its_tracks_end_stays_there_when_accusing(table: Table) -> None:
    # Seed 000 p.9 (the Styx) and every advance: a skull never passes its track's end.
    table.create().given(
        *earlier(0, "noble", "bank"), Corrected("skull", 0, "4", 4, 0, "test"), TurnQuarterSet(0, "key")
    )
    events = table.when(Accuse(0, "bank", bonus=FLORINS))
    assert not any(isinstance(e, SkullAdvanced) for e in events)
    assert table.state.p[0].skull(YELLOW) == 4
    assert any(isinstance(e, DanteMoved) for e in events)  # the accusation's other steps still happen


def _limbo_full(table: Table) -> Table:
    """Every Limbo shield holds a laid-down pagan; the Cemetery is empty and a plague card is due."""
    table.create(plague_card=(PAGAN,))
    table.given(*(place(s, PAGAN, laid=True) for s in ("1a", "1b", "1c", "1d", "1e")))
    table.given(Corrected("cemetery", 0, "1", 0, 1, "test"))
    assert table.state.needs_plague_card
    return table


def test_sudden_death_right_after_a_plague_card(table: Table) -> None:
    # Seed 000 p.11: no legal soul move (none can come in from the Cemetery) ends the game at once.
    _limbo_full(table)
    # When the plague card fills the Cemetery but no Limbo shield is empty
    events = table.when(RevealPlagueCard(0, (GREEN, RED)))
    # Then the game ends there, for the active player
    assert events[-1] == GameEnded("sudden_death", 0)


def _ferry_only(table: Table, bell: bool) -> Table:
    """Expansion, three players (3–4 side): Paco's only soul move is the ferry. Limbo is full, so no
    Cemetery soul can come in, and the green soul on 2A is stuck: its one line leads to 3A, taken,
    and going on would pass circle 3. Shifted sideways in circle 2, it could fall again."""
    expansion(
        table,
        *(place(f"1{c}", PAGAN, laid=True) for c in "abcdefg"),
        place("2a", GREEN),
        place("3a", PURPLE, laid=True),
        *([BellTaken(1)] if bell else []),
        TurnQuarterSet(0, "key"),
    )
    table.when(SendMember(0, "noble", "bank"))
    return table


def test_no_sudden_death_while_the_ferry_can_still_move_a_soul(table: Table) -> None:
    # Seed 002: the ferry is a Hell-phase move; with a Bell Paco still has a legal soul move.
    _ferry_only(table, bell=True)
    events = table.when(EndTurn(0))
    assert not any(isinstance(e, GameEnded) for e in events)


def test_without_the_bell_the_same_board_is_sudden_death(table: Table) -> None:
    _ferry_only(table, bell=False)
    events = table.when(EndTurn(0))
    assert events[-1] == GameEnded("sudden_death", 1)


def test_the_ferrys_follow_up_pays_the_toll_of_a_desk_it_crosses(table: Table) -> None:
    # Seed 002: the follow-up is a regular Hell move, so crossing Paco's Desk below 2C costs 1 drachma.
    expansion(table, BellTaken(0), place("2a", RED), DeskPlaced(1, "2c", ""))
    events = table.when(SummonFerryman(0, "2g", "2a", "2c", "3c", borrow=True))
    assert TollPaid(0, 1, "2c", 1) in events


def _at_the_bonfire(table: Table, players: int = 2, *given) -> Table:
    table.create(players).given(*given, TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    return table


def test_a_player_places_at_most_the_editions_discs(table: Table) -> None:
    # RULES.md §5: probably 4 discs per player (edition discs.per_player). Three players: 5 gates.
    _at_the_bonfire(table, 3, *(DiscPlaced(0, f"gate-6{c}") for c in "abcd"))
    table.refused(PlaceDisc(0, "gate-6e"), "no_disc_left")


def test_a_cube_at_the_end_of_the_scale_cannot_be_raised(table: Table) -> None:
    # The Phlegethon scale ends on its last space (edition phlegethon.scale).
    _at_the_bonfire(table, 2, Corrected("cube", 0, "6", 4, 2, "test"))
    exc = table.refused(RaiseCube(0, 6), "cube_at_end")
    assert 6 not in {c.params["circle"] for c in exc.alternatives}
    table.when(RaiseCube(0, 5))
    assert table.state.phlegethon[5] == 3
