"""How the entries of an edition file fit together, once each value has its shape: every id it names exists, no id
appears twice, and every number lies within the bounds other entries set (a tower starts with no more floors than it
has). Most of these are rows of ``REFERENCES``, a table walked in order by ``check_references``; the few that follow
a shape of their own (Dante's paths, the Florence layout, the guardians) are small functions in the same table."""

from typing import Any

from companion.game.edition.checks import Where, fail, integer
from companion.game.edition.limits import EXPANSION_GUARDIANS, STYX_GROUPS, TIE_BREAKERS
from companion.game.edition.model import Edition, Side, dante_path_of
from companion.game.edition.rows import (
    Among,
    Equal,
    Limit,
    Raw,
    Rule,
    Unique,
    constant,
    count_at,
    highest_at,
    ids_at,
    one_below,
    sin_tracks,
    track_count,
    value_at,
)


def _wall_adjacent(raw: Raw) -> None:
    upper, lower = raw["wall"]["between"]
    if lower != upper + 1:
        raise fail(
            "wall_not_adjacent",
            ("wall", "between"),
            f"{[upper, lower]} is not two circles one above the other",
            upper=upper,
            lower=lower,
        )


def _infamy_holds_zero(raw: Raw) -> None:
    low, high = raw["ranges"]["infamy"]
    if not low <= 0 <= high:
        raise fail(
            "out_of_range",
            ("ranges", "infamy"),
            f"the infamy range {[low, high]} must hold 0 (every player starts there)",
            value=0,
            min=low,
            max=high,
        )


def _dante(raw: Raw) -> None:
    """A diploma or final step names a sin track, a path walks only steps there are, every player count has one."""
    dante, tracks = raw["dante"], sin_tracks(raw)
    steps = dante["steps"]
    for j, step in enumerate(steps):
        if step["kind"] in ("diploma", "final") and step.get("circle") not in tracks:
            where = ("dante", "steps", j)
            raise fail("step_needs_track", where, f"a {step['kind']} step names no sin track circle", kind=step["kind"])
    for count, path in dante["paths"].items():
        for j, index in enumerate(path):
            if index >= len(steps):
                raise fail(
                    "step_off_path",
                    ("dante", "paths", count, j),
                    f"step {index} is not among the {len(steps)} steps",
                    value=index,
                    max=len(steps) - 1,
                )
    players = raw["players"]
    for count in range(players["min"], players["max"] + 1):
        walked = dante_path_of(dante, count)
        if walked is None:
            sentence = f"no path for {count} players (and no shortcut over another path)"
            raise fail("no_dante_path", ("dante", "paths"), sentence, players=count)
        if not walked:
            sentence = f"no step left on the path for {count} players"
            raise fail("no_dante_path", ("dante", "paths"), sentence, players=count)


def _layout(raw: Raw) -> None:
    """Each quarter of the default layout is one the board has; each location is in exactly one quarter."""
    quarters = {q["id"] for q in raw["quarters"]}
    locations = {x["id"] for x in raw["locations"]}
    placed: list[str] = []
    for quarter, ids in raw["default_layout"]["quarters"].items():
        where: Where = ("default_layout", "quarters", quarter)
        if quarter not in quarters:
            raise fail("unknown_quarter", where, f"unknown quarter {quarter!r}", quarter=quarter)
        for j, loc in enumerate(ids):
            if loc not in locations:
                raise fail("unknown_location", (*where, j), f"unknown location {loc!r}", location=loc)
            if loc in placed:
                raise fail("duplicate_id", (*where, j), f"location {loc!r} is in two quarters", id=loc)
            placed.append(loc)
    if sorted(placed) != sorted(x["id"] for x in raw["locations"]):
        raise fail("layout_incomplete", ("default_layout", "quarters"), "every location needs a quarter")


def _tie_breakers_known(raw: Raw) -> None:
    scoring = raw["scoring"]
    unknown = [b for b in scoring.get("tie_breakers", []) if b not in scoring["known_tie_breakers"]]
    if unknown:
        raise fail(
            "unknown_tie_breaker",
            ("scoring", "tie_breakers"),
            f"unknown tie-breaker(s) {unknown}; known: {list(TIE_BREAKERS)}",
            breakers=unknown,
        )


def _bonus_tiles(raw: Raw) -> None:
    tiles, tracks = raw["tracks"]["bonus_tiles"], track_count(raw)
    if tiles["silver"] + tiles["gold"] != tracks:
        raise fail(
            "bonus_tiles",
            ("tracks", "bonus_tiles"),
            f"{tiles['silver']} silver + {tiles['gold']} gold tiles for {tracks} sin tracks (one tile per track)",
            silver=tiles["silver"],
            gold=tiles["gold"],
            tracks=tracks,
        )


