"""The parts a phone says it holds (``HX-Game-Parts``) are read with one pattern: the same as splitting each word at
its first colon, words without one left out, for any header a phone (or anyone) may send."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.screens.parts import merge_parts, parts_to_send
from companion.web.screens.parts.sent import HELD

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
    assert dict(HELD.findall(raw)) == split_words(raw)


def test_a_real_header_is_read_whole() -> None:
    raw = "turn:0a1b2c3d4e5f actions:ffffffffffff s-1a:123456789abc q-lily: odd :x a:b:c"
    assert dict(HELD.findall(raw)) == {
        "turn": "0a1b2c3d4e5f",
        "actions": "ffffffffffff",
        "s-1a": "123456789abc",
        "q-lily": "",
        "": "x",
        "a": "b:c",
    }


_NAME = st.text(alphabet=st.sampled_from(["a", "-", "1", "s", "é", "_"]), min_size=1, max_size=6)
_DIGEST = st.text(alphabet=st.sampled_from(["0", "1", "a", "f", ":"]), max_size=4)


@settings(max_examples=500, deadline=None)
@given(
    now=st.dictionaries(_NAME, _DIGEST, max_size=10),
    held=st.dictionaries(_NAME, _DIGEST, max_size=10),
    junk=st.lists(st.sampled_from(["odd", ":x", "q:", "", "a:b:c"]), max_size=3),
    lead=_SPACE,
)
def test_the_parts_sent_are_those_the_phone_does_not_hold_as_they_are(
    now: dict[str, str], held: dict[str, str], junk: list[str], lead: str
) -> None:
    """Compared as words, a part is sent exactly when the header read into a dict would say so, for any header that
    names each part once (a phone's), whatever else it holds; in the answer's order."""
    names = set(now) | set(held)
    held_words = [f"{name}:{digest}" for name, digest in held.items()]
    # a junk word never names a part of this answer a second time
    kept_junk = [w for w in junk if w.partition(":")[0] not in names]
    raw = lead + " ".join(held_words + kept_junk)
    digests = " ".join(f"{name}:{digest}" for name, digest in now.items())
    shown = dict(HELD.findall(raw))
    assert parts_to_send(digests.split(), raw) == [name for name, digest in now.items() if shown.get(name) != digest]


@settings(max_examples=500, deadline=None)
@given(now=st.dictionaries(_NAME, _DIGEST, max_size=10), held=st.dictionaries(_NAME, _DIGEST, max_size=10))
def test_a_phone_that_merges_the_digests_sent_holds_every_part_as_the_answer_has_it(
    now: dict[str, str], held: dict[str, str]
) -> None:
    """An answer of parts tells only the digests of the parts it sends (``game:update``'s ``changed``); merged into
    what the phone held (``merge_parts``, as ``table.js`` does), every part of the answer is known by its digest
    now, the parts the phone held keep their places and a new one comes after them."""
    raw = " ".join(f"{name}:{digest}" for name, digest in held.items())
    digests = " ".join(f"{name}:{digest}" for name, digest in now.items())
    changed = " ".join(f"{name}:{now[name]}" for name in parts_to_send(digests.split(), raw))
    merged = dict(HELD.findall(merge_parts(raw, changed)))
    assert {name: merged[name] for name in now} == now
    assert list(merged)[: len(held)] == list(held)
    assert merge_parts(merge_parts(raw, changed), changed) == merge_parts(raw, changed)  # taken twice, the same
