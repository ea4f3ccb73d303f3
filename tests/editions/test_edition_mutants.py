"""Any JSON value of any type at any place of the shipped edition file is either a valid edition
or an ``EditionError`` naming the entry, never another exception (issue 23, item 7).

Every place of the file (every value of every object and list, leaves and containers) is replaced
with every JSON type, and every key is removed: about 9,000 variants.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.editions import EDITIONS_DIR
from companion.game.edition import ERROR_CODES, EditionError, parse_edition

SHIPPED = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
VALUES: tuple[Any, ...] = (None, True, False, 0, -1, 1.5, 10**26, "", "x", [], {}, [0], {"a": 1})
REMOVED = object()

Path = tuple[str | int, ...]


def places(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every path inside ``value``: each key of each object and each index of each list."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key)
            yield from places(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield (*path, i)
            yield from places(inner, (*path, i))


PARTS = {key: json.dumps(inner) for key, inner in SHIPPED.items()}


def _text(parts: dict[str, str]) -> str:
    """The file's text from its top-level parts, exactly as ``json.dumps`` writes the whole."""
    return "{" + ", ".join(f"{json.dumps(key)}: {part}" for key, part in parts.items()) + "}"


def mutant(path: Path, value: Any) -> str:
    """The text of the shipped edition with the value at ``path`` replaced (or removed, for ``REMOVED``).

    Only the top-level section that changes is written again (the rest is kept as text): this
    keeps the ~9,000 variants fast."""
    top = str(path[0])
    if len(path) == 1:
        parts = dict(PARTS)
        if value is REMOVED:
            del parts[top]
        else:
            parts[top] = json.dumps(value)
        return _text(parts)
    holder: Any = SHIPPED
    for step in path[:-1]:
        holder = holder[step]
    last = path[-1]
    kept = holder[last]
    if value is REMOVED:
        order = list(holder)
        del holder[last]
        section = json.dumps(SHIPPED[top])
        holder[last] = kept
        for key in order:  # the keys back in their order
            holder[key] = holder.pop(key)
    else:
        holder[last] = copy.deepcopy(value)
        section = json.dumps(SHIPPED[top])
        holder[last] = kept
    return _text({**PARTS, top: section})


def variants() -> Iterator[tuple[Path, Any]]:
    for path in list(places(SHIPPED)):
        for value in VALUES:
            yield path, value
        if isinstance(path[-1], str):
            yield path, REMOVED


def outcome(text: str) -> str:
    """'valid', or the EditionError's code; any other exception fails the test where it is raised."""
    try:
        parse_edition(text)
    except EditionError as exc:
        assert exc.code in ERROR_CODES or exc.code == "invalid", exc.code
        assert str(exc), "an error says its sentence"
        return exc.code
    return "valid"


def test_every_value_of_every_type_at_every_place_is_an_edition_or_an_edition_error() -> None:
    escaped: list[str] = []
    codes: dict[str, int] = {}
    count = 0
    for path, value in variants():
        count += 1
        try:
            code = outcome(mutant(path, value))
        except Exception as exc:  # the point: name every escape, not just the first
            escaped.append(f"{path} = {value!r}: {type(exc).__name__}: {exc}"[:200])
            continue
        codes[code] = codes.get(code, 0) + 1
    assert count > 9000
    assert json.dumps(SHIPPED) == json.dumps(
        json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
    )
    assert escaped == [], f"{len(escaped)} of {count} variants escape:\n" + "\n".join(escaped[:30])
    # The fallback sentence is for shapes no check foresaw: none of the file's variants needs it.
    assert "invalid" not in codes, codes


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
PLACES = list(places(SHIPPED))


@settings(max_examples=300, deadline=None)
@given(changes=st.lists(st.tuples(st.sampled_from(PLACES), JSON_VALUES), min_size=1, max_size=4))
def test_several_values_of_any_shape_at_once_are_an_edition_or_an_edition_error(
    changes: list[tuple[Path, Any]],
) -> None:
    raw = copy.deepcopy(SHIPPED)
    for path, value in changes:
        holder: Any = raw
        try:
            for step in path[:-1]:
                holder = holder[step]
            holder[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change replaced what held this place
    code = outcome(json.dumps(raw))
    assert code != "invalid", "a shape no check foresaw"
