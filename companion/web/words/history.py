"""The history in words: every event as a sentence a player reads at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.edition_switch import edition_from_text
from companion.game.game_or_tally import AnyState
from companion.game.projection import evolve
from companion.game.rules.fraud_at_end import AT_END
from companion.game.state import GameState
from companion.web.words.bidi import isolate
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.editions import edition_name
from companion.web.words.glossary import (
    SOURCES,
    colour_name,
    describe_reward,
    field_name,
    guardian_name,
    kind_name,
    location_name,
    player_name,
    quarter_name,
    reason_name,
)
from events import catalog as ev

__all__ = ["narrate"]

Teller = Callable[[Any, Any], str]  # (the event, the game or tally just before it)

REASONS = {
    "bribe": "to use another quarter",
}


def _name(state: GameState, index: int) -> str:
    return player_name(state, index)


def _shield(shield: str) -> str:
    return shield.upper()


def _created(e: ev.GameCreated, s: GameState) -> str:
    names = ", ".join(isolate(p.name) for p in e.players)
    text = gettext("New game for %(names)s (board side %(side)s).", names=names, side=e.side)
    if e.expansion:
        text += " " + gettext("Plutus & Phlegyas expansion in play.")
    return text


def _starting_skull(e: ev.StartingSkullPlaced, s: GameState) -> str:
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


def _coins(florins: int, drachmas: int) -> str:
    """'1 florin', '2 drachmas', '2 florins and 1 drachma': counted words, no zero amounts."""
    parts = [ngettext("%(num)s florin", "%(num)s florins", florins)] if florins else []
    parts += [ngettext("%(num)s drachma", "%(num)s drachmas", drachmas)] if drachmas or not florins else []
    return gettext("%(first)s and %(second)s", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]


def _paid(e: ev.CoinsPaid, s: GameState) -> str:
    return gettext(
        "%(player)s paid %(coins)s (%(reason)s).",
        player=_name(s, e.player),
        coins=_coins(e.florins, e.drachmas),
        reason=reason_name(e.reason),
    )


def _gained(e: ev.CoinsGained, s: GameState) -> str:
    return gettext(
        "%(player)s gained %(coins)s (%(reason)s).",
        player=_name(s, e.player),
        coins=_coins(e.florins, e.drachmas),
        reason=reason_name(e.reason),
    )


def _exchanged(e: ev.FlorinsExchanged, s: GameState) -> str:
    return gettext(
        "%(player)s changed %(florins)s into %(drachmas)s.",
        player=_name(s, e.player),
        florins=_coins(e.florins, 0),
        drachmas=_coins(0, e.drachmas),
    )


def _infamy(e: ev.InfamyChanged, s: GameState) -> str:
    return gettext(
        "%(player)s: %(amount)+d infamy (%(reason)s).",
        player=_name(s, e.player),
        amount=e.amount,
        reason=reason_name(e.reason),
    )


def _brought(e: ev.SoulBroughtIn, s: GameState) -> str:
    return ngettext(
        "%(player)s paid Charon %(num)s drachma and brought one %(colour)s soul into Limbo at %(shield)s.",
        "%(player)s paid Charon %(num)s drachmas and brought one %(colour)s soul into Limbo at %(shield)s.",
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
    if evolve(s, e).final_turns_left == 0:  # the last turn: nobody plays after it
        return gettext("%(player)s ended the last turn: the game is over.", player=_name(s, e.player))
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


def _kind(k: str) -> str:
    return kind_name(k)


def _member_sent(e: ev.MemberSent, s: GameState) -> str:
    who, loc = _name(s, e.player), location_name(e.location)
    if e.kind == "urchin":
        text = gettext("%(player)s sent an urchin to the %(loc)s.", player=who, loc=loc)
    else:
        text = gettext("%(player)s sent a noble to the %(loc)s.", player=who, loc=loc)
    if e.bribe:
        text += " " + gettext("(another quarter: 2 drachmas)")
    return text


def _option(e: ev.OptionTaken, s: GameState) -> str:
    return ""


def _urchin(e: ev.UrchinJoined, s: GameState) -> str:
    if e.location == "home":
        return gettext("An urchin joined %(player)s's family at home.", player=_name(s, e.player))
    return gettext(
        "An urchin joined %(player)s's member at the %(loc)s.", player=_name(s, e.player), loc=location_name(e.location)
    )


def _floor(e: ev.TowerFloorBuilt, s: GameState) -> str:
    return gettext("%(player)s's tower gained a floor (height %(h)s).", player=_name(s, e.player), h=e.height)


def _home(e: ev.MemberWentHome, s: GameState) -> str:
    who, kind = _name(s, e.player), _kind(e.kind)
    if e.source == "tower":
        return gettext("%(player)s's %(kind)s went home from the tower.", player=who, kind=kind)
    return gettext(
        "%(player)s's %(kind)s went home from the %(loc)s.", player=who, kind=kind, loc=location_name(e.source)
    )


def _piece_moved(e: ev.PieceMoved, s: GameState) -> str:
    return gettext(
        "%(player)s moved a piece from floor %(a)s to floor %(b)s.",
        player=_name(s, e.player),
        a=e.from_floor,
        b=e.to_floor,
    )


def _barrel_taken(e: ev.BarrelTaken, s: GameState) -> str:
    return gettext(
        "%(player)s took one %(colour)s barrel to floor %(f)s.",
        player=_name(s, e.player),
        colour=colour_name(e.colour),
        f=e.floor,
    )


def _guest_taken(e: ev.GuestTaken, s: GameState) -> str:
    return gettext(
        "%(player)s invited one %(colour)s guest to floor %(f)s.",
        player=_name(s, e.player),
        colour=colour_name(e.colour),
        f=e.floor,
    )


def _delivered(e: ev.BarrelDelivered, s: GameState) -> str:
    return gettext(
        "%(player)s delivered the %(colour)s barrel.", player=_name(s, e.player), colour=colour_name(e.colour)
    )


def _guest_back(e: ev.GuestReturned, s: GameState) -> str:
    return gettext(
        "%(player)s's %(colour)s guest went back to the Palace.",
        player=_name(s, e.player),
        colour=colour_name(e.colour),
    )


def _barrel_back(e: ev.BarrelReturned, s: GameState) -> str:
    return gettext(
        "%(player)s's %(colour)s barrel went back to the Market.",
        player=_name(s, e.player),
        colour=colour_name(e.colour),
    )


def _council(e: ev.CouncilHeld, s: GameState) -> str:
    return gettext("%(player)s held the family council.", player=_name(s, e.player))


def _accused(e: ev.AccusationMade, s: GameState) -> str:
    return gettext(
        "%(player)s accused the sinners of the %(loc)s.", player=_name(s, e.player), loc=location_name(e.location)
    )


def _to_tower(e: ev.AccuserToTower, s: GameState) -> str:
    return gettext(
        "1. The accusing %(kind)s went to %(player)s's tower (floor %(f)s).",
        player=_name(s, e.player),
        kind=_kind(e.kind),
        f=e.floor,
    )


def _to_cemetery(e: ev.SoulAddedToCemetery, s: GameState) -> str:
    return gettext("One %(colour)s soul went to the Cemetery.", colour=colour_name(e.colour))


def _supply_out(e: ev.SupplyExhausted, s: GameState) -> str:
    return gettext("No %(colour)s soul was left in the supply.", colour=colour_name(e.colour))


def _bonus(e: ev.BonusTileRevealed, s: GameState) -> str:
    return gettext(
        "The %(colour)s track's bonus tile gives %(reward)s.",
        colour=colour_name(e.track),
        reward=describe_reward(e.reward),
    )


def _dante(e: ev.DanteMoved, s: GameState) -> str:
    kinds = {
        "pagan": gettext("a pagan step"),
        "fraud": gettext("a fraud step"),
        "diploma": gettext("the %(colour)s diploma", colour=colour_name(e.circle)),
        "final": gettext("the Purgatory gate"),
    }
    return gettext("Dante moved to step %(n)s: %(what)s.", n=e.position, what=kinds.get(e.kind, e.kind))


def _end_triggered(e: ev.EndTriggered, s: GameState) -> str:
    return gettext("Dante reached the Purgatory gate: every other player takes one more turn.")


def _skull(e: ev.SkullAdvanced, s: GameState) -> str:
    return gettext(
        "%(player)s's skull rose to %(level)s on the %(colour)s track.",
        player=_name(s, e.player),
        level=e.level,
        colour=colour_name(e.track),
    )


def _diploma(e: ev.DiplomaAwarded, s: GameState) -> str:
    return gettext(
        "%(player)s received the %(colour)s diploma.", player=_name(s, e.player), colour=colour_name(e.track)
    )


def _half(e: ev.HalfDiplomaGained, s: GameState) -> str:
    return gettext("%(player)s took a half diploma.", player=_name(s, e.player))


def _halves_placed(e: ev.HalfDiplomasPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s placed half diplomas on: %(tracks)s.",
        player=_name(s, e.player),
        tracks=", ".join(colour_name(t) for t in e.tracks),
    )


def _cube(e: ev.CubeMoved, s: GameState) -> str:
    value = s.edition.section("phlegethon")["scale"][e.space]
    return gettext("The %(colour)s Phlegethon cube moved to value %(v)s.", colour=colour_name(e.circle), v=value)


def _guardian(e: ev.GuardianMoved, s: GameState) -> str:
    return gettext(
        "%(player)s moved %(g)s to %(shield)s.",
        player=_name(s, e.player),
        g=guardian_name(e.guardian),
        shield=_shield(e.to_shield),
    )


def _petrified(e: ev.SoulPetrified, s: GameState) -> str:
    return gettext("The soul on %(shield)s was petrified.", shield=_shield(e.shield))


def _shifted(e: ev.SoulShifted, s: GameState) -> str:
    return gettext("The soul on %(a)s moved sideways to %(b)s.", a=_shield(e.from_shield), b=_shield(e.to_shield))


def _wall_pass(e: ev.WallPassGranted, s: GameState) -> str:
    return gettext("%(player)s may cross the Wall of Dis once without a disc.", player=_name(s, e.player))


def _fraud(e: ev.FraudCardPlayed, s: GameState) -> str:
    if e.reason == AT_END:
        return gettext("%(player)s entered a fraud card left in hand, for final scoring.", player=_name(s, e.player))
    return gettext(
        "%(player)s played a fraud card from the %(source)s (%(d)s drachmas).",
        player=_name(s, e.player),
        source=str(SOURCES.get(e.play.source, e.play.source)),
        d=e.drachmas,
    )


def _desk(e: ev.DeskPlaced, s: GameState) -> str:
    return gettext("%(player)s put a Desk right below %(shield)s.", player=_name(s, e.player), shield=_shield(e.shield))


def _bell_taken(e: ev.BellTaken, s: GameState) -> str:
    return gettext("%(player)s took a Bell.", player=_name(s, e.player))


def _bell_returned(e: ev.BellReturned, s: GameState) -> str:
    return gettext("%(player)s rang a Bell: the ferryman comes.", player=_name(s, e.player))


def _styx(e: ev.StyxCrossed, s: GameState) -> str:
    return ngettext(
        "%(player)s returned %(num)s %(colour)s soul across the Styx.",
        "%(player)s returned %(num)s %(colour)s souls across the Styx.",
        e.count,
        player=_name(s, e.player),
        colour=colour_name(e.colour),
    )


def _corrected(e: ev.Corrected, s: GameState) -> str:
    who = _name(s, e.player) if e.player >= 0 else ""
    if e.what == "guardian":
        return gettext(
            "Correction: %(g)s stands on %(shield)s (%(reason)s).",
            g=guardian_name(e.key),
            shield=_shield(e.shield),
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


def _replaced(e: ev.EntryReplaced, s: GameState) -> str:
    return gettext("Entry #%(n)s corrected; it now reads:", n=e.target)


def _tally_started(e: ev.TallyStarted, s: Any) -> str:
    return gettext("Quick tally for %(names)s.", names=", ".join(e.players))


def _tally_circle(e: ev.TallyCircleEntered, s: Any) -> str:
    return ngettext(
        "Circle %(c)s: %(num)s empty shield, cube on space %(space)s.",
        "Circle %(c)s: %(num)s empty shields, cube on space %(space)s.",
        e.empty,
        c=e.circle,
        space=e.cube + 1,
    )


def _tally_player(e: ev.TallyPlayerEntered, s: Any) -> str:
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


def _mode(e: ev.TableModeChosen, s: GameState) -> str:
    if e.mode == "seats":
        return gettext("Each player now acts from their own phone (seats).")
    return gettext("One shared phone now acts for whoever's turn it is.")


def _switched(event: ev.EditionChanged, state: GameState) -> str:
    return gettext("The table switched the game to the edition “%(name)s”.", name=_edition_name(event))


def _set_aside(event: ev.EntriesSetAside, state: GameState) -> str:
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


def _edition_name(event: ev.EditionChanged) -> str:
    return isolate(edition_name(edition_from_text(event.content).name))


def _next_game(event: ev.NextGameCreated, _state: GameState) -> str:
    return gettext("The table started a new game with the same players.")


TELLERS: dict[type, Teller] = {
    ev.TableModeChosen: _mode,
    ev.TallyStarted: _tally_started,
    ev.TallyCircleEntered: _tally_circle,
    ev.TallyPlayerEntered: _tally_player,
    ev.MemberSent: _member_sent,
    ev.OptionTaken: _option,
    ev.UrchinJoined: _urchin,
    ev.TowerFloorBuilt: _floor,
    ev.MemberWentHome: _home,
    ev.PieceMoved: _piece_moved,
    ev.BarrelTaken: _barrel_taken,
    ev.GuestTaken: _guest_taken,
    ev.BarrelDelivered: _delivered,
    ev.GuestReturned: _guest_back,
    ev.BarrelReturned: _barrel_back,
    ev.CouncilHeld: _council,
    ev.AccusationMade: _accused,
    ev.AccuserToTower: _to_tower,
    ev.SoulAddedToCemetery: _to_cemetery,
    ev.SupplyExhausted: _supply_out,
    ev.BonusTileRevealed: _bonus,
    ev.DanteMoved: _dante,
    ev.EndTriggered: _end_triggered,
    ev.SkullAdvanced: _skull,
    ev.DiplomaAwarded: _diploma,
    ev.HalfDiplomaGained: _half,
    ev.HalfDiplomasPlaced: _halves_placed,
    ev.CubeMoved: _cube,
    ev.GuardianMoved: _guardian,
    ev.SoulPetrified: _petrified,
    ev.SoulShifted: _shifted,
    ev.WallPassGranted: _wall_pass,
    ev.FraudCardPlayed: _fraud,
    ev.DeskPlaced: _desk,
    ev.BellTaken: _bell_taken,
    ev.BellReturned: _bell_returned,
    ev.StyxCrossed: _styx,
    ev.Corrected: _corrected,
    ev.EntryReplaced: _replaced,
    ev.GameCreated: _created,
    ev.StartingSkullPlaced: _starting_skull,
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
    ev.EditionChanged: _switched,
    ev.EntriesSetAside: _set_aside,
    ev.NextGameCreated: _next_game,
}


def narrate(event: ev.Event, state: AnyState) -> str:
    """One event as a sentence; ``state`` is the game just before the event."""
    teller = TELLERS.get(type(event))
    if teller is None:
        return type(event).__name__
    return teller(event, state)
