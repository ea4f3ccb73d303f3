"""What the join page sends: the table mode to switch to."""

from __future__ import annotations

from marshmallow import fields, validate

from companion.web.forms.fields import ActionForm

__all__ = ["ModeForm"]


class ModeForm(ActionForm):
    """The table mode to switch to."""

    mode = fields.String(required=True, validate=validate.OneOf(["shared", "seats"]))
