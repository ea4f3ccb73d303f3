"""Final scoring (seed 000 pp.16–17; RULES.md §7.2), as a breakdown that explains every point.

In this order: (1) fraud cards' end-game halves whose requirement holds; (2) each circle's
Phlegethon cube moves one space left per empty shield, never below the value 1; (3) every two
half diplomas become a diploma on a track without one (the player's choice, else the best);
(4) each diploma scores the circle's Phlegethon value times the player's skull level there;
(5) minus the loan penalty at the Ship's space. Plus the infamy scored during play.

Scoring reads *facts* (``BoardFacts``, ``PlayerFacts``) so the same code scores a recorded
game (``facts_from_state``) and a quick tally entered at the end (``companion.game.tally``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from events.catalog import EndgameHalf

__all__ = [
    "BoardFacts",
    "CircleAdjustment",
    "CircleScore",
    "FraudResult",
    "PlayerFacts",
    "PlayerScore",
    "Scoresheet",
    "best_half_tracks",
    "check_half_choice",
    "empty_shields",
    "facts_from_state",
    "score",
    "score_state",
]


@dataclass(frozen=True)
class BoardFacts:
    """The board at the end: empty shields per circle (their ids when known) and each cube's space."""

    empty: dict[int, int]  # circle -> how many of its shields hold no soul
    cubes: dict[int, int]  # circle -> space index on the edition's Phlegethon scale
    empty_ids: dict[int, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerFacts:
    """What scoring reads about one player."""

    name: str
    infamy: int
    skulls: dict[int, int]
    diplomas: frozenset[int]
    half_diplomas: int
    ship: int
    endgames: tuple[EndgameHalf, ...] = ()
    half_choice: tuple[int, ...] | None = None
    barrels: frozenset[int] = frozenset()
    guests: int = 0
    floors: int = 0
    requirements_checked: bool = True  # False: the table entered only the halves that apply
    drachmas: int = 0  # for the "most_drachmas" tie-breaker
    florins: int = 0  # for the "most_florins" tie-breaker


@dataclass(frozen=True)
class CircleAdjustment:
    """Step 2 for one circle: the cube before, the empty shields, the value after."""

    circle: int
    before: int
    empty: int
    empty_ids: tuple[str, ...]
    after: int


@dataclass(frozen=True)
class FraudResult:
    """Step 1 for one end-game half: whether its requirement held and what it did."""

    half: EndgameHalf
    holds: bool
    infamy: int


@dataclass(frozen=True)
class CircleScore:
    """Step 4 for one player and one track."""

    circle: int
    value: int
    skull: int
    diploma: bool
    from_halves: bool
    points: int


@dataclass(frozen=True)
class PlayerScore:
    """One player's whole breakdown."""

    name: str
    during_play: int
    fraud: tuple[FraudResult, ...]
    circles: tuple[CircleScore, ...]
    half_diplomas: int
    half_tracks: tuple[int, ...]
    half_suggested: bool
    half_leftover: int
    ship: int
    loan_penalty: int
    total: int
    place: int = 0

    @property
    def fraud_infamy(self) -> int:
        """Infamy from fraud cards' end-game halves."""
        return sum(f.infamy for f in self.fraud)

    @property
    def diploma_points(self) -> int:
        """Points from every diploma (step 4)."""
        return sum(c.points for c in self.circles)


@dataclass(frozen=True)
class Scoresheet:
    """The final (or "if it ended now") score of every player, and why."""

    circles: tuple[CircleAdjustment, ...]
    players: tuple[PlayerScore, ...]
    tie_breakers: tuple[str, ...] = field(default_factory=tuple)

    @property
    def winners(self) -> tuple[str, ...]:
        """The names in first place (several on a shared place)."""
        return tuple(p.name for p in self.players if p.place == 1)


def _holds(edition: Edition, facts: PlayerFacts, half: EndgameHalf) -> bool:
    if not facts.requirements_checked:
        return True
    match half.requirement:
        case "always":
            return True
        case "barrels":
            return set(half.colours) <= facts.barrels
        case "guests_at_least":
            return facts.guests >= half.amount
        case "skull_at_least":
            return facts.skulls.get(half.track, edition.first_level) >= half.amount
        case "diplomas_at_least":
            return len(facts.diplomas) >= half.amount
        case "no_loans":
            return facts.ship == 0
        case "floors_at_least":
            return facts.floors >= half.amount
    return False


def check_half_choice(edition: Edition, diplomas: frozenset[int], halves: int, chosen: tuple[int, ...]) -> None:
    """Refuse a half-diploma placement that is not one new track per pair (RULES.md §7.2 step 3)."""
    pairs = halves // edition.halves_per_diploma
    free = [t for t in edition.track_circles if t not in diplomas]
    if len(chosen) != pairs or len(set(chosen)) != pairs or any(t not in free for t in chosen):
        raise RuleViolation(
            "half_diploma_choice",
            {"pairs": pairs, "chosen": list(chosen), "free": free},
        )


def best_half_tracks(
    edition: Edition, values: dict[int, int], skulls: dict[int, int], diplomas: frozenset[int]
) -> list[tuple[int, int]]:
    """Tracks without a diploma, best first, with the points a diploma there would score."""
    options = [(t, values[t] * skulls.get(t, edition.first_level)) for t in edition.track_circles if t not in diplomas]
    options.sort(key=lambda tv: (-tv[1], tv[0]))
    return options


def _rank(edition: Edition, players: list[PlayerScore], facts: list[PlayerFacts]) -> list[PlayerScore]:
    breakers = tuple(edition.section("scoring").get("tie_breakers", ()))

    def key(i: int) -> tuple[int, ...]:
        p, f = players[i], facts[i]
        extra = []
        for b in breakers:
            if b == "fewest_loans":
                extra.append(-f.ship)
            elif b == "most_diplomas":
                extra.append(len(f.diplomas) + len(p.half_tracks))
            elif b == "most_drachmas":
                extra.append(f.drachmas)
            elif b == "most_florins":
                extra.append(f.florins)
        return (p.total, *extra)

    order = sorted(range(len(players)), key=key, reverse=True)
    ranked = list(players)
    for position, i in enumerate(order):
        tied = next(j for j in order[: position + 1] if key(j) == key(i))
        place = order.index(tied) + 1
        ranked[i] = replace(players[i], place=place)
    return ranked


def score(edition: Edition, board: BoardFacts, facts: list[PlayerFacts]) -> Scoresheet:
    """Score every player in the rulebook's order; the result explains every point."""
    scale = [int(v) for v in edition.section("phlegethon")["scale"]]
    cubes = dict(board.cubes)
    # Step 1: fraud end-game halves (they may raise skulls, cubes, half diplomas, infamy).
    steps = [_fraud_halves(edition, f, cubes, len(scale)) for f in facts]
    # Step 2: the Phlegethon falls one space per empty shield, never below value 1.
    adjustments = []
    values: dict[int, int] = {}
    for circle in edition.track_circles:
        empty = board.empty.get(circle, 0)
        after = max(min(edition.minimum_space, cubes[circle]), cubes[circle] - empty)
        values[circle] = scale[after]
        adjustments.append(
            CircleAdjustment(circle, scale[cubes[circle]], empty, board.empty_ids.get(circle, ()), scale[after])
        )
    players = [
        _player_score(edition, f, applied, skulls, halves, values)
        for f, (applied, skulls, halves) in zip(facts, steps, strict=True)
    ]
    ranked = _rank(edition, players, facts)
    breakers = tuple(edition.section("scoring").get("tie_breakers", ()))
    return Scoresheet(tuple(adjustments), tuple(ranked), breakers)


def _fraud_halves(
    edition: Edition, f: PlayerFacts, cubes: dict[int, int], spaces: int
) -> tuple[tuple[FraudResult, ...], dict[int, int], int]:
    """Step 1 for one player: each fraud end-game half that holds, with the infamy it gives; the player's skulls and
    half diplomas after them. A half that moves a cube right moves it in ``cubes`` (a board of ``spaces`` spaces)."""
    results = []
    skulls = dict(f.skulls)
    halves = f.half_diplomas
    for half in f.endgames:
        holds = _holds(edition, f, half)
        infamy = 0
        if holds:
            match half.effect:
                case "infamy":
                    infamy = half.effect_amount
                case "infamy_per_diploma":
                    infamy = half.effect_amount * len(f.diplomas)
                case "skull":
                    level = skulls.get(half.effect_track, edition.first_level)
                    skulls[half.effect_track] = min(edition.track_length, level + 1)
                case "half_diploma":
                    halves += 1
                case "cube_right":
                    cubes[half.effect_track] = min(spaces - 1, cubes[half.effect_track] + 1)
        results.append(FraudResult(half, holds, infamy))
    return tuple(results), skulls, halves


def _player_score(
    edition: Edition,
    f: PlayerFacts,
    applied: tuple[FraudResult, ...],
    skulls: dict[int, int],
    halves: int,
    values: dict[int, int],
) -> PlayerScore:
    """Steps 3 to 5 for one player, once the fraud halves are applied and the Phlegethon has fallen."""
    # Step 3: pairs of half diplomas become diplomas where the player has none.
    pairs = halves // edition.halves_per_diploma
    chosen = f.half_choice
    valid = (
        chosen is not None
        and len(chosen) == pairs
        and len(set(chosen)) == pairs
        and all(t in edition.track_circles and t not in f.diplomas for t in chosen)
    )
    half_tracks = (
        tuple(chosen)
        if valid and chosen is not None
        else tuple(t for t, _ in best_half_tracks(edition, values, skulls, f.diplomas)[:pairs])
    )
    # Step 4: every diploma scores Phlegethon value x skull level.
    rows = []
    for circle in edition.track_circles:
        has = circle in f.diplomas or circle in half_tracks
        skull = skulls.get(circle, edition.first_level)
        rows.append(
            CircleScore(circle, values[circle], skull, has, circle in half_tracks, values[circle] * skull if has else 0)
        )
    # Step 5: the loan penalty at the Ship's space.
    penalties = edition.loan_penalties
    penalty = penalties[min(f.ship, len(penalties) - 1)]
    fraud_infamy = sum(r.infamy for r in applied)
    return PlayerScore(
        name=f.name,
        during_play=f.infamy,
        fraud=applied,
        circles=tuple(rows),
        half_diplomas=halves,
        half_tracks=half_tracks,
        half_suggested=pairs > 0 and not valid,
        half_leftover=halves % edition.halves_per_diploma,
        ship=f.ship,
        loan_penalty=penalty,
        total=f.infamy + fraud_infamy + sum(r.points for r in rows) - penalty,
    )


def empty_shields(state: GameState) -> dict[int, tuple[str, ...]]:
    """Each circle's empty shields, by the one definition play uses too (``GameState.occupied``)."""
    return {c: state.empty_shields(c) for c in state.side.rows}


def facts_from_state(state: GameState) -> tuple[BoardFacts, list[PlayerFacts]]:
    """The facts scoring reads, from a recorded game's state."""
    ids = empty_shields(state)
    board = BoardFacts(empty={c: len(v) for c, v in ids.items()}, cubes=dict(state.phlegethon), empty_ids=ids)
    players = [
        PlayerFacts(
            name=info.name,
            infamy=p.infamy,
            skulls=dict(p.skulls),
            diplomas=p.diplomas,
            half_diplomas=p.half_diplomas,
            ship=p.ship,
            endgames=p.endgames,
            half_choice=state.half_choices.get(i),
            barrels=frozenset(x.colour for x in p.pieces("barrel")),
            guests=len(p.pieces("guest")),
            floors=len(p.tower),
            drachmas=p.drachmas,
            florins=p.florins,
        )
        for i, (info, p) in enumerate(zip(state.players, state.p, strict=True))
    ]
    return board, players


def score_state(state: GameState) -> Scoresheet:
    """The score of a recorded game now ("if the game ended now" while it is still going)."""
    board, players = facts_from_state(state)
    return score(state.edition, board, players)
