"""Words for players: refusals, choices and names, translated when shown.

The core speaks in message keys with parameters (``RuleViolation.key`` / ``params``); this
module turns them into sentences in the reader's language, filling in player names,
soul colours and shield names from the game state.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext

from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.web.bidi import isolate

__all__ = [
    "colour_name",
    "describe_choice",
    "describe_endgame",
    "describe_refusal",
    "describe_reward",
    "field_name",
    "guardian_name",
    "ledger_name",
    "location_name",
    "player_name",
    "quarter_name",
    "reason_name",
    "shield_label",
]

_ = lazy_gettext

COLOURS = {
    1: _("beige"),
    2: _("purple"),
    3: _("green"),
    4: _("yellow"),
    5: _("blue"),
    6: _("orange"),
    7: _("red"),
    8: _("grey"),
    9: _("ice-blue"),
}
SINS = {
    1: _("Limbo"),
    2: _("Lust"),
    3: _("Gluttony"),
    4: _("Greed"),
    5: _("Sloth"),
    6: _("Heresy"),
    7: _("Violence"),
    8: _("Fraud"),
    9: _("Treason"),
}
QUARTERS = {"lily": _("Lily"), "eagle": _("Eagle"), "key": _("Key"), "cross": _("Cross")}
PLAYER_COLOURS = {
    "crimson": _("crimson"),
    "navy": _("navy"),
    "forest": _("forest green"),
    "gold": _("gold"),
    "violet": _("violet"),
    "slate": _("slate"),
}

REFUSALS: dict[str, Any] = {
    "needs_loan": _("This costs %(cost)s drachmas and you have %(drachmas)s: you must take %(loans)s loan(s) to pay."),
    "cemetery_has_no_such_soul": _("The Cemetery holds no %(colour)s soul."),
    "not_a_limbo_shield": _("A soul from the Cemetery enters on a Limbo shield; %(shield)s is not in Limbo."),
    "shield_occupied": _("Shield %(shield)s is already occupied: a shield holds one piece."),
    "no_soul_there": _("There is no soul on shield %(shield)s."),
    "soul_laid_down": _("The %(colour)s soul on %(shield)s is laid down: it never moves again."),
    "unknown_shield": _("There is no shield %(to)s on this board."),
    "beyond_colour_circle": _(
        "Souls of colour %(colour)s never descend beyond circle %(circle)s, the circle of their sin; %(to)s is deeper."
    ),
    "not_below_on_lines": _("No line leads from %(from)s down to %(to)s."),
    "wall_needs_disc": _(
        "The %(colour)s soul cannot cross the Wall of Dis to %(shield)s: you have no safe-passage disc at that gate."
    ),
    "stops_earlier": _("The soul stops on the first empty shield it reaches: %(stop)s, before %(to)s."),
    "illegal_move": _("The %(colour)s soul cannot go from %(from)s to %(to)s."),
    "game_over": _("The game is over."),
    "plague_card_due": _("The Cemetery is empty: enter the souls on the next plague card first."),
    "unknown_player": _("There is no such player."),
    "not_your_turn": _("It is %(active)s's turn, not %(player)s's."),
    "not_in_phase_hell": _("The soul move for this turn is already made."),
    "not_in_phase_florence": _("This is not the moment for the Florence phase."),
    "not_in_phase_action": _("There is no location action under way."),
    "not_in_phase_done": _("Finish the turn's actions first."),
    "turn_not_finished": _("Finish this turn first: a soul move, then a Florence action."),
    "cemetery_not_empty": _(
        "The Cemetery still holds %(cemetery)s soul(s); a plague card is revealed only when it empties."
    ),
    "plague_card_size": _("A plague card shows between 1 and %(max)s souls; you entered %(count)s."),
    "unknown_colour": _("Unknown soul colour."),
    "player_count": _("Inferno is played by %(min)s to %(max)s players; you entered %(count)s."),
    "player_name_missing": _("Every player needs a name."),
    "player_names_repeat": _("Two players share the name %(names)s."),
    "unknown_colour_name": _("Unknown player colour %(colours)s."),
    "player_colours_repeat": _("Two players chose %(colours)s: each player needs their own colour."),
    "florence_layout_incomplete": _("Lay out all eight location tiles."),
    "florence_quarter_mix": _("Each quarter holds one free and one special location (%(quarter)s does not)."),
    "starting_coins": _("Starting coins must be entered for every player, never below 0."),
    "guardian_count": _("Two guardians are in play."),
    "unknown_guardian": _("Unknown guardian or shield."),
    "guardians_share_shield": _("Two guardians cannot stand on the same shield."),
    "starting_skulls": _("A Family card places one or two skulls on sin tracks."),
    "game_exists": _("This game already exists."),
    "nothing_to_undo": _("There is nothing to undo."),
    "not_undoable": _("That entry cannot be undone."),
    "nothing_to_redo": _("There is nothing to redo: a new entry was recorded since the last undo."),
    "out_of_range": _("%(field)s must be between %(min)s and %(max)s; you entered %(value)s."),
    "diploma_tracks": _("A player holds at most one diploma per sin track."),
    "half_diploma_choice": _(
        "Choose %(pairs)s track(s) for the half-diploma pairs, each where the player has no diploma yet."
    ),
    "not_final_scoring": _("Half diplomas are placed at final scoring, once the game is over."),
    "player_not_entered": _("Enter this player's end state first."),
}

CHOICES: dict[str, Any] = {
    "choice.borrow_and_pay": _("Take %(loans)s loan(s) and pay (infamy penalty: %(penalty)s)"),
    "choice.bring": _("Bring in one %(colour)s soul"),
    "choice.shield": _("Shield %(shield)s"),
    "choice.land_on": _("Land on %(shield)s"),
    "choice.soul_at": _("The soul on %(shield)s"),
    "choice.reveal_plague": _("Enter the next plague card"),
    "choice.colour": _("Colour %(colour)s"),
    "choice.guardian": _("Guardian %(guardian)s"),
    "choice.undo_to": _("Undo back to entry %(action)s"),
}


LOCATIONS = {
    "haystack": _("Haystack"),
    "banquet": _("Banquet"),
    "bank": _("Bank"),
    "courtyard": _("Courtyard"),
    "bonfire": _("Bonfire"),
    "wall": _("Wall"),
    "market": _("Market"),
    "palace": _("Palace"),
}

LOCATION_ACTIONS = {
    "haystack": _("An urchin from your reserve joins the member you placed."),
    "banquet": _("Your tower gains its next floor."),
    "bank": _("2 florins, plus 1 per guest in your tower."),
    "courtyard": _("Up to two: members home from your tower; rearrange your tower."),
    "bonfire": _(
        "Up to three: change up to 3 florins; a cube right or a safe-passage disc; a guardian (1 drachma) "
        "or the Styx (2 drachmas)."
    ),
    "wall": _("Up to three: change up to 2 florins; a fraud card (2 drachmas); deliver a barrel for infamy."),
    "market": _("A barrel to an empty tower space (one of each colour)."),
    "palace": _("A guest to an empty tower space: florins equal to that floor's height."),
}

GUARDIANS = {
    "medusa": _("Medusa"),
    "minotaur": _("Minotaur"),
    "cerberus": _("Cerberus"),
    "minos": _("Minos"),
    "geryon": _("Geryon"),
    "centaurs": _("Centaurs"),
    "plutus": _("Plutus"),
    "phlegyas": _("Phlegyas"),
}

REWARDS = {
    "florins": _("florins"),
    "drachmas": _("drachmas"),
    "infamy": _("infamy"),
    "skull": _("a skull step"),
    "half_diploma": _("a half diploma"),
    "tower_floor": _("a tower floor"),
    "urchin": _("an urchin"),
    "cube_right": _("a cube one space right"),
    "disc": _("a safe-passage disc"),
    "nothing": _("nothing"),
}

KINDS = {"noble": _("noble"), "urchin": _("urchin")}

REASONS = {
    "bribe": _("to use another quarter"),
    "special_entry": _("to enter a special location"),
    "guardian": _("for a guardian"),
    "styx": _("for the Styx"),
    "bank": _("the Bank"),
    "palace": _("the Palace"),
    "bonus": _("a bonus tile"),
    "fraud": _("a fraud card"),
    "dante": _("Dante"),
    "council": _("family council"),
    "barrel": _("a barrel delivered"),
    "family_card": _("Family card"),
    "accusation": _("accusation"),
}

FIELDS = {
    "empty": _("Empty shields"),
    "cube": _("The cube's space"),
    "skull": _("The skull level"),
    "ship": _("The Ship's space"),
    "infamy": _("Infamy"),
    "half_diplomas": _("Half diplomas"),
    "player": _("The player"),
    "circle": _("The circle"),
    "track": _("The track"),
    "skulls": _("The skulls"),
    "florins": _("Florins"),
    "drachmas": _("Drachmas"),
    "members": _("Family members"),
    "diploma": _("The diploma"),
    "disc": _("The disc"),
    "cemetery": _("Cemetery souls"),
    "dante": _("Dante's step"),
    "amount": _("The amount"),
    "effect_amount": _("The effect's amount"),
    "fraud_hand": _("Fraud cards in hand"),
    "bells": _("Bells"),
    "wall_passes": _("Wall passes"),
    "home_nobles": _("Nobles at home"),
    "home_urchins": _("Urchins at home"),
    "reserve_urchins": _("Urchins in reserve"),
}

SOURCES = {"hand": _("hand"), "lineup": _("line-up"), "deck": _("deck")}

LEDGER = {
    "souls": _("Souls laid down"),
    "loan_symbol": _("Loan symbol"),
    "dante": _("Dante's last step"),
    "barrel": _("Barrels delivered at the Wall"),
    "council": _("Family council"),
    "fraud": _("Fraud cards"),
    "bonus": _("Bonus tiles"),
    "correction": _("Corrections"),
    "guardian": _("Guardians"),
    "family_card": _("Family card"),
}

REQUIREMENTS = {
    "always": _("always"),
    "barrels": _("barrels %(colours)s in the tower"),
    "guests_at_least": _("at least %(amount)s guests"),
    "skull_at_least": _("skull at least %(amount)s on the %(track)s track"),
    "diplomas_at_least": _("at least %(amount)s diplomas"),
    "no_loans": _("no loans"),
    "floors_at_least": _("at least %(amount)s tower floors"),
}

EFFECTS = {
    "infamy": _("+%(effect_amount)s infamy"),
    "infamy_per_diploma": _("+%(effect_amount)s infamy per diploma"),
    "skull": _("+1 skull on the %(effect_track)s track"),
    "half_diploma": _("+1 half diploma"),
    "cube_right": _("the %(effect_track)s cube one space right"),
}


EFFECT_LABELS = {
    "infamy": _("infamy (amount)"),
    "infamy_per_diploma": _("infamy per diploma (amount)"),
    "skull": _("+1 skull (track)"),
    "half_diploma": _("+1 half diploma"),
    "cube_right": _("cube one space right (track)"),
}


def effect_label(effect: str) -> str:
    """A fraud end-game effect's name in a menu."""
    return str(EFFECT_LABELS.get(effect, effect))


