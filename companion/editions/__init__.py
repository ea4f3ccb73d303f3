"""The edition data files shipped with the app, read from this folder and validated.

A broken file stops the app at start with a message naming the bad entry
(``load_all`` is called by the application factory and the CLI), never mid-game.
"""

from __future__ import annotations

from pathlib import Path

from companion.game.edition import Edition, EditionError, parse_edition

__all__ = ["DEFAULT_EDITION", "EDITIONS_DIR", "load_all", "load_file"]

EDITIONS_DIR = Path(__file__).parent
DEFAULT_EDITION = "inferno-base"


def load_file(path: Path) -> tuple[str, Edition]:
    """The exact text of an edition file and its parsed, validated form."""
    text = path.read_text(encoding="utf-8")
    try:
        return text, parse_edition(text)
    except EditionError as exc:
        raise exc.retold(path.name) from exc


def load_all(folder: Path = EDITIONS_DIR) -> dict[str, tuple[str, Edition]]:
    """Every edition file in ``folder``, keyed by edition id."""
    editions: dict[str, tuple[str, Edition]] = {}
    for path in sorted(folder.glob("*.json")):
        text, edition = load_file(path)
        editions[edition.id] = (text, edition)
    if not editions:
        raise EditionError(f"no edition files in {folder.name}/", "missing", (), {"key": folder.name})
    return editions
