"""The River Styx, through the Bonfire for 2 drachmas (seed 000 p.9; RULES.md §4.6).

Return souls of one colour from the Cemetery to the supply: 1 soul = +1 level on one of the
first four sin tracks; 2 souls = +1 on one of the last four; 3 souls = +1 on one of the first
four and +1 on one of the last four. With a single soul in the Cemetery only the 1-soul
option exists, and the Cemetery is refilled at once afterwards (a plague card is due).
Skulls never pass their track's end (RULES.md §3.5: the length is an estimate in the edition data;
the seed says nothing of it), so a track already at its end is not offered.
"""

from __future__ import annotations

from companion.game.commands import UseStyx
from companion.game.errors import Choice, RuleViolation
from companion.game.rules.economy import loans_to_pay
from companion.game.state import GameState
from events.catalog import CoinsPaid, Event, SkullAdvanced, StyxCrossed

__all__ = ["styx_events"]


def _groups(state: GameState) -> tuple[list[int], list[int]]:
    tracks = state.edition.section("tracks")
    return [int(t) for t in tracks["first_four"]], [int(t) for t in tracks["last_four"]]


def _gains(state: GameState) -> dict[int, tuple[str, ...]]:
    """Souls returned -> the track group(s) where each gives +1 level (edition ``styx.gains``)."""
    return {int(n): tuple(groups) for n, groups in state.edition.section("styx")["gains"].items()}


def styx_events(state: GameState, cmd: UseStyx) -> list[Event]:
    """Check a Styx crossing and give its skull steps."""
    first, last = _groups(state)
    in_cemetery = state.cemetery.get(cmd.colour, 0)
    total = state.cemetery_total()
    gains = _gains(state)
    if cmd.count not in gains:
        raise RuleViolation("styx_count", {"count": cmd.count})
    if total == 1 and cmd.count != min(gains):
        raise RuleViolation(
            "styx_single_soul",
            {"count": cmd.count},
        )
    if in_cemetery < cmd.count:
        raise RuleViolation(
            "styx_not_enough_souls",
            {"colour": cmd.colour, "count": cmd.count, "cemetery": in_cemetery},
            [Choice("choice.styx", {"colour": c, "count": n}) for c, n in sorted(state.cemetery.items())],
        )
    wanted: list[tuple[int, list[int]]] = []
    if "first_four" in gains[cmd.count]:
        wanted.append((cmd.first_track, first))
    if "last_four" in gains[cmd.count]:
        wanted.append((cmd.last_track, last))
    pl = state.p[cmd.player]
    level = state.edition.first_level
    length = state.edition.track_length
    events: list[Event] = list(loans_to_pay(state, cmd.player, state.edition.economy("styx_use"), cmd.borrow, cmd))
    events.append(CoinsPaid(cmd.player, 0, state.edition.economy("styx_use"), "styx"))
    events.append(StyxCrossed(cmd.player, cmd.colour, cmd.count))
    for track, group in wanted:
        open_tracks = [t for t in group if pl.skull(t, level) < length]
        if track not in group or track not in open_tracks:
            code = "styx_track_at_end" if track in group else "styx_track_group"
            raise RuleViolation(
                code,
                {"track": track, "group": group},
                [Choice("choice.track", {"track": t}) for t in open_tracks],
            )
        events.append(SkullAdvanced(cmd.player, track, pl.skull(track, level) + 1, "styx"))
    return events
