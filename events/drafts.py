"""The contract of edition drafts, whatever the engine: ``Drafts`` and its record, ``Draft``.

A draft is an edition file being edited or checked on one phone. Drafts are not events: a new text
replaces the old one, and a draft is deleted when its phone throws it away or when it expires.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["Draft", "Drafts"]


@dataclass(frozen=True)
class Draft:
    """An edition being edited or checked: its text, the phone that owns it, when it last changed, and the
    key under which the phone reuses it (an import's digest, a game's fix) instead of storing a copy."""

    draft_id: str
    owner: str
    content: str
    updated_at: str
    reuse_key: str | None


class Drafts(Protocol):
    """The drafts of every phone: each phone reads and writes its own only."""

    def put_draft(self, draft_id: str, owner: str, content: str, reuse_key: str | None = None) -> bool: ...

    def draft(self, draft_id: str) -> Draft | None: ...

    def drafts_of(self, owner: str) -> list[Draft]: ...

    def draft_for_key(self, owner: str, reuse_key: str) -> Draft | None: ...

    def drop_draft(self, draft_id: str, owner: str) -> None: ...

    def drop_drafts_before(self, updated_before: str) -> None: ...
