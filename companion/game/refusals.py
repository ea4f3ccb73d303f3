"""The one catalogue of refusals and choices: every code the rules may raise, in plain English.

Each refusal code is declared once here, with its sentence (an English msgid, marked with
``N_`` so babel extracts it; the web layer translates it), the kind of each parameter (so
the web layer can say a shield, a colour or a player in words) and the rule it cites. Each
choice kind ("choice.*", a legal alternative) likewise. ``RuleViolation`` and ``Choice``
refuse to be built with a code or a key that is not declared here, or with parameters that
do not match; ``tests/web/words/test_refusal_catalogue.py`` checks every raise site and renders every
entry in English and Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

__all__ = [
    "CHOICES",
    "N_",
    "REFUSALS",
    "ChoiceKind",
    "Citation",
    "Kind",
    "Refusal",
    "UndeclaredRefusal",
    "choice_kind",
    "placeholders",
    "refusal",
]


def N_(message: str) -> str:
    """Mark an English sentence for translation; the web layer translates it when shown."""
    return message


class UndeclaredRefusal(LookupError):
    """A refusal or choice built with a code, key or parameters the catalogue does not declare."""


class Kind(StrEnum):
    """What a parameter holds, so the web layer can say it in words."""

    NUMBER = "number"
    TEXT = "text"  # words the players typed (names) or an unknown value, shown as given
    HIDDEN = "hidden"  # data for the API only, never in a sentence
    COLOUR = "colour"  # a soul colour (the number of its circle)
    COLOURS = "colours"
    PLAYER = "player"  # a seat index
    PLAYER_COLOUR = "player_colour"
    PLAYER_COLOURS = "player_colours"
    NAMES = "names"
    SHIELD = "shield"
    SHIELDS = "shields"
    CIRCLE = "circle"
    TRACK = "track"  # a sin track, by its circle
    TRACKS = "tracks"
    LOCATION = "location"
    LOCATIONS = "locations"
    QUARTER = "quarter"
    GUARDIAN = "guardian"
    GATE = "gate"
    MEMBER = "member"  # noble or urchin
    PIECE = "piece"  # noble, urchin, guest or barrel
    REWARD = "reward"  # a reward, requirement or effect on the edition's menus
    REQUIREMENT = "requirement"
    EFFECT = "effect"
    FIELD = "field"
    PHASE = "phase"
    OPTION = "option"  # a location's effect
    SOURCE = "source"  # where a fraud card comes from
    MODE = "mode"  # the table mode
    ENTRY = "entry"  # an entry number of the game's history
    CORRECTION = "correction"
    CONDITIONS = "conditions"  # a guardian's conditions
    END = "end"  # why the game ended
    STEP = "step"  # a kind of Dante step
    COUNCIL = "council"  # a family-council option (with its kind, source and colour)
    FLOOR = "floor"
    REFUSAL = "refusal"  # another refusal's code, its parameters beside it


@dataclass(frozen=True)
class Citation:
    """Where a rule comes from: a rulebook page, a section of the reference, or the expansion."""

    source: str  # "rulebook", "reference" (docs RULES.md) or "expansion" (Plutus & Phlegyas)
    where: str = ""

    def __str__(self) -> str:
        if self.source == "rulebook":
            return f"Rulebook {'pp.' if '–' in self.where else 'p.'} {self.where}"
        if self.source == "reference":
            return f"Reference §{self.where}"
        return "Plutus & Phlegyas rulebook"


def _rulebook(pages: str) -> Citation:
    return Citation("rulebook", pages)


def _reference(section: str) -> Citation:
    return Citation("reference", section)


EXPANSION = Citation("expansion")
_PLACEHOLDER = re.compile(r"%\((\w+)\)")


@cache
def placeholders(sentence: str) -> frozenset[str]:
    """The parameters a sentence names."""
    return frozenset(_PLACEHOLDER.findall(sentence))


@dataclass(frozen=True)
class Refusal:
    """One refusal code: its English sentence, its parameters' kinds, the rule it cites.

    A raise passes every parameter its sentence names and only declared ones; ``open``
    refusals (a later entry that breaks) also carry the parameters of the refusal they wrap.
    """

    code: str
    sentence: str
    params: Mapping[str, Kind] = field(default_factory=dict)
    cite: Citation | None = None
    open: bool = False

    @property
    def rule(self) -> str:
        """The citation in English, as the API gives it."""
        return str(self.cite) if self.cite else ""

    def check(self, params: Mapping[str, Any]) -> None:
        """Refuse parameters the sentence needs but lacks, or that are not declared."""
        missing = placeholders(self.sentence) - set(params)
        unknown = set() if self.open else set(params) - set(self.params)
        if missing or unknown:
            raise UndeclaredRefusal(f"{self.code}: missing {sorted(missing)}, undeclared {sorted(unknown)}")


@dataclass(frozen=True)
class ChoiceKind:
    """One kind of legal alternative: its English phrase and its parameters' kinds."""

    key: str
    phrase: str
    params: Mapping[str, Kind] = field(default_factory=dict)

    def check(self, params: Mapping[str, Any]) -> None:
        """Refuse parameters the phrase needs but lacks, or that are not declared."""
        missing = placeholders(self.phrase) - set(params)
        unknown = set(params) - set(self.params)
        if missing or unknown:
            raise UndeclaredRefusal(f"{self.key}: missing {sorted(missing)}, undeclared {sorted(unknown)}")


