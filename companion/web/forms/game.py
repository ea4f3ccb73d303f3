"""What the game page's Hell and turn controls send: loans, souls, the ferry, the plague card, the end of a turn."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from marshmallow import ValidationError, fields, pre_load, validate, validates_schema

from companion.web.forms.fields import PlayerActionForm, field_messages, integer

__all__ = ["BringForm", "EndTurnForm", "FerryForm", "LoanForm", "MoveForm", "PlagueForm"]


class LoanForm(PlayerActionForm):
    """Take a loan."""


class EndTurnForm(PlayerActionForm):
    """End the turn."""


class BringForm(PlayerActionForm):
    """Bring a soul in from the Cemetery."""

    colour = integer(required=True, validate=validate.Range(min=1, max=9))
    shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=field_messages())
    borrow = fields.Boolean(load_default=False)


class MoveForm(PlayerActionForm):
    """Move a standing soul."""

    from_shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=field_messages())
    to_shield = fields.String(required=True, validate=validate.Length(min=1, max=8), error_messages=field_messages())
    via = fields.String(load_default="", validate=validate.Length(max=80))
    borrow = fields.Boolean(load_default=False)

    @pre_load
    def _one_way(self, data: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
        """The move list is one form with a button per way, each naming it in ``way``: "landing|path" and
        "|borrow" when its tolls need a loan (a form per way repeated seven hidden fields: 12 KB for a soul
        with 15 ways)."""
        way = data.get("way")
        if not isinstance(way, str) or not way:
            return data
        landing, _, rest = way.partition("|")
        via, _, borrow = rest.partition("|")
        return {**data, "to_shield": landing, "via": via, "borrow": borrow == "borrow" or bool(data.get("borrow"))}


class FerryForm(PlayerActionForm):
    """Summon the ferryman: Phlegyas's shield, the soul, its sideways shield and its landing."""

    phlegyas_to = fields.String(required=True, validate=validate.Length(min=1, max=8))
    soul_from = fields.String(required=True, validate=validate.Length(min=1, max=8))
    soul_to = fields.String(required=True, validate=validate.Length(min=1, max=8))
    landing = fields.String(required=True, validate=validate.Length(min=1, max=8))
    borrow = fields.Boolean(load_default=False)


class PlagueForm(PlayerActionForm):
    """The souls on the plague card just revealed."""

    souls = fields.List(integer(validate=validate.Range(min=1, max=9)), load_default=list)
    deck_empty = fields.Boolean(load_default=False)

    @pre_load
    def _souls_from_counts(self, data: dict[str, Any], **_kw: Any) -> dict[str, Any]:
        """Blank slots mean "no soul"; ``plague_<colour>`` steppers count the souls of each colour."""
        souls = [s for s in data.get("souls", []) if s not in ("", None)]
        for colour in range(1, 10):
            raw = str(data.pop(f"plague_{colour}", "") or "0").strip()
            if not raw.isdigit() or int(raw) > 12:
                raise ValidationError(gettext("Not a valid value."), "souls")
            souls.extend([str(colour)] * int(raw))
        data["souls"] = souls
        return data

    @validates_schema
    def _some_souls(self, data: dict[str, Any], **_kw: Any) -> None:
        if not data.get("deck_empty") and not data.get("souls"):
            raise ValidationError(gettext("Choose the souls shown on the card."), "souls")
