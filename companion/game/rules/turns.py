"""Turn order, the end of a turn, sudden death and the plague deck (RULES.md §4, §4.4, §7.1).

Players act clockwise in the order they were entered; there are no rounds. When the next
player has no legal soul move at all the game ends at once (sudden death, seed 000 p.11).
When the Cemetery empties the table reveals the next plague card before anything else.
"""

from __future__ import annotations

from companion.game.commands import EndTurn, RevealPlagueCard
from companion.game.errors import RuleViolation
from companion.game.projection import evolve
from companion.game.rules.ferry import ferry_options
from companion.game.rules.guards import require_active
from companion.game.rules.hell import any_hell_move
from companion.game.state import GameState, Phase
from events.catalog import Event, GameEnded, PlagueCardRevealed, PlagueDeckExhausted, TurnEnded

__all__ = ["decide_end_turn", "decide_plague", "has_any_soul_move"]


def has_any_soul_move(state: GameState, player: int) -> bool:
    """Whether ``player`` could make a soul move now (loans are unlimited, so money never blocks); found at the
    first move, not by listing them all (an end of turn asks it for the next player)."""
    return any_hell_move(state, player) or bool(ferry_options(state, player))


def decide_end_turn(state: GameState, cmd: EndTurn) -> list[Event]:
    """End the turn; the next player becomes active, or the game ends (RULES.md §7.1)."""
    require_active(state, cmd.player)
    if state.phase not in (Phase.ACTION, Phase.DONE):
        raise RuleViolation(
            "turn_not_finished",
            {"phase": state.phase.value},
        )
    nxt = (state.active + 1) % len(state.players)
    ended = TurnEnded(cmd.player, nxt)
    events: list[Event] = [ended]
    after = evolve(state, ended)
    if after.final_turns_left == 0:
        events.append(GameEnded("final_turns_done", cmd.player))
    elif not has_any_soul_move(after, nxt):
        events.append(GameEnded("sudden_death", nxt))
    return events


def decide_plague(state: GameState, cmd: RevealPlagueCard) -> list[Event]:
    """Refill the empty Cemetery with the souls of the plague card the table revealed."""
    if not state.needs_plague_card:
        raise RuleViolation(
            "cemetery_not_empty",
            {"cemetery": state.cemetery_total()},
        )
    if cmd.deck_empty:
        events: list[Event] = [PlagueDeckExhausted()]
    else:
        souls = state.edition.section("souls")
        if not 1 <= len(cmd.souls) <= int(souls["plague_card_max"]):
            raise RuleViolation("plague_card_size", {"count": len(cmd.souls), "max": souls["plague_card_max"]})
        bad = [c for c in cmd.souls if c not in state.edition.circles]
        if bad:
            raise RuleViolation("unknown_colour", {"colours": bad})
        events = [PlagueCardRevealed(tuple(cmd.souls))]
    if state.phase is Phase.HELL:
        after = state
        for evt in events:
            after = evolve(after, evt)
        if not has_any_soul_move(after, after.active):
            events.append(GameEnded("sudden_death", after.active))
    return events
