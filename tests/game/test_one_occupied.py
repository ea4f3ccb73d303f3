"""Issue 25: the ferry may land where Phlegyas just stood, and corrections use the one "occupied".

Seed 002, Black Guardian (Phlegyas): "move the standee to an empty shield. Select a Soul standing
in that same circle, and place it on any empty shield at the same level." The standee moves
first, so the shield it left is empty. Three players on the 3–4 side; lines used: 2B→3A,3B.
"""

from __future__ import annotations

from companion.game.commands import Correct, CorrectSoul, EndTurn, SendMember, SummonFerryman, UseGuardian
from companion.game.rules.ferry import ferry_options
from events.catalog import (
    BellTaken,
    Corrected,
    GameEnded,
    GuardianMoved,
    GuardianUse,
    SoulCorrected,
    SoulShifted,
    TurnQuarterSet,
)
from tests.builders import Table, place
from tests.game.test_expansion_rules import expansion
from tests.game.variants import variant

PAGAN, PURPLE, GREEN, RED = 1, 2, 3, 7


def fill_off() -> Table:
    def change(raw: dict) -> None:
        raw["empty_shield"]["standees_fill"] = False

    return Table(variant(change))


def test_the_ferry_may_put_the_soul_on_the_shield_phlegyas_just_left(table: Table) -> None:
    # Given Phlegyas on 2B, a red soul standing on 2D and Araceli holding a Bell
    expansion(table, GuardianMoved(0, "phlegyas", "5f", "2b", "test"), place("2d", RED), BellTaken(0))
    # When she summons the ferryman to 2E and moves the soul from 2D to 2B, then on to 3A
    events = table.when(SummonFerryman(0, "2e", "2d", "2b", "3a"))
    # Then the soul lands on the shield Phlegyas left, and makes its regular move
    assert events[1] == GuardianMoved(0, "phlegyas", "2b", "2e", "ferry")
    assert events[2] == SoulShifted(0, "2d", "2b")
    state = table.state
    assert state.guardians["phlegyas"] == "2e" and "3a" in state.hell and "2d" not in state.hell


def test_the_shield_phlegyas_left_is_offered_as_a_sideways_landing(table: Table) -> None:
    expansion(table, GuardianMoved(0, "phlegyas", "5f", "2b", "test"), place("2d", RED), BellTaken(0))
    options = ferry_options(table.state, 0, "2e")
    assert any(o.soul_from == "2d" and o.soul_to == "2b" for o in options)


def test_the_sideways_landing_is_still_refused_where_phlegyas_now_stands(table: Table) -> None:
    expansion(table, GuardianMoved(0, "phlegyas", "5f", "2b", "test"), place("2d", RED), BellTaken(0))
    table.refused(SummonFerryman(0, "2e", "2d", "2e", "3e"), "ferry_sideways_not_empty")


def test_no_sudden_death_when_the_only_ferry_lands_where_phlegyas_stood(table: Table) -> None:
    # Given Limbo full (no Cemetery soul can come in), a green soul on 2A whose one line (3A) is
    # taken, Phlegyas on 2B, every other circle-2 shield but 2G laid with a soul, and Paco's Bell:
    # his only soul move is the ferry to 2G with the green soul going sideways to 2B, then to 3B.
    expansion(
        table,
        *(place(f"1{c}", PAGAN, laid=True) for c in "abcdefg"),
        place("2a", GREEN),
        *(place(f"2{c}", PURPLE, laid=True) for c in "cdef"),
        place("3a", PURPLE, laid=True),
        GuardianMoved(0, "phlegyas", "5f", "2b", "test"),
        BellTaken(1),
        TurnQuarterSet(0, "key"),
    )
    options = ferry_options(table.state, 1)
    assert [(o.phlegyas_to, o.soul_from, o.soul_to) for o in options] == [("2g", "2a", "2b")]
    table.when(SendMember(0, "noble", "bank"))
    # When Araceli ends her turn, then the game goes on
    events = table.when(EndTurn(0))
    assert not any(isinstance(e, GameEnded) for e in events)


# ------------------------------------------------------------------ corrections (item 3)


def test_with_standees_filling_a_correction_refuses_a_soul_on_a_guardians_shield(table: Table) -> None:
    # Edition empty_shield.standees_fill true (shipped): a standee occupies its shield.
    table.create()
    shield = next(iter(table.state.guardians.values()))
    table.refused(CorrectSoul(shield, RED, "fix"), "shield_occupied")


def test_with_standees_not_filling_a_correction_may_put_a_soul_beside_a_standee() -> None:
    # Edition standees_fill false: a standee never blocks a soul, in play, at scoring and in corrections.
    table = fill_off().create()
    guardian, shield = next(iter(table.state.guardians.items()))
    events = table.when(CorrectSoul(shield, RED, "fix"))
    assert isinstance(events[0], SoulCorrected) and shield in table.state.hell
    assert table.state.guardians[guardian] == shield


def test_with_standees_not_filling_a_guardian_correction_is_refused_on_a_souls_shield_as_in_play() -> None:
    # standees_fill false: a standee never blocks a soul, but a soul still occupies its shield,
    # so a standee goes (in play and in a correction) only to a shield where no soul stands.
    table = fill_off().create().given(place("6c", RED))
    guardian = next(iter(table.state.guardians))
    table.refused(Correct("guardian", "fix", key=guardian, shield="6c"), "guardian_needs_empty_shield")
    events = table.when(Correct("guardian", "fix", key=guardian, shield="6b"))
    assert isinstance(events[0], Corrected) and table.state.guardians[guardian] == "6b"


def test_two_standees_never_share_a_shield_even_when_standees_do_not_fill() -> None:
    table = fill_off().create()
    first, second = list(table.state.guardians)[:2]
    taken = table.state.guardians[second]
    table.refused(Correct("guardian", "fix", key=first, shield=taken), "guardian_needs_empty_shield")


def test_medusa_may_not_move_onto_another_guardians_shield_when_standees_do_not_fill() -> None:
    table = fill_off().create()
    guardians = table.state.guardians
    user = next(g for g in guardians if g not in ("plutus", "phlegyas"))
    other = next(s for g, s in guardians.items() if g != user)
    table.given(TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    table.refused(UseGuardian(0, GuardianUse(user, other, effect=False)), "guardian_needs_empty_shield")