def _expansion(raw: Raw) -> None:
    """A ``<colour>_circle`` key names a circle; an expansion guardian starts on a circle, or one of a known colour."""
    expansion = raw["expansion"]
    colours = {c["colour"] for c in raw["circles"]}
    for key, value in expansion.items():
        if key.endswith("_circle"):
            integer(1, 9)(value, ("expansion", key))
    for guardian in EXPANSION_GUARDIANS:
        start_at = expansion[guardian]
        if "circle" not in start_at:
            colour = start_at.get("circle_colour")
            if colour is None:
                raise fail("missing", ("expansion", guardian), "missing 'circle_colour'", key="circle_colour")
            if f"{colour}_circle" not in expansion and colour not in colours:
                where = ("expansion", guardian, "circle_colour")
                raise fail("unknown_colour", where, f"no circle is {colour!r}", colour=colour)


def _guardians(raw: Raw) -> None:
    """No guardian takes an expansion guardian's id; its lowest circle is not below its highest."""
    for i, g in enumerate(raw["guardians"]):
        if g["id"] in EXPANSION_GUARDIANS:
            raise fail("duplicate_id", ("guardians", i, "id"), f"{g['id']!r} is an expansion guardian", id=g["id"])
        conditions = g.get("conditions", {})
        if conditions.get("guardian_circle_at_least", 1) > conditions.get("guardian_circle_at_most", 9):
            raise fail(
                "min_above_max",
                ("guardians", i, "conditions"),
                "its lowest circle is below its highest",
                min=conditions.get("guardian_circle_at_least", 1),
                max=conditions.get("guardian_circle_at_most", 9),
            )


def _styx_souls(raw: Raw) -> None:
    for n in raw["styx"]["gains"]:
        if int(n) > 9:
            raise fail("out_of_range", ("styx", "gains", n), f"{n} souls", value=int(n), min=1, max=9)


def circle_numbers(raw: Raw) -> list[int]:
    """The number of each circle, in order."""
    return sorted(c["number"] for c in raw["circles"])


def start_circles(raw: Raw) -> list[int]:
    """The circles the Phlegethon gives a starting space, in order."""
    return sorted(int(c) for c in raw["phlegethon"]["start"])


def location_circles(raw: Raw) -> list[int]:
    """The circle of each Florence location, in order."""
    return sorted(loc["circle"] for loc in raw["locations"])


OUT_OF_RANGE = "{value} is out of range ({min} to {max})"
VALUE_MIN_MAX = ("value", "min", "max")
ZERO = constant(0)

