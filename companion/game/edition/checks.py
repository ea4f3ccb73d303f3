"""The checks an edition file's values pass, one per kind of value: a whole number in a range, a text of a shape,
a choice, a list, an object with its fields, a provenance tag. Each takes the value and where it stands, and raises
an ``EditionError`` naming that entry; the schema (``schema``) puts them together, section by section."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from companion.game.edition.limits import (
    CONTROL,
    DATE,
    LEGACY_STATEMENTS,
    MAX_DEPTH,
    MAX_LIST,
    MAX_RULINGS,
    MAX_SHIELDS_PER_CIRCLE,
    MAX_TEXT,
    PIECE_ID,
    REFERENCE_TAG,
    RULEBOOK_TAG,
    SOURCE_GROUPS,
    SOURCE_TAGS,
    SOURCES_V1,
)
from companion.game.edition.model import EditionError

Where = tuple[str | int, ...]


def path_text(where: Where) -> str:
    """An entry's path as the file spells it (``circles[2].infamy``): for the CLI and the logs only."""
    out = ""
    for step in where:
        if isinstance(step, int):
            out += f"[{step}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", step):
            out += f".{step}" if out else step
        else:
            out += f"['{step}']"
    return out or "edition"


def short(value: Any) -> str:
    """A value as an error sentence names it: its ``repr``, cut to 40 characters."""
    said = repr(value)
    return said if len(said) <= 40 else said[:37] + "…"


def fail(code: str, where: Where, sentence: str, **params: Any) -> EditionError:
    """The error for the entry at ``where``: its path, then ``sentence``; ``params`` for a page to say it in words."""
    return EditionError(f"{path_text(where)}: {sentence}", code, where, params)


Check = Callable[[Any, Where], None]


def integer(low: int, high: int) -> Check:
    def check(value: Any, where: Where) -> None:
        if type(value) is not int:
            raise fail("not_integer", where, f"{short(value)} is not a whole number", value=short(value))
        if not low <= value <= high:
            raise fail(
                "out_of_range",
                where,
                f"{value} is out of range ({low} to {high})",
                value=value,
                min=low,
                max=high,
            )

    return check


def boolean(value: Any, where: Where) -> None:
    if type(value) is not bool:
        raise fail("not_boolean", where, f"{short(value)} is not true or false", value=short(value))


def text(pattern: re.Pattern[str] | None = None, code: str = "bad_id", longest: int = MAX_TEXT) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, str):
            raise fail("not_text", where, f"{short(value)} is not text", value=short(value))
        if len(value) > longest:
            raise fail("text_too_long", where, f"longer than {longest} characters", max=longest)
        if pattern is not None and not pattern.fullmatch(value):
            raise fail(code, where, f"{short(value)} is not a valid {code.removeprefix('bad_')}", value=value)

    return check


def choice(choices: tuple[str, ...]) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, str) or value not in choices:
            raise fail(
                "not_a_choice",
                where,
                f"{short(value)} is not one of {list(choices)}",
                value=short(value),
                choices=list(choices),
            )

    return check


def list_of(item: Check, fewest: int = 0, most: int = MAX_LIST, many: str = "too_many") -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, list):
            raise fail("not_list", where, f"{short(value)} is not a list", value=short(value))
        if len(value) < fewest:
            raise fail("too_few", where, f"holds {len(value)}, needs at least {fewest}", min=fewest, count=len(value))
        if len(value) > most:
            raise fail(many, where, f"holds {len(value)}, at most {most}", max=most, count=len(value))
        for i, entry in enumerate(value):
            item(entry, (*where, i))

    return check


def pair(low: int, high: int) -> Check:
    """Two whole numbers, the first not above the second: a range such as ``[1, 6]``."""
    numbers = list_of(integer(low, high), 2, 2)

    def check(value: Any, where: Where) -> None:
        numbers(value, where)
        if value[0] > value[1]:
            raise fail("min_above_max", where, f"{value[0]} is above {value[1]}", min=value[0], max=value[1])

    return check


