"""The steps chosen so far on the map of Hell for the ferry and for a guardian being used, read from the page's
query: where Phlegyas goes, the soul carried and its sideways shield; a guardian's new shield, the souls (or the
Desk) it acts on. The map (``screens.hell_map``) marks the shields each next step may take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.rules.ferry import FerryOption, ferry_options
from companion.game.state import GameState

__all__ = ["FerrySteps", "GuardianSteps", "ferry_steps", "guardian_steps"]


@dataclass(frozen=True)
class FerrySteps:
    """Where the ferry being summoned stands: Phlegyas's shield, the soul, its sideways shield."""

    phlegyas_to: str
    soul: str
    side: str
    options: tuple[FerryOption, ...]  # the ferry's ways from each Phlegyas shield

    @property
    def destinations(self) -> tuple[str, ...]:
        """Shields Phlegyas may go to (all, until one is chosen)."""
        return tuple(dict.fromkeys(o.phlegyas_to for o in self.options))

    @property
    def souls(self) -> tuple[str, ...]:
        """Souls that can be ferried from the chosen Phlegyas shield."""
        return tuple(dict.fromkeys(o.soul_from for o in self.options if o.phlegyas_to == self.phlegyas_to))

    @property
    def sides(self) -> tuple[str, ...]:
        """Sideways shields for the chosen soul that leave it a regular move."""
        return tuple(o.soul_to for o in self.options if o.phlegyas_to == self.phlegyas_to and o.soul_from == self.soul)

    @property
    def landings(self) -> tuple[str, ...]:
        """Where the soul may land after the sideways move."""
        for o in self.options:
            if (o.phlegyas_to, o.soul_from, o.soul_to) == (self.phlegyas_to, self.soul, self.side):
                return tuple(o.landings)
        return ()


@dataclass(frozen=True)
class GuardianSteps:
    """A guardian being used from the map: its new shield, then the souls (or Desk) it acts on.

    Only what the map highlights is worked out here (empty shields; shields next to the new one);
    whether the use is legal stays the rules' answer when it is recorded.
    """

    guardian: str
    to_shield: str
    targets: tuple[str, ...]
    desk: str
    shields: tuple[str, ...]  # empty shields the standee may move to
    near: tuple[str, ...]  # after the move: standing souls next to it, or (Plutus) shields for the Desk
    most: int  # how many souls its effect acts on
    base: str = ""  # the query of the page it is chosen on (an accusation being prepared)

    def query(
        self, to_shield: str | None = None, targets: tuple[str, ...] | None = None, desk: str | None = None
    ) -> str:
        """The page address's query for these steps with one of them changed."""
        to = self.to_shield if to_shield is None else to_shield
        chosen = self.targets if targets is None else targets
        below = self.desk if desk is None else desk
        if to_shield is not None and to_shield != self.to_shield:
            chosen, below = (), ""
        return f"{self.base}guardian={self.guardian}&gto={to}&gt={','.join(chosen)}&gd={below}"

    def toggled(self, shield: str) -> tuple[str, ...]:
        """The targets after tapping ``shield``: off if chosen, else on (the oldest gives way)."""
        if shield in self.targets:
            return tuple(t for t in self.targets if t != shield)
        return (*self.targets, shield)[-max(self.most, 1) :]


def guardian_steps(state: GameState, guardian: str, params: dict[str, str], base: str = "") -> GuardianSteps:
    """The steps of a guardian's use chosen so far, from the page's query (``gto``, ``gt``, ``gd``)."""
    current = state.guardians[guardian]
    movable = guardian != "phlegyas"
    shields = tuple(s for s in state.side.shields if s != current and not state.occupied(s)) if movable else ()
    to = params.get("gto", "") if params.get("gto", "") in shields else ""
    near: tuple[str, ...] = ()
    most = 0
    if to and guardian == "plutus":
        desks = state.p[state.active].desks
        near = tuple(s for s in state.side.adjacent(to) if s not in desks)
        most = 1
    elif to:
        near = tuple(s for s in state.side.adjacent(to) if s in state.hell and not state.hell[s].laid)
        definition: dict[str, Any] = next((g for g in state.edition.raw["guardians"] if g["id"] == guardian), {})
        most = sum(int(e.get("count", 1)) for e in definition.get("effect", []) if e.get("primitive") != "wall_pass")
    chosen = tuple(t for t in params.get("gt", "").split(",") if t in near and guardian != "plutus")
    desk = params.get("gd", "") if guardian == "plutus" and params.get("gd", "") in near else ""
    return GuardianSteps(guardian, to, chosen[: max(most, 1)], desk, shields, near, most, base)


def ferry_steps(state: GameState, params: dict[str, str]) -> FerrySteps:
    """The ferry's choices so far, from the page's query parameters."""
    ph = params.get("ferry", "")
    if ph not in state.side.shields:
        ph = ""
    options = tuple(ferry_options(state, state.active, ph or None))
    soul = params.get("fsoul", "") if ph else ""
    side = params.get("fside", "") if soul else ""
    return FerrySteps(ph, soul, side, options)
