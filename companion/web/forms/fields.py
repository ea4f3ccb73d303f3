"""The shape of what a phone sends: marshmallow schemas with a message per field.

These check *shape* only (types, ranges, required fields). Whether a well-formed request
is legal now is the rules' business (``RuleViolation``), never this module's.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask_babel import lazy_gettext as _l
from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, pre_load, validate, validates_schema
from werkzeug.datastructures import MultiDict

__all__ = [
    "AccuseForm",
    "ActionForm",
    "BringForm",
    "CouncilForm",
    "CreateForm",
    "FerryForm",
    "HalvesForm",
    "LoanForm",
    "LocationForm",
    "MoveForm",
    "PlagueForm",
    "SendForm",
    "TallyCircleForm",
    "TallyPlayerForm",
    "TallyStartForm",
    "UndoForm",
    "flatten_errors",
    "new_key",
    "parse",
]


def new_key() -> str:
    """A fresh idempotency key for one form on one rendered screen: 128 random bits, a secret."""
    return secrets.token_urlsafe(16)


def _messages() -> dict[str, Any]:
    return {
        "required": _l("This field is required."),
        "invalid": _l("Not a valid value."),
        "null": _l("This field is required."),
    }


def _int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=False, error_messages=_messages(), **kw)


class ActionForm(Schema):
    """Every state-changing form: the seq its screen was drawn from and an idempotency key."""

    class Meta:
        unknown = EXCLUDE

    seq = _int(required=True, validate=validate.Range(min=0))
    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=_messages())


class PlayerActionForm(ActionForm):
    """A form that acts for one player."""

    player = _int(required=True, validate=validate.Range(min=0, max=7))
    confirm_loan = fields.Boolean(load_default=False)


class LoanForm(PlayerActionForm):
    """Take a loan."""


class EndTurnForm(PlayerActionForm):
    """End the turn."""


class BringForm(PlayerActionForm):
    """Bring a soul in from the Cemetery."""

    colour = _int(required=True, validate=validate.Range(min=1, max=9))
    shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=_messages())
    borrow = fields.Boolean(load_default=False)


class MoveForm(PlayerActionForm):
    """Move a standing soul."""

    from_shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=_messages())
    to_shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=_messages())
    via = fields.String(load_default="", validate=validate.Length(max=80))
    borrow = fields.Boolean(load_default=False)


class FerryForm(PlayerActionForm):
    """Summon the ferryman: Phlegyas's shield, the soul, its sideways shield and its landing."""

    phlegyas_to = fields.String(required=True, validate=validate.Length(min=1, max=8))
    soul_from = fields.String(required=True, validate=validate.Length(min=1, max=8))
    soul_to = fields.String(required=True, validate=validate.Length(min=1, max=8))
    landing = fields.String(required=True, validate=validate.Length(min=1, max=8))
    borrow = fields.Boolean(load_default=False)


