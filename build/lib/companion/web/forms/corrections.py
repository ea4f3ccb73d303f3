"""What the corrections page sends: a value set to match the board, what stands on a shield, or the
replacement of an earlier entry."""

from __future__ import annotations

from marshmallow import EXCLUDE, fields, validate

from companion.web.forms.fields import ActionForm

__all__ = ["REPLACEABLE", "CorrectForm", "CorrectSoulForm", "ReplaceForm"]

REPLACEABLE = ("BringSoul", "MoveSoul", "SendMember")


class CorrectForm(ActionForm):
    """A correction of one value."""

    what = fields.String(required=True, validate=validate.Length(min=1, max=16))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))
    player = fields.Integer(load_default=-1)
    target_key = fields.String(load_default="", validate=validate.Length(max=24))
    value = fields.Integer(load_default=0)
    shield = fields.String(load_default="", validate=validate.Length(max=8))


class CorrectSoulForm(ActionForm):
    """What stands on one shield."""

    shield = fields.String(required=True, validate=validate.Length(min=1, max=8))
    colour = fields.Integer(load_default=0, validate=validate.Range(min=0, max=9))
    state = fields.String(load_default="standing", validate=validate.OneOf(["standing", "laid", "petrified"]))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class ReplaceForm(ActionForm):
    """The replacement chosen for an earlier entry (``choice`` is an option id from the page)."""

    class Meta:
        unknown = EXCLUDE

    target = fields.Integer(required=True)
    choice = fields.String(required=True, validate=validate.Length(min=1, max=80))
