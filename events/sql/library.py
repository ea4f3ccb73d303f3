"""The queries of the edition library both engines share: ``SqlEditionLibrary``.

Edition contents are kept by hash (``editions``); the names, share tokens and publications phones
give them are rows of ``edition_names``, which may change and be deleted (they are not events).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.library import NamedEdition
from events.sql.engine import SqlEngine, utc_now

__all__ = ["SqlEditionLibrary"]


class SqlEditionLibrary(SqlEngine):
    """The edition library in the same SQL on both engines, through the engine's hooks."""

    # ----------------------------------------------------------------- contents by hash

    def keep_edition(self, content_hash: str, edition_id: str, content: str) -> None:
        """Keep a copy of an edition file's exact content, addressed by its hash."""
        self._execute(
            "INSERT INTO editions (hash, edition_id, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
            (content_hash, edition_id, content),
        )

    def edition_content(self, content_hash: str) -> str | None:
        """The kept content of the edition with this hash, if any."""
        row = self._one("SELECT content FROM editions WHERE hash = ?", (content_hash,))
        return None if row is None else str(row[0])

    # ----------------------------------------------------------------- names, share links, publications

    def name_edition(self, owner: str, name: str, content_hash: str, edition_id: str, content: str) -> None:
        """Keep an edition's content and list it under this phone's ``name`` (saved again: the name points to
        the new content, keeping its share link and its publication)."""
        with self._transaction():
            self.keep_edition(content_hash, edition_id, content)
            self._execute(
                "INSERT INTO edition_names (owner, name, hash, saved_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (owner, name) DO UPDATE SET hash = excluded.hash, saved_at = excluded.saved_at",
                (owner, name, content_hash, utc_now()),
            )

    def named_editions(self, owner: str) -> list[NamedEdition]:
        """The editions ``owner`` saved, newest first."""
        return self._named("WHERE owner = ? ORDER BY saved_at DESC, name", (owner,))

    def named_edition(self, owner: str, name: str) -> NamedEdition | None:
        """The edition ``owner`` saved under ``name``, if any."""
        found = self._named("WHERE owner = ? AND name = ?", (owner, name))
        return found[0] if found else None

    def drop_named_edition(self, owner: str, name: str) -> None:
        """Forget ``owner``'s name (the content stays kept by hash: a game may play it)."""
        self._execute("DELETE FROM edition_names WHERE owner = ? AND name = ?", (owner, name))

    def share_edition(self, owner: str, name: str, token: str) -> str | None:
        """The share token of ``owner``'s ``name``: its existing one, else ``token`` (None: no such edition)."""
        with self._transaction():
            self._execute(
                "UPDATE edition_names SET share_token = ? WHERE owner = ? AND name = ? AND share_token IS NULL",
                (token, owner, name),
            )
            found = self.named_edition(owner, name)
        return None if found is None else found.share_token

    def shared_edition(self, token: str) -> NamedEdition | None:
        """The edition whose share link carries ``token``, if any."""
        found = self._named("WHERE share_token = ?", (token,))
        return found[0] if found else None

    def publish_edition(self, owner: str, name: str, published: bool) -> None:
        """Publish ``owner``'s ``name`` for every table (from now), or take it back."""
        self._execute(
            "UPDATE edition_names SET published_at = ? WHERE owner = ? AND name = ?",
            (utc_now() if published else None, owner, name),
        )

    def published_editions(self) -> list[NamedEdition]:
        """Every published edition, of every phone, newest first."""
        return self._named("WHERE published_at IS NOT NULL ORDER BY published_at DESC, name", ())

    def _named(self, where: str, params: Sequence[Any]) -> list[NamedEdition]:
        rows = self._all(
            f"SELECT owner, name, hash, saved_at, published_at, share_token FROM edition_names {where}", params
        )
        return [
            NamedEdition(str(o), str(n), str(h), str(t), None if p is None else str(p), None if k is None else str(k))
            for o, n, h, t, p, k in rows
        ]