def reason_name(reason: str) -> str:
    """Why coins or infamy changed, in words."""
    return str(REASONS.get(reason, LEDGER.get(reason, reason)))


def field_name(field: str) -> str:
    """A value's name in a refusal or a correction."""
    return str(FIELDS.get(field, field.replace("_", " ")))


def location_name(loc: str) -> str:
    """A Florence location's name."""
    return str(LOCATIONS.get(loc, loc))


def kind_name(kind: str) -> str:
    """'noble' or 'urchin' in the reader's language."""
    return str(KINDS.get(kind, kind))


def guardian_name(guardian: str) -> str:
    """A guardian's name."""
    return str(GUARDIANS.get(guardian, guardian))


def describe_reward(reward: Any) -> str:
    """What a bonus tile or a card gives, e.g. '2 florins' or 'a skull step (green)'."""
    if reward is None:
        return ""
    name = str(REWARDS.get(reward.kind, reward.kind))
    if reward.kind in ("florins", "drachmas", "infamy"):
        return f"{reward.amount} {name}"
    if reward.kind in ("skull", "cube_right"):
        return f"{name} ({colour_name(reward.track)})"
    if reward.kind == "disc":
        return f"{name} ({reward.gate})"
    return name


def ledger_name(source: str) -> str:
    """Where infamy scored during play came from."""
    return str(LEDGER.get(source, source))


