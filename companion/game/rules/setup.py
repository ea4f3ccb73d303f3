"""Creating a game (RULES.md §2): players, board side, Florence layout, guardians, Cemetery.

1–4 players with distinct names and colours, in turn order. The board side follows the
player count. The edition's id and content hash are pinned in ``GameCreated``. What the
physical game randomises (the location tiles, the first plague card) is entered by the
table or dealt by the shell, and recorded here as data.
"""

from __future__ import annotations

from collections import Counter

from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import Choice, RuleViolation
from events.catalog import (
    Event,
    GameCreated,
    GuardianSetup,
    PlagueCardRevealed,
    StartingSkullPlaced,
    TableModeChosen,
)

__all__ = ["TABLE_MODES", "decide_create", "decide_table_mode", "default_guardians", "guardian_start"]

TABLE_MODES = ("shared", "seats")


def guardian_start(edition: Edition, side_id: str, guardian: str) -> str:
    """The shield where a guardian's standee starts, from the edition data."""
    side = edition.sides[side_id]
    for g in edition.raw["guardians"]:
        if g["id"] == guardian:
            circle, position = int(g["start"]["circle"]), g["start"]["position"]
            break
    else:
        expansion = edition.section("expansion")
        if guardian not in edition.expansion_guardians:
            raise RuleViolation("unknown_guardian", {"guardian": guardian})
        circle, position = _expansion_circle(edition, expansion[guardian]), expansion[guardian]["position"]
    row = side.row(circle)
    return row[0] if position == "far_left" else row[-1]


def _expansion_circle(edition: Edition, start: dict[str, object]) -> int:
    """The circle seed 002 names by colour ("the BROWN circle", "the BLUE circle")."""
    if "circle" in start:  # format-1 editions gave the number
        return int(str(start["circle"]))
    colour = str(start["circle_colour"])
    expansion = edition.section("expansion")
    if f"{colour}_circle" in expansion:
        return int(expansion[f"{colour}_circle"])
    return next(n for n, c in edition.circles.items() if c.colour == colour)


def default_guardians(edition: Edition, side_id: str, expansion: bool) -> tuple[GuardianSetup, ...]:
    """The expansion's two guardians, or the edition's default pair for the base game.

    With the expansion and ``assumptions.expansion_replaces_guardians`` false, Plutus and
    Phlegyas join the default pair instead of replacing it (seed 002 does not say).
    """
    base = list(edition.section("default_guardians")["ids"])
    if not expansion:
        ids = base
    elif edition.assumption("expansion_replaces_guardians"):
        ids = list(edition.expansion_guardians)
    else:
        ids = [*base, *edition.expansion_guardians]
    return tuple(GuardianSetup(g, guardian_start(edition, side_id, g)) for g in ids)


def _check_players(edition: Edition, cmd: CreateGame) -> None:
    count = len(cmd.players)
    if not edition.min_players <= count <= edition.max_players:
        raise RuleViolation(
            "player_count",
            {"count": count, "min": edition.min_players, "max": edition.max_players},
        )
    names = [p.name.strip() for p in cmd.players]
    if any(not n for n in names):
        raise RuleViolation("player_name_missing", {})
    twice = [n for n, k in Counter(n.casefold() for n in names).items() if k > 1]
    if twice:
        raise RuleViolation("player_names_repeat", {"names": twice})
    colours = [p.colour for p in cmd.players]
    unknown = [c for c in colours if c not in edition.colours]
    if unknown:
        raise RuleViolation(
            "unknown_colour_name",
            {"colours": unknown},
            [Choice("choice.colour", {"colour": c}) for c in edition.colours],
        )
    repeated = [c for c, k in Counter(colours).items() if k > 1]
    if repeated:
        free = [c for c in edition.colours if c not in colours]
        raise RuleViolation(
            "player_colours_repeat",
            {"colours": repeated},
            [Choice("choice.colour", {"colour": c}) for c in free],
        )


