"""The templates' ``_`` and ``ngettext`` written in Python fill every message as Jinja's newstyle gettext does in an
autoescaped template: ``Markup(translation) % values``, the values escaped. Held over every message of the catalogue,
in English and Spanish, with hostile text, numbers and markup as values."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from companion.web.words.catalogue import _filled, _filled_text
from tests.web.words.message_forms import forms

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "companion" / "translations" / "es" / "LC_MESSAGES" / "messages.po"
NAMES = re.compile(r"%\((\w+)\)")


def _texts() -> list[str]:
    """Every message and its Spanish translation, singular and plural."""
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    out: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in forms(message.id):
            out.add(text)
        for text in forms(message.string):
            if text:
                out.add(text)
    return sorted(out)


TEXTS = _texts()
VALUES = st.one_of(
    st.text(alphabet=st.sampled_from(list("<>&\"'%()s ab\u202e")), max_size=8),
    st.integers(-5, 500),
    st.builds(Markup, st.sampled_from(["<b>2</b>", "&amp;", "x"])),
)


def test_the_catalogue_has_messages_of_every_kind() -> None:
    """Without values, with ``%(name)s`` only, and with another conversion (``%(n)d``...), or the test proves less."""
    assert any("%" not in t for t in TEXTS)
    assert any(NAMES.search(t) and not re.search(r"%(?!\(\w+\)s|%)", t) for t in TEXTS)
    assert any(re.search(r"%\(\w+\)[^s]", t) for t in TEXTS) or any("%%" in t for t in TEXTS)


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_every_message_is_filled_as_markup_fills_it(data: Any) -> None:
    for text in TEXTS:
        values = {name: data.draw(VALUES) for name in set(NAMES.findall(text))}
        try:
            wanted: Markup | type[Exception] = Markup(text) % values
        except (TypeError, ValueError, KeyError) as exc:  # a %(n)d given text: both refuse it alike
            with pytest.raises(type(exc)):
                _filled(text, values)
            with pytest.raises(type(exc)):
                _filled_text(text, values)
            continue
        got = _filled(text, values)
        assert isinstance(got, Markup)
        assert got == wanted, text
        as_text = _filled_text(text, values)  # the same, as the plain text ``text_words`` gives
        assert type(as_text) is str and as_text == str(wanted), text


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("100%% sure", {}),
        ("%(n)s%% of <%(who)s>", {"n": 5, "who": "<script>"}),
        ("%(n)d souls", {"n": 3}),
        ("Nothing", {}),
        ("Said %(x)s", {"x": Markup("<i>ok</i>")}),
    ],
)
def test_the_edges(text: str, values: dict[str, Any]) -> None:
    assert _filled(text, dict(values)) == Markup(text) % values
    assert _filled_text(text, dict(values)) == str(Markup(text) % values)
