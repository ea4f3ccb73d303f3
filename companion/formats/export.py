"""Games as files the table owns: export to versioned JSON, import, and replay checks.

The export is an envelope ``{"format": "inferno-companion/game-log", "format_version": 2,
...}`` holding the exact edition text the game pinned, a summary of the set-up, and every
event with its type, version and data (old versions stay as they were recorded; readers
upcast them). It carries no secret: no idempotency key, token, join code or game id (format
1 files carried keys and the game id; they are still read, and the keys are dropped).
``docs/log-format.md`` describes it. A file is checked field by field (``formats.export_reading``) and
replayed through the rules before anything is stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol

from companion.formats.commands import BadCommand, command_from_json, command_to_json, event_from_row
from companion.formats.export_reading import FORMAT, FORMAT_VERSION, BadExport, check_export, parse_export
from companion.game.audit import Breach, LoggedAction, actions_of, audit
from companion.game.commands import CreateGame, StartTally
from companion.game.edition import Edition, EditionError, content_hash, parse_edition
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import AnyState, scoresheet
from companion.game.scoring import Scoresheet
from companion.log_view import AnyView
from companion.tokens import new_join_code, new_token
from events.codec import UnknownEventType
from events.store import Store

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "BadExport",
    "Games",
    "export_game",
    "import_game",
    "parse_export",
    "read_export",
    "replay_export",
    "score_export",
    "without_secrets",
]


class Games(Protocol):
    """What an export reads and an import writes through: the store of games (the game service
    is one), and a game as the service reads it."""

    @property
    def store(self) -> Store: ...

    def view(self, game_id: str, fresh: bool = False) -> AnyView: ...


KIND_OF_START = {CreateGame: "game", StartTally: "tally"}

# The fields of an event or command that hold a secret of another game, blanked in every export: the
# next game's read-only token and the app's signature of it (an import cannot follow the link, and
# the rules replay the blanked entry exactly as they replay the recorded one).
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "NextGameCreated": ("read_token", "proof"),
    "StartNextGame": ("read_token", "proof"),
}


def without_secrets(type_name: str, data: Any) -> Any:
    """``data`` of an event or command of ``type_name`` with every secret field blanked."""
    hidden = SECRET_FIELDS.get(type_name, ())
    if not hidden or not isinstance(data, dict):
        return data
    return {k: ("" if k in hidden else v) for k, v in data.items()}


def _command_without_secrets(command: Any) -> Any:
    if not isinstance(command, dict):
        return command
    data = command.get("data")
    if command.get("type") == "ReplaceEntry" and isinstance(data, dict):
        data = {**data, "replacement": _command_without_secrets(data.get("replacement"))}
    return {**command, "data": without_secrets(str(command.get("type")), data)}


def export_game(service: Games, game_id: str) -> dict[str, Any]:
    """A game as a JSON-ready envelope, without any secret that opens the game."""
    view = service.view(game_id)
    meta = service.store.game(game_id)
    text = service.store.edition_content(meta["edition_hash"])
    first = view.rows[0] if view.rows else None
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
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
                "data": without_secrets(r.type, r.data),
                "recorded_at": r.recorded_at,
                "command": _command_without_secrets(r.command),
                "actor": r.actor,
            }
            for r in view.rows
        ],
    }


def read_export(data: Any) -> tuple[str, Edition, list[LoggedAction]]:
    """The edition text, the parsed edition and the actions of an export; ``BadExport`` if unreadable."""
    text, edition, actions, _rows = _read(data)
    return text, edition, actions


def _read(data: Any) -> tuple[str, Edition, list[LoggedAction], list[dict[str, Any]]]:
    loaded = check_export(data)
    edition_info = loaded["edition"]
    text = edition_info["content"]
    if content_hash(text) != edition_info["hash"]:
        raise BadExport("edition.content does not match edition.hash")
    try:
        edition = parse_edition(text)
    except EditionError as exc:
        raise BadExport(f"edition: {str(exc)[:160]}") from exc
    except (ArithmeticError, AttributeError, LookupError, RecursionError, TypeError, ValueError) as exc:
        raise BadExport(f"edition: not a readable edition file ({type(exc).__name__})") from exc
    rows = []
    for i, raw in enumerate(loaded["events"]):
        try:
            evt = event_from_row(raw["type"], raw["version"], raw["data"])
            command = command_from_json(raw["command"]) if raw["command"] is not None else None
        except (UnknownEventType, BadCommand) as exc:
            raise BadExport(f"events[{i}]: {str(exc)[:200]}") from exc
        rows.append((raw["seq"], raw["action"], evt, command))
    start = KIND_OF_START.get(type(rows[0][3]))
    if start is None:
        raise BadExport("events[0]: a log starts with CreateGame or StartTally")
    if start != loaded["kind"]:
        raise BadExport(f"kind {loaded['kind']!r} does not match the log, which records a {start}")
    return text, edition, actions_of(rows), loaded["events"]


def _audit(edition: Edition, actions: list[LoggedAction]) -> tuple[AnyState | None, Breach | None]:
    """``audit``, with anything the rules did not foresee in a checked file reported, not raised."""
    try:
        return audit(edition, actions)
    except RuleViolation as exc:
        raise BadExport(f"the log cannot be replayed: {exc.code}") from exc
    except (ArithmeticError, AssertionError, AttributeError, LookupError, RecursionError, TypeError, ValueError) as exc:
        raise BadExport(f"the log cannot be replayed: {type(exc).__name__}") from exc


def replay_export(data: Any) -> tuple[Edition, AnyState | None, Breach | None]:
    """Replay an export through the rules: the final state and the first breach."""
    _text, edition, actions = read_export(data)
    state, breach = _audit(edition, actions)
    return edition, state, breach


def _breach_text(breach: Breach) -> str:
    return f"entry #{breach.seq} (event index {breach.index}) no longer holds: {breach.code} {breach.rule}"


def score_export(data: Any) -> tuple[Edition, Scoresheet]:
    """The score breakdown of an exported game or tally, once every entry holds under the rules."""
    _text, edition, actions = read_export(data)
    state, breach = _audit(edition, actions)
    if breach is not None or state is None:
        raise BadExport(_breach_text(breach) if breach is not None else "the log has no events")
    return edition, scoresheet(state)


def import_game(service: Games, data: Any) -> str:
    """Store an exported game under a new id, after checking it replays through the rules.

    The copy gets its own tokens and join code; no idempotency key of the file is carried over.
    """
    text, edition, actions, rows = _read(data)
    _state, breach = _audit(edition, actions)
    if breach is not None:
        raise BadExport(_breach_text(breach))
    commands = {a.seq: a.command for a in actions}
    stored = [
        {**row, "idempotency_key": None, "command": command_to_json(commands[row["seq"]]) if row["command"] else None}
        for row in rows
    ]
    service.store.keep_edition(edition.content_hash, edition.id, text)
    game_id = new_token()
    kind = "tally" if isinstance(actions[0].command, StartTally) else "game"
    service.store.import_game(game_id, kind, edition.content_hash, (new_token(), new_token()), stored)
    service.store.set_join_code(game_id, new_join_code())
    return game_id