def describe_endgame(half: Any) -> str:
    """A fraud card's end-game half in words."""
    params = {
        "colours": ", ".join(colour_name(c) for c in half.colours),
        "amount": half.amount,
        "track": colour_name(half.track),
        "effect_amount": half.effect_amount,
        "effect_track": colour_name(half.effect_track),
    }
    requirement = str(REQUIREMENTS.get(half.requirement, half.requirement)) % params
    effect = str(EFFECTS.get(half.effect, half.effect)) % params
    return gettext("if %(requirement)s: %(effect)s", requirement=requirement, effect=effect)


def colour_name(colour: int) -> str:
    """A soul colour's name, e.g. 'blue'."""
    return str(COLOURS.get(colour, colour))


def quarter_name(quarter: str | None) -> str:
    """A Florence quarter's name."""
    return str(QUARTERS.get(quarter or "", quarter or "—"))


def player_name(state: GameState, index: int) -> str:
    """A player's name."""
    return isolate(state.players[index].name) if 0 <= index < len(state.players) else str(index)


def shield_label(state: GameState, shield: str) -> str:
    """A shield as players read it: 'circle 4, shield C (Key)'."""
    info = state.side.shields.get(shield)
    if info is None:
        return shield
    return gettext(
        "%(shield)s (circle %(circle)s, %(quarter)s)",
        shield=shield.upper(),
        circle=info.circle,
        quarter=quarter_name(info.quarter),
    )


def _format_params(params: dict[str, Any], state: GameState | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "colour" and isinstance(value, int):
            out[key] = colour_name(value)
        elif key in ("player", "active", "owner") and isinstance(value, int) and state is not None:
            out[key] = player_name(state, value)
        elif key in ("shield", "from", "to", "stop") and isinstance(value, str) and state is not None:
            out[key] = shield_label(state, value)
        elif key == "quarter" and isinstance(value, str):
            out[key] = quarter_name(value)
        elif key == "field" and isinstance(value, str):
            out[key] = field_name(value)
        elif isinstance(value, (list, tuple)):
            out[key] = ", ".join(str(v) for v in value)
        else:
            out[key] = value
    return out


def describe_refusal(exc: RuleViolation, state: GameState | None) -> str:
    """A refusal as one sentence in the reader's language."""
    template = REFUSALS.get(exc.code)
    if template is None:
        return gettext("That is not allowed now (%(code)s).", code=exc.code)
    return str(template) % _format_params(exc.params, state)


def describe_choice(key: str, params: dict[str, Any], state: GameState | None) -> str:
    """A legal alternative as a short phrase."""
    template = CHOICES.get(key)
    if template is None:
        return key
    return str(template) % _format_params(params, state)
