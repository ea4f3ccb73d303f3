"""``companion transfer --from URL --to URL`` (first called ``migrate``): copy every game from one
database to another (SQLite ⇄ PostgreSQL), each verified by replay (``companion.service.transfer``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.service.transfer import copy_games

__all__ = ["add_transfer_command"]


def cmd_transfer(args: argparse.Namespace) -> int:
    """Copy every game and print one line per game; exit 1 if any copy does not hold."""
    from companion.editions import load_all

    moved = copy_games(args.source, args.target, load_all())
    for m in moved:
        verdict = "verified" if m.problem is None else f"FAILED: {m.problem}"
        print(f"{m.game_id}  {m.events} events  {'copied' if m.copied else 'already there'}  {verdict}")
    failed = sum(1 for m in moved if m.problem is not None)
    copied = sum(1 for m in moved if m.copied)
    print(f"{len(moved)} games: {copied} copied, {len(moved) - copied} already there, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


def add_transfer_command(sub: Any) -> None:
    """Add ``transfer`` (also under its first name, ``migrate``) to the command line."""
    parser = sub.add_parser(
        "transfer", aliases=["migrate"], help="copy every game to another database and verify each by replay"
    )
    parser.add_argument("--from", dest="source", required=True, help="sqlite:///FILE, a path, or postgresql://…")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://… (or another SQLite file)")
    parser.set_defaults(run=cmd_transfer)
