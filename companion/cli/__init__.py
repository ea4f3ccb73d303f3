"""The command line: serve, export, import, replay and score.

companion serve [--host H] [--port P] [--db FILE] [--workers N]
companion export GAME_ID [--db FILE] > game.json
companion import game.json [--db FILE]
companion replay game.json [--json]
companion score game.json [--json]
companion migrate --from sqlite:///FILE --to postgresql://…

The file commands never show a traceback: a file they cannot use is one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

__all__ = ["main"]


def _db_path(args: argparse.Namespace) -> str:
    from companion.web import ROOT

    return str(args.db or os.environ.get("COMPANION_DB") or ROOT / "instance" / "companion.sqlite3")


def _service(args: argparse.Namespace) -> Any:
    from companion.editions import load_all
    from companion.service import GameService
    from events.factory import open_store

    return GameService(open_store(_db_path(args)), load_all())


def _lan_address() -> str | None:
    """This machine's address on the local network, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the app (gunicorn with gevent where it runs, else waitress) and say where to open it."""
    from companion.cli.serve import gunicorn_runs_here, serve
    from companion.editions import load_all
    from events.factory import shown

    os.environ["COMPANION_DB"] = _db_path(args)
    load_all()  # a broken edition file stops the start here, with its message, before any server
    from events.factory import is_postgres, open_store

    if not is_postgres(_db_path(args)):  # PostgreSQL migrates under a lock; psycopg must load after gevent
        open_store(_db_path(args)).close()  # migrated once here, so the workers do not race to create tables
    server = args.server if args.server != "auto" else ("gunicorn" if gunicorn_runs_here() else "waitress")
    print(f"Inferno Companion — database: {shown(_db_path(args))} — server: {server}")
    print(f"  Open on this computer:  http://127.0.0.1:{args.port}/")
    lan = _lan_address()
    if args.host in ("0.0.0.0", "::") and lan:
        print(f"  Open on phones:         http://{lan}:{args.port}/")
        print("  Phones must be on the same Wi-Fi as this computer; each game page shows a QR code to join.")
    elif args.host in ("127.0.0.1", "localhost"):
        print("  Only this computer can connect. For phones, run: companion serve --host 0.0.0.0")
    sys.stdout.flush()
    serve(args.host, args.port, threads=args.threads, server=server, workers=args.workers)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Print a game's log as JSON."""
    from companion.formats.export import export_game
    from events.store import UnknownGame

    try:
        data = export_game(_service(args), args.game_id)
    except UnknownGame:
        print(f"no game {args.game_id!r} in {_db_path(args)}", file=sys.stderr)
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
    from companion.game.any_log import scoresheet
    from companion.readmodels.scoresheet import scoresheet_dict

    return {"names": list(state.names), "complete": state.complete, "score": scoresheet_dict(scoresheet(state))}


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay an exported log through the rules and print the final state (a tally: its score)."""
    from companion.formats.export import BadExport, replay_export
    from companion.game.any_log import scoresheet
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="companion", description="Inferno Companion")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the web app")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let phones on the LAN connect")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=32, help="waitress only: threads (one per open live page)")
    serve.add_argument(
        "--workers", type=int, default=1, help="gunicorn only: processes (each with gevent; they share presence)"
    )
    serve.add_argument(
        "--server", choices=("auto", "gunicorn", "waitress"), default="auto", help="auto: gunicorn where it runs"
    )
    serve.add_argument("--db")
    serve.set_defaults(run=cmd_serve)
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
    from companion.cli.editions import add_edition_commands

    add_edition_commands(sub)
    from companion.service.transfer import add_parser as add_migrate

    add_migrate(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
