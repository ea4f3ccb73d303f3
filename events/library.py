"""The contract of the edition library, whatever the engine: ``EditionLibrary`` and its record, ``NamedEdition``.

Edition files are kept by the hash of their exact content (a game names its edition by that hash,
so every game can be replayed against the very file it was played with). A phone may save an edition
under a name of its own (names are unique per phone), share it by a link's token and publish it for
every table; dropping a name never drops the content, which a game may still play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["NO_OWNER", "EditionLibrary", "NamedEdition"]

NO_OWNER = ""  # the owner of a named edition saved before phones had owners, or from the command line


@dataclass(frozen=True)
class NamedEdition:
    """An edition a phone saved under a name (names are unique per phone); ``share_token`` is its share
    link's token once shared, ``published_at`` when it was published for every table (None: its own)."""

    owner: str
    name: str
    content_hash: str
    saved_at: str
    published_at: str | None
    share_token: str | None


class EditionLibrary(Protocol):
    """Edition contents by hash, and the names, share links and publications phones give them."""

    def keep_edition(self, content_hash: str, edition_id: str, content: str) -> None: ...

    def edition_content(self, content_hash: str) -> str | None: ...

    def name_edition(self, owner: str, name: str, content_hash: str, edition_id: str, content: str) -> None: ...

    def named_editions(self, owner: str) -> list[NamedEdition]: ...

    def named_edition(self, owner: str, name: str) -> NamedEdition | None: ...

    def drop_named_edition(self, owner: str, name: str) -> None: ...

    def share_edition(self, owner: str, name: str, token: str) -> str | None: ...

    def shared_edition(self, token: str) -> NamedEdition | None: ...

    def publish_edition(self, owner: str, name: str, published: bool) -> None: ...

    def published_editions(self) -> list[NamedEdition]: ...
