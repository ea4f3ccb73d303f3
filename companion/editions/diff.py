"""What differs between two editions, as data: one ``Difference`` per change, for words to tell.

Each difference has a ``kind`` (a shield's symbol, a line or a gate of a board side, the number of
shields of a circle, a side only one edition has, a value changed, added or removed), ``where`` it
is (a path of keys and indexes into the edition file, or a board side's id and shields) and the
``old`` and ``new`` values. Provenance (``source``, ``*_source``), notes and the check dates are no
part of an edition's content here. ``scope`` says what a difference does to a game already started
on a board side: change its play, change its set-up values (the game is replayed from them), or
nothing (it applies to new games only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Difference", "Scope", "diff", "scope"]

Raw = dict[str, Any]
Key = str | int
Scope = Literal["game", "setup", "new_games"]

_IGNORED = ("source", "note", "notes", "checks")
# values read once, when a game is set up: a running game switched to an edition is replayed from them
_SETUP = (
    ("phlegethon", "start"),
    ("souls", "supply"),
    ("economy", "start_florins"),
    ("economy", "start_drachmas"),
    ("economy", "start_fraud_cards"),
    ("family",),
    ("tower", "start_floors"),
    ("tower", "heights"),
    ("guests",),
    ("barrels",),
)
# values read only when a game is created (seats, the Florence deal, guardians, the name): a game
# already started keeps what it was created with
_NEW_GAMES = (
    ("format",),
    ("format_version",),
    ("id",),
    ("name",),
    ("players",),
    ("setup",),
    ("default_layout",),
    ("default_guardians",),
    ("quarters",),
    ("ranges",),
    ("menus",),
    ("empty_shield", "definition"),
)


@dataclass(frozen=True)
class Difference:
    """One change from the first edition to the second.

    Kinds: ``symbol`` (where: side, shield; old/new quarter), ``line`` (where: side, origin,
    target; old/new: present or not), ``gate`` (where: side, shield; old/new: present or not),
    ``shields`` (where: side, circle; old/new counts), ``side`` (where: side; old/new: present or
    not), ``value`` (where: the path of a value; old/new, ``None`` when absent on that side).
    """

    kind: str
    where: tuple[Key, ...]
    old: Any
    new: Any


def _compared(key: str) -> bool:
    """Whether two editions are compared on ``key``: not on notes, provenance or a check's dates (no play)."""
    return key not in _IGNORED and not key.endswith("_source")


def _sides(a: Raw, b: Raw) -> list[Difference]:
    out: list[Difference] = []
    sides_a = {s["id"]: s for s in a.get("sides", []) if isinstance(s, dict)}
    sides_b = {s["id"]: s for s in b.get("sides", []) if isinstance(s, dict)}
    for side_id in [*sides_a, *(s for s in sides_b if s not in sides_a)]:
        side_a, side_b = sides_a.get(side_id), sides_b.get(side_id)
        if side_a is None or side_b is None:
            out.append(Difference("side", (side_id,), side_a is not None, side_b is not None))
            continue
        circles = sorted(set(side_a["circles"]) | set(side_b["circles"]), key=int)
        for number in circles:
            row_a, row_b = side_a["circles"].get(number, []), side_b["circles"].get(number, [])
            if len(row_a) != len(row_b):
                out.append(Difference("shields", (side_id, int(number)), len(row_a), len(row_b)))
            quarters_a = {e["id"]: e["quarter"] for e in row_a}
            for entry in row_b:
                old = quarters_a.get(entry["id"])
                if old is not None and old != entry["quarter"]:
                    out.append(Difference("symbol", (side_id, entry["id"]), old, entry["quarter"]))
        lines_a = {(o, t) for o, ts in side_a["lines"].items() for t in ts}
        lines_b = {(o, t) for o, ts in side_b["lines"].items() for t in ts}
        for o, t in sorted(lines_a ^ lines_b):
            out.append(Difference("line", (side_id, o, t), (o, t) in lines_a, (o, t) in lines_b))
        gates_a = {g["above"] for g in side_a["gates"]}
        gates_b = {g["above"] for g in side_b["gates"]}
        for shield in sorted(gates_a ^ gates_b):
            out.append(Difference("gate", (side_id, shield), shield in gates_a, shield in gates_b))
        for key in sorted(
            k for k in {*side_a, *side_b} if k not in ("id", "circles", "lines", "gates") and _compared(k)
        ):
            if side_a.get(key) != side_b.get(key):
                out.append(Difference("value", ("sides", side_id, key), side_a.get(key), side_b.get(key)))
    return out


def _flat(items: list[Any]) -> bool:
    return all(not isinstance(v, (dict, list)) for v in items)


def _walk(x: Any, y: Any, where: tuple[Key, ...], out: list[Difference]) -> None:
    if isinstance(x, dict) and isinstance(y, dict):
        for key in [*x, *(k for k in y if k not in x)]:
            if not _compared(str(key)):
                continue
            _walk(x.get(key), y.get(key), (*where, key), out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y) and not (_flat(x) and _flat(y)):
        for i, (u, v) in enumerate(zip(x, y, strict=True)):
            _walk(u, v, (*where, i), out)
    elif x != y:
        out.append(Difference("value", where, _plain(x), _plain(y)))


def _plain(value: Any) -> Any:
    """A value without its provenance (a dict keeps only what it says)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if _compared(str(k))}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def diff(a: Raw, b: Raw) -> list[Difference]:
    """Every difference from edition ``a`` to edition ``b`` (their parsed files): board sides first."""
    out = _sides(a, b)
    rest_a = {k: v for k, v in a.items() if k != "sides"}
    rest_b = {k: v for k, v in b.items() if k != "sides"}
    _walk(rest_a, rest_b, (), out)
    return out


def scope(difference: Difference, side: str) -> Scope:
    """What ``difference`` does to a game played on board side ``side``: changes its play (``game``),
    its set-up values (``setup``: the game is replayed as if set up with them), or only new games."""
    if difference.kind in ("symbol", "line", "gate", "shields", "side"):
        return "game" if difference.where[0] == side else "new_games"
    where = difference.where
    if where[:1] == ("sides",):
        return "game" if where[1:2] == (side,) else "new_games"
    if any(where[: len(prefix)] == prefix for prefix in _NEW_GAMES):
        return "new_games"
    if where[:1] == ("guardians",) and where[2:3] == ("start",):  # placed when the game was created
        return "new_games"
    if any(where[: len(prefix)] == prefix for prefix in _SETUP):
        return "setup"
    return "game"
