"""What the score page sends: where pairs of half diplomas go, and a fraud card left in hand."""

from __future__ import annotations

from marshmallow import fields, validate

from companion.web.forms.fields import PlayerActionForm, integer
from companion.web.forms.florence import FraudFields

__all__ = ["HalvesForm", "HandCardForm"]


class HalvesForm(PlayerActionForm):
    """Where pairs of half diplomas become diplomas (one track per pair)."""

    tracks = fields.List(integer(validate=validate.Range(min=2, max=9)), load_default=list)


class HandCardForm(PlayerActionForm, FraudFields):
    """A fraud card left in a player's hand, entered by its end-game half."""
