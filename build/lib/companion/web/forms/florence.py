"""What Florence's controls send: a member sent, an accusation, the council, a location's option, and
the fraud cards, guardians and rewards they carry, as flat fields made into the commands' values."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_load, validate

from companion.web.forms.fields import PlayerActionForm, integer, integers, text
from events.catalog import EndgameHalf, FraudPlay, GuardianUse, Reward

__all__ = [
    "AccuseForm",
    "BonusFields",
    "CouncilForm",
    "FraudFields",
    "GuardianFields",
    "LocationForm",
    "RewardFields",
    "SendForm",
    "fraud_of",
    "guardian_of",
    "reward_of",
]


class RewardFields(Schema):
    """A reward from the edition's menu (a bonus tile or a fraud card's instant half)."""

    reward_kind = text()
    reward_amount = integer(load_default=0, validate=validate.Range(min=0, max=99))
    reward_track = integer(load_default=0, validate=validate.Range(min=0, max=9))
    reward_gate = text()


class BonusFields(Schema):
    """What a sin track's bonus tile gives, entered the first time it is taken."""

    bonus_kind = text()
    bonus_amount = integer(load_default=0, validate=validate.Range(min=0, max=99))
    bonus_track = integer(load_default=0, validate=validate.Range(min=0, max=9))
    bonus_gate = text()


class FraudFields(RewardFields):
    """A fraud card as the table reads it."""

    fraud_source = text(8)
    fraud_barrels = integers(2, 9)
    eg_requirement = text()
    eg_colours = integers(2, 9)
    eg_track = integer(load_default=0, validate=validate.Range(min=0, max=9))
    eg_amount = integer(load_default=0, validate=validate.Range(min=0, max=99))
    eg_effect = text()
    eg_effect_amount = integer(load_default=0, validate=validate.Range(min=0, max=99))
    eg_effect_track = integer(load_default=0, validate=validate.Range(min=0, max=9))


class GuardianFields(Schema):
    """A guardian's use: where it goes and what its effect acts on."""

    guardian = text()
    to_shield = text(8)
    effect = fields.Boolean(load_default=False)
    targets = fields.List(fields.String(validate=validate.Length(max=8)), load_default=list)
    destinations = fields.List(fields.String(validate=validate.Length(max=8)), load_default=list)
    desk_below = text(8)
    desk_from = text(8)


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
    floor = integer(load_default=-1, validate=validate.Range(min=-1, max=9))
    bribe = fields.Boolean(load_default=False)
    borrow = fields.Boolean(load_default=False)
    dante_fraud = fields.Boolean(load_default=False)
    dante_guardian = fields.Boolean(load_default=False)


class CouncilForm(PlayerActionForm):
    """The family council's choice."""

    choice = fields.String(required=True, validate=validate.OneOf(["member", "guest", "barrel", "none"]))
    source = text()
    kind = text(8)
    colour = integer(load_default=0, validate=validate.Range(min=0, max=9))


class LocationForm(PlayerActionForm, FraudFields, GuardianFields):
    """One optional effect of the current location."""

    florins = integer(load_default=0, validate=validate.Range(min=0, max=99))
    circle = integer(load_default=0, validate=validate.Range(min=0, max=9))
    gate = text()
    colour = integer(load_default=0, validate=validate.Range(min=0, max=9))
    floor = integer(load_default=0, validate=validate.Range(min=0, max=9))
    to_floor = integer(load_default=0, validate=validate.Range(min=0, max=9))
    kind = text(8)
    floors = integers(0, 9)
    kinds = fields.List(fields.String(validate=validate.OneOf(["noble", "urchin"])), load_default=list)
    count = integer(load_default=0, validate=validate.Range(min=0, max=3))
    member = fields.List(fields.String(validate=validate.Regexp(r"^\d:(noble|urchin)$")), load_default=list)
    piece = fields.String(load_default="", validate=validate.Regexp(r"^(\d:[a-z]+:\d)?$"))
    first_track = integer(load_default=0, validate=validate.Range(min=0, max=9))
    last_track = integer(load_default=0, validate=validate.Range(min=0, max=9))
    borrow = fields.Boolean(load_default=False)


def reward_of(d: dict[str, Any], prefix: str = "reward") -> Reward | None:
    """The reward described by ``<prefix>_kind`` and its qualifiers, if one was chosen."""
    kind = d.get(f"{prefix}_kind") or ""
    if not kind:
        return None
    return Reward(
        kind,
        int(d.get(f"{prefix}_amount") or 0),
        int(d.get(f"{prefix}_track") or 0),
        str(d.get(f"{prefix}_gate") or ""),
    )


def fraud_of(d: dict[str, Any]) -> FraudPlay:
    """The fraud card described by the form."""
    endgame = EndgameHalf(
        requirement=d["eg_requirement"] or "always",
        effect=d["eg_effect"] or "infamy",
        colours=tuple(d["eg_colours"]),
        track=d["eg_track"],
        amount=d["eg_amount"],
        effect_amount=d["eg_effect_amount"],
        effect_track=d["eg_effect_track"],
    )
    return FraudPlay(d["fraud_source"] or "hand", tuple(d["fraud_barrels"]), reward_of(d) or Reward("nothing"), endgame)


def guardian_of(d: dict[str, Any]) -> GuardianUse:
    """The guardian use described by the form."""
    return GuardianUse(
        d["guardian"],
        d["to_shield"],
        d["effect"],
        tuple(t for t in d["targets"] if t),
        tuple(x for x in d["destinations"] if x),
        d["desk_below"],
        d["desk_from"],
    )