K = Kind
_MOVE = {"colour": K.COLOUR, "from": K.SHIELD, "to": K.SHIELD, "legal": K.SHIELDS}
_QUARTERS = {"location": K.LOCATION, "quarter": K.QUARTER, "turn_quarter": K.QUARTER, "bribe": K.NUMBER}
_RANGE = {
    "field": K.FIELD,
    "value": K.TEXT,
    "min": K.NUMBER,
    "max": K.NUMBER,
    "circle": K.CIRCLE,
    "track": K.TRACK,
}
_PHASE = {"phase": K.PHASE, "wanted": K.PHASE}
_PLAYERS = {"count": K.NUMBER, "min": K.NUMBER, "max": K.NUMBER}

_REFUSALS = (
    # Turns and phases
    Refusal("game_over", N_("The game is over."), {"reason": K.END}, _reference("7.1")),
    Refusal(
        "plague_card_due",
        N_("The Cemetery is empty: enter the souls on the next plague card first."),
        {},
        _reference("4.4"),
    ),
    Refusal("unknown_player", N_("There is no such player."), {"player": K.TEXT}),
    Refusal(
        "not_your_turn",
        N_("It is %(active)s's turn, not %(player)s's."),
        {"active": K.PLAYER, "player": K.PLAYER},
        _reference("4"),
    ),
    Refusal("not_in_phase_hell", N_("The soul move for this turn is already made."), _PHASE, _reference("4")),
    Refusal("not_in_phase_florence", N_("This is not the moment for the Florence phase."), _PHASE, _reference("4.2")),
    Refusal("not_in_phase_action", N_("There is no location action under way."), _PHASE, _reference("3.7")),
    Refusal("not_in_phase_done", N_("Finish the turn's actions first."), _PHASE, _reference("4")),
    Refusal("not_in_phase_over", N_("The game is not over yet."), _PHASE, _reference("7.1")),
    Refusal(
        "turn_not_finished",
        N_("Finish this turn first: a soul move, then a Florence action."),
        {"phase": K.PHASE},
        _reference("4"),
    ),
    Refusal("unknown_command", N_("The rules know no such command at this moment.")),
    # Hell
    Refusal(
        "needs_loan",
        N_(
            "This costs %(cost)s drachmas and you have %(drachmas)s: to pay, take loans first "
            "(loans needed: %(loans)s)."
        ),
        {"cost": K.NUMBER, "drachmas": K.NUMBER, "loans": K.NUMBER, "penalty": K.NUMBER},
        _reference("4.1"),
    ),
    Refusal(
        "cemetery_has_no_such_soul",
        N_("The Cemetery holds no %(colour)s soul."),
        {"colour": K.COLOUR, "cemetery": K.HIDDEN},
        _reference("4.1"),
    ),
    Refusal(
        "not_a_limbo_shield",
        N_("A soul from the Cemetery enters on a Limbo shield; %(shield)s is not in Limbo."),
        {"shield": K.SHIELD},
        _reference("4.1"),
    ),
    Refusal(
        "shield_occupied",
        N_("Shield %(shield)s is already occupied: a shield holds one piece."),
        {"shield": K.SHIELD, **_MOVE},
        _reference("3.2"),
    ),
    Refusal("no_soul_there", N_("There is no soul on shield %(shield)s."), {"shield": K.SHIELD}, _reference("4.1")),
    Refusal(
        "soul_laid_down",
        N_("The %(colour)s soul on %(shield)s is laid down: it never moves again."),
        {"shield": K.SHIELD, "colour": K.COLOUR},
        _reference("4.1"),
    ),
    Refusal("unknown_shield", N_("There is no shield %(to)s on this board."), _MOVE),
    Refusal(
        "beyond_colour_circle",
        N_("A %(colour)s soul never descends beyond %(circle)s, the circle of its sin; %(to)s is deeper."),
        {**_MOVE, "circle": K.CIRCLE},
        _rulebook("11"),
    ),
    Refusal("not_below_on_lines", N_("No line leads from %(from)s down to %(to)s."), _MOVE, _rulebook("11")),
    Refusal(
        "wall_needs_disc",
        N_(
            "The %(colour)s soul cannot cross the Wall of Dis to %(shield)s: you have no safe-passage disc at "
            "that gate."
        ),
        {**_MOVE, "gate": K.GATE, "shield": K.SHIELD},
        _rulebook("11"),
    ),
    Refusal(
        "stops_earlier",
        N_("The soul stops on the first empty shield it reaches: %(stop)s, before %(to)s."),
        {**_MOVE, "stop": K.SHIELD},
        _rulebook("11"),
    ),
    Refusal("illegal_move", N_("The %(colour)s soul cannot go from %(from)s to %(to)s."), _MOVE, _rulebook("11")),
    Refusal(
        "cemetery_not_empty",
        N_(
            "The Cemetery is not empty yet (souls in it: %(cemetery)s); a plague card is revealed only when it empties."
        ),
        {"cemetery": K.NUMBER},
        _reference("4.4"),
    ),
    Refusal(
        "plague_card_size",
        N_("A plague card shows between 1 and %(max)s souls; you entered %(count)s."),
        {"count": K.NUMBER, "max": K.NUMBER},
        _reference("4.4"),
    ),
    Refusal("unknown_colour", N_("Unknown soul colour."), {"colours": K.COLOURS}),
    # Florence
    Refusal("unknown_location", N_("There is no such location in Florence."), {"location": K.TEXT}),
    Refusal(
        "no_member_home",
        N_(
            "You have no %(kind)s at home (at home: nobles %(nobles)s, urchins %(urchins)s): members are sent "
            "from home, never from the tower."
        ),
        {"kind": K.MEMBER, "nobles": K.NUMBER, "urchins": K.NUMBER},
        _reference("4.2"),
    ),
    Refusal(
        "wrong_quarter",
        N_(
            "The %(location)s is in the %(quarter)s quarter; this turn you may place in the %(turn_quarter)s "
            "quarter, or pay %(bribe)s drachmas to use any quarter."
        ),
        _QUARTERS,
        _rulebook("12"),
    ),
    Refusal(
        "needs_florin",
        N_(
            "A noble pays florins to enter the %(location)s (%(cost)s) and you have %(florins)s; an urchin enters free."
        ),
        {"cost": K.NUMBER, "florins": K.NUMBER, "location": K.LOCATION},
        _reference("3.7"),
    ),
    Refusal(
        "council_not_forced",
        N_(
            "The family council is held only when no member can be sent and no accusation is possible; members "
            "you have at home: %(at_home)s."
        ),
        {"at_home": K.NUMBER},
        _reference("4.2"),
    ),
    Refusal(
        "council_choice",
        N_("The family council brings back a member, a guest or a barrel that you have: choose one of those offered."),
        {"choice": K.TEXT},
        _reference("4.2"),
    ),
    Refusal(
        "not_at_this_location",
        N_("The %(location)s does not offer that: it is done at %(wanted)s."),
        {"location": K.LOCATION, "wanted": K.LOCATIONS, "option": K.OPTION},
        _reference("3.7"),
    ),
    Refusal(
        "option_used",
        N_("You already took this effect at the %(location)s (%(option)s): each effect once per visit."),
        {"location": K.LOCATION, "option": K.OPTION},
        _reference("3.7"),
    ),
    Refusal(
        "floor_full", N_("Floor %(floor)s of your tower has no empty space."), {"floor": K.FLOOR}, _reference("3.7")
    ),
    Refusal(
        "no_tower_space",
        N_("The %(location)s puts a piece on an empty space of your tower, and your tower has none."),
        {"location": K.LOCATION},
        _reference("3.7"),
    ),
    Refusal(
        "cube_at_end",
        N_("The Phlegethon cube of %(circle)s is already at the end of its scale."),
        {"circle": K.CIRCLE},
        _reference("3.3"),
    ),
    Refusal(
        "no_disc_left",
        N_("All your safe-passage discs are already on the Wall of Dis (%(placed)s)."),
        {"placed": K.NUMBER},
        _reference("3.4"),
    ),
    Refusal("gate_taken", N_("You already have a safe-passage disc at %(gate)s."), {"gate": K.GATE}, _reference("3.4")),
    Refusal("unknown_gate", N_("There is no such gate on this Wall of Dis."), {"gate": K.TEXT}),
    Refusal(
        "no_such_barrel", N_("There is no %(colour)s barrel in your tower."), {"colour": K.COLOUR}, _reference("3.7")
    ),
    Refusal(
        "barrel_not_in_market",
        N_("The Market has no %(colour)s barrel for you: you never hold two barrels of one colour."),
        {"colour": K.COLOUR},
        _reference("3.7"),
    ),
    Refusal(
        "guest_not_in_palace",
        N_("The Palace has no %(colour)s guest for you: you never hold two guests of one colour."),
        {"colour": K.COLOUR},
        _reference("3.7"),
    ),
    Refusal(
        "no_member_on_floor",
        N_("There is no %(kind)s of yours on floor %(floor)s of your tower."),
        {"floor": K.FLOOR, "kind": K.MEMBER},
    ),
    Refusal(
        "no_piece_there",
        N_("There is no such %(kind)s on floor %(floor)s of your tower."),
        {"floor": K.FLOOR, "kind": K.PIECE},
    ),
    Refusal("same_floor", N_("That piece is already on floor %(floor)s."), {"floor": K.FLOOR}),
    # Accusation and Dante
    Refusal(
        "no_member_there",
        N_("You have no family member at the %(location)s: you accuse only where one of yours already stands."),
        {"location": K.LOCATION},
        _rulebook("14–15"),
    ),
    Refusal(
        "no_such_member_there",
        N_("You have no %(kind)s at the %(location)s."),
        {"location": K.LOCATION, "kind": K.MEMBER},
        _rulebook("14–15"),
    ),
    Refusal(
        "needs_guest",
        N_("To accuse at the %(location)s you need a %(colour)s guest in your tower."),
        {"location": K.LOCATION, "colour": K.COLOUR},
        _reference("4.3"),
    ),
    Refusal(
        "wrong_quarter_accuse",
        N_(
            "The %(location)s is in the %(quarter)s quarter; this turn you may accuse in the %(turn_quarter)s "
            "quarter, or pay %(bribe)s drachmas to use any quarter."
        ),
        _QUARTERS,
        _reference("4.3"),
    ),
    Refusal(
        "guest_floor_full",
        N_("The accuser joins your guest's floor (floor %(floor)s) to accuse at the %(location)s, and it is full."),
        {"location": K.LOCATION, "floor": K.FLOOR},
        _reference("4.3"),
    ),
    Refusal(
        "tower_full", N_("Your tower has no empty space for the accuser."), {"location": K.LOCATION}, _reference("4.3")
    ),
    Refusal(
        "bonus_tile_unknown",
        N_("The bonus tile of the %(track)s track is taken for the first time: record what it gives."),
        {"track": K.TRACK},
        _reference("4.3"),
    ),
    Refusal(
        "bonus_tile_known",
        N_("The bonus tile of the %(track)s track is already known: it gives %(kind)s."),
        {"track": K.TRACK, "kind": K.REWARD, "amount": K.NUMBER},
        _reference("4.3"),
    ),
    Refusal(
        "dante_no_guardian",
        N_("Dante's next step is a %(kind)s step: only a pagan step offers a guardian."),
        {"kind": K.STEP},
        _reference("3.6"),
    ),
    Refusal(
        "dante_no_fraud",
        N_("Dante's next step is a %(kind)s step: only a fraud step plays a fraud card."),
        {"kind": K.STEP},
        _reference("3.6"),
    ),
    # Rewards, fraud cards, the Styx
    Refusal("reward_not_on_menu", N_("That reward is not on the list: choose one of those offered."), {"kind": K.TEXT}),
    Refusal("reward_needs_track", N_("Choose the track for %(kind)s."), {"kind": K.REWARD}),
    Refusal(
        "reward_needs_gate",
        N_("The safe-passage disc needs a gate where you have none yet."),
        {"gate": K.TEXT},
        _reference("3.4"),
    ),
    Refusal(
        "endgame_requirement_not_on_menu",
        N_("That end-game requirement is not on the list: choose one of those offered."),
        {"requirement": K.TEXT},
    ),
    Refusal(
        "endgame_effect_not_on_menu",
        N_("That end-game effect is not on the list: choose one of those offered."),
        {"effect": K.TEXT},
    ),
    Refusal("endgame_needs_colours", N_("This end-game requirement needs the barrel colours the card shows.")),
    Refusal(
        "fraud_source",
        N_("A fraud card comes from your hand, the line-up or the deck."),
        {"source": K.TEXT},
        _reference("4.7"),
    ),
    Refusal("no_fraud_in_hand", N_("You have no fraud card in hand."), {}, _reference("4.7")),
    Refusal("game_not_over", N_("A new game for this table starts once this one is over."), {}, None),
    Refusal(
        "loan_only_to_pay",
        N_("You can take a loan only to pay something you cannot afford (this edition's choice)."),
        {},
        _reference("5"),
    ),
    Refusal(
        "dante_fraud_required",
        N_("Dante's fraud step plays a fraud card: say which card you play (this edition's choice)."),
        {},
        _reference("3.6"),
    ),
    Refusal(
        "toll_needs_drachmas",
        N_(
            "This fall crosses Desks whose tolls cost %(toll)s drachmas and you have %(drachmas)s; "
            "in this edition a toll never forces a loan."
        ),
        {"toll": K.NUMBER, "drachmas": K.NUMBER},
        EXPANSION,
    ),
    Refusal(
        "fraud_hand_not_scored",
        N_("In this edition fraud cards left in hand do not score at the end."),
        {},
        _reference("10.7"),
    ),
    Refusal(
        "fraud_barrels",
        N_("A fraud card's instant half shows 1 to %(max)s barrel colours; you entered %(count)s."),
        {"count": K.NUMBER, "max": K.NUMBER},
        _reference("4.7"),
    ),
    Refusal(
        "fraud_needs_barrels",
        N_("This card's instant reward needs barrels of %(colours)s in your tower."),
        {"colours": K.COLOURS},
        _reference("4.7"),
    ),
    Refusal(
        "styx_count", N_("The Styx takes 1, 2 or 3 souls; you chose %(count)s."), {"count": K.NUMBER}, _rulebook("9")
    ),
    Refusal(
        "styx_single_soul",
        N_("With a single soul in the Cemetery only the 1-soul Styx is possible."),
        {"count": K.NUMBER},
        _rulebook("9"),
    ),
    Refusal(
        "styx_not_enough_souls",
        N_("The Cemetery has fewer %(colour)s souls than %(count)s (it holds %(cemetery)s)."),
        {"colour": K.COLOUR, "count": K.NUMBER, "cemetery": K.NUMBER},
        _rulebook("9"),
    ),
    Refusal(
        "styx_track_group",
        N_("This crossing of the Styx raises one of these tracks: %(group)s. Choose one of them."),
        {"track": K.TRACK, "group": K.TRACKS},
        _rulebook("9"),
    ),
    Refusal(
        "styx_track_at_end",
        N_("Your skull already stands at the end of the %(track)s track."),
        {"track": K.TRACK, "group": K.TRACKS},
        _reference("3.5"),
    ),
    # Guardians
    Refusal(
        "guardian_not_in_play",
        N_("%(guardian)s is not in play in this game."),
        {"guardian": K.GUARDIAN},
        _reference("6"),
    ),
    Refusal(
        "guardian_must_move",
        N_("To use %(guardian)s it must move to a different shield; it already stands on %(shield)s."),
        {"guardian": K.GUARDIAN, "shield": K.SHIELD},
        _rulebook("22–23"),
    ),
    Refusal(
        "guardian_needs_empty_shield",
        N_("%(guardian)s moves to an empty shield; %(shield)s is not one."),
        {"guardian": K.GUARDIAN, "shield": K.SHIELD},
        _rulebook("22–23"),
    ),
    Refusal(
        "guardian_effect_off",
        N_("Without its effect, %(guardian)s acts on no soul and places no Desk."),
        {"guardian": K.GUARDIAN},
        _rulebook("22–23"),
    ),
    Refusal(
        "guardian_conditions",
        N_("%(guardian)s uses its effect only from %(conditions)s; %(shield)s is not there."),
        {"guardian": K.GUARDIAN, "shield": K.SHIELD, "conditions": K.CONDITIONS},
        _reference("6"),
    ),
    Refusal(
        "guardian_needs_target",
        N_("Choose the soul %(guardian)s acts on: a standing soul next to its new shield."),
        {"guardian": K.GUARDIAN, "primitive": K.HIDDEN},
        _rulebook("22–23"),
    ),
    Refusal(
        "guardian_too_many_targets",
        N_("%(guardian)s does not act on that many souls (%(extra)s left over)."),
        {"guardian": K.GUARDIAN, "extra": K.SHIELDS},
        _reference("6"),
    ),
    Refusal(
        "guardian_target_not_near",
        N_("%(guardian)s acts only on a standing soul next to its new shield; %(shield)s is not one."),
        {"guardian": K.GUARDIAN, "shield": K.SHIELD},
        _rulebook("22–23"),
    ),
    Refusal(
        "shift_needs_empty_shield",
        N_("The soul moves to an empty shield of its own circle; %(shield)s is not one."),
        {"shield": K.SHIELD},
        _reference("6"),
    ),
    Refusal(
        "guardian_cannot_push",
        N_("The %(colour)s soul on %(shield)s has nowhere to fall: the guardian cannot push it."),
        {"shield": K.SHIELD, "colour": K.COLOUR},
        _rulebook("22–23"),
    ),
    Refusal(
        "guardian_push_landing",
        N_("The pushed soul cannot land on %(shield)s."),
        {"shield": K.SHIELD},
        _rulebook("22–23"),
    ),
    Refusal(
        "phlegyas_does_not_move",
        N_("Phlegyas never moves when used: take a Bell instead."),
        {"shield": K.SHIELD},
        EXPANSION,
    ),
    Refusal(
        "desk_not_adjacent",
        N_("A Desk goes right below a shield next to Plutus; %(shield)s is not next to it."),
        {"shield": K.SHIELD},
        EXPANSION,
    ),
    Refusal("desk_already_there", N_("Your Desk already stands below %(shield)s."), {"shield": K.SHIELD}, EXPANSION),
    Refusal(
        "desk_reuse",
        N_("Both your Desks are out (below %(desks)s): choose which one to move."),
        {"desks": K.SHIELDS},
        EXPANSION,
    ),
    Refusal(
        "desk_not_yet_out",
        N_("You still have a Desk in your play area: place that one first."),
        {"shield": K.SHIELD},
        EXPANSION,
    ),
    Refusal("no_bell", N_("You have no Bell to summon the ferryman."), {}, EXPANSION),
    Refusal(
        "ferry_soul_not_in_circle",
        N_(
            "The ferryman moves a standing soul of the circle where Phlegyas now stands (%(circle)s); there is "
            "none on %(shield)s."
        ),
        {"shield": K.SHIELD, "circle": K.CIRCLE},
        EXPANSION,
    ),
    Refusal(
        "ferry_sideways_not_empty",
        N_("The soul moves sideways to an empty shield of %(circle)s; %(shield)s is not one."),
        {"shield": K.SHIELD, "circle": K.CIRCLE},
        EXPANSION,
    ),
    Refusal(
        "ferry_no_follow_up",
        N_("From %(shield)s the soul could make no regular Hell move afterwards, so it cannot be moved there."),
        {"shield": K.SHIELD},
        EXPANSION,
    ),
    # Setting up a game or a tally
    Refusal(
        "player_count",
        N_("Inferno is played by %(min)s to %(max)s players; you entered %(count)s."),
        _PLAYERS,
        _reference("2"),
    ),
    Refusal("player_name_missing", N_("Every player needs a name.")),
    Refusal("player_names_repeat", N_("Two players share the name %(names)s."), {"names": K.NAMES}),
    Refusal("unknown_colour_name", N_("Unknown player colour %(colours)s."), {"colours": K.NAMES}),
    Refusal(
        "player_colours_repeat",
        N_("Two players chose %(colours)s: each player needs their own colour."),
        {"colours": K.PLAYER_COLOURS},
    ),
    Refusal(
        "florence_layout_incomplete",
        N_("Lay out all eight location tiles."),
        {"locations": K.LOCATIONS},
        _reference("2"),
    ),
    Refusal(
        "florence_quarter_mix",
        N_("Each quarter holds one free and one special location (%(quarter)s does not)."),
        {"quarter": K.QUARTER},
        _reference("2"),
    ),
    Refusal(
        "starting_coins",
        N_("Starting coins must be entered for every player, never below 0."),
        {"field": K.FIELD, "count": K.NUMBER},
    ),
    Refusal("guardian_count", N_("Two guardians are in play."), {"count": K.NUMBER}, _reference("2")),
    Refusal("unknown_guardian", N_("Unknown guardian or shield."), {"guardian": K.TEXT, "shield": K.TEXT}),
    Refusal("guardians_share_shield", N_("Two guardians cannot stand on the same shield."), {}, _reference("3.2")),
    Refusal(
        "starting_skulls",
        N_("A Family card places one or two skulls on sin tracks."),
        {"player": K.PLAYER, "tracks": K.TRACKS},
        _reference("2"),
    ),
    Refusal(
        "starting_skulls_per_player",
        N_("Enter the starting skulls of each of the %(count)s players."),
        {"count": K.NUMBER},
        _reference("2"),
    ),
    Refusal("table_mode", N_("Choose one shared phone or a phone per player."), {"mode": K.TEXT}),
    Refusal("table_mode_same", N_("The table already plays this way: %(mode)s."), {"mode": K.MODE}),
    Refusal("game_exists", N_("This game already exists.")),
    Refusal("no_game", N_("There is no game here yet: a history starts with a game's creation or a tally's start.")),
    # History: undo, redo, replacing an entry
    Refusal("nothing_to_undo", N_("There is nothing to undo.")),
    Refusal("not_undoable", N_("That entry cannot be undone."), {"action": K.ENTRY}),
    Refusal("nothing_to_redo", N_("There is nothing to redo: a new entry was recorded since the last undo.")),
    Refusal("nothing_undone", N_("There is nothing to redo: no entry is undone.")),
    Refusal(
        "not_replaceable",
        N_(
            "Entry #%(action)s cannot be replaced: only an entry in effect (not the set-up, an undo or a "
            "replacement) can."
        ),
        {"action": K.ENTRY},
    ),
    Refusal("no_command", N_("Entry #%(seq)s carries no command to check."), {"seq": K.ENTRY}),
    Refusal("different_events", N_("The rules would now record something else for entry #%(seq)s."), {"seq": K.ENTRY}),
    Refusal(
        "later_entry_breaks",
        N_("Entry #%(entry)s would no longer hold: %(why)s"),
        {"entry": K.ENTRY, "why": K.REFUSAL},
        open=True,
    ),
    # Switching a running game to a corrected edition (companion.game.edition_switch, edition_recheck)
    Refusal("edition_switch_tally", N_("A quick tally keeps the edition it was started with.")),
    Refusal("edition_invalid", N_("That edition does not validate: %(message)s"), {"message": K.TEXT}),
    Refusal("edition_same", N_("The game already uses this edition.")),
    Refusal(
        "edition_no_side",
        N_("That edition has no board side %(side)s for %(players)s players."),
        {"side": K.TEXT, "players": K.NUMBER},
    ),
    Refusal(
        "edition_breaks_board",
        N_("On that edition's board there is no place for the %(kind)s on %(name)s."),
        {"kind": K.TEXT, "name": K.TEXT},
    ),
    Refusal(
        "edition_breaks_setup",
        N_("The game's set-up does not fit that edition (%(detail)s)."),
        {"detail": K.TEXT},
    ),
    Refusal(
        "edition_breaks_entry",
        N_("Entry #%(entry)s would no longer hold under this edition: %(why)s"),
        {"entry": K.ENTRY, "why": K.REFUSAL},
        open=True,
    ),
    Refusal("edition_switch_holds", N_("Every entry holds under that edition: switch the game without going back.")),
    Refusal(
        "edition_switch_from_moved",
        N_("The game changed since this screen was drawn: entry #%(entry)s is not the first one to record again."),
        {"entry": K.ENTRY},
    ),
    Refusal("edition_switch_from_log", N_("Switching from an earlier entry is done from the switch screen.")),
    # Corrections and scoring
    Refusal("correction_needs_reason", N_("Say why: every correction keeps its reason.")),
    Refusal("unknown_correction", N_("That cannot be corrected: choose one of the values offered."), {"what": K.TEXT}),
    Refusal("out_of_range", N_("%(field)s must be between %(min)s and %(max)s; you entered %(value)s."), _RANGE),
    Refusal(
        "diploma_tracks",
        N_("A player holds at most one diploma per sin track."),
        {"diplomas": K.TRACKS},
        _reference("7.2"),
    ),
    Refusal(
        "half_diploma_choice",
        N_("Choose one track per pair of half diplomas (pairs: %(pairs)s), each where the player has no diploma yet."),
        {"pairs": K.NUMBER, "chosen": K.TRACKS, "free": K.TRACKS},
        _reference("7.2"),
    ),
    Refusal(
        "not_final_scoring",
        N_("Half diplomas are placed at final scoring, once the game is over."),
        {},
        _reference("7.2"),
    ),
    Refusal(
        "hand_card_before_end",
        N_("Fraud cards left in hand are entered at final scoring, once the game is over."),
        {},
        _reference("10.7"),
    ),
    Refusal("player_not_entered", N_("Enter this player's end state first."), {"player": K.PLAYER}),
)

