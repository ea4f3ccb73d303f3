"""A score breakdown as JSON-ready data and as plain text (``companion score``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.game.edition import Edition
from companion.game.scoring import PlayerScore, Scoresheet

__all__ = ["scoresheet_dict", "scoresheet_text"]


def scoresheet_dict(sheet: Scoresheet) -> dict[str, Any]:
    """Every step of the breakdown as plain data."""
    data: dict[str, Any] = dataclasses.asdict(sheet)
    data["winners"] = list(sheet.winners)
    for player, score in zip(data["players"], sheet.players, strict=True):
        player["fraud_infamy"] = score.fraud_infamy
        player["diploma_points"] = score.diploma_points
    return data


def _half_placement(p: PlayerScore, edition: Edition) -> str:
    """Where the pairs of half diplomas went, by track name: ' → a diploma on Heresy (circle 6)'."""
    names = [f"{edition.circles[t].sin.capitalize()} (circle {t})" for t in p.half_tracks]
    text = ""
    if names:
        text = f" → a diploma on {names[0]}" if len(names) == 1 else " → diplomas on " + ", ".join(names)
        text += " (best choice, not yet confirmed)" if p.half_suggested else ""
    return text + (f", {p.half_leftover} left over" if p.half_leftover else "")


def scoresheet_text(sheet: Scoresheet, edition: Edition) -> str:
    """The breakdown as lines a person reads."""
    lines = ["Phlegethon (cube before → empty shields → value after):"]
    for c in sheet.circles:
        colour = edition.circles[c.circle].colour
        lines.append(f"  circle {c.circle} {colour:<7} {c.before} → −{c.empty} → {c.after}")
    for p in sorted(sheet.players, key=lambda x: x.place):
        lines.append("")
        lines.append(f"{p.place}. {p.name}: {p.total} infamy")
        lines.append(f"   during play            {p.during_play:>4}")
        for f in p.fraud:
            state = "holds" if f.holds else "does not hold"
            lines.append(f"   fraud: {f.half.requirement} → {f.half.effect} ({state}) {f.infamy:>4}")
        for row in p.circles:
            if row.diploma:
                source = " (from half diplomas)" if row.from_halves else ""
                lines.append(
                    f"   diploma circle {row.circle}: {row.value} × skull {row.skull} = {row.points:>3}{source}"
                )
        if p.half_diplomas:
            lines.append(f"   half diplomas: {p.half_diplomas}{_half_placement(p, edition)}")
        if p.loan_penalty:
            lines.append(f"   loans: Ship on space {p.ship}          −{p.loan_penalty}")
    if len(sheet.winners) > 1:
        lines.append("")
        lines.append("Shared first place: " + ", ".join(sheet.winners))
    return "\n".join(lines)
