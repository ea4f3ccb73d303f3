"""``chosen_before``: the one reading of what a player had chosen, for a form drawn again after a refusal."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from companion.web.forms.fields import chosen_before


def test_a_sent_field_says_which_values_were_chosen_and_an_unsent_one_keeps_the_default() -> None:
    chosen = chosen_before(MultiDict([("track", "2"), ("track", "5"), ("amount", "1")]))
    assert chosen("track", 2) and chosen("track", "5") and not chosen("track", 3, default=True)
    assert chosen("amount", 1) and not chosen("amount", 2)
    assert chosen("barrel", 1, default=True) and not chosen("barrel", 1)


def test_nothing_sent_keeps_every_default() -> None:
    chosen = chosen_before(None)
    assert chosen("track", 2, default=True) and not chosen("track", 2)
