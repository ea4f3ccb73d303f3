"""A form refused for its shape, in the player's words: each field of every page form named as the table
says it ("The shield to land on"), beside what is wrong with it in the reader's language (the sentences
of ``forms.messages``). No field code and none of marshmallow's English reaches a phone, whatever a
forged form sends; a name no form has is "Another value sent", never repeated.

The names a command's refusal also says (``glossary.FIELDS``: the player, the circle, infamy…) are
said the same here; this module adds those only a form has. A test walks every field of every form.
"""

from __future__ import annotations

from typing import Any

from flask_babel import LazyString
from marshmallow import Schema

from companion.formats.schema_errors import flatten_messages
from companion.web.forms.fields import field_named, flatten_errors
from companion.web.forms.messages import in_words
from companion.web.words.catalogue import lazy_gettext
from companion.web.words.glossary import FIELDS

__all__ = ["FORM_FIELDS", "field_word", "refusal_details", "start_errors"]

_ = lazy_gettext

# Keyed by the form's field name; a name with one meaning in one form and another elsewhere is said
# in words that fit both (``colour``: a soul's, a barrel's or a player's).
FORM_FIELDS: dict[str, LazyString] = {
    # every form: the screen it was drawn from and its one-time key
    "seq": _("The moment of the game this screen shows"),
    "key": _("This entry's one-time code"),
    "confirm_loan": _("The loan's confirmation"),
    "to": _("The entry to undo back to"),
    # Hell
    "colour": _("The colour"),
    "shield": _("The shield"),
    "borrow": _("A loan to pay for it"),
    "from_shield": _("The shield the soul leaves"),
    "to_shield": _("The shield to land on"),
    "via": _("The path it takes"),
    "phlegyas_to": _("Phlegyas's shield"),
    "soul_from": _("The soul's shield"),
    "soul_to": _("The sideways shield"),
    "landing": _("The landing"),
    "souls": _("The souls on the card"),
    "deck_empty": _("The empty plague deck"),
    # Florence
    "kind": _("The kind of piece"),
    "location": _("The Florence tile"),
    "bribe": _("The bribe"),
    "bribe_for": _("The tiles that need a bribe"),
    "borrow_for": _("The tiles whose bribe needs a loan"),
    "member": _("The family member"),
    "floor": _("The tower floor"),
    "dante_fraud": _("Dante's fraud card"),
    "dante_guardian": _("Dante's guardian"),
    "choice": _("The choice"),
    "source": _("Where it comes from"),
    "gate": _("The gate"),
    "to_floor": _("The floor to move to"),
    "floors": _("The tower floors"),
    "kinds": _("The kinds of piece"),
    "count": _("How many"),
    "piece": _("The tower piece"),
    "first_track": _("The first track"),
    "last_track": _("The last track"),
    "reward_kind": _("The reward"),
    "reward_amount": _("The reward's amount"),
    "reward_track": _("The reward's track"),
    "reward_gate": _("The reward's gate"),
    "bonus_kind": _("What the bonus tile gives"),
    "bonus_amount": _("The bonus tile's amount"),
    "bonus_track": _("The bonus tile's track"),
    "bonus_gate": _("The bonus tile's gate"),
    "fraud_source": _("Where the fraud card comes from"),
    "fraud_barrels": _("The barrels paid for the fraud card"),
    "eg_requirement": _("The end-game half's condition"),
    "eg_colours": _("The end-game half's colours"),
    "eg_track": _("The end-game half's track"),
    "eg_amount": _("The end-game half's number"),
    "eg_effect": _("The end-game half's effect"),
    "eg_effect_amount": _("The end-game effect's amount"),
    "eg_effect_track": _("The end-game effect's track"),
    "guardian": _("The guardian"),
    "effect": _("The guardian's effect"),
    "targets": _("What the guardian acts on"),
    "destinations": _("Where the guardian sends them"),
    "desk_below": _("The shield the Desk goes below"),
    "desk_from": _("The shield the Desk leaves"),
    # the score sheet and the quick tally
    "tracks": _("The tracks for the pairs"),
    "diplomas": _("The diplomas"),
    "halves": _("Half diplomas"),
    "fraud_effect": _("The fraud card's end-game effect"),
    "fraud_amount": _("The fraud card's amount"),
    "fraud_track": _("The fraud card's track"),
    "circles": _("The circles"),
    "players": _("The players"),
    # corrections and replacements
    "what": _("The value to correct"),
    "reason": _("The reason"),
    "target_key": _("What the value belongs to"),
    "state": _("How the soul stands"),
    "target": _("The entry to replace"),
    # a new game and the table
    "name": _("The players' names"),
    "plague": _("The first plague card"),
    "expansion": _("The expansion"),
    "layout": _("Florence's layout"),
    "table_mode": _("The phones at the table"),
    "mode": _("The phones at the table"),
}

ANOTHER = _("Another value sent")


def field_word(name: str) -> str:
    """A form field's name as the table says it; a name no form has is "Another value sent"."""
    word = FORM_FIELDS.get(name) or FIELDS.get(name)
    return str(word if word is not None else ANOTHER)


def refusal_details(schema: type[Schema], messages: Any) -> list[str]:
    """One line per field at fault, ``The shield to land on: Must have 1 to 8 characters.``, in the
    reader's language: a nested field says its own name (the sheet's ``players.0.infamy``: Infamy), a
    message of the whole form stands alone."""
    said: dict[str, list[str]] = {}
    for path, texts in flatten_messages(messages).items():
        name = field_named(schema, path)
        word = "" if name == "" else field_word(name or "")
        lines = said.setdefault(word, [])
        lines.extend(t for t in map(in_words, texts) if t not in lines)
    return [f"{word}: {' '.join(texts)}" if word else " ".join(texts) for word, texts in said.items()]


def start_errors(schema: type[Schema], messages: Any, inline: frozenset[str]) -> dict[str, Any]:
    """A starting form's messages (a new game, a quick tally, play again): each field drawn with its own
    message (``inline``) gets it there, and the rest (a hidden field: the creation key, the layout, the table's
    mode) are said atop the form in one box (``_rule``), each with its field's word, never left unsaid."""
    errors: dict[str, Any] = flatten_errors(messages)
    elsewhere = {name: texts for name, texts in messages.items() if name not in inline}
    if elsewhere:
        errors["_rule"] = refusal_details(schema, elsewhere)
    return errors