def _check_layout(edition: Edition, cmd: CreateGame) -> None:
    if not cmd.florence:
        return
    kinds = {loc["id"]: loc["kind"] for loc in edition.raw["locations"]}
    placed = [loc.location for loc in cmd.florence]
    if sorted(placed) != sorted(kinds) or any(loc.quarter not in edition.quarters for loc in cmd.florence):
        raise RuleViolation(
            "florence_layout_incomplete",
            {"locations": sorted(kinds)},
        )
    for quarter in edition.quarters:
        here = sorted(kinds[loc.location] for loc in cmd.florence if loc.quarter == quarter)
        if here != ["free", "special"]:
            raise RuleViolation(
                "florence_quarter_mix",
                {"quarter": quarter},
            )


def decide_create(edition: Edition, cmd: CreateGame) -> list[Event]:
    """The events that set up a new game, or a refusal naming what is wrong."""
    _check_players(edition, cmd)
    _check_layout(edition, cmd)
    count = len(cmd.players)
    side = edition.side_for(count).id
    for name, values in (("start_florins", cmd.start_florins), ("start_drachmas", cmd.start_drachmas)):
        if values and (len(values) != count or any(v < 0 for v in values)):
            raise RuleViolation("starting_coins", {"field": name, "count": count})
    guardians = cmd.guardians or default_guardians(edition, side, cmd.expansion)
    wanted = int(edition.section("setup")["guardians"])
    if cmd.expansion:  # the expansion's guardians replace the base ones, or join them
        joined = 0 if edition.assumption("expansion_replaces_guardians") else wanted
        wanted = joined + len(edition.expansion_guardians)
    if len(guardians) != wanted or len({g.guardian for g in guardians}) != wanted:
        raise RuleViolation("guardian_count", {"count": len(guardians)})
    known = {g["id"] for g in edition.raw["guardians"]} | (set(edition.expansion_guardians) if cmd.expansion else set())
    for g in guardians:
        if g.guardian not in known or g.shield not in edition.sides[side].shields:
            raise RuleViolation(
                "unknown_guardian",
                {"guardian": g.guardian, "shield": g.shield},
                [Choice("choice.guardian", {"guardian": k}) for k in sorted(known)],
            )
    if len({g.shield for g in guardians}) != len(guardians):
        raise RuleViolation("guardians_share_shield", {})
    souls = edition.section("souls")
    if not 1 <= len(cmd.plague_card) <= int(souls["plague_card_max"]):
        raise RuleViolation(
            "plague_card_size",
            {"count": len(cmd.plague_card), "max": souls["plague_card_max"]},
        )
    if any(c not in edition.circles for c in cmd.plague_card):
        raise RuleViolation("unknown_colour", {"colours": list(cmd.plague_card)})
    events: list[Event] = [
        GameCreated(
            edition_id=edition.id,
            edition_hash=edition.content_hash,
            players=cmd.players,
            side=side,
            expansion=cmd.expansion,
            florence=cmd.florence,
            guardians=guardians,
            start_florins=cmd.start_florins,
            start_drachmas=cmd.start_drachmas,
        )
    ]
    if cmd.starting_skulls and len(cmd.starting_skulls) != count:
        raise RuleViolation("starting_skulls_per_player", {"count": count})
    for player, tracks in enumerate(cmd.starting_skulls):
        most = int(edition.section("setup")["starting_skulls_max"])
        if len(tracks) > most or any(t not in edition.track_circles for t in tracks):
            raise RuleViolation(
                "starting_skulls",
                {"player": player, "tracks": list(tracks)},
            )
        events += [StartingSkullPlaced(player, t) for t in tracks]
    events.append(PlagueCardRevealed(tuple(cmd.plague_card)))
    if cmd.table_mode not in TABLE_MODES:
        raise RuleViolation(
            "table_mode", {"mode": cmd.table_mode}, [Choice("choice.table_mode", {"mode": m}) for m in TABLE_MODES]
        )
    if cmd.table_mode != "shared":
        events.append(TableModeChosen(cmd.table_mode))
    return events


def decide_table_mode(mode: str, current: str) -> list[Event]:
    """Switch between one shared phone and a phone per seat."""
    if mode not in TABLE_MODES:
        raise RuleViolation(
            "table_mode", {"mode": mode}, [Choice("choice.table_mode", {"mode": m}) for m in TABLE_MODES]
        )
    if mode == current:
        raise RuleViolation("table_mode_same", {"mode": mode})
    return [TableModeChosen(mode)]
