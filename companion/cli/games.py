"""``companion export``, ``import``, ``replay`` and ``score``: a game's log as a file the table owns,
stored again, replayed through the rules, or scored.

The file commands never show a traceback: a file they cannot use is one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli import db_target

if TYPE_CHECKING:
    from companion.service import GameService

__all__ = ["add_game_commands"]


def _service(args: argparse.Namespace) -> GameService:
    from companion.editions import load_all
    from companion.service import GameService
    from events.factory import open_store

    return GameService(open_store(db_target(args)), load_all())


def cmd_export(args: argparse.Namespace) -> int:
    """Print a game's log as JSON."""
    from companion.formats.export import export_game
    from events.store import UnknownGame

    try:
        data = export_game(_service(args), args.game_id)
    except UnknownGame:
        print(f"no game {args.game_id!r} in {db_target(args)}", file=sys.stderr)
        return 2
    json.dump(data, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


def _read_export(path: str) -> Any:
    """The JSON of an export file (``-``: standard input), checked for safety; ``BadExport`` if not."""
    from companion.formats.export import BadExport, parse_export

    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise BadExport(exc.strerror or type(exc).__name__) from None
    return parse_export(raw)


def _cannot(verb: str, path: str, exc: Exception) -> int:
    """One line on stderr, exit 1: a file the command cannot use."""
    print(f"cannot {verb} {path}: {exc}".replace("\n", " "), file=sys.stderr)
    return 1


def cmd_import(args: argparse.Namespace) -> int:
    """Store an exported game under a new id."""
    from companion.formats.export import BadExport, import_game

    try:
        game_id = import_game(_service(args), _read_export(args.file))
    except BadExport as exc:
        return _cannot("import", args.file, exc)
    print(game_id)
    print(f"Open it at /g/{game_id}", file=sys.stderr)
    return 0


def _tally_summary(state: Any) -> dict[str, Any]:
    """A quick tally as JSON: its players, whether everything is entered, and the score so far."""
    from companion.game.game_or_tally import scoresheet
    from companion.readmodels.scoresheet import scoresheet_dict

    return {"names": list(state.names), "complete": state.complete, "score": scoresheet_dict(scoresheet(state))}


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay an exported log through the rules and print the final state (a tally: its score)."""
    from companion.formats.export import BadExport, replay_export
    from companion.game.game_or_tally import scoresheet
    from companion.game.state import GameState
    from companion.readmodels.scoresheet import scoresheet_text
    from companion.readmodels.summary import state_summary, summary_text

    try:
        _edition, state, breach = replay_export(_read_export(args.file))
    except BadExport as exc:
        return _cannot("read", args.file, exc)
    if breach is not None:
        print(
            f"event {breach.index} (entry #{breach.seq}) is illegal: {breach.code} — {breach.rule} "
            f"{json.dumps(breach.params, default=str)}",
            file=sys.stderr,
        )
    if state is not None:
        if args.json:
            json.dump(
                {
                    "state": state_summary(state) if isinstance(state, GameState) else _tally_summary(state),
                    "breach": None
                    if breach is None
                    else {"index": breach.index, "seq": breach.seq, "code": breach.code, "rule": breach.rule},
                },
                sys.stdout,
                indent=1,
            )
            print()
        elif isinstance(state, GameState):
            print(summary_text(state))
        else:
            print(scoresheet_text(scoresheet(state), state.edition))
    return 1 if breach is not None else 0


def cmd_score(args: argparse.Namespace) -> int:
    """Print the score breakdown of a recorded game or a quick tally."""
    from companion.formats.export import BadExport, score_export
    from companion.readmodels.scoresheet import scoresheet_dict, scoresheet_text

    try:
        edition, sheet = score_export(_read_export(args.file))
    except BadExport as exc:
        return _cannot("score", args.file, exc)
    if args.json:
        json.dump(scoresheet_dict(sheet), sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        print(scoresheet_text(sheet, edition))
    return 0


def add_game_commands(sub: Any) -> None:
    """Add ``export``, ``import``, ``replay`` and ``score`` to the command line."""
    export = sub.add_parser("export", help="print a game's log as JSON")
    export.add_argument("game_id")
    export.add_argument("--db")
    export.set_defaults(run=cmd_export)
    imp = sub.add_parser("import", help="import an exported game under a new id")
    imp.add_argument("file")
    imp.add_argument("--db")
    imp.set_defaults(run=cmd_import)
    rep = sub.add_parser("replay", help="replay an exported log through the rules")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true")
    rep.set_defaults(run=cmd_replay)
    sco = sub.add_parser("score", help="print the score breakdown of an exported game or quick tally")
    sco.add_argument("file")
    sco.add_argument("--json", action="store_true")
    sco.set_defaults(run=cmd_score)
