"""Games for the benchmarks: made by seeded random legal play through the real rules, stored in a SQLite log as the
app stores them, and read back by the benchmark's own ``GameService``.

A game in play is played until its log holds a number of events; a complete game is played until the first command
that would end it, then cut back a few dozen commands, so that its last turn still offers real taps. Undo and redo
come now and then, as at a table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.editions import DEFAULT_EDITION
from companion.formats.commands import command_to_json
from companion.game.commands import Command, CreateGame, LogCommand, Redo, Undo
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, Timeline, build_timeline, decide_redo, decide_undo, extend_timeline
from companion.service import GameService
from companion.service.caches import ViewCache
from companion.tokens import new_token
from events.catalog import ActionRedone, Event, GameEnded, SeatSetup
from events.codec import encode
from events.sqlite import SqliteStore
from testkit.random_play import choices

__all__ = ["PlayedGame", "play_random_game", "state_reader", "store_game"]

NAMES = ("Ana", "Ben", "Cleo", "Dino")
COLOURS = ("crimson", "navy", "forest", "gold")
FINAL_ACTIONS = 60  # a complete game is timed this many commands before its end: its last turn is all loans


def seats(count: int) -> tuple[SeatSetup, ...]:
    """``count`` players in turn order."""
    return tuple(SeatSetup(NAMES[i], COLOURS[i]) for i in range(count))


@dataclass
class PlayedGame:
    """A game played through the pure core: its creation, its log and the command of each action."""

    seed: int
    create: CreateGame
    records: list[Recorded] = field(default_factory=list)
    commands: dict[int, dict[str, Any]] = field(default_factory=dict)  # action seq -> command JSON
    live: GameState | None = None

    def append(self, events: list[Event], command: Command | LogCommand) -> list[Recorded]:
        first = len(self.records) + 1
        added = [Recorded(first + i, first, e) for i, e in enumerate(events)]
        self.records += added
        self.commands[first] = command_to_json(command)
        return added


def undo_latest(game: PlayedGame, timeline: Timeline, before: dict[int, GameState]) -> tuple[Timeline, GameState]:
    """Record an undo of the latest action; the timeline after it and the state before that action."""
    (undo,) = decide_undo(timeline)
    return extend_timeline(timeline, game.append([undo], Undo())), before[undo.action]


def play_random_game(
    edition: Edition, seed: int, target: int, undo_rate: float = 0.03, complete: bool = False
) -> PlayedGame:
    """Random legal play, a game still in play, until the log holds at least ``target`` events; or, with
    ``complete``, a complete game: played until the first command that would end it, then cut back
    ``FINAL_ACTIONS`` commands (at its very last turn all but a loan would end it: no real play). A
    game that could end short of ``target`` is set aside for another seed (played on to ``target``,
    it would be loan after loan at its last turn).

    The state before each action in effect is kept, so undo and redo cost nothing and a long game
    is made in linear time.
    """
    for attempt in range(60):
        rng = random.Random(seed + attempt)
        plague = tuple(rng.choices(range(1, 10), k=rng.randint(3, 6)))
        game = PlayedGame(seed + attempt, CreateGame(players=seats(rng.randint(2, 4)), plague_card=plague))
        created = decide_create(edition, game.create)
        timeline: Timeline = build_timeline(game.append(created, game.create))
        live = replay(edition, created)
        before: dict[int, GameState] = {}
        heads: list[tuple[int, GameState]] = []  # each fresh command's seq and the state it was decided on

        while (complete or len(game.records) < target) and live.phase is not Phase.OVER:
            roll = rng.random()
            if timeline.undone and roll < 0.3:  # right after an undo, sometimes put it back
                redo: ActionRedone = decide_redo(timeline)
                timeline = extend_timeline(timeline, game.append([redo], Redo()))
                before[redo.action] = live
                for e in timeline.action(redo.action).events:
                    live = evolve(live, e)
                continue
            if roll < undo_rate and timeline.undoable:
                timeline, live = undo_latest(game, timeline, before)
                continue
            options = choices(live, rng, allow_deck_end=False)
            rng.shuffle(options)
            chosen: tuple[Command, list[Event]] | None = None
            ending = False
            for command in options:
                try:
                    events = decide(live, command)
                except RuleViolation:
                    continue
                if any(isinstance(e, GameEnded) for e in events):
                    ending = True
                elif chosen is None:
                    chosen = (command, events)
            if ending and complete:  # the complete game: cut back to a round before its last turn
                cut, state = heads[max(0, len(heads) - FINAL_ACTIONS)]
                game.records = game.records[: cut - 1]
                game.commands = {seq: c for seq, c in game.commands.items() if seq < cut}
                game.live = state
                return game
            if ending:
                break  # the game would end short of ``target``: another game
            if chosen is None:
                if not timeline.undoable:
                    break
                timeline, live = undo_latest(game, timeline, before)
                continue
            command, events = chosen
            added = game.append(events, command)
            timeline = extend_timeline(timeline, added)
            before[added[0].seq] = live
            heads.append((added[0].seq, live))
            for e in events:
                live = evolve(live, e)
        if not complete and len(game.records) >= target:
            game.live = live
            return game
    raise RuntimeError(f"could not build a game of {target} events")


def store_game(store: SqliteStore, editions: dict[str, tuple[str, Edition]], game: PlayedGame) -> str:
    """Import ``game``'s log into ``store`` (one transaction) and check the app rebuilds the pure play."""
    edition = editions[DEFAULT_EDITION][1]
    store.keep_edition(edition.content_hash, edition.id, editions[DEFAULT_EDITION][0])
    rows = []
    for r in game.records:
        type_name, version, data = encode(r.event)
        head = r.seq == r.action
        rows.append(
            {
                "seq": r.seq,
                "action": r.action,
                "type": type_name,
                "version": version,
                "data": data,
                "command": game.commands[r.action] if head else None,
                "actor": "shared" if head else None,
            }
        )
    game_id = new_token()
    store.import_game(game_id, "game", edition.content_hash, (new_token(), new_token()), rows)
    store.set_join_code(game_id, new_token()[:10].upper())
    view = GameService(store, editions, cache=ViewCache()).view(game_id)
    if view.seq != len(game.records) or view.state != game.live:
        raise AssertionError("the stored game does not rebuild the pure play")
    return game_id


def state_reader(db: Path, editions: dict[str, tuple[str, Edition]], game_id: str) -> Any:
    """``state_of()`` for ``play_mix``: the recorded game as the benchmark's own service reads it."""
    service = GameService(SqliteStore.open(db), editions, cache=ViewCache())

    def state_of() -> tuple[GameState, bool, bool]:
        view = service.view(game_id)
        assert isinstance(view.state, GameState)  # a played game, not a quick tally
        return view.state, bool(view.timeline.undoable), bool(view.timeline.undone)

    state_of.close = service.store.close  # type: ignore[attr-defined]
    return state_of
