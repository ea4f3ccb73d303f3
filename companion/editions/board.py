"""Editing a circle of a board side as the table sees it printed: pick a shield's symbol, swap two
shields' symbols, link or unlink a shield to one below, add or remove a shield at any place.

Shield ids say where a shield stands (``3c`` is the third shield of circle 3, from the left), so a
shield added or removed renames the shields after it, their lines and their gates with them. These
edits are not validated one by one — a circle may be half-corrected between two taps; the circle is
judged by the one validator when the table leaves it (``library.validated``).
"""

from __future__ import annotations

import copy
import string
from typing import Any

from companion.game.edition import MAX_SHIELDS_PER_CIRCLE

__all__ = ["insert_shield", "remove_shield", "set_symbol", "swap_symbols"]

Raw = dict[str, Any]
MAX_SHIELDS = MAX_SHIELDS_PER_CIRCLE  # what the map can draw in a circle's row


def _side(raw: Raw, side: int) -> tuple[Raw, Raw]:
    out = copy.deepcopy(raw)
    return out, out["sides"][side]


def _find(side: Raw, shield: str) -> tuple[str, int]:
    for number, row in side["circles"].items():
        for index, entry in enumerate(row):
            if entry["id"] == shield:
                return number, index
    raise KeyError(shield)


def set_symbol(raw: Raw, side: int, shield: str, quarter: str) -> Raw:
    """The shield's Florence quarter symbol set to ``quarter`` (one of the edition's quarters)."""
    if quarter not in {q["id"] for q in raw["quarters"]}:
        raise KeyError(quarter)
    out, s = _side(raw, side)
    number, index = _find(s, shield)
    s["circles"][number][index]["quarter"] = quarter
    return out


def swap_symbols(raw: Raw, side: int, a: str, b: str) -> Raw:
    """The symbols of two shields exchanged."""
    out, s = _side(raw, side)
    (na, ia), (nb, ib) = _find(s, a), _find(s, b)
    ea, eb = s["circles"][na][ia], s["circles"][nb][ib]
    ea["quarter"], eb["quarter"] = eb["quarter"], ea["quarter"]
    return out


def _renumber(s: Raw, number: str) -> None:
    """Give the shields of circle ``number`` the ids of their places, carrying lines and gates along."""
    row = s["circles"][number]
    rename = {e["id"]: f"{number}{string.ascii_lowercase[i]}" for i, e in enumerate(row)}
    if all(old == new for old, new in rename.items()):
        return
    for entry in row:
        entry["id"] = rename[entry["id"]]
    s["lines"] = {rename.get(o, o): [rename.get(t, t) for t in ts] for o, ts in s["lines"].items()}
    for gate in s["gates"]:
        if gate["above"] in rename:
            named_after = gate["id"] == f"gate-{gate['above']}"
            gate["above"] = rename[gate["above"]]
            if named_after:
                gate["id"] = f"gate-{gate['above']}"


def insert_shield(raw: Raw, side: int, circle: int, index: int) -> Raw:
    """A shield added to circle ``circle`` at place ``index`` (0: the left end), with the first
    quarter symbol, a line down to the nearest shield below and one from the nearest shield above."""
    out, s = _side(raw, side)
    number = str(circle)
    row = s["circles"][number]
    if len(row) >= MAX_SHIELDS:
        raise ValueError("too many shields")
    index = max(0, min(index, len(row)))
    new_id = f"{number}-new"
    row.insert(index, {"id": new_id, "quarter": raw["quarters"][0]["id"]})
    below, above = s["circles"].get(str(circle + 1)), s["circles"].get(str(circle - 1))
    if below:
        s["lines"][new_id] = [below[min(index, len(below) - 1)]["id"]]
    if above:
        s["lines"].setdefault(above[min(index, len(above) - 1)]["id"], []).append(new_id)
    _renumber(s, number)
    return out


def remove_shield(raw: Raw, side: int, shield: str) -> Raw:
    """The shield taken away with its lines and its gate; the shields after it move up one place."""
    out, s = _side(raw, side)
    number, index = _find(s, shield)
    if len(s["circles"][number]) <= 1:
        raise ValueError("a circle keeps at least one shield")
    del s["circles"][number][index]
    s["lines"].pop(shield, None)
    s["lines"] = {o: [t for t in ts if t != shield] for o, ts in s["lines"].items()}
    s["gates"] = [g for g in s["gates"] if g["above"] != shield]
    _renumber(s, number)
    return out
