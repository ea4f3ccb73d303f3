"""Switching a running game to a corrected edition: whether the board as it stands fits it, and applying it.

The switch is recorded as ``EditionChanged`` carrying the edition file's exact text, so a log
replays the switch on its own (exports, imports, ``companion replay``). Whether every earlier
entry still holds under the new edition is ``companion.game.edition_recheck``'s question.
"""

from __future__ import annotations

from functools import lru_cache

from companion.game.commands import SwitchEdition
from companion.game.edition import Edition, EditionError, parse_edition
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from events.catalog import EditionChanged, Event

__all__ = ["decide_switch", "edition_from_text"]

RULE = "a game switches to a corrected edition only when its board, as it stands, fits that edition"


@lru_cache(maxsize=32)
def edition_from_text(content: str) -> Edition:
    """The parsed, validated edition of this exact text (the same text always gives the same edition)."""
    return parse_edition(content)


def _misfits(state: GameState, edition: Edition) -> list[tuple[str, str]]:
    """What of the table as it stands has no place on ``edition``'s board: (kind, name) pairs."""
    side = edition.sides[state.side.id]
    out: list[tuple[str, str]] = [("soul", s) for s in state.hell if s not in side.shields]
    out += [("guardian", s) for s in state.guardians.values() if s not in side.shields]
    for p in state.p:
        out += [("desk", s) for s in p.desks if s not in side.shields]
        out += [("disc", g) for g in p.discs if g not in side.gates]
        out += [("skull", str(t)) for t, level in p.skulls.items() if level > edition.track_length]
        if p.ship >= len(edition.loan_penalties):
            out.append(("ship", str(p.ship)))
    scale = edition.section("phlegethon")["scale"]
    out += [("cube", str(c)) for c, i in state.phlegethon.items() if i >= len(scale)]
    if state.dante >= len(edition.dante_path(len(state.players))):
        out.append(("dante", str(state.dante)))
    return out


def decide_switch(state: object, command: SwitchEdition) -> list[Event]:
    """Record a switch to the edition in ``command`` if the table as it stands fits it."""
    if not isinstance(state, GameState):
        raise RuleViolation("edition_switch_tally", {}, rule="a quick tally keeps the edition it was started with")
    try:
        edition = edition_from_text(command.content)
    except EditionError as exc:
        raise RuleViolation("edition_invalid", {"message": str(exc)}, rule="an edition must validate") from exc
    if edition.content_hash == state.edition.content_hash:
        raise RuleViolation("edition_same", {}, rule=RULE)
    side = edition.sides.get(state.side.id)
    if side is None or len(state.players) not in side.players:
        raise RuleViolation("edition_no_side", {"side": state.side.id, "players": len(state.players)}, rule=RULE)
    misfits = _misfits(state, edition)
    if misfits:
        kind, name = misfits[0]
        raise RuleViolation("edition_breaks_board", {"kind": kind, "name": name}, rule=RULE)
    return [EditionChanged(edition.id, edition.content_hash, command.content)]