# In the order they are checked: when a file breaks several, the first row it breaks names the error.
REFERENCES: tuple[Rule, ...] = (
    Equal(
        ("circles",),
        circle_numbers,
        constant(list(range(1, 10))),
        "wrong_circles",
        "expected circles 1-9, found {found}",
        ("found", "expected"),
    ),
    _wall_adjacent,
    Unique(("quarters",), "quarter", "id"),
    Limit(
        ("players", "min"),
        "min_above_max",
        "{min} is above the most players {max}",
        ("min=value", "max"),
        most=value_at("players", "max"),
    ),
    Unique(("players", "colours"), "player colour", "id"),
    Limit(
        ("players", "colours"),
        "too_few_colours",
        "{count} colours for up to {players} players",
        ("count=value", "players=min"),
        least=value_at("players", "max"),
        count=True,
    ),
    Unique(("sides", "*", "players"), "player count"),
    Limit(
        ("tracks", "first_level"),
        "out_of_range",
        OUT_OF_RANGE,
        VALUE_MIN_MAX,
        most=one_below(value_at("tracks", "length")),
        least=ZERO,
    ),
    *(
        rule
        for group in STYX_GROUPS
        for rule in (
            Unique(("tracks", group), "circle"),
            Among(("tracks", group, "*"), sin_tracks, "track_group", "circle {circle} has no sin track", "circle"),
        )
    ),
    Equal(
        ("phlegethon", "start"),
        start_circles,
        sin_tracks,
        "wrong_circles",
        "expected a start for each sin track circle {expected}",
        ("found", "expected"),
    ),
    Limit(
        ("phlegethon", "start", "*"),
        "off_the_scale",
        "space {value} is off the scale ({min}-{max})",
        VALUE_MIN_MAX,
        most=one_below(count_at("phlegethon", "scale")),
        least=ZERO,
    ),
    *(
        Limit(
            ("economy", key),
            "start_beyond_purse",
            "{value} is more than the {max} coins a player may hold (ranges.coins_max)",
            ("value", "max"),
            most=value_at("ranges", "coins_max"),
        )
        for key in ("start_florins", "start_drachmas")
    ),
    _infamy_holds_zero,
    Equal(
        ("loan_track", "penalties"),
        value_at("loan_track", "penalties", 0),
        ZERO,
        "loan_start_not_free",
        "space 0 (no loan) must cost 0",
        ("value=found",),
    ),
    Limit(
        ("loan_track", "symbol_after"),
        "out_of_range",
        OUT_OF_RANGE,
        VALUE_MIN_MAX,
        most=one_below(count_at("loan_track", "penalties")),
        least=ZERO,
    ),
    _dante,
    Limit(
        ("family", "start_urchins_at_home"),
        "urchins_at_home",
        "{value} urchins at home out of {max}",
        ("value", "max"),
        most=value_at("family", "urchins"),
    ),
    Limit(
        ("tower", "start_floors"),
        "tower_start",
        "{value} floors at the start of a tower of {max}",
        ("value", "max"),
        most=count_at("tower", "heights"),
    ),
    Unique(("locations",), "location", "id"),
    Equal(
        ("locations",),
        location_circles,
        sin_tracks,
        "location_per_track",
        "expected one location per sin track circle, found circles {found}",
        ("found", "tracks=expected"),
    ),
    _layout,
    Unique(("guests", "colours"), "colour"),
    Unique(("barrels", "colours"), "colour"),
    Limit(
        ("souls", "plague_card_souls"),
        "plague_card",
        "{value} souls on a plague card of at most {max}",
        ("value", "max"),
        most=value_at("souls", "plague_card_max"),
    ),
    *(Unique(("menus", menu), "menu entry", "id") for menu in ("rewards", "endgame_requirements", "endgame_effects")),
    Unique(("scoring", "known_tie_breakers"), "tie-breaker"),
    _tie_breakers_known,
    Unique(("scoring", "tie_breakers"), "tie-breaker"),
    _bonus_tiles,
    Limit(
        ("phlegethon", "minimum_value"),
        "no_minimum_space",
        "no space of the scale is worth {value} or more",
        ("value",),
        most=highest_at("phlegethon", "scale"),
    ),
    _expansion,
    Unique(("guardians",), "guardian", "id"),
    _guardians,
    Unique(("default_guardians", "ids"), "guardian"),
    Among(
        ("default_guardians", "ids", "*"),
        ids_at("guardians"),
        "unknown_guardian",
        "unknown guardian {guardian!r}",
        "guardian",
    ),
    Equal(
        ("default_guardians", "ids"),
        count_at("default_guardians", "ids"),
        value_at("setup", "guardians"),
        "guardians_count",
        "{count} default guardians for a set-up of {wanted}",
        ("count=found", "wanted=expected"),
    ),
    _styx_souls,
    Limit(
        ("setup", "starting_skulls_max"),
        "out_of_range",
        "{value} starting skulls on {max} tracks",
        VALUE_MIN_MAX,
        most=track_count,
        least=ZERO,
    ),
)


def check_references(raw: Raw) -> None:
    """Every id named exists, every number fits the others (after the shape of each value is known)."""
    for rule in REFERENCES:
        rule(raw)


def check_guardian_starts(edition: Edition) -> None:
    """The default guardians start on different shields of every side, with and without the expansion."""
    raw = edition.raw
    by_id = {g["id"]: g for g in raw["guardians"]}
    for i, side_raw in enumerate(raw["sides"]):
        side = edition.sides[side_raw["id"]]
        base = list(raw["default_guardians"]["ids"])
        with_expansion = list(EXPANSION_GUARDIANS) + (
            [] if raw["assumptions"]["expansion_replaces_guardians"] else base
        )
        for chosen in (base, with_expansion):
            _distinct_starts(edition, side, i, chosen, by_id)


def _start_circle(edition: Edition, guardian: str, by_id: dict[str, Any]) -> tuple[int, str]:
    """The circle and the end of its row where ``guardian`` starts."""
    if guardian in by_id:
        return by_id[guardian]["start"]["circle"], by_id[guardian]["start"]["position"]
    expansion = edition.raw["expansion"]
    start = expansion[guardian]
    if "circle" in start:
        circle = start["circle"]
    elif f"{start['circle_colour']}_circle" in expansion:
        circle = expansion[f"{start['circle_colour']}_circle"]
    else:
        circle = next(n for n, c in edition.circles.items() if c.colour == start["circle_colour"])
    return circle, start["position"]


def _distinct_starts(edition: Edition, side: Side, i: int, chosen: list[str], by_id: dict[str, Any]) -> None:
    taken: dict[str, str] = {}
    for g in chosen:
        circle, position = _start_circle(edition, g, by_id)
        row = side.row(circle)
        shield = row[0] if position == "far_left" else row[-1]
        if shield in taken:
            raise fail(
                "guardians_share_shield",
                ("default_guardians", "ids"),
                f"{taken[shield]!r} and {g!r} would start on the same shield of side {side.id}",
                first=taken[shield],
                second=g,
                side=i,
            )
        taken[shield] = g
