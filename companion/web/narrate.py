"""The history in words: every event as a sentence a player reads at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext, ngettext

from companion.game.state import GameState
from companion.web.words import colour_name, player_name, quarter_name
from events import catalog as ev

__all__ = ["narrate"]

Teller = Callable[[Any, GameState], str]

REASONS = {
    "bribe": "to use another quarter",
}


def _name(state: GameState, index: int) -> str:
    return player_name(state, index)


def _shield(shield: str) -> str:
    return shield.upper()


def _created(e: ev.GameCreated, s: GameState) -> str:
    names = ", ".join(p.name for p in e.players)
    text = gettext("New game for %(names)s (board side %(side)s).", names=names, side=e.side)
    if e.expansion:
        text += " " + gettext("Plutus & Phlegyas expansion in play.")
    return text


def _skull(e: ev.StartingSkullPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s's Family card put a skull on the %(colour)s track.",
        player=_name(s, e.player),
        colour=colour_name(e.track),
    )


def _plague(e: ev.PlagueCardRevealed, s: GameState) -> str:
    souls = ", ".join(colour_name(c) for c in e.souls)
    return gettext("Plague card revealed: %(souls)s to the Cemetery.", souls=souls)


def _plague_out(e: ev.PlagueDeckExhausted, s: GameState) -> str:
    return gettext("The Cemetery is empty and the plague deck is exhausted.")


def _loan(e: ev.LoanTaken, s: GameState) -> str:
    text = gettext(
        "%(player)s took a loan: +%(drachmas)s drachmas, Ship to space %(ship)s.",
        player=_name(s, e.player),
        drachmas=e.drachmas,
        ship=e.ship_to,
    )
    if e.infamy_penalty:
        text += " " + gettext("The loan symbol costs %(n)s infamy.", n=e.infamy_penalty)
    return text


def _paid(e: ev.CoinsPaid, s: GameState) -> str:
    return gettext(
        "%(player)s paid %(florins)s florin(s) and %(drachmas)s drachma(s) (%(reason)s).",
        player=_name(s, e.player),
        florins=e.florins,
        drachmas=e.drachmas,
        reason=e.reason,
    )


def _gained(e: ev.CoinsGained, s: GameState) -> str:
    return gettext(
        "%(player)s gained %(florins)s florin(s) and %(drachmas)s drachma(s) (%(reason)s).",
        player=_name(s, e.player),
        florins=e.florins,
        drachmas=e.drachmas,
        reason=e.reason,
    )


def _exchanged(e: ev.FlorinsExchanged, s: GameState) -> str:
    return gettext(
        "%(player)s changed %(florins)s florin(s) into %(drachmas)s drachma(s).",
        player=_name(s, e.player),
        florins=e.florins,
        drachmas=e.drachmas,
    )


def _infamy(e: ev.InfamyChanged, s: GameState) -> str:
    return gettext(
        "%(player)s: %(amount)+d infamy (%(reason)s).", player=_name(s, e.player), amount=e.amount, reason=e.reason
    )


def _brought(e: ev.SoulBroughtIn, s: GameState) -> str:
    return ngettext(
        "%(player)s paid Charon %(num)s drachma and brought a %(colour)s soul into Limbo at %(shield)s.",
        "%(player)s paid Charon %(num)s drachmas and brought a %(colour)s soul into Limbo at %(shield)s.",
        e.cost,
        player=_name(s, e.player),
        colour=colour_name(e.colour),
        shield=_shield(e.shield),
    )


def _moved(e: ev.SoulMoved, s: GameState) -> str:
    soul = s.hell.get(e.from_shield)
    colour = colour_name(soul.colour) if soul else ""
    landing = s.side.shields[e.path[-1]]
    text = gettext(
        "%(player)s moved the %(colour)s soul from %(start)s to %(end)s (circle %(circle)s).",
        player=_name(s, e.player),
        colour=colour,
        start=_shield(e.from_shield),
        end=_shield(e.path[-1]),
        circle=landing.circle,
    )
    if len(e.path) > 1:
        text += " " + gettext("It fell through %(via)s.", via=", ".join(_shield(x) for x in e.path[:-1]))
    if e.wall_pass_used:
        text += " " + gettext("A wall pass carried it across the Wall of Dis.")
    return text


def _laid(e: ev.SoulLaidDown, s: GameState) -> str:
    return gettext(
        "The soul reached its circle and was laid down: %(player)s scored %(infamy)s infamy.",
        player=_name(s, e.player),
        infamy=e.infamy,
    )


def _toll(e: ev.TollPaid, s: GameState) -> str:
    return gettext(
        "%(player)s paid %(owner)s a %(n)s-drachma toll for the Desk below %(shield)s.",
        player=_name(s, e.player),
        owner=_name(s, e.owner),
        n=e.drachmas,
        shield=_shield(e.shield),
    )


def _disc(e: ev.DiscPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s placed a safe-passage disc on the Wall of Dis gate above %(shield)s.",
        player=_name(s, e.player),
        shield=_shield(s.side.gates.get(e.gate, e.gate)),
    )


def _soul_corrected(e: ev.SoulCorrected, s: GameState) -> str:
    if not e.colour:
        return gettext(
            "Correction: shield %(shield)s is empty (%(reason)s).", shield=_shield(e.shield), reason=e.reason
        )
    how = gettext("petrified") if e.petrified else gettext("laid down") if e.laid else gettext("standing")
    return gettext(
        "Correction: %(colour)s soul, %(how)s, on %(shield)s (%(reason)s).",
        colour=colour_name(e.colour),
        how=how,
        shield=_shield(e.shield),
        reason=e.reason,
    )


def _quarter(e: ev.TurnQuarterSet, s: GameState) -> str:
    return gettext("This turn's Florence quarter: %(quarter)s.", quarter=quarter_name(e.quarter))


def _ended_turn(e: ev.TurnEnded, s: GameState) -> str:
    return gettext(
        "%(player)s ended the turn; %(next)s plays.", player=_name(s, e.player), next=_name(s, e.next_player)
    )


def _game_ended(e: ev.GameEnded, s: GameState) -> str:
    if e.reason == "sudden_death":
        return gettext("Sudden death: %(player)s has no legal soul move. The game ends now.", player=_name(s, e.player))
    return gettext("Every player has had their last turn. The game is over.")


def _undone(e: ev.ActionUndone, s: GameState) -> str:
    return gettext("Undid entry #%(action)s.", action=e.action)


def _redone(e: ev.ActionRedone, s: GameState) -> str:
    return gettext("Redid entry #%(action)s.", action=e.action)


TELLERS: dict[type, Teller] = {
    ev.GameCreated: _created,
    ev.StartingSkullPlaced: _skull,
    ev.PlagueCardRevealed: _plague,
    ev.PlagueDeckExhausted: _plague_out,
    ev.LoanTaken: _loan,
    ev.CoinsPaid: _paid,
    ev.CoinsGained: _gained,
    ev.FlorinsExchanged: _exchanged,
    ev.InfamyChanged: _infamy,
    ev.SoulBroughtIn: _brought,
    ev.SoulMoved: _moved,
    ev.SoulLaidDown: _laid,
    ev.TollPaid: _toll,
    ev.DiscPlaced: _disc,
    ev.SoulCorrected: _soul_corrected,
    ev.TurnQuarterSet: _quarter,
    ev.TurnEnded: _ended_turn,
    ev.GameEnded: _game_ended,
    ev.ActionUndone: _undone,
    ev.ActionRedone: _redone,
}


def narrate(event: ev.Event, state: GameState) -> str:
    """One event as a sentence; ``state`` is the game just before the event."""
    teller = TELLERS.get(type(event))
    if teller is None:
        return type(event).__name__
    return teller(event, state)
