"""Test builders: set up a table in a few words and read the rules as given / when / then."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.editions import load_all
from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Soul
from companion.log_view import AnyView, GameView, is_game
from companion.service import GameService
from events.catalog import Event, SeatSetup
from events.sqlite import SqliteStore

NAMES = ("Ana", "Ben", "Cleo", "Dino")
COLOURS = ("crimson", "navy", "forest", "gold")


def seats(count: int) -> tuple[SeatSetup, ...]:
    return tuple(SeatSetup(NAMES[i], COLOURS[i]) for i in range(count))


@dataclass
class Table:
    """A game under test: its log so far and the state it replays to."""

    edition: Edition
    log: list[Event] = field(default_factory=list)

    def create(self, players: int = 2, **kw: Any) -> Table:
        kw.setdefault("plague_card", (2, 3, 5, 1))
        self.log = decide_create(self.edition, CreateGame(players=seats(players), **kw))
        return self

    @property
    def state(self) -> GameState:
        return replay(self.edition, self.log)

    def given(self, *events: Event) -> Table:
        self.log.extend(events)
        return self

    def when(self, command: Any) -> list[Event]:
        """Decide ``command`` and record what it produced."""
        events = decide(self.state, command)
        self.log.extend(events)
        return events

    def florence(self, player: int) -> list[Event]:
        """A plain Florence action: a member to the free location of the turn's quarter."""
        from companion.game.commands import SendMember

        state = self.state
        free = next(
            loc
            for loc, q in state.florence.items()
            if q == state.quarter and loc in ("haystack", "banquet", "bank", "courtyard")
        )
        kind = "noble" if state.p[player].home_nobles else "urchin"
        return self.when(SendMember(player, kind, free))

    def finish_turn(self, player: int) -> list[Event]:
        """The Florence phase with a plain action, then the end of the turn."""
        from companion.game.commands import EndTurn

        self.florence(player)
        return self.when(EndTurn(player))

    def refused(self, command: Any, code: str) -> RuleViolation:
        """Assert ``command`` is refused with ``code`` and records nothing."""
        before = list(self.log)
        with pytest.raises(RuleViolation) as info:
            decide(self.state, command)
        assert info.value.code == code, info.value
        assert self.log == before
        return info.value


def game_view(view: AnyView) -> GameView:
    """``view`` as a recorded game's: the tests that read one never hold a quick tally."""
    assert is_game(view), view.kind
    return view


def found(pattern: str | re.Pattern[str], text: str, flags: int = 0) -> re.Match[str]:
    """The first match of ``pattern`` (a string, or a compiled pattern and no flags) in ``text``; the test fails
    when there is none."""
    match = re.search(pattern, text, flags)
    assert match is not None, f"{pattern!r} not found"
    return match


def with_souls(state: GameState, souls: dict[str, Soul]) -> GameState:
    """A state with extra souls placed on shields (arranging a board for a rule test)."""
    from dataclasses import replace

    return replace(state, hell={**state.hell, **souls})


def apply(state: GameState, events: list[Event]) -> GameState:
    for e in events:
        state = evolve(state, e)
    return state


def place(shield: str, colour: int, laid: bool = False, petrified: bool = False) -> Event:
    """A correction event putting a soul on a shield: how rule tests arrange the board."""
    from events.catalog import SoulCorrected

    return SoulCorrected(shield, colour, laid, petrified, "test set-up")


@dataclass
class ServedGame:
    """A two-player game recorded through ``GameService`` on a SQLite file, each entry named so a
    test can point at it: ``seqs[name]`` is the seq of the entry's first event."""

    service: GameService
    game_id: str
    seqs: dict[str, int] = field(default_factory=dict)

    @classmethod
    def create(cls, db: Path, plague_card: tuple[int, ...] = (5, 2, 3)) -> ServedGame:
        service = GameService(SqliteStore.open(db), load_all())
        return cls(service, service.create_game(CreateGame(seats(2), plague_card=plague_card), "create"))

    def do(self, name: str, command: Any) -> None:
        """Record ``command`` on the current seq as the entry ``name``."""
        seq = self.service.view(self.game_id).seq
        self.service.execute(self.game_id, seq, command, f"key-{name}")
        self.seqs[name] = seq + 1
