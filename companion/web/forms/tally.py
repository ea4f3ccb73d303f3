"""What the quick tally sends: the players' names, a circle, a player, or the whole one-page sheet."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from marshmallow import EXCLUDE, Schema, ValidationError, fields, pre_load, validate, validates_schema

from companion.web.forms.fields import ActionForm, field_messages, integer

__all__ = [
    "FRAUD_FIELDS",
    "FRAUD_HALVES",
    "SheetCircle",
    "SheetPlayer",
    "TallyCircleForm",
    "TallyPlayerForm",
    "TallySheetForm",
    "TallyStartForm",
]

_CIRCLE_FIELD = re.compile(r"^(empty|cube)-(\d)$")
_PLAYER_FIELD = re.compile(r"^(infamy|ship|halves|drachmas|florins)-(\d)$")
_PER_TRACK_FIELD = re.compile(r"^(skull|diploma)-(\d)-(\d)$")
_FRAUD_FIELD = re.compile(r"^(fraud_effect|fraud_amount|fraud_track)-(\d)-(\d)$")
FRAUD_HALVES = 2
FRAUD_FIELDS = ("fraud_effect", "fraud_amount", "fraud_track")


class TallyStartForm(Schema):
    """A quick tally: the players' names."""

    class Meta:
        unknown = EXCLUDE

    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=field_messages())
    name = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)

    @pre_load
    def _drop_empty(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        data["name"] = [n.strip() for n in data.get("name", []) if n.strip()]
        return data

    @validates_schema
    def _some(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("name"):
            raise ValidationError(gettext("Enter at least one player's name."), "name")


class TallyCircleForm(ActionForm):
    """Quick tally: one circle's empty shields and cube space."""

    circle = integer(required=True, validate=validate.Range(min=1, max=9))
    empty = integer(required=True)
    cube = integer(required=True)


class TallyPlayerForm(ActionForm):
    """Quick tally: one player's end state."""

    player = integer(required=True, validate=validate.Range(min=0, max=7))
    infamy = integer(required=True)
    skulls = fields.List(integer(), load_default=list)
    diplomas = fields.List(integer(validate=validate.Range(min=2, max=9)), load_default=list)
    half_diplomas = integer(load_default=0)
    ship = integer(load_default=0)
    drachmas = integer(load_default=0)  # asked only when a tie-breaker reads them
    florins = integer(load_default=0)
    fraud_effect = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    fraud_amount = fields.List(fields.String(validate=validate.Length(max=4)), load_default=list)
    fraud_track = fields.List(fields.String(validate=validate.Length(max=2)), load_default=list)


class SheetCircle(Schema):
    """One circle on the sheet."""

    circle = integer(required=True, validate=validate.Range(min=1, max=9))
    empty = integer(load_default=None)  # missing: as recorded
    cube = integer(load_default=None)


class SheetPlayer(Schema):
    """One player on the sheet (skulls by circle; diplomas as circles)."""

    player = integer(required=True, validate=validate.Range(min=0, max=7))
    infamy = integer(load_default=0)
    ship = integer(load_default=0)
    halves = integer(load_default=0)
    drachmas = integer(load_default=0)  # asked only when a tie-breaker reads them
    florins = integer(load_default=0)
    skulls = fields.Dict(keys=fields.Integer(), values=integer(), load_default=dict)
    diplomas = fields.List(integer(validate=validate.Range(min=2, max=9)), load_default=list)
    fraud_effect = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    fraud_amount = fields.List(fields.String(validate=validate.Length(max=4)), load_default=list)
    fraud_track = fields.List(fields.String(validate=validate.Length(max=2)), load_default=list)


class TallySheetForm(ActionForm):
    """The whole sheet, one value per field: ``empty-3``, ``cube-3``, ``infamy-0``, ``skull-0-3``, ``diploma-0-3``…"""

    circles = fields.List(fields.Nested(SheetCircle), load_default=list)
    players = fields.List(fields.Nested(SheetPlayer), load_default=list)

    @pre_load
    def _gather(self, data: Mapping[str, Any], **_kw: Any) -> dict[str, Any]:
        circles: dict[int, dict[str, Any]] = {}
        players: dict[int, dict[str, Any]] = {}

        def player(p: str) -> dict[str, Any]:
            return players.setdefault(
                int(p),
                {"player": p, "skulls": {}, "diplomas": [], **{f: [""] * FRAUD_HALVES for f in FRAUD_FIELDS}},
            )

        for name, value in data.items():
            if m := _CIRCLE_FIELD.match(name):
                circles.setdefault(int(m[2]), {"circle": m[2]})[m[1]] = value
            elif m := _PER_TRACK_FIELD.match(name):
                if m[1] == "skull":
                    player(m[2])["skulls"][m[3]] = value
                elif value:
                    player(m[2])["diplomas"].append(m[3])
            elif m := _FRAUD_FIELD.match(name):
                if int(m[3]) < FRAUD_HALVES:
                    player(m[2])[m[1]][int(m[3])] = value
            elif m := _PLAYER_FIELD.match(name):
                if str(value).strip():
                    player(m[2])[m[1]] = value
                else:
                    player(m[2])
        return {
            "seq": data.get("seq"),
            "key": data.get("key"),
            "circles": [circles[c] for c in sorted(circles)],
            "players": [players[p] for p in sorted(players)],
        }
