"""The history in words, Hell: a soul brought in, moved, laid down or petrified, the guardians, the sin tracks,
Dante's path, the Cemetery and the Styx, each event as a sentence a player reads at the table.

Each function tells one event (named after it) from the game just before it; ``words/history.TELLERS`` says which.
"""

from __future__ import annotations

from companion.game.state import GameState
from companion.web.words.catalogue import gettext, ngettext
from companion.web.words.glossary import colour_name, describe_reward, guardian_name, player_name
from events import catalog as ev


def plague_card_revealed(e: ev.PlagueCardRevealed, s: GameState) -> str:
    souls = ", ".join(colour_name(c) for c in e.souls)
    return gettext("Plague card revealed: %(souls)s to the Cemetery.", souls=souls)


def plague_deck_exhausted(e: ev.PlagueDeckExhausted, s: GameState) -> str:
    return gettext("The Cemetery is empty and the plague deck is exhausted.")


def soul_brought_in(e: ev.SoulBroughtIn, s: GameState) -> str:
    return ngettext(
        "%(player)s paid Charon %(num)s drachma and brought one %(colour)s soul into Limbo at %(shield)s.",
        "%(player)s paid Charon %(num)s drachmas and brought one %(colour)s soul into Limbo at %(shield)s.",
        e.cost,
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
        shield=e.shield.upper(),
    )


def soul_moved(e: ev.SoulMoved, s: GameState) -> str:
    soul = s.hell.get(e.from_shield)
    colour = colour_name(soul.colour) if soul else ""
    landing = s.side.shields[e.path[-1]]
    text = gettext(
        "%(player)s moved the %(colour)s soul from %(start)s to %(end)s (circle %(circle)s).",
        player=player_name(s, e.player),
        colour=colour,
        start=e.from_shield.upper(),
        end=e.path[-1].upper(),
        circle=landing.circle,
    )
    if len(e.path) > 1:
        text += " " + gettext("It fell through %(via)s.", via=", ".join(x.upper() for x in e.path[:-1]))
    if e.wall_pass_used:
        text += " " + gettext("A wall pass carried it across the Wall of Dis.")
    return text


def soul_laid_down(e: ev.SoulLaidDown, s: GameState) -> str:
    return gettext(
        "The soul reached its circle and was laid down: %(player)s scored %(infamy)s infamy.",
        player=player_name(s, e.player),
        infamy=e.infamy,
    )


def toll_paid(e: ev.TollPaid, s: GameState) -> str:
    return gettext(
        "%(player)s paid %(owner)s a %(n)s-drachma toll for the Desk below %(shield)s.",
        player=player_name(s, e.player),
        owner=player_name(s, e.owner),
        n=e.drachmas,
        shield=e.shield.upper(),
    )


def disc_placed(e: ev.DiscPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s placed a safe-passage disc on the Wall of Dis gate above %(shield)s.",
        player=player_name(s, e.player),
        shield=s.side.gates.get(e.gate, e.gate).upper(),
    )


def soul_added_to_cemetery(e: ev.SoulAddedToCemetery, s: GameState) -> str:
    return gettext("One %(colour)s soul went to the Cemetery.", colour=colour_name(e.colour))


def supply_exhausted(e: ev.SupplyExhausted, s: GameState) -> str:
    return gettext("No %(colour)s soul was left in the supply.", colour=colour_name(e.colour))


def bonus_tile_revealed(e: ev.BonusTileRevealed, s: GameState) -> str:
    return gettext(
        "The %(colour)s track's bonus tile gives %(reward)s.",
        colour=colour_name(e.track),
        reward=describe_reward(e.reward),
    )


def dante_moved(e: ev.DanteMoved, s: GameState) -> str:
    kinds = {
        "pagan": gettext("a pagan step"),
        "fraud": gettext("a fraud step"),
        "diploma": gettext("the %(colour)s diploma", colour=colour_name(e.circle)),
        "final": gettext("the Purgatory gate"),
    }
    return gettext("Dante moved to step %(n)s: %(what)s.", n=e.position, what=kinds.get(e.kind, e.kind))


def end_triggered(e: ev.EndTriggered, s: GameState) -> str:
    return gettext("Dante reached the Purgatory gate: every other player takes one more turn.")


def skull_advanced(e: ev.SkullAdvanced, s: GameState) -> str:
    return gettext(
        "%(player)s's skull rose to %(level)s on the %(colour)s track.",
        player=player_name(s, e.player),
        level=e.level,
        colour=colour_name(e.track),
    )


def diploma_awarded(e: ev.DiplomaAwarded, s: GameState) -> str:
    return gettext(
        "%(player)s received the %(colour)s diploma.", player=player_name(s, e.player), colour=colour_name(e.track)
    )


def half_diploma_gained(e: ev.HalfDiplomaGained, s: GameState) -> str:
    return gettext("%(player)s took a half diploma.", player=player_name(s, e.player))


def half_diplomas_placed(e: ev.HalfDiplomasPlaced, s: GameState) -> str:
    return gettext(
        "%(player)s placed half diplomas on: %(tracks)s.",
        player=player_name(s, e.player),
        tracks=", ".join(colour_name(t) for t in e.tracks),
    )


def cube_moved(e: ev.CubeMoved, s: GameState) -> str:
    value = s.edition.section("phlegethon")["scale"][e.space]
    return gettext("The %(colour)s Phlegethon cube moved to value %(v)s.", colour=colour_name(e.circle), v=value)


def guardian_moved(e: ev.GuardianMoved, s: GameState) -> str:
    return gettext(
        "%(player)s moved %(g)s to %(shield)s.",
        player=player_name(s, e.player),
        g=guardian_name(e.guardian),
        shield=e.to_shield.upper(),
    )


def soul_petrified(e: ev.SoulPetrified, s: GameState) -> str:
    return gettext("The soul on %(shield)s was petrified.", shield=e.shield.upper())


def soul_shifted(e: ev.SoulShifted, s: GameState) -> str:
    return gettext("The soul on %(a)s moved sideways to %(b)s.", a=e.from_shield.upper(), b=e.to_shield.upper())


def wall_pass_granted(e: ev.WallPassGranted, s: GameState) -> str:
    return gettext("%(player)s may cross the Wall of Dis once without a disc.", player=player_name(s, e.player))


def styx_crossed(e: ev.StyxCrossed, s: GameState) -> str:
    return ngettext(
        "%(player)s returned %(num)s %(colour)s soul across the Styx.",
        "%(player)s returned %(num)s %(colour)s souls across the Styx.",
        e.count,
        player=player_name(s, e.player),
        colour=colour_name(e.colour),
    )
