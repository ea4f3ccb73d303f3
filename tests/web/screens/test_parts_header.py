"""The parts a phone says it holds (``HX-Game-Parts``) are read with one pattern: the same as splitting each word at
its first colon, words without one left out, for any header a phone (or anyone) may send."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.screens.parts import _HELD

_WORD = st.text(alphabet=st.sampled_from(["a", "-", "1", ":", "s", "é", "_"]), max_size=8)
_SPACE = st.sampled_from([" ", "  ", "\t", "\n", " \r\n "])


def split_words(raw: str) -> dict[str, str]:
    """The way it was read before: each word with a colon, split at its first one."""
    pairs = (item.split(":", 1) for item in raw.split() if ":" in item)
    return {name: value for name, value in pairs}


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.tuples(_WORD, _SPACE), max_size=12), lead=_SPACE)
def test_the_header_is_read_as_its_words_split_at_their_first_colon(words: list[tuple[str, str]], lead: str) -> None:
    raw = lead + "".join(word + space for word, space in words)
    assert dict(_HELD.findall(raw)) == split_words(raw)


def test_a_real_header_is_read_whole() -> None:
    raw = "turn:0a1b2c3d4e5f actions:ffffffffffff s-1a:123456789abc q-lily: odd :x a:b:c"
    assert dict(_HELD.findall(raw)) == {
        "turn": "0a1b2c3d4e5f",
        "actions": "ffffffffffff",
        "s-1a": "123456789abc",
        "q-lily": "",
        "": "x",
        "a": "b:c",
    }
