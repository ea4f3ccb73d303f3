"""Loading an edition file: its JSON text read safely, checked (``schema``, ``references``) and turned into a frozen
``Edition`` with its board sides, or refused with an ``EditionError``; format version 1 files brought up to date first
(``upcast_v1``)."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

from companion.game.edition.checks import Where, fail, short
from companion.game.edition.limits import MAX_FILE_CHARS, TIE_BREAKERS
from companion.game.edition.model import Circle, Edition, EditionError, Shield, Side, content_hash
from companion.game.edition.references import check_guardian_starts
from companion.game.edition.schema import check_shape as _check_shape

__all__ = ["parse_edition", "upcast_v1"]


def _load_json(text: Any) -> Any:
    """The JSON value of ``text``: refuses NaN, infinities, numbers too big for a float and duplicate keys."""
    if not isinstance(text, str):
        raise EditionError("not an edition: no text", "not_json", (), {})
    if len(text) > MAX_FILE_CHARS:
        raise EditionError(
            f"not an edition: the file is larger than {MAX_FILE_CHARS // 1024} KB",
            "too_large",
            (),
            {"max_kb": MAX_FILE_CHARS // 1024},
        )

    def constant(name: str) -> Any:
        raise EditionError(
            f"not an edition: {name} is not a number a board can hold", "not_a_number", (), {"value": name}
        )

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise EditionError(
                f"not an edition: {digits[:20]} is not a number a board can hold",
                "not_a_number",
                (),
                {"value": digits[:20]},
            )
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            seen: set[str] = set()
            key = next(k for k, _v in items if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            raise EditionError(
                f"not an edition: the key {short(key)} appears twice in one object",
                "duplicate_key",
                (),
                {"key": key[:40]},
            )
        return out

    try:
        return json.loads(
            text.removeprefix("\ufeff"), parse_constant=constant, parse_float=real, object_pairs_hook=pairs
        )
    except json.JSONDecodeError as exc:
        raise EditionError(f"not valid JSON: {exc}", "not_json", (), {"line": exc.lineno, "column": exc.colno}) from exc
    except RecursionError:
        raise EditionError("not an edition: the JSON is nested too deeply", "too_deep", (), {}) from None


def _parse_side(
    raw: dict[str, Any], circles: dict[int, Circle], quarters: tuple[str, ...], index: int, top: dict[str, Any]
) -> Side:
    """The board side ``raw`` (entry ``index`` of ``sides``): its rows of shields, its lines down, its Wall gates."""
    sid = str(raw["id"])
    at: Where = ("sides", index)
    where = f"sides[{sid}]"
    shields, rows = _side_rows(raw["circles"], circles, quarters, at, where)
    lines = _side_lines(raw["lines"], shields, max(circles), at, where)
    gates = _side_gates(raw["gates"], shields, int(top["wall"]["between"][1]), at, where)
    return Side(
        id=sid,
        players=tuple(dict.fromkeys(int(p) for p in raw["players"])),
        shields=shields,
        rows=rows,
        lines=lines,
        gates=gates,
        gate_above={shield: gate for gate, shield in gates.items()},
        adjacency=str(top["adjacency"]["rule"]),
    )


def _side_rows(
    raw_circles: dict[str, Any], circles: dict[int, Circle], quarters: tuple[str, ...], at: Where, where: str
) -> tuple[dict[str, Shield], dict[int, tuple[str, ...]]]:
    """A side's shields by id and each circle's row of them: every circle has shields, each of a known quarter
    symbol and every symbol on each circle, no shield twice."""
    shields: dict[str, Shield] = {}
    rows: dict[int, tuple[str, ...]] = {}
    extra = set(raw_circles) - {str(n) for n in circles}
    if extra:
        raise EditionError(
            f"{where}.circles: unknown circle(s) {sorted(extra)}",
            "unknown_circle",
            (*at, "circles"),
            {"circles": sorted(extra)},
        )
    for number in circles:
        row = raw_circles.get(str(number))
        if not row:
            raise EditionError(
                f"{where}.circles['{number}']: circle {number} has no shields",
                "no_shields",
                (*at, "circles", str(number)),
                {"circle": number},
            )
        ids = []
        for i, entry in enumerate(row):
            shield_id, quarter = entry["id"], entry["quarter"]
            spot: Where = (*at, "circles", str(number), i)
            if quarter not in quarters:
                raise EditionError(
                    f"{where}: shield '{shield_id}' has unknown quarter symbol {quarter!r}",
                    "unknown_quarter",
                    (*spot, "quarter"),
                    {"shield": shield_id, "quarter": quarter},
                )
            if shield_id in shields:
                raise EditionError(
                    f"{where}: shield '{shield_id}' appears twice", "duplicate_id", (*spot, "id"), {"id": shield_id}
                )
            shields[shield_id] = Shield(shield_id, number, i, quarter)
            ids.append(shield_id)
        missing = [q for q in quarters if q not in {shields[i].quarter for i in ids}]
        if missing:
            raise EditionError(
                f"{where}.circles['{number}']: circle {number} lacks quarter symbol(s) {missing}",
                "lacks_quarter",
                (*at, "circles", str(number)),
                {"circle": number, "quarters": missing},
            )
        rows[number] = tuple(ids)
    return shields, rows


def _side_lines(
    raw_lines: dict[str, Any], shields: dict[str, Shield], last: int, at: Where, where: str
) -> dict[str, tuple[str, ...]]:
    """A side's lines down, from each shield: between known shields, exactly one circle down, and one from every
    shield above the ``last`` circle."""
    lines: dict[str, tuple[str, ...]] = {}
    for origin, targets in raw_lines.items():
        spot = (*at, "lines", origin)
        if origin not in shields:
            raise EditionError(
                f"{where}.lines['{origin}']: a line from unknown shield '{origin}'",
                "unknown_shield",
                spot,
                {"shield": origin},
            )
        for target in targets:
            if target not in shields:
                raise EditionError(
                    f"{where}.lines['{origin}']: a line to unknown shield '{target}'",
                    "unknown_shield",
                    spot,
                    {"shield": target},
                )
            down, up = shields[target].circle, shields[origin].circle
            if down != up + 1:
                raise EditionError(
                    f"{where}.lines['{origin}'] -> '{target}': a line must go exactly one circle down "
                    f"(from circle {up}, this one reaches circle {down})",
                    "line_not_one_down",
                    spot,
                    {"origin": origin, "target": target, "from": up, "to": down},
                )
        lines[origin] = tuple(dict.fromkeys(targets))
    for shield in shields.values():
        if shield.circle < last and not lines.get(shield.id):
            raise EditionError(
                f"{where}.lines: shield '{shield.id}' has no line down",
                "no_line_down",
                (*at, "lines"),
                {"shield": shield.id},
            )
    return lines


def _side_gates(
    raw_gates: list[dict[str, Any]], shields: dict[str, Shield], below_wall: int, at: Where, where: str
) -> dict[str, str]:
    """A side's Wall gates, each over its own shield of the circle just below the Wall; at least one."""
    gates: dict[str, str] = {}
    for i, gate in enumerate(raw_gates):
        gate_id, above = gate["id"], gate["above"]
        if above not in shields or shields[above].circle != below_wall:
            raise EditionError(
                f"{where}.gates[{gate_id}]: gate stands over no circle-{below_wall} shield ({above!r})",
                "gate_off_wall",
                (*at, "gates", i, "above"),
                {"shield": above, "circle": below_wall},
            )
        if gate_id in gates or above in gates.values():
            raise EditionError(
                f"{where}.gates[{gate_id}]: a gate appears twice", "duplicate_id", (*at, "gates", i), {"id": gate_id}
            )
        gates[gate_id] = str(above)
    if not gates:
        raise EditionError(
            f"{where}.gates: no gate in the Wall of Dis (a soul could never pass it)", "no_gate", (*at, "gates"), {}
        )
    return gates


