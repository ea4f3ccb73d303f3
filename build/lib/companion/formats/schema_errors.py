"""marshmallow's nested error messages, flattened once for every reader: the pages' forms (a
message per field), commands and exported files (one line per field path)."""

from __future__ import annotations

from typing import Any

__all__ = ["flatten_messages", "message_lines"]

NAME_MAX = 40  # a field name as shown back: a hostile file's key cannot fill the answer


def flatten_messages(messages: Any, depth: int | None = None) -> dict[str, list[str]]:
    """``{path: [sentence, ...]}``: each field's path from the top, its names joined by dots (only the
    first ``depth`` names when given), in the order marshmallow reports them; a message that names
    no field is under ``""``."""
    out: dict[str, list[str]] = {}

    def walk(path: tuple[str, ...], value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(path if depth is not None and len(path) >= depth else (*path, str(key)[:NAME_MAX]), inner)
        elif isinstance(value, (list, tuple)):
            for inner in value:
                walk(path, inner)
        else:
            out.setdefault(".".join(path), []).append(str(value))

    walk((), messages)
    return out


def message_lines(messages: Any) -> list[str]:
    """One ``field.path: sentence sentence`` line per field (a message of no field alone)."""
    return [
        f"{path}: {' '.join(texts)}" if path else " ".join(texts) for path, texts in flatten_messages(messages).items()
    ]
