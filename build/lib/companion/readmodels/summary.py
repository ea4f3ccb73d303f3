"""A game state as plain data and as text: what ``companion replay`` prints."""

from __future__ import annotations

from typing import Any

from companion.game.state import GameState

__all__ = ["state_summary", "summary_text"]


def state_summary(state: GameState) -> dict[str, Any]:
    """The state's essentials as JSON-ready data."""
    return {
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase.value,
        "ended": state.ended,
        "quarter": state.quarter,
        "dante": state.dante,
        "cemetery": {str(c): n for c, n in sorted(state.cemetery.items())},
        "hell": {
            s: {"colour": soul.colour, "laid": soul.laid, "petrified": soul.petrified}
            for s, soul in sorted(state.hell.items())
        },
        "guardians": dict(sorted(state.guardians.items())),
        "phlegethon": {
            str(c): state.edition.section("phlegethon")["scale"][i] for c, i in sorted(state.phlegethon.items())
        },
        "players": [
            {
                "name": info.name,
                "colour": info.colour,
                "infamy": p.infamy,
                "florins": p.florins,
                "drachmas": p.drachmas,
                "ship": p.ship,
                "skulls": {str(t): lvl for t, lvl in sorted(p.skulls.items())},
                "diplomas": sorted(p.diplomas),
                "half_diplomas": p.half_diplomas,
            }
            for info, p in zip(state.players, state.p, strict=True)
        ],
    }


def summary_text(state: GameState) -> str:
    """The state's essentials as lines of text."""
    s = state_summary(state)
    lines = [f"Turn {s['turn']}: {state.players[state.active].name} ({s['phase']})"]
    if s["ended"]:
        lines[0] = f"Game over ({s['ended']}) after turn {s['turn']}"
    for p in s["players"]:
        lines.append(
            f"  {p['name']:<12} infamy {p['infamy']:>4}  florins {p['florins']:>3}  drachmas {p['drachmas']:>3}  "
            f"ship {p['ship']}"
        )
    cemetery = ", ".join(f"{n}×{c}" for c, n in s["cemetery"].items()) or "empty"
    lines.append(f"  Cemetery: {cemetery}")
    standing = [f"{sh}:{v['colour']}{'*' if v['laid'] else ''}" for sh, v in s["hell"].items()]
    lines.append(f"  Hell ({len(standing)} souls, * = laid down): {' '.join(standing) or 'empty'}")
    return "\n".join(lines)
