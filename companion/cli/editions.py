"""``companion edition check FILE`` and ``companion edition diff A B``: edition files from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.editions.library import check_progress, diff_editions
from companion.game.edition import EditionError, parse_edition

__all__ = ["add_edition_commands"]


def _read(path: str) -> str:
    """The text of an edition file; ``EditionError`` when it cannot be read as UTF-8 text."""
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise EditionError(f"cannot read the file: {exc.strerror or exc}", "not_json", (), {}) from exc
    except UnicodeDecodeError as exc:
        raise EditionError(f"not an edition: not UTF-8 text (byte {exc.start})", "not_json", (), {}) from exc


def cmd_check(args: argparse.Namespace) -> int:
    """Validate an edition file: the validator's message and exit 1 when it is not valid."""
    try:
        edition = parse_edition(_read(args.file))
    except EditionError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    done, total, _left = check_progress(edition.raw)
    print(f"{args.file}: a valid edition, '{edition.name}' ({edition.id}), sha256 {edition.content_hash}")
    print(f"  {done} of {total} estimated values checked against a real board")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """What differs between two edition files, one line per difference, like ``diff``: exit 0 when
    they play the same, 1 when they differ, 2 when one of them is not a valid edition."""
    raws = []
    for name in (args.a, args.b):
        try:
            raws.append(parse_edition(_read(name)).raw)
        except EditionError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            return 2
    differences = diff_editions(raws[0], raws[1])
    if not differences:
        print("The two editions play the same (provenance and notes aside).")
        return 0
    for line in differences:
        print(line)
    return 1


def add_edition_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``edition check`` and ``edition diff`` to the command line."""
    edition = sub.add_parser("edition", help="check or compare edition files")
    inner = edition.add_subparsers(dest="edition_command", required=True)
    check = inner.add_parser("check", help="validate an edition file (exit 1 with the message when it is not valid)")
    check.add_argument("file")
    check.set_defaults(run=cmd_check)
    diff = inner.add_parser(
        "diff", help="say what differs between two edition files (exit 0: the same, 1: they differ, 2: a bad file)"
    )
    diff.add_argument("a")
    diff.add_argument("b")
    diff.set_defaults(run=cmd_diff)
