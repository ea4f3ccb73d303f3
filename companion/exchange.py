"""Games as files the table owns: export to versioned JSON, import, and replay checks.

The export is an envelope ``{"format": "inferno-companion/game-log", "format_version": 1,
...}`` holding the exact edition text the game pinned, a summary of the set-up, and every
event with its type, version and data (old versions stay as they were recorded; readers
upcast them). ``docs/log-format.md`` describes it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from companion.game.audit import Breach, LoggedAction, actions_of, audit
from companion.game.dispatch import AnyState, replay_any, scoresheet
from companion.game.edition import Edition, EditionError, content_hash, parse_edition
from companion.game.scoring import Scoresheet
from companion.game.timeline import Recorded, build_timeline
from companion.service import GameService, new_join_code, new_token
from companion.wire import BadCommand, command_from_json, event_from_row
from events.codec import UnknownEventType

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "BadExport",
    "export_game",
    "import_game",
    "read_export",
    "replay_export",
    "score_export",
]

FORMAT = "inferno-companion/game-log"
FORMAT_VERSION = 1


class BadExport(ValueError):
    """A file that is not a readable game log."""


def export_game(service: GameService, game_id: str) -> dict[str, Any]:
    """A game as a JSON-ready envelope."""
    view = service.view(game_id)
    meta = service.store.game(game_id)
    text = service.store.edition_content(meta["edition_hash"])
    first = view.rows[0] if view.rows else None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": game_id,
        "kind": view.kind,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "edition": {"id": view.edition.id, "hash": view.edition.content_hash, "content": text},
        "setup": first.data if first is not None else {},
        "events": [
            {
                "seq": r.seq,
                "action": r.action,
                "type": r.type,
                "version": r.version,
                "data": r.data,
                "recorded_at": r.recorded_at,
                "idempotency_key": r.idempotency_key,
                "command": r.command,
                "actor": r.actor,
            }
            for r in view.rows
        ],
    }


def read_export(data: Any) -> tuple[str, Edition, list[LoggedAction]]:
    """The edition text, the parsed edition and the actions of an export; ``BadExport`` if unreadable."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadExport(f"not a game log: 'format' must be {FORMAT!r}")
    if data.get("format_version") != FORMAT_VERSION:
        raise BadExport(f"unsupported format_version {data.get('format_version')!r} (this app reads {FORMAT_VERSION})")
    edition_info = data.get("edition") or {}
    text = edition_info.get("content")
    if not isinstance(text, str):
        raise BadExport("edition.content is missing")
    if content_hash(text) != edition_info.get("hash"):
        raise BadExport("edition.content does not match edition.hash")
    try:
        edition = parse_edition(text)
    except EditionError as exc:
        raise BadExport(f"edition: {exc}") from exc
    rows = []
    for i, raw in enumerate(data.get("events") or []):
        try:
            evt = event_from_row(raw["type"], int(raw["version"]), raw["data"])
            command = command_from_json(raw["command"]) if raw.get("command") else None
            rows.append((int(raw["seq"]), int(raw["action"]), evt, command))
        except (KeyError, TypeError, ValueError, UnknownEventType, BadCommand) as exc:
            raise BadExport(f"events[{i}]: {exc}") from exc
    if not rows:
        raise BadExport("the log has no events")
    if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
        raise BadExport("events must be numbered 1, 2, 3… without gaps")
    return text, edition, actions_of(rows)


def replay_export(data: Any) -> tuple[Edition, AnyState | None, Breach | None]:
    """Replay an export through the rules: the final state and the first breach."""
    _text, edition, actions = read_export(data)
    state, breach = audit(edition, actions)
    return edition, state, breach


def score_export(data: Any) -> tuple[Edition, Scoresheet]:
    """The score breakdown of an exported game or tally (its effective events, folded)."""
    _text, edition, actions = read_export(data)
    records = [Recorded(a.seq + i, a.seq, e) for a in actions for i, e in enumerate(a.events)]
    state = replay_any(edition, build_timeline(records).effective_events())
    return edition, scoresheet(state)


def import_game(service: GameService, data: Any) -> str:
    """Store an exported game under a new id, after checking it replays through the rules."""
    text, edition, actions = read_export(data)
    _state, breach = audit(edition, actions)
    if breach is not None:
        raise BadExport(
            f"entry #{breach.seq} (event index {breach.index}) no longer holds: {breach.code} {breach.rule}"
        )
    service.store.keep_edition(edition.content_hash, edition.id, text)
    game_id = new_token()
    service.store.import_game(
        game_id, str(data.get("kind", "game")), edition.content_hash, (new_token(), new_token()), data["events"]
    )
    service.store.set_join_code(game_id, new_join_code())
    return game_id