def parse_edition(text: str) -> Edition:
    """Parse and validate an edition file; raise ``EditionError`` (and nothing else) naming the bad entry.

    A UTF-8 byte order mark before the JSON is accepted. Every value the app reads is checked
    for its type and its range (docs/edition-format.md "Limits"), and every id it names exists.
    """
    raw = _load_json(text)
    try:
        return _parse_raw(raw, text)
    except EditionError:
        raise
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, StopIteration) as exc:
        # A shape no check above foresaw: still the file's fault, never a crash.
        raise EditionError(f"not an edition the app can play ({type(exc).__name__})", "invalid", (), {}) from exc
    except RecursionError:
        raise EditionError("not an edition: the JSON is nested too deeply", "too_deep", (), {}) from None


def _parse_raw(raw: Any, text: str) -> Edition:
    if not isinstance(raw, dict):
        raise EditionError("not an edition: the file holds no JSON object", "not_object", (), {})
    if raw.get("format") != "inferno-companion/edition":
        if "format" not in raw:
            raise fail("missing", (), "missing 'format'", key="format")
        raise fail("wrong_format", ("format",), "expected 'inferno-companion/edition'", value=short(raw["format"]))
    version = raw.get("format_version", 1)
    if type(version) is not int or version not in (1, 2):
        raise fail("wrong_version", ("format_version",), f"{short(version)} is not 1 or 2", value=short(version))
    if version == 1:
        raw = upcast_v1(raw)
    _check_shape(raw, version)
    circles: dict[int, Circle] = {}
    for c in raw["circles"]:
        circles[c["number"]] = Circle(c["number"], c["colour"], c["hex"], c["sin"], c["infamy"], c["track"])
    quarters = tuple(q["id"] for q in raw["quarters"])
    sides: dict[str, Side] = {}
    for i, s in enumerate(raw["sides"]):
        if s["id"] in sides:
            raise fail("duplicate_id", ("sides", i, "id"), f"side {s['id']!r} appears twice", id=s["id"])
        sides[s["id"]] = _parse_side(s, circles, quarters, i, raw)
    players = raw["players"]
    edition = Edition(
        id=raw["id"],
        name=raw["name"],
        content_hash=content_hash(text),
        raw=raw,
        circles=circles,
        sides=sides,
        quarters=quarters,
        colours={c["id"]: c["letter"] for c in players["colours"]},
        min_players=players["min"],
        max_players=players["max"],
        standees_fill=raw["empty_shield"]["standees_fill"],
    )
    for count in range(edition.min_players, edition.max_players + 1):
        if not any(count in side.players for side in sides.values()):
            raise fail("no_side", ("sides",), f"no board side for {count} players", players=count)
    check_guardian_starts(edition)
    return edition


