"""``esc`` is MarkupSafe's ``escape`` as text: the same characters for every kind of value the parts escape."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from companion.web.words.escaping import esc


class _Shown:
    """A value whose text holds markup characters (as a player's name or an edition's text may)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


class _Safe:
    """A value that says it is markup already (``__html__``): given as it is, never escaped again."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __html__(self) -> str:
        return self.text


class _Text(str):
    """A subclass of ``str`` (not ``str`` itself): escaped like any text."""


TEXT = st.text(alphabet=st.sampled_from(list("<>&'\"ab é\u2068\x00;#")) | st.characters(), max_size=30)
VALUES: st.SearchStrategy[Any] = st.one_of(
    TEXT,
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    TEXT.map(Markup),
    TEXT.map(_Shown),
    TEXT.map(_Safe),
    TEXT.map(_Text),
    TEXT.map(lazy_gettext),  # a lazy string, read outside a request: the text itself
)


@given(value=VALUES)
def test_a_value_is_escaped_as_markupsafe_escapes_it(value: Any) -> None:
    said = esc(value)
    assert said == str(escape(value))
    assert type(said) is str  # text, to go into an f-string (not ``Markup``, made only to be turned back)


def test_markup_is_given_as_it_is_and_text_is_escaped() -> None:
    assert esc(Markup("<b>Ana</b>")) == "<b>Ana</b>"
    assert esc('<b>Ana & Ben\'s "team"</b>') == "&lt;b&gt;Ana &amp; Ben&#39;s &#34;team&#34;&lt;/b&gt;"
    assert esc(3) == "3"
