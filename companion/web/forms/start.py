"""What the new-game form sends: players in turn order, colours, the first plague card, the table's choices."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from marshmallow import EXCLUDE, Schema, ValidationError, fields, pre_load, validate, validates_schema

from companion.web.forms.fields import field_messages, integer

__all__ = ["CreateForm", "PlayAgainForm"]


class PlayAgainForm(Schema):
    """Same table, new game: the first plague card the table turned over (its souls in any order)."""

    class Meta:
        unknown = EXCLUDE

    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=field_messages())
    plague = fields.List(integer(validate=validate.Range(min=1, max=9)), load_default=list)

    @pre_load
    def _drop_empty_souls(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        data = dict(data)
        data["plague"] = [p for p in data.get("plague", []) if p not in ("", None)]
        return data

    @validates_schema
    def _souls(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("plague"):
            raise ValidationError(gettext("Choose the souls on the first plague card."), "plague")


class CreateForm(Schema):
    """A new game: players in turn order, expansion, the first plague card."""

    class Meta:
        unknown = EXCLUDE

    key = fields.String(required=True, validate=validate.Length(min=8, max=80), error_messages=field_messages())
    name = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    colour = fields.List(fields.String(validate=validate.Length(max=24)), load_default=list)
    expansion = fields.Boolean(load_default=False)
    plague = fields.List(integer(validate=validate.Range(min=1, max=9)), load_default=list)
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
            raise ValidationError(gettext("Enter at least one player's name."), "name")
        if not data.get("plague"):
            raise ValidationError(gettext("Choose the souls on the first plague card."), "plague")
