"""The history in words, Florence: members sent to the locations, the towers, guests and barrels, accusations,
fraud cards, and the expansion's Desks and Bells, each event as a sentence a player reads at the table.

Each function tells one event (named after it) from the game just before it; ``words/history.TELLERS`` says which.
"""

from __future__ import annotations

from companion.game.rules.fraud_at_end import AT_END
from companion.game.state import GameState
from companion.web.words.catalogue import gettext
from companion.web.words.glossary import SOURCES, colour_name, kind_name, location_name, player_name, quarter_name
from events import catalog as ev


def turn_quarter_set(e: ev.TurnQuarterSet, s: GameState) -> str:
    return gettext("This turn's Florence quarter: %(quarter)s.", quarter=quarter_name(e.quarter))


def member_sent(e: ev.MemberSent, s: GameState) -> str:
    who, loc = player_name(s, e.player), location_name(e.location)
    if e.kind == "urchin":
        text = gettext("%(player)s sent an urchin to the %(loc)s.", player=who, loc=loc)
    else:
        text = gettext("%(player)s sent a noble to the %(loc)s.", player=who, loc=loc)
    if e.bribe:
        text += " " + gettext("(another quarter: 2 drachmas)")
    return text


def option_taken(e: ev.OptionTaken, s: GameState) -> str:
    return ""


def urchin_joined(e: ev.UrchinJoined, s: GameState) -> str:
    if e.location == "home":
        return gettext("An urchin joined %(player)s's family at home.", player=player_name(s, e.player))
    return gettext(
        "An urchin joined %(player)s's member at the %(loc)s.",
        player=player_name(s, e.player),
        loc=location_name(e.location),
    )


def tower_floor_built(e: ev.TowerFloorBuilt, s: GameState) -> str:
    return gettext("%(player)s's tower gained a floor (height %(h)s).", player=player_name(s, e.player), h=e.height)


def member_went_home(e: ev.MemberWentHome, s: GameState) -> str:
    who, kind = player_name(s, e.player), kind_name(e.kind)
    if e.source == "tower":
        return gettext("%(player)s's %(kind)s went home from the tower.", player=who, kind=kind)
    return gettext(
        "%(player)s's %(kind)s went home from the %(loc)s.", player=who, kind=kind, loc=location_name(e.source)
    )


def piece_moved(e: ev.PieceMoved, s: GameState) -> str:
    return gettext(
        "%(player)s moved a piece from floor %(a)s to floor %(b)s.",
        player=player_name(s, e.player),
        a=e.from_floor,
        b=e.to_floor,
    )


def barrel_taken(e: ev.BarrelTaken, s: GameState) -> str:
    return gettext(
        "%(player)s took one %(colour)s barrel to floor %(f)s.",
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
        f=e.floor,
    )


def guest_taken(e: ev.GuestTaken, s: GameState) -> str:
    return gettext(
        "%(player)s invited one %(colour)s guest to floor %(f)s.",
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
        f=e.floor,
    )


def barrel_delivered(e: ev.BarrelDelivered, s: GameState) -> str:
    return gettext(
        "%(player)s delivered the %(colour)s barrel.", player=player_name(s, e.player), colour=colour_name(e.colour)
    )


def guest_returned(e: ev.GuestReturned, s: GameState) -> str:
    return gettext(
        "%(player)s's %(colour)s guest went back to the Palace.",
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
    )


def barrel_returned(e: ev.BarrelReturned, s: GameState) -> str:
    return gettext(
        "%(player)s's %(colour)s barrel went back to the Market.",
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
    )


def council_held(e: ev.CouncilHeld, s: GameState) -> str:
    return gettext("%(player)s held the family council.", player=player_name(s, e.player))


def accusation_made(e: ev.AccusationMade, s: GameState) -> str:
    return gettext(
        "%(player)s accused the sinners of the %(loc)s.", player=player_name(s, e.player), loc=location_name(e.location)
    )


def accuser_to_tower(e: ev.AccuserToTower, s: GameState) -> str:
    return gettext(
        "1. The accusing %(kind)s went to %(player)s's tower (floor %(f)s).",
        player=player_name(s, e.player),
        kind=kind_name(e.kind),
        f=e.floor,
    )


def fraud_card_played(e: ev.FraudCardPlayed, s: GameState) -> str:
    if e.reason == AT_END:
        return gettext(
            "%(player)s entered a fraud card left in hand, for final scoring.", player=player_name(s, e.player)
        )
    return gettext(
        "%(player)s played a fraud card from the %(source)s (%(d)s drachmas).",
        player=player_name(s, e.player),
        source=str(SOURCES.get(e.play.source, e.play.source)),
        d=e.drachmas,
    )


def desk_placed(e: ev.DeskPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s put a Desk right below %(shield)s.", player=player_name(s, e.player), shield=e.shield.upper()
    )


def bell_taken(e: ev.BellTaken, s: GameState) -> str:
    return gettext("%(player)s took a Bell.", player=player_name(s, e.player))


def bell_returned(e: ev.BellReturned, s: GameState) -> str:
    return gettext("%(player)s rang a Bell: the ferryman comes.", player=player_name(s, e.player))
