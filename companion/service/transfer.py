"""``companion migrate``: copy every game from one store to another (SQLite ⇄ PostgreSQL) and prove each copy.

Each game moves whole, as it was recorded: its index row (ids, tokens, join code, creation
time), the exact text of the edition it pinned, and every event with its idempotency key, so
phones keep their links and a retry after the move is still recognised. Each copy is then
verified: the rows read back equal the source's, and replaying the copy through the rules (with
the edition kept in the destination) gives the same state as replaying the source. A game
already in the destination is not copied again, only verified, so an interrupted run can be
run again.

    companion migrate --from sqlite:///instance/companion.sqlite3 --to postgresql://user@host/db
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any

from events.factory import open_store
from events.store import Store, UnknownGame

__all__ = ["Moved", "add_parser", "migrate"]


@dataclass(frozen=True)
class Moved:
    """What happened to one game: copied now or found already there, and whether its copy holds."""

    game_id: str
    events: int
    copied: bool
    problem: str | None


def _state_of(store: Store, game_id: str, editions: dict[str, Any]) -> tuple[Any, str | None]:
    """The game's replayed state, or why it cannot be replayed."""
    from companion.service import GameService

    try:
        return GameService(store, editions).view(game_id).state, None  # type: ignore[arg-type]
    except Exception as exc:  # any failure to replay is what verification reports
        return None, f"{type(exc).__name__}: {str(exc)[:160]}"


def move_game(source: Store, target: Store, game_id: str, editions: dict[str, Any]) -> Moved:
    """Copy one game (unless the target has it already) and verify the copy."""
    meta = source.game(game_id)
    rows = source.read(game_id)
    content = source.edition_content(meta["edition_hash"])
    if content is None:
        return Moved(game_id, len(rows), False, "its edition is not kept in the source")
    try:
        target.game(game_id)
        copied = False
    except UnknownGame:
        target.keep_edition(meta["edition_hash"], str(json.loads(content)["id"]), content)
        target.restore_game(meta, rows)
        copied = True
    if target.game(game_id) != meta:
        return Moved(game_id, len(rows), copied, "its index row differs in the target")
    if target.read(game_id) != rows:
        return Moved(game_id, len(rows), copied, "its events differ in the target")
    if target.edition_content(meta["edition_hash"]) != content:
        return Moved(game_id, len(rows), copied, "its edition differs in the target")
    before, why = _state_of(source, game_id, editions)
    after, why_after = _state_of(target, game_id, editions)
    if why_after is not None and why is None:
        return Moved(game_id, len(rows), copied, f"the copy does not replay: {why_after}")
    if before != after:
        return Moved(game_id, len(rows), copied, "the copy replays to another state")
    return Moved(game_id, len(rows), copied, None)


def migrate(source_url: str, target_url: str, editions: dict[str, Any]) -> list[Moved]:
    """Move every game of ``source_url`` into ``target_url``, oldest first; one ``Moved`` per game."""
    source = open_store(source_url)
    target = open_store(target_url)
    try:
        return [move_game(source, target, game_id, editions) for game_id in reversed(source.game_ids())]
    finally:
        source.close()
        target.close()


def cmd_migrate(args: argparse.Namespace) -> int:
    """Copy every game and print one line per game; exit 1 if any copy does not hold."""
    from companion.editions import load_all

    moved = migrate(args.source, args.target, load_all())
    for m in moved:
        verdict = "verified" if m.problem is None else f"FAILED: {m.problem}"
        print(f"{m.game_id}  {m.events} events  {'copied' if m.copied else 'already there'}  {verdict}")
    failed = sum(1 for m in moved if m.problem is not None)
    copied = sum(1 for m in moved if m.copied)
    print(f"{len(moved)} games: {copied} copied, {len(moved) - copied} already there, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


def add_parser(sub: Any) -> None:
    """Add ``migrate`` to the command line's subcommands."""
    parser = sub.add_parser("migrate", help="copy every game to another database and verify each by replay")
    parser.add_argument("--from", dest="source", required=True, help="sqlite:///FILE, a path, or postgresql://…")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://… (or another SQLite file)")
    parser.set_defaults(run=cmd_migrate)