class PlagueForm(PlayerActionForm):
    """The souls on the plague card just revealed."""

    souls = fields.List(_int(validate=validate.Range(min=1, max=9)), load_default=list)
    deck_empty = fields.Boolean(load_default=False)

    @pre_load
    def _souls_from_counts(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        """Blank slots mean "no soul"; ``plague_<colour>`` steppers count the souls of each colour."""
        souls = [s for s in data.get("souls", []) if s not in ("", None)]
        for colour in range(1, 10):
            raw = str(data.pop(f"plague_{colour}", "") or "0").strip()
            if not raw.isdigit() or int(raw) > 12:
                raise ValidationError(_l("Not a valid value."), "souls")
            souls.extend([str(colour)] * int(raw))
        data["souls"] = souls
        return data

    @validates_schema
    def _some_souls(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("deck_empty") and not data.get("souls"):
            raise ValidationError(_l("Choose the souls shown on the card."), "souls")


class HalvesForm(PlayerActionForm):
    """Where pairs of half diplomas become diplomas (one track per pair)."""

    tracks = fields.List(_int(validate=validate.Range(min=2, max=9)), load_default=list)


class TallyStartForm(Schema):
    """A quick tally: the players' names."""

    class Meta:
        unknown = EXCLUDE

    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=_messages())
    name = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)

    @pre_load
    def _drop_empty(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        data["name"] = [n.strip() for n in data.get("name", []) if n.strip()]
        return data

    @validates_schema
    def _some(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("name"):
            raise ValidationError(_l("Enter at least one player's name."), "name")


class TallyCircleForm(ActionForm):
    """Quick tally: one circle's empty shields and cube space."""

    circle = _int(required=True, validate=validate.Range(min=1, max=9))
    empty = _int(required=True)
    cube = _int(required=True)


class TallyPlayerForm(ActionForm):
    """Quick tally: one player's end state."""

    player = _int(required=True, validate=validate.Range(min=0, max=7))
    infamy = _int(required=True)
    skulls = fields.List(_int(), load_default=list)
    diplomas = fields.List(_int(validate=validate.Range(min=2, max=9)), load_default=list)
    half_diplomas = _int(load_default=0)
    ship = _int(load_default=0)
    fraud_effect = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    fraud_amount = fields.List(fields.String(validate=validate.Length(max=4)), load_default=list)
    fraud_track = fields.List(fields.String(validate=validate.Length(max=2)), load_default=list)


def _text(max_len: int = 24, default: str = "") -> fields.String:
    return fields.String(load_default=default, validate=validate.Length(max=max_len))


def _ints(low: int = 0, high: int = 99) -> fields.List:  # type: ignore[type-arg]
    return fields.List(_int(validate=validate.Range(min=low, max=high)), load_default=list)


class RewardFields(Schema):
    """A reward from the edition's menu (a bonus tile or a fraud card's instant half)."""

    reward_kind = _text()
    reward_amount = _int(load_default=0, validate=validate.Range(min=0, max=99))
    reward_track = _int(load_default=0, validate=validate.Range(min=0, max=9))
    reward_gate = _text()


class BonusFields(Schema):
    """What a sin track's bonus tile gives, entered the first time it is taken."""

    bonus_kind = _text()
    bonus_amount = _int(load_default=0, validate=validate.Range(min=0, max=99))
    bonus_track = _int(load_default=0, validate=validate.Range(min=0, max=9))
    bonus_gate = _text()


class FraudFields(RewardFields):
    """A fraud card as the table reads it."""

    fraud_source = _text(8)
    fraud_barrels = _ints(2, 9)
    eg_requirement = _text()
    eg_colours = _ints(2, 9)
    eg_track = _int(load_default=0, validate=validate.Range(min=0, max=9))
    eg_amount = _int(load_default=0, validate=validate.Range(min=0, max=99))
    eg_effect = _text()
    eg_effect_amount = _int(load_default=0, validate=validate.Range(min=0, max=99))
    eg_effect_track = _int(load_default=0, validate=validate.Range(min=0, max=9))


class GuardianFields(Schema):
    """A guardian's use: where it goes and what its effect acts on."""

    guardian = _text()
    to_shield = _text(8)
    effect = fields.Boolean(load_default=False)
    targets = fields.List(fields.String(validate=validate.Length(max=8)), load_default=list)
    destinations = fields.List(fields.String(validate=validate.Length(max=8)), load_default=list)
    desk_below = _text(8)
    desk_from = _text(8)


class SendForm(PlayerActionForm):
    """Send a family member to a location."""

    kind = fields.String(required=True, validate=validate.OneOf(["noble", "urchin"]))
    location = fields.String(required=True, validate=validate.Length(min=1, max=24))
    bribe = fields.Boolean(load_default=False)
    borrow = fields.Boolean(load_default=False)
    # The game page lists every location as a button of one form; it names the locations whose
    # button says they cost a bribe (another quarter), and those whose bribe needs a loan.
    bribe_for = fields.String(load_default="", validate=validate.Length(max=400))
    borrow_for = fields.String(load_default="", validate=validate.Length(max=400))

    @post_load
    def _flags_of_the_location(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        location = data["location"]
        data["bribe"] = data["bribe"] or location in data.pop("bribe_for").split()
        data["borrow"] = data["borrow"] or location in data.pop("borrow_for").split()
        return data


class AccuseForm(PlayerActionForm, BonusFields, FraudFields, GuardianFields):
    """An accusation, with what its steps need to know."""

    location = fields.String(required=True, validate=validate.Length(min=1, max=24))
    member = fields.String(load_default="", validate=validate.OneOf(["", "noble", "urchin"]))
    floor = _int(load_default=-1, validate=validate.Range(min=-1, max=9))
    bribe = fields.Boolean(load_default=False)
    borrow = fields.Boolean(load_default=False)
    dante_fraud = fields.Boolean(load_default=False)
    dante_guardian = fields.Boolean(load_default=False)


class CouncilForm(PlayerActionForm):
    """The family council's choice."""

    choice = fields.String(required=True, validate=validate.OneOf(["member", "guest", "barrel", "none"]))
    source = _text()
    kind = _text(8)
    colour = _int(load_default=0, validate=validate.Range(min=0, max=9))


class LocationForm(PlayerActionForm, FraudFields, GuardianFields):
    """One optional effect of the current location."""

    florins = _int(load_default=0, validate=validate.Range(min=0, max=99))
    circle = _int(load_default=0, validate=validate.Range(min=0, max=9))
    gate = _text()
    colour = _int(load_default=0, validate=validate.Range(min=0, max=9))
    floor = _int(load_default=0, validate=validate.Range(min=0, max=9))
    to_floor = _int(load_default=0, validate=validate.Range(min=0, max=9))
    kind = _text(8)
    floors = _ints(0, 9)
    kinds = fields.List(fields.String(validate=validate.OneOf(["noble", "urchin"])), load_default=list)
    count = _int(load_default=0, validate=validate.Range(min=0, max=3))
    member = fields.List(fields.String(validate=validate.Regexp(r"^\d:(noble|urchin)$")), load_default=list)
    piece = fields.String(load_default="", validate=validate.Regexp(r"^(\d:[a-z]+:\d)?$"))
    first_track = _int(load_default=0, validate=validate.Range(min=0, max=9))
    last_track = _int(load_default=0, validate=validate.Range(min=0, max=9))
    borrow = fields.Boolean(load_default=False)


class UndoForm(ActionForm):
    """Undo the latest entry, or every entry from ``to`` on."""

    to = _int(load_default=None, allow_none=True, validate=validate.Range(min=1))


class CreateForm(Schema):
    """A new game: players in turn order, expansion, the first plague card."""

    class Meta:
        unknown = EXCLUDE

    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=_messages())
    name = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    colour = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    expansion = fields.Boolean(load_default=False)
    plague = fields.List(_int(validate=validate.Range(min=1, max=9)), load_default=list)
    layout = fields.String(load_default="random", validate=validate.OneOf(["random", "default"]))
    table_mode = fields.String(load_default="shared", validate=validate.OneOf(["shared", "seats"]))

    @pre_load
    def _drop_empty_seats(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        names = data.get("name", [])
        colours = data.get("colour", [])
        seats = [(n.strip(), c) for n, c in zip(names, colours, strict=False) if n.strip()]
        data["name"] = [n for n, _ in seats]
        data["colour"] = [c for _, c in seats]
        data["plague"] = [p for p in data.get("plague", []) if p not in ("", None)]
        return data

    @validates_schema
    def _players(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("name"):
            raise ValidationError(_l("Enter at least one player's name."), "name")
        if not data.get("plague"):
            raise ValidationError(_l("Choose the souls on the first plague card."), "plague")


def flatten_errors(messages: Any) -> dict[str, list[str]]:
    """marshmallow's nested messages as ``{field: [sentence, ...]}``."""
    out: dict[str, list[str]] = {}

    def walk(field: str, value: Any) -> None:
        if isinstance(value, dict):
            for inner in value.values():
                walk(field, inner)
        elif isinstance(value, (list, tuple)):
            for inner in value:
                walk(field, inner)
        else:
            out.setdefault(field, []).append(str(value))

    if isinstance(messages, dict):
        for field, value in messages.items():
            walk(str(field), value)
    else:
        walk("_schema", messages)
    return out


def parse(schema: type[Schema], form: MultiDict[str, str]) -> dict[str, Any]:
    """Load a submitted form through ``schema``; raises ``ValidationError`` per field."""
    instance = schema()
    data: dict[str, Any] = {}
    for key in form:
        field = instance.fields.get(key)
        if isinstance(field, fields.List):
            data[key] = form.getlist(key)
        elif isinstance(field, fields.Boolean):
            data[key] = form.get(key) in ("1", "on", "true", "yes")
        else:
            data[key] = form.get(key)
    loaded: dict[str, Any] = instance.load(data)
    return loaded