_CHOICES = (
    ChoiceKind(
        "choice.borrow_and_pay",
        N_("Take the loans needed (%(loans)s) and pay (infamy penalty: %(penalty)s)"),
        {"loans": K.NUMBER, "penalty": K.NUMBER},
    ),
    ChoiceKind("choice.bring", N_("Bring in one %(colour)s soul"), {"colour": K.COLOUR}),
    ChoiceKind("choice.shield", N_("Shield %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.land_on", N_("Land on %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.soul_at", N_("The soul on %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.target", N_("Act on the soul on %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.ferry_side", N_("Move it sideways to %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.desk_from", N_("Move the Desk from below %(shield)s"), {"shield": K.SHIELD}),
    ChoiceKind("choice.reveal_plague", N_("Enter the next plague card")),
    ChoiceKind("choice.colour", N_("Colour %(colour)s"), {"colour": K.PLAYER_COLOUR}),
    ChoiceKind("choice.guardian", N_("Guardian %(guardian)s"), {"guardian": K.GUARDIAN}),
    ChoiceKind("choice.undo_to", N_("Undo back to entry %(action)s"), {"action": K.ENTRY}),
    ChoiceKind("choice.replace", N_("Replace entry #%(action)s"), {"action": K.ENTRY}),
    ChoiceKind("choice.location", N_("The %(location)s"), {"location": K.LOCATION}),
    ChoiceKind("choice.accuse_at", N_("Accuse at the %(location)s"), {"location": K.LOCATION}),
    ChoiceKind("choice.accuser", N_("Accuse with your %(kind)s"), {"kind": K.MEMBER}),
    ChoiceKind("choice.send_kind", N_("Send your %(kind)s"), {"kind": K.MEMBER}),
    ChoiceKind("choice.bribe", N_("Pay %(cost)s drachmas to use any quarter"), {"cost": K.NUMBER}),
    ChoiceKind(
        "choice.council",
        N_("Family council: %(choice)s"),
        {"choice": K.COUNCIL, "source": K.HIDDEN, "kind": K.HIDDEN, "colour": K.HIDDEN},
    ),
    ChoiceKind("choice.floor", N_("Floor %(floor)s"), {"floor": K.FLOOR}),
    ChoiceKind("choice.option", N_("Take: %(option)s"), {"option": K.OPTION}),
    ChoiceKind("choice.cube", N_("The cube of %(circle)s"), {"circle": K.CIRCLE}),
    ChoiceKind("choice.gate", N_("A disc at %(gate)s"), {"gate": K.GATE}),
    ChoiceKind("choice.barrel", N_("The %(colour)s barrel"), {"colour": K.COLOUR}),
    ChoiceKind("choice.guest", N_("The %(colour)s guest"), {"colour": K.COLOUR}),
    ChoiceKind("choice.track", N_("The %(track)s track"), {"track": K.TRACK}),
    ChoiceKind(
        "choice.styx",
        N_("Return %(colour)s souls (%(count)s in the Cemetery)"),
        {"colour": K.COLOUR, "count": K.NUMBER},
    ),
    ChoiceKind("choice.reward", N_("It gives %(kind)s"), {"kind": K.REWARD}),
    ChoiceKind("choice.bonus_known", N_("Keep the known tile: %(kind)s"), {"kind": K.REWARD}),
    ChoiceKind("choice.requirement", N_("End-game requirement: %(requirement)s"), {"requirement": K.REQUIREMENT}),
    ChoiceKind("choice.effect", N_("End-game effect: %(effect)s"), {"effect": K.EFFECT}),
    ChoiceKind("choice.fraud_source", N_("A card from the %(source)s"), {"source": K.SOURCE}),
    ChoiceKind("choice.fraud_without_reward", N_("Play it without its instant reward")),
    ChoiceKind("choice.table_mode", N_("Play with %(mode)s"), {"mode": K.MODE}),
    ChoiceKind("choice.player", N_("%(player)s"), {"player": K.PLAYER}),
    ChoiceKind("choice.correction", N_("Correct: %(what)s"), {"what": K.CORRECTION}),
)


def _by_key(entries: tuple[Any, ...], key: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entry in entries:
        name = getattr(entry, key)
        if name in out:
            raise UndeclaredRefusal(f"{name} is declared twice")
        out[name] = entry
    return out


REFUSALS: Mapping[str, Refusal] = _by_key(_REFUSALS, "code")
CHOICES: Mapping[str, ChoiceKind] = _by_key(_CHOICES, "key")


def refusal(code: str) -> Refusal:
    """The catalogue entry of a refusal code; an undeclared code is a programming error."""
    entry = REFUSALS.get(code)
    if entry is None:
        raise UndeclaredRefusal(f"refusal code {code!r} is not in companion/game/refusals.py")
    return entry


def choice_kind(key: str) -> ChoiceKind:
    """The catalogue entry of a choice kind; an undeclared key is a programming error."""
    entry = CHOICES.get(key)
    if entry is None:
        raise UndeclaredRefusal(f"choice kind {key!r} is not in companion/game/refusals.py")
    return entry
