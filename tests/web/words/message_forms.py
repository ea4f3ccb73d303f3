"""A catalogue message's id or translation as the words tests read it: a tuple of plain strings."""

from __future__ import annotations


def forms(part: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Babel's ``Message.id`` or ``Message.string`` as its forms: one for a plain message, one per plural form
    for a plural one; a missing translation is one empty form."""
    if part is None:
        return ("",)
    return (part,) if isinstance(part, str) else tuple(part)
