"""Copying every game from one store to another (SQLite ⇄ PostgreSQL), each copy proved.

Each game moves whole, as it was recorded: its index row (ids, tokens, join code, creation
time), the exact text of the edition it pinned, and every event with its idempotency key, so
phones keep their links and a retry after the move is still recognised. Each copy is then
verified: the rows read back equal the source's, and replaying the copy through the rules (with
the edition kept in the destination) gives the same state as replaying the source. A game
already in the destination is not copied again, only verified, so an interrupted run can be
run again.

    companion transfer --from sqlite:///instance/companion.sqlite3 --to postgresql://user@host/db
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.service.games import GameService
from events.factory import open_store
from events.store import Store, UnknownGame

__all__ = ["Copied", "copy_game", "copy_games"]


@dataclass(frozen=True)
class Copied:
    """What happened to one game: copied now or found already there, and whether its copy holds."""

    game_id: str
    events: int
    copied: bool
    problem: str | None


def _state_of(store: Store, game_id: str, editions: dict[str, Any]) -> tuple[Any, str | None]:
    """The game's replayed state, or why it cannot be replayed."""
    try:
        return GameService(store, editions).view(game_id).state, None
    except Exception as exc:  # any failure to replay is what verification reports
        return None, f"{type(exc).__name__}: {str(exc)[:160]}"


def copy_game(source: Store, target: Store, game_id: str, editions: dict[str, Any]) -> Copied:
    """Copy one game (unless the target has it already) and verify the copy."""
    meta = source.game(game_id)
    rows = source.read(game_id)
    content = source.edition_content(meta["edition_hash"])
    if content is None:
        return Copied(game_id, len(rows), False, "its edition is not kept in the source")
    try:
        target.game(game_id)
        copied = False
    except UnknownGame:
        target.keep_edition(meta["edition_hash"], str(json.loads(content)["id"]), content)
        target.restore_game(meta, rows)
        copied = True
    if target.game(game_id) != meta:
        return Copied(game_id, len(rows), copied, "its index row differs in the target")
    if target.read(game_id) != rows:
        return Copied(game_id, len(rows), copied, "its events differ in the target")
    if target.edition_content(meta["edition_hash"]) != content:
        return Copied(game_id, len(rows), copied, "its edition differs in the target")
    before, why = _state_of(source, game_id, editions)
    after, why_after = _state_of(target, game_id, editions)
    if why_after is not None and why is None:
        return Copied(game_id, len(rows), copied, f"the copy does not replay: {why_after}")
    if before != after:
        return Copied(game_id, len(rows), copied, "the copy replays to another state")
    return Copied(game_id, len(rows), copied, None)


def copy_games(source_url: str, target_url: str, editions: dict[str, Any]) -> list[Copied]:
    """Copy every game of ``source_url`` into ``target_url``, oldest first; one ``Copied`` per game."""
    source = open_store(source_url)
    target = open_store(target_url)
    try:
        return [copy_game(source, target, game_id, editions) for game_id in reversed(source.game_ids())]
    finally:
        source.close()
        target.close()
