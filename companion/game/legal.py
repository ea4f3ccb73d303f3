"""What the active player may do now: the menu the phone shows, computed from the rules.

Templates render these options; they never decide legality themselves. Every option here
is something ``rules.decide`` accepts (tests check that property on random games).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.commands import HoldCouncil
from companion.game.rules.accusation import AccusationCheck, accusation_checks
from companion.game.rules.economy import loan
from companion.game.rules.ferry import ferry_options
from companion.game.rules.florence import council_options, lacks_tower_space, locations
from companion.game.rules.hell import HellMove, legal_hell_moves
from companion.game.rules.locations import OPTIONS
from companion.game.state import GameState, Phase
from events.catalog import LoanTaken

__all__ = ["FlorenceOptions", "SendOption", "TurnOptions", "florence_options", "turn_options"]


@dataclass(frozen=True)
class TurnOptions:
    """The active player's choices at this moment."""

    player: int
    phase: Phase
    hell_moves: tuple[HellMove, ...]
    next_loan: LoanTaken | None
    can_end_turn: bool
    plague_due: bool
    florence: FlorenceOptions | None = None
    location_options: tuple[str, ...] = ()
    can_ferry: bool = False

    @property
    def bring_moves(self) -> tuple[HellMove, ...]:
        """Souls that can come in from the Cemetery, one entry per colour and Limbo shield."""
        return tuple(m for m in self.hell_moves if m.kind == "bring")

    @property
    def soul_moves(self) -> tuple[HellMove, ...]:
        """Falls of standing souls already in Hell."""
        return tuple(m for m in self.hell_moves if m.kind == "move")

    def moves_from(self, shield: str) -> tuple[HellMove, ...]:
        """The legal falls of the soul on ``shield``."""
        return tuple(m for m in self.hell_moves if m.start == shield)

    @property
    def movable(self) -> tuple[str, ...]:
        """Shields whose soul has at least one legal fall."""
        return tuple(dict.fromkeys(m.start for m in self.soul_moves if m.start is not None))


@dataclass(frozen=True)
class SendOption:
    """A location a member may go to now, and what it costs."""

    location: str
    quarter: str
    special: bool
    bribe: int  # drachmas to use another quarter (0 when in the turn's quarter)
    kinds: tuple[tuple[str, int], ...]  # (kind, florins to enter) for the kinds at home


@dataclass(frozen=True)
class FlorenceOptions:
    """The Florence phase's choices: sending, accusing, or the family council."""

    sends: tuple[SendOption, ...]
    accusations: tuple[AccusationCheck, ...]
    council_forced: bool
    council: tuple[HoldCouncil, ...]


def florence_options(state: GameState, player: int) -> FlorenceOptions:
    """What ``player`` may do in the Florence phase now (RULES.md §4.2)."""
    pl = state.p[player]
    info = locations(state)
    entry = state.edition.economy("special_entry_noble")
    bribe = state.edition.economy("bribe_any_quarter")
    sends = []
    if pl.at_home:
        for loc, quarter in sorted(state.florence.items(), key=lambda lq: (lq[1] != state.quarter, lq[1], lq[0])):
            if lacks_tower_space(state, pl, loc):
                continue
            special = info[loc]["kind"] == "special"
            kinds = []
            if pl.home_nobles and (not special or pl.florins >= entry):
                kinds.append(("noble", entry if special else 0))
            if pl.home_urchins:
                kinds.append(("urchin", 0))
            if kinds:
                sends.append(SendOption(loc, quarter, special, 0 if quarter == state.quarter else bribe, tuple(kinds)))
    checks = tuple(accusation_checks(state, player))
    forced = pl.at_home == 0 and not any(c.allowed for c in checks)
    return FlorenceOptions(tuple(sends), checks, forced, tuple(council_options(state, player)) if forced else ())


def turn_options(state: GameState) -> TurnOptions:
    """The options of the active player (nothing when the game is over)."""
    player = state.active
    over = state.phase is Phase.OVER
    in_hell = state.phase is Phase.HELL and not state.needs_plague_card and not over
    return TurnOptions(
        player=player,
        phase=state.phase,
        hell_moves=tuple(legal_hell_moves(state, player)) if in_hell else (),
        next_loan=None if over else loan(state, player),
        can_end_turn=state.phase in (Phase.ACTION, Phase.DONE) and not state.needs_plague_card,
        plague_due=state.needs_plague_card and not over,
        florence=florence_options(state, player) if state.phase is Phase.FLORENCE and not over else None,
        can_ferry=in_hell and state.p[player].bells > 0 and bool(ferry_options(state, player)),
        location_options=tuple(
            o for o in OPTIONS.get(state.action or "", ()) if o not in state.used or o == "rearrange"
        )
        if state.phase is Phase.ACTION
        else (),
    )