# What the code hard-coded before format version 2 moved it into the edition.
_V1_DEFAULTS: dict[str, Any] = {
    "limbo": {"circle": 1, "pagan_colour": 1, "source": "rulebook"},
    "setup": {"guardians": 2, "starting_skulls_max": 2, "source": "rulebook"},
    "empty_shield": {"standees_fill": True, "source": "estimated"},
    "styx": {
        "gains": {"1": ["first_four"], "2": ["last_four"], "3": ["first_four", "last_four"]},
        "source": "rulebook",
    },
    "ranges": {"infamy": [-200, 999], "coins_max": 99, "source": "estimated"},
    "assumptions": {
        "fraud_without_barrels": True,
        "toll_on_guardian_push": False,
        "loan_any_time": True,
        "dante_fraud_optional": True,
        "expansion_replaces_guardians": True,
        "loan_for_toll": True,
        "fraud_in_hand_scores": False,
        "source": "estimated",
    },
}


def upcast_v1(raw: dict[str, Any]) -> dict[str, Any]:
    """A format-1 edition with the sections added in format 2, holding the old built-in values."""
    out = copy.deepcopy(raw)
    for section in ("scoring", "tracks", "phlegethon"):
        if not isinstance(out.get(section), dict):
            return out  # the validator names the section that is missing or not an object
    for section, values in _V1_DEFAULTS.items():
        out.setdefault(section, copy.deepcopy(values))
    out.setdefault("wall", {"between": [5, 6], "source": "rulebook"})
    out.setdefault("adjacency", {"rule": "row_and_lines", "source": "estimated"})
    out.setdefault("fraud", {"barrels_required_max": 2, "source": "estimated"})
    out["scoring"].setdefault("halves_per_diploma", 2)
    out["scoring"].setdefault("known_tie_breakers", list(TIE_BREAKERS))
    out["tracks"].setdefault("first_level", 0)
    out["tracks"].setdefault("bonus_tiles", {"silver": 4, "gold": 4})
    out["phlegethon"].setdefault("minimum_value", 1)
    out["format_version"] = 1
    return out
