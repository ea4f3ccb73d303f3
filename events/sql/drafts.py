"""The queries of edition drafts both engines share: ``SqlDrafts``.

Drafts are rows of ``edition_drafts``, each of one phone (``owner``); a new text replaces the old
and a draft is deleted when thrown away or expired (drafts are not events).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.drafts import Draft
from events.sql.engine import SqlEngine, utc_now

__all__ = ["SqlDrafts"]


class SqlDrafts(SqlEngine):
    """The drafts of every phone in the same SQL on both engines, through the engine's hooks."""

    def put_draft(self, draft_id: str, owner: str, content: str, reuse_key: str | None = None) -> bool:
        """Keep the current text of ``owner``'s draft (a new one, or a new text of its own): whether it was
        kept (another phone's draft id keeps nothing)."""
        with self._transaction():
            self._execute(
                "INSERT INTO edition_drafts (draft_id, owner, content, updated_at, reuse_key) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (draft_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at "
                "WHERE edition_drafts.owner = excluded.owner",
                (draft_id, owner, content, utc_now(), reuse_key),
            )
            kept = self.draft(draft_id)
        return kept is not None and kept.owner == owner and kept.content == content

    def draft(self, draft_id: str) -> Draft | None:
        """A draft edition, if any."""
        found = self._drafts("WHERE draft_id = ?", (draft_id,))
        return found[0] if found else None

    def drafts_of(self, owner: str) -> list[Draft]:
        """``owner``'s drafts, the last changed first."""
        return self._drafts("WHERE owner = ? ORDER BY updated_at DESC, draft_id", (owner,))

    def draft_for_key(self, owner: str, reuse_key: str) -> Draft | None:
        """``owner``'s draft kept under ``reuse_key``, if any."""
        found = self._drafts("WHERE owner = ? AND reuse_key = ?", (owner, reuse_key))
        return found[0] if found else None

    def drop_draft(self, draft_id: str, owner: str) -> None:
        """Throw away ``owner``'s draft (drafts are not events: deleting one is fine)."""
        self._execute("DELETE FROM edition_drafts WHERE draft_id = ? AND owner = ?", (draft_id, owner))

    def drop_drafts_before(self, updated_before: str) -> None:
        """Throw away every draft last changed before ``updated_before`` (an ISO time, as ``utc_now``)."""
        self._execute("DELETE FROM edition_drafts WHERE updated_at < ?", (updated_before,))

    def _drafts(self, where: str, params: Sequence[Any]) -> list[Draft]:
        rows = self._all(f"SELECT draft_id, owner, content, updated_at, reuse_key FROM edition_drafts {where}", params)
        return [Draft(str(i), str(o), str(c), str(t), None if k is None else str(k)) for i, o, c, t, k in rows]
