"""The edition library as the service reads it: the editions shipped with the app, and those the
store keeps (pinned by a game, saved by a phone or the command line, published by a table).

A game is always replayed with the exact edition it pinned, found here by its content hash; a new
game is created with one of the shipped editions or one a phone may choose (``edition_choices``).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.game.edition import Edition, parse_edition
from events.store import NO_OWNER, Store

__all__ = ["EditionService"]


class EditionService:
    """Find, read and save editions: the shipped ones by id, every one by its content hash."""

    def __init__(self, store: Store, shipped: Mapping[str, tuple[str, Edition]]) -> None:
        self.store = store
        self.shipped = shipped  # by edition id: (the file's exact text, the parsed edition)
        self._by_hash: dict[str, Edition] = {e.content_hash: e for _, e in shipped.values()}

    def edition(self, edition_id: str) -> Edition:
        """The current shipped edition file with this id."""
        return self.shipped[edition_id][1]

    def pinned_edition(self, content_hash: str) -> Edition:
        """The exact edition with this content hash: a shipped one, or the copy kept in the store
        (a game's pinned edition, a saved or published one); raises ``LookupError``."""
        if content_hash not in self._by_hash:
            text = self.store.edition_content(content_hash)
            if text is None:
                raise LookupError(f"edition {content_hash} is not kept in this database")
            self._by_hash[content_hash] = parse_edition(text)
        return self._by_hash[content_hash]

    def edition_by_hash(self, content_hash: str) -> Edition:
        """A shipped or saved edition by its content hash; raises ``LookupError``."""
        return self.pinned_edition(content_hash)

    def edition_text(self, content_hash: str) -> str:
        """The exact text of a shipped or kept edition; raises ``LookupError``."""
        for text, edition in self.shipped.values():
            if edition.content_hash == content_hash:
                return text
        kept = self.store.edition_content(content_hash)
        if kept is None:
            raise LookupError(f"edition {content_hash} is not kept in this database")
        return kept

    def edition_choices(self, owner: str | None = None) -> list[tuple[str, str]]:
        """Every edition a phone may create a game with, as (hash, name): the shipped ones, the server's
        own (saved from the command line or before phones had owners), the phone ``owner``'s saved
        ones, then the published ones of every table; each edition once."""
        choices = [(e.content_hash, e.name) for _, e in self.shipped.values()]
        named = self.store.named_editions(NO_OWNER)
        if owner:
            named += self.store.named_editions(owner)
        seen = {h for h, _ in choices}
        for entry in [*named, *self.store.published_editions()]:
            if entry.content_hash not in seen:
                seen.add(entry.content_hash)
                choices.append((entry.content_hash, entry.name))
        return choices

    def save_edition(self, name: str, text: str, owner: str = NO_OWNER) -> Edition:
        """Validate an edition's text and keep it under ``owner``'s ``name`` (no owner: the server's own,
        seen by every phone); raises ``EditionError``."""
        edition = parse_edition(text)
        self.store.name_edition(owner, name, edition.content_hash, edition.id, text)
        self._by_hash.setdefault(edition.content_hash, edition)
        return edition

    def keep(self, edition: Edition, text: str) -> None:
        """Keep ``edition``'s exact ``text`` in the store, under its content hash (a game pins it)."""
        self.store.keep_edition(edition.content_hash, edition.id, text)
