"""One entry point for both kinds of log: a recorded game and a quick tally.

A log's first event says which it is (``GameCreated`` or ``TallyStarted``); the service,
the audit and the CLI go through these functions and never branch on the kind themselves.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.game.commands import CreateGame, StartTally, SwitchEdition, SwitchEditionFrom
from companion.game.edition import Edition
from companion.game.edition_switch import decide_switch
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.scoring import Scoresheet, score_state
from companion.game.state import GameState
from companion.game.tally import TallyState, decide_start_tally, decide_tally, evolve_tally, replay_tally, tally_score
from events.catalog import Event, TallyStarted

__all__ = ["AnyState", "decide_any", "decide_start", "evolve_any", "replay_any", "scoresheet"]

AnyState = GameState | TallyState


def replay_any(edition: Edition, events: Iterable[Event]) -> AnyState:
    """Fold a game's or a tally's effective events."""
    items = list(events)
    if items and isinstance(items[0], TallyStarted):
        return replay_tally(edition, items)
    return replay(edition, items)


def evolve_any(state: AnyState, event: Event) -> AnyState:
    """Apply one event to a game or a tally."""
    if isinstance(state, TallyState):
        return evolve_tally(state, event)
    return evolve(state, event)


def decide_start(edition: Edition, command: object) -> list[Event]:
    """The first action of a log: create a game or start a tally."""
    if isinstance(command, CreateGame):
        return decide_create(edition, command)
    if isinstance(command, StartTally):
        return decide_start_tally(edition, command)
    raise RuleViolation("no_game", {})


def decide_any(state: AnyState, command: object) -> list[Event]:
    """Judge a command against a game or a tally."""
    if isinstance(command, (CreateGame, StartTally)):
        raise RuleViolation("game_exists", {})
    if isinstance(command, SwitchEdition):
        return decide_switch(state, command)
    if isinstance(command, SwitchEditionFrom):  # it sets entries aside: the log decides it, as an undo
        raise RuleViolation("edition_switch_from_log", {}, rule="a switch from an entry is decided with the log")
    if isinstance(state, TallyState):
        return decide_tally(state, command)  # type: ignore[arg-type]
    return decide(state, command)  # type: ignore[arg-type]


def scoresheet(state: AnyState) -> Scoresheet:
    """The score breakdown of a game (so far) or a tally."""
    if isinstance(state, TallyState):
        return tally_score(state)
    return score_state(state)
