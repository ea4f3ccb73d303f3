"""The command line (``companion`` or ``python -m companion``), one module per group of commands:

    companion serve [--host H] [--port P] [--db FILE] [--workers N] [--server auto|gunicorn|waitress]   (serve.py)
    companion export GAME_ID [--db FILE] > game.json                                                  (games.py)
    companion import game.json [--db FILE]
    companion replay game.json [--json]
    companion score game.json [--json]
    companion edition check FILE | companion edition diff A B  (diff exits 0: same, 1: differ, 2: bad) (editions.py)
    companion transfer --from sqlite:///FILE --to postgresql://…  (also as "migrate")                 (transfer.py)

Each module imports what it needs when its command runs: ``serve`` must load psycopg only after
gevent has patched the standard library.
"""

from __future__ import annotations

import argparse
import os

__all__ = ["build_parser", "db_target", "main"]


def db_target(args: argparse.Namespace) -> str:
    """The database a command works on: ``--db``, else ``COMPANION_DB``, else the instance folder's file."""
    from companion.web import ROOT

    return str(args.db or os.environ.get("COMPANION_DB") or ROOT / "instance" / "companion.sqlite3")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: each group of commands adds its own."""
    from companion.cli.editions import add_edition_commands
    from companion.cli.games import add_game_commands
    from companion.cli.serve import add_serve_command
    from companion.cli.transfer import add_transfer_command

    parser = argparse.ArgumentParser(prog="companion", description="Inferno Companion")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_command(sub)
    add_game_commands(sub)
    add_edition_commands(sub)
    add_transfer_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