def object_of(fields: dict[str, Check], optional: dict[str, Check] | None = None, source: int | None = None) -> Check:
    """An object with ``fields`` (each required), ``optional`` ones and, when ``source`` is a
    format version, a provenance ``source``. Other keys (notes) are kept and not read."""

    known = frozenset(fields) | frozenset(optional or {})

    def check(value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise fail("not_object", where, f"{short(value)} is not an object", value=short(value))
        if source is not None:
            check_source(value, where, source)
        for key, field in fields.items():
            if key not in value:
                raise fail("missing", where, f"missing '{key}'", key=key)
            field(value[key], (*where, key))
        for key, field in (optional or {}).items():
            if key in value:
                field(value[key], (*where, key))
        shallow_extras(value, known, where)

    return check


def shallow_extras(value: dict[str, Any], known: frozenset[str], where: Where) -> None:
    """Keys the app does not read (notes) may hold anything but a value nested deeper than
    ``MAX_DEPTH``: it would break the code that copies or writes the file out again."""
    for key, inner in value.items():
        if key not in known and isinstance(inner, dict | list) and not nests_within(inner, MAX_DEPTH):
            raise fail("too_deep", (*where, key), f"nested deeper than {MAX_DEPTH} levels", max=MAX_DEPTH)


def nests_within(value: Any, levels: int) -> bool:
    if isinstance(value, dict | list):
        if levels == 0:
            return False
        return all(nests_within(inner, levels - 1) for inner in (value.values() if isinstance(value, dict) else value))
    return True


def mapping(key: Check, item: Check, fewest: int = 0, most: int = MAX_LIST) -> Check:
    def check(value: Any, where: Where) -> None:
        if not isinstance(value, dict):
            raise fail("not_object", where, f"{short(value)} is not an object", value=short(value))
        for k in value:
            key(k, (*where, k))
        if len(value) < fewest:
            raise fail("too_few", where, f"holds {len(value)}, needs at least {fewest}", min=fewest, count=len(value))
        if len(value) > most:
            raise fail("too_many", where, f"holds {len(value)}, at most {most}", max=most, count=len(value))
        for k, v in value.items():
            item(v, (*where, k))

    return check


def number_key(low: int, high: int) -> Check:
    """An object key naming a number (a circle ``"3"``, a player count ``"4"``)."""

    def check(value: Any, where: Where) -> None:
        if not (isinstance(value, str) and re.fullmatch(r"[1-9][0-9]?", value) and low <= int(value) <= high):
            raise fail(
                "out_of_range",
                where,
                f"{short(value)} is not a number from {low} to {high}",
                value=value,
                min=low,
                max=high,
            )

    return check


def quick(ok: Callable[[Any], bool], slow: Check) -> Check:
    """``slow``, skipped when ``ok`` sees at a glance that the value is fine (the board's
    geometry is most of a file: only a row or a line that looks wrong is walked check by check)."""

    def check(value: Any, where: Where) -> None:
        if not ok(value):
            slow(value, where)

    return check


def piece_ok(value: Any) -> bool:
    return type(value) is str and PIECE_ID.fullmatch(value) is not None


def rows_ok(value: Any) -> bool:
    if type(value) is not dict or len(value) > 9:
        return False
    for key, row in value.items():
        if key not in _CIRCLE_KEYS or type(row) is not list or len(row) > MAX_SHIELDS_PER_CIRCLE:
            return False
        for shield in row:
            if type(shield) is not dict or not piece_ok(shield.get("id")) or not piece_ok(shield.get("quarter")):
                return False
            if any(type(v) is not str for v in shield.values()):
                return False  # the slow path judges what else a shield holds
    return True


def lines_ok(value: Any) -> bool:
    if type(value) is not dict or len(value) > 9 * MAX_SHIELDS_PER_CIRCLE:
        return False
    for key, targets in value.items():
        if not piece_ok(key) or type(targets) is not list or len(targets) > MAX_SHIELDS_PER_CIRCLE:
            return False
        if not all(piece_ok(t) for t in targets):
            return False
    return True


_CIRCLE_KEYS = frozenset(str(n) for n in range(1, 10))


def source_tag_ok(value: Any, version: int = 2) -> bool:
    """Whether ``value`` is a provenance tag this edition format accepts."""
    if version == 1:
        return isinstance(value, str) and value in SOURCES_V1
    return isinstance(value, str) and (
        value in SOURCE_TAGS or bool(RULEBOOK_TAG.match(value)) or bool(REFERENCE_TAG.match(value))
    )


def check_source(obj: dict[str, Any], where: Where, version: int = 2) -> None:
    if "source" not in obj:
        raise fail("missing", where, "missing 'source'", key="source")
    source = obj["source"]
    if isinstance(source, dict) and version >= 2:  # format 1 files named loose keys; they still replay
        for key in source:
            if key not in obj and key not in SOURCE_GROUPS and key not in LEGACY_STATEMENTS:
                name = key if len(key) <= 40 else key[:39] + "…"
                raise fail(
                    "source_names_no_field",
                    (*where, "source", name),
                    f"{short(key)} is not a value of this entry (say a statement in 'rulings')",
                    key=name,
                )
    if "rulings" in obj:
        rulings(version)(obj["rulings"], (*where, "rulings"))
    values = list(source.values()) if isinstance(source, dict) else [source]
    for value in values:
        if not source_tag_ok(value, version):
            at = (*where, "source")
            if version == 1:
                raise fail(
                    "bad_source", at, f"{short(value)} is neither 'rulebook' nor 'estimated'", value=short(value)
                )
            raise fail(
                "bad_source",
                at,
                f"{short(value)} is not 'rulebook: seed NNN <page>', "
                "'reference: RULES.md §N', 'estimated', 'assumption' or 'checked'",
                value=short(value),
            )


def rulings(version: int) -> Check:
    """``rulings``: statements the rulebook (or the digest) makes about an entry, each ``says``
    (the statement, in words) with its ``source`` (a provenance tag: where it is said)."""
    return list_of(object_of({"says": text(None, "bad_text", 2 * MAX_TEXT)}, source=version), 1, MAX_RULINGS)


def check_date(value: Any, where: Where) -> None:
    text(DATE, "bad_date", 10)(value, where)
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise fail("bad_date", where, f"{short(value)} is not a date (YYYY-MM-DD)", value=value) from None


def edition_name(value: Any, where: Where) -> None:
    text(None, "bad_name", 60)(value, where)
    if not value.strip() or CONTROL.search(value):
        raise fail("bad_name", where, "a name is 1 to 60 characters with no control characters")
