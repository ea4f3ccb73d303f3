"""The history in words: every event as a sentence a player reads at the table.

``narrate`` tells one event through ``TELLERS``, the one table from each event of the catalogue to its sentence.
The game as a whole (its start, turns, end, undo, corrections, coins and infamy, the quick tally, the table's
choices) is told here; Hell's events in ``history_hell``, Florence's and the expansion's in ``history_florence``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.edition_switch import edition_from_text
from companion.game.game_or_tally import AnyState
from companion.game.projection import evolve
from companion.game.state import GameState
from companion.web.words import history_florence, history_hell
from companion.web.words.bidi import isolate
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.editions import edition_name
from companion.web.words.glossary import colour_name, field_name, guardian_name, player_name, reason_name
from events import catalog as ev

__all__ = ["TELLERS", "narrate"]

Teller = Callable[[Any, Any], str]  # (the event, the game or tally just before it)


def _coins(florins: int, drachmas: int) -> str:
    """'1 florin', '2 drachmas', '2 florins and 1 drachma': counted words, no zero amounts."""
    parts = [ngettext("%(num)s florin", "%(num)s florins", florins)] if florins else []
    parts += [ngettext("%(num)s drachma", "%(num)s drachmas", drachmas)] if drachmas or not florins else []
    return gettext("%(first)s and %(second)s", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]


def _game_created(e: ev.GameCreated, s: GameState) -> str:
    names = ", ".join(isolate(p.name) for p in e.players)
    text = gettext("New game for %(names)s (board side %(side)s).", names=names, side=e.side)
    if e.expansion:
        text += " " + gettext("Plutus & Phlegyas expansion in play.")
    return text


def _starting_skull_placed(e: ev.StartingSkullPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s's Family card put a skull on the %(colour)s track.",
        player=player_name(s, e.player),
        colour=colour_name(e.track),
    )


def _table_mode_chosen(e: ev.TableModeChosen, s: GameState) -> str:
    if e.mode == "seats":
        return gettext("Each player now acts from their own phone (seats).")
    return gettext("One shared phone now acts for whoever's turn it is.")


def _turn_ended(e: ev.TurnEnded, s: GameState) -> str:
    if evolve(s, e).final_turns_left == 0:  # the last turn: nobody plays after it
        return gettext("%(player)s ended the last turn: the game is over.", player=player_name(s, e.player))
    return gettext(
        "%(player)s ended the turn; %(next)s plays.",
        player=player_name(s, e.player),
        next=player_name(s, e.next_player),
    )


def _game_ended(e: ev.GameEnded, s: GameState) -> str:
    if e.reason == "sudden_death":
        return gettext(
            "Sudden death: %(player)s has no legal soul move. The game ends now.", player=player_name(s, e.player)
        )
    return gettext("Every player has had their last turn. The game is over.")


def _action_undone(e: ev.ActionUndone, s: GameState) -> str:
    return gettext("Undid entry #%(action)s.", action=e.action)


def _action_redone(e: ev.ActionRedone, s: GameState) -> str:
    return gettext("Redid entry #%(action)s.", action=e.action)


def _loan_taken(e: ev.LoanTaken, s: GameState) -> str:
    text = gettext(
        "%(player)s took a loan: +%(drachmas)s drachmas, Ship to space %(ship)s.",
        player=player_name(s, e.player),
        drachmas=e.drachmas,
        ship=e.ship_to,
    )
    if e.infamy_penalty:
        text += " " + gettext("The loan symbol costs %(n)s infamy.", n=e.infamy_penalty)
    return text


def _coins_paid(e: ev.CoinsPaid, s: GameState) -> str:
    return gettext(
        "%(player)s paid %(coins)s (%(reason)s).",
        player=player_name(s, e.player),
        coins=_coins(e.florins, e.drachmas),
        reason=reason_name(e.reason),
    )


def _coins_gained(e: ev.CoinsGained, s: GameState) -> str:
    return gettext(
        "%(player)s gained %(coins)s (%(reason)s).",
        player=player_name(s, e.player),
        coins=_coins(e.florins, e.drachmas),
        reason=reason_name(e.reason),
    )


def _florins_exchanged(e: ev.FlorinsExchanged, s: GameState) -> str:
    return gettext(
        "%(player)s changed %(florins)s into %(drachmas)s.",
        player=player_name(s, e.player),
        florins=_coins(e.florins, 0),
        drachmas=_coins(0, e.drachmas),
    )


def _infamy_changed(e: ev.InfamyChanged, s: GameState) -> str:
    return gettext(
        "%(player)s: %(amount)+d infamy (%(reason)s).",
        player=player_name(s, e.player),
        amount=e.amount,
        reason=reason_name(e.reason),
    )


def _soul_corrected(e: ev.SoulCorrected, s: GameState) -> str:
    if not e.colour:
        return gettext("Correction: shield %(shield)s is empty (%(reason)s).", shield=e.shield.upper(), reason=e.reason)
    how = gettext("petrified") if e.petrified else gettext("laid down") if e.laid else gettext("standing")
    return gettext(
        "Correction: %(colour)s soul, %(how)s, on %(shield)s (%(reason)s).",
        colour=colour_name(e.colour),
        how=how,
        shield=e.shield.upper(),
        reason=e.reason,
    )


def _corrected(e: ev.Corrected, s: GameState) -> str:
    who = player_name(s, e.player) if e.player >= 0 else ""
    if e.what == "guardian":
        return gettext(
            "Correction: %(g)s stands on %(shield)s (%(reason)s).",
            g=guardian_name(e.key),
            shield=e.shield.upper(),
            reason=e.reason,
        )
    label = {
        "skull": gettext("skull on %(c)s", c=colour_name(int(e.key))) if e.key.isdigit() else e.key,
        "diploma": gettext("%(c)s diploma", c=colour_name(int(e.key))) if e.key.isdigit() else e.key,
        "cemetery": gettext("%(c)s souls in the Cemetery", c=colour_name(int(e.key))) if e.key.isdigit() else e.key,
        "cube": gettext("%(c)s cube space", c=colour_name(int(e.key))) if e.key.isdigit() else e.key,
        "disc": gettext("disc on %(g)s", g=e.key),
        "dante": gettext("Dante's step"),
        "resource": field_name(e.key).lower() if e.key else "",
    }.get(e.what, e.what)
    return gettext(
        "Correction: %(who)s%(what)s %(a)s → %(b)s (%(reason)s).",
        who=f"{who} " if who else "",
        what=label,
        a=e.previous,
        b=e.value,
        reason=e.reason,
    )


def _entry_replaced(e: ev.EntryReplaced, s: GameState) -> str:
    return gettext("Entry #%(n)s corrected; it now reads:", n=e.target)


def _tally_started(e: ev.TallyStarted, s: Any) -> str:
    return gettext("Quick tally for %(names)s.", names=", ".join(e.players))


def _tally_circle_entered(e: ev.TallyCircleEntered, s: Any) -> str:
    return ngettext(
        "Circle %(c)s: %(num)s empty shield, cube on space %(space)s.",
        "Circle %(c)s: %(num)s empty shields, cube on space %(space)s.",
        e.empty,
        c=e.circle,
        space=e.cube + 1,
    )


def _tally_player_entered(e: ev.TallyPlayerEntered, s: Any) -> str:
    names = getattr(s, "names", ())
    name = isolate(names[e.player]) if e.player < len(names) else str(e.player)
    return gettext(
        "%(name)s: %(infamy)s infamy, %(diplomas)s, %(halves)s, Ship on %(ship)s.",
        name=name,
        infamy=e.infamy,
        diplomas=ngettext("%(num)s diploma", "%(num)s diplomas", len(e.diplomas)),
        halves=ngettext("%(num)s half diploma", "%(num)s half diplomas", e.half_diplomas),
        ship=e.ship,
    )


def _edition_changed(event: ev.EditionChanged, state: GameState) -> str:
    return gettext("The table switched the game to the edition “%(name)s”.", name=_edition_name(event))


def _entries_set_aside(event: ev.EntriesSetAside, state: GameState) -> str:
    first = event.actions[0] if event.actions else 0
    again = set(event.recorded_again)
    left = [str(a) for a in event.actions if a not in again]
    text = gettext("The entries from #%(entry)s on were taken back and recorded again.", entry=first)
    if left:
        text += " " + ngettext(
            "Entry #%(entries)s was not legal any more: enter it again.",
            "Entries #%(entries)s were not legal any more: enter them again.",
            len(left),
            entries=", #".join(left),
        )
    return text


def _next_game_created(event: ev.NextGameCreated, _state: GameState) -> str:
    return gettext("The table started a new game with the same players.")


def _edition_name(event: ev.EditionChanged) -> str:
    return isolate(edition_name(edition_from_text(event.content).name))


TELLERS: dict[type, Teller] = {
    # The game as a whole
    ev.GameCreated: _game_created,
    ev.StartingSkullPlaced: _starting_skull_placed,
    ev.TableModeChosen: _table_mode_chosen,
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
    ev.ActionUndone: _action_undone,
    ev.ActionRedone: _action_redone,
    ev.LoanTaken: _loan_taken,
    ev.CoinsPaid: _coins_paid,
    ev.CoinsGained: _coins_gained,
    ev.FlorinsExchanged: _florins_exchanged,
    ev.InfamyChanged: _infamy_changed,
    ev.SoulCorrected: _soul_corrected,
    ev.Corrected: _corrected,
    ev.EntryReplaced: _entry_replaced,
    ev.TallyStarted: _tally_started,
    ev.TallyCircleEntered: _tally_circle_entered,
    ev.TallyPlayerEntered: _tally_player_entered,
    ev.EditionChanged: _edition_changed,
    ev.EntriesSetAside: _entries_set_aside,
    ev.NextGameCreated: _next_game_created,
    # Hell
    ev.PlagueCardRevealed: history_hell.plague_card_revealed,
    ev.PlagueDeckExhausted: history_hell.plague_deck_exhausted,
    ev.SoulBroughtIn: history_hell.soul_brought_in,
    ev.SoulMoved: history_hell.soul_moved,
    ev.SoulLaidDown: history_hell.soul_laid_down,
    ev.TollPaid: history_hell.toll_paid,
    ev.DiscPlaced: history_hell.disc_placed,
    ev.SoulAddedToCemetery: history_hell.soul_added_to_cemetery,
    ev.SupplyExhausted: history_hell.supply_exhausted,
    ev.BonusTileRevealed: history_hell.bonus_tile_revealed,
    ev.DanteMoved: history_hell.dante_moved,
    ev.EndTriggered: history_hell.end_triggered,
    ev.SkullAdvanced: history_hell.skull_advanced,
    ev.DiplomaAwarded: history_hell.diploma_awarded,
    ev.HalfDiplomaGained: history_hell.half_diploma_gained,
    ev.HalfDiplomasPlaced: history_hell.half_diplomas_placed,
    ev.CubeMoved: history_hell.cube_moved,
    ev.GuardianMoved: history_hell.guardian_moved,
    ev.SoulPetrified: history_hell.soul_petrified,
    ev.SoulShifted: history_hell.soul_shifted,
    ev.WallPassGranted: history_hell.wall_pass_granted,
    ev.StyxCrossed: history_hell.styx_crossed,
    # Florence and the expansion
    ev.TurnQuarterSet: history_florence.turn_quarter_set,
    ev.MemberSent: history_florence.member_sent,
    ev.OptionTaken: history_florence.option_taken,
    ev.UrchinJoined: history_florence.urchin_joined,
    ev.TowerFloorBuilt: history_florence.tower_floor_built,
    ev.MemberWentHome: history_florence.member_went_home,
    ev.PieceMoved: history_florence.piece_moved,
    ev.BarrelTaken: history_florence.barrel_taken,
    ev.GuestTaken: history_florence.guest_taken,
    ev.BarrelDelivered: history_florence.barrel_delivered,
    ev.GuestReturned: history_florence.guest_returned,
    ev.BarrelReturned: history_florence.barrel_returned,
    ev.CouncilHeld: history_florence.council_held,
    ev.AccusationMade: history_florence.accusation_made,
    ev.AccuserToTower: history_florence.accuser_to_tower,
    ev.FraudCardPlayed: history_florence.fraud_card_played,
    ev.DeskPlaced: history_florence.desk_placed,
    ev.BellTaken: history_florence.bell_taken,
    ev.BellReturned: history_florence.bell_returned,
}


def narrate(event: ev.Event, state: AnyState) -> str:
    """One event as a sentence; ``state`` is the game just before the event."""
    teller = TELLERS.get(type(event))
    if teller is None:
        return type(event).__name__
    return teller(event, state)
