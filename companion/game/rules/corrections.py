"""Corrections that keep the app true to the physical board (issue: the board is the truth).

When the app and the board disagree, the table records a correction with a reason. It is an
event like any other: shown in the history, undoable, and every later action is checked
against the corrected state. Values are checked against the ranges of the physical game.
"""

from __future__ import annotations

from companion.game.commands import Correct, CorrectSoul
from companion.game.edition import Edition
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.accusation import dante_path
from companion.game.state import GameState
from events.catalog import Corrected, Event, SoulCorrected

__all__ = ["RESOURCES", "decide_correct", "decide_correct_soul", "previous_value"]

RESOURCES = (
    "florins",
    "drachmas",
    "infamy",
    "ship",
    "half_diplomas",
    "fraud_hand",
    "bells",
    "wall_passes",
    "home_nobles",
    "home_urchins",
    "reserve_urchins",
)
WHATS = ("resource", "skull", "diploma", "disc", "cemetery", "cube", "guardian", "dante")


def infamy_range(edition: Edition) -> tuple[int, int]:
    """The infamy a table may enter (edition ``ranges.infamy``)."""
    low, high = (int(v) for v in edition.section("ranges")["infamy"])
    return low, high


def souls_of_colour(edition: Edition, colour: int) -> int:
    """How many souls of ``colour`` the game has (its whole supply): the most a Cemetery can hold."""
    return int(edition.section("souls")["supply"].get(str(colour), 0))


def _range(key: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RuleViolation(
            "out_of_range",
            {"field": key, "value": value, "min": low, "max": high},
        )


def _player(state: GameState, player: int) -> None:
    if not 0 <= player < len(state.players):
        raise RuleViolation(
            "unknown_player",
            {"player": player},
            [Choice("choice.player", {"player": i}) for i in range(len(state.players))],
        )


def previous_value(state: GameState, cmd: Correct) -> int:
    """What the app holds now for the value being corrected."""
    match cmd.what:
        case "resource":
            return int(getattr(state.p[cmd.player], cmd.key))
        case "skull":
            return state.p[cmd.player].skull(int(cmd.key))
        case "diploma":
            return int(int(cmd.key) in state.p[cmd.player].diplomas)
        case "disc":
            return int(cmd.key in state.p[cmd.player].discs)
        case "cemetery":
            return state.cemetery.get(int(cmd.key), 0)
        case "cube":
            return state.phlegethon[int(cmd.key)]
        case "dante":
            return state.dante
    return 0


def decide_correct(state: GameState, cmd: Correct) -> list[Event]:
    """Check a correction's target and range, and record it with the value it replaces."""
    if not cmd.reason.strip():
        raise RuleViolation("correction_needs_reason", {})
    if cmd.what not in WHATS:
        raise RuleViolation(
            "unknown_correction", {"what": cmd.what}, [Choice("choice.correction", {"what": w}) for w in WHATS]
        )
    edition = state.edition
    tracks = edition.track_circles
    if cmd.what in ("resource", "skull", "diploma", "disc"):
        _player(state, cmd.player)
    match cmd.what:
        case "resource":
            if cmd.key not in RESOURCES:
                raise RuleViolation(
                    "unknown_correction",
                    {"what": cmd.key},
                    [Choice("choice.correction", {"what": r}) for r in RESOURCES],
                )
            if cmd.key == "ship":
                _range("ship", cmd.value, 0, len(edition.loan_penalties) - 1)
            elif cmd.key == "infamy":
                _range("infamy", cmd.value, *infamy_range(edition))
            elif cmd.key in ("home_nobles", "home_urchins", "reserve_urchins"):
                family = edition.section("family")
                _range(cmd.key, cmd.value, 0, int(family["nobles"]) + int(family["urchins"]))
            else:
                _range(cmd.key, cmd.value, 0, int(edition.section("ranges")["coins_max"]))
        case "skull":
            if not cmd.key.isdigit() or int(cmd.key) not in tracks:
                raise RuleViolation(
                    "out_of_range", {"field": "track", "value": cmd.key, "min": min(tracks), "max": max(tracks)}
                )
            _range("skull", cmd.value, edition.first_level, edition.track_length)
        case "diploma":
            if not cmd.key.isdigit() or int(cmd.key) not in tracks:
                raise RuleViolation(
                    "out_of_range", {"field": "track", "value": cmd.key, "min": min(tracks), "max": max(tracks)}
                )
            _range("diploma", cmd.value, 0, 1)
        case "disc":
            if cmd.key not in state.side.gates:
                raise RuleViolation(
                    "unknown_gate", {"gate": cmd.key}, [Choice("choice.gate", {"gate": g}) for g in state.side.gates]
                )
            _range("disc", cmd.value, 0, 1)
        case "cemetery":
            if not cmd.key.isdigit() or int(cmd.key) not in edition.circles:
                raise RuleViolation("unknown_colour", {"colours": [cmd.key]})
            _range("cemetery", cmd.value, 0, souls_of_colour(edition, int(cmd.key)))
        case "cube":
            if not cmd.key.isdigit() or int(cmd.key) not in tracks:
                raise RuleViolation(
                    "out_of_range", {"field": "circle", "value": cmd.key, "min": min(tracks), "max": max(tracks)}
                )
            _range("cube", cmd.value, 0, len(edition.section("phlegethon")["scale"]) - 1)
        case "guardian":
            if cmd.key not in state.guardians:
                raise RuleViolation(
                    "guardian_not_in_play",
                    {"guardian": cmd.key},
                    [Choice("choice.guardian", {"guardian": g}) for g in state.guardians],
                )
            if not state.takes_standee(cmd.shield, cmd.key) and cmd.shield != state.guardians[cmd.key]:
                raise RuleViolation("guardian_needs_empty_shield", {"guardian": cmd.key, "shield": cmd.shield})
        case "dante":
            _range("dante", cmd.value, 0, len(dante_path(state)) - 1)
    previous = 0 if cmd.what == "guardian" else previous_value(state, cmd)
    return [Corrected(cmd.what, cmd.player, cmd.key, cmd.value, previous, cmd.reason.strip(), cmd.shield)]


def decide_correct_soul(state: GameState, cmd: CorrectSoul) -> list[Event]:
    """Set what stands on a shield (a soul of a colour, standing, laid or petrified; or nothing)."""
    if not cmd.reason.strip():
        raise RuleViolation("correction_needs_reason", {})
    if cmd.shield not in state.side.shields:
        raise RuleViolation("unknown_shield", {"to": cmd.shield})
    if cmd.colour and cmd.colour not in state.edition.circles:
        raise RuleViolation("unknown_colour", {"colours": [cmd.colour]})
    if cmd.colour and state.standee_fills(cmd.shield):  # the one "occupied" (a soul here is replaced)
        raise RuleViolation("shield_occupied", {"shield": cmd.shield})
    circle = state.side.shields[cmd.shield].circle
    if cmd.colour and circle > cmd.colour:
        raise RuleViolation(
            "beyond_colour_circle",
            {"colour": cmd.colour, "circle": cmd.colour, "to": cmd.shield, "from": cmd.shield, "legal": []},
        )
    laid = cmd.laid or cmd.petrified or (bool(cmd.colour) and circle == cmd.colour)
    return [SoulCorrected(cmd.shield, cmd.colour, laid, cmd.petrified, cmd.reason.strip())]
