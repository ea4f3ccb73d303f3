"""Edition drafts and saved editions as this phone keeps them.

The editor and the library pages go through these functions only, so who may see a draft, how long it
is held and how many a phone may hold are decided here, in one place:

- a draft and a saved edition belong to the phone that made them (``phone.phone_id``): another phone's
  draft id is unknown here (``LookupError``, a 404), and names are unique per phone;
- a draft expires ``DRAFT_DAYS`` after its last change (thrown away when the library is next read);
- a phone holds at most ``MAX_DRAFTS`` drafts and ``MAX_SAVED`` saved editions, and a file is at most
  ``MAX_FILE_BYTES``: beyond, ``LibraryFull`` says so in words;
- a draft made under a reuse key (an import's digest, ``fix:<game id>``) is made once: asking again
  returns the phone's draft under that key.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from companion.game.edition import Edition
from companion.tokens import new_token
from companion.web.http.db import service
from companion.web.http.phone import phone_id
from companion.web.words.catalogue import gettext, ngettext
from events.store import Draft, NamedEdition

__all__ = [
    "DRAFT_DAYS",
    "MAX_DRAFTS",
    "MAX_FILE_BYTES",
    "MAX_SAVED",
    "LibraryFull",
    "NameTaken",
    "drop_draft",
    "drop_named",
    "expire_drafts",
    "load_draft",
    "my_drafts",
    "my_editions",
    "new_draft",
    "publish_named",
    "save_named",
    "saved_name_taken",
    "share_token",
    "store_draft",
]

DRAFT_DAYS = 30
MAX_DRAFTS = 20
MAX_SAVED = 30
MAX_FILE_BYTES = 256 * 1024  # the shipped file is about 27 kB; a checked copy grows by its dates only


class LibraryFull(Exception):
    """This phone may not keep one more draft or edition, or a file this large: ``message`` says which."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NameTaken(Exception):
    """This phone already saved an edition under ``name`` (replacing it must be asked for)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _now() -> datetime:
    return datetime.now(UTC)


def _cutoff() -> str:
    """The last-change time before which a draft has expired (as the store writes times)."""
    return (_now() - timedelta(days=DRAFT_DAYS)).isoformat(timespec="milliseconds")


def _check_size(text: str) -> None:
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise LibraryFull(
            gettext(
                "This file is too large for an edition (%(size)s kB; at most %(limit)s kB).",
                size=size // 1024,
                limit=MAX_FILE_BYTES // 1024,
            )
        )


def expire_drafts() -> None:
    """Throw away every draft (of any phone) last changed more than ``DRAFT_DAYS`` ago."""
    service().store.drop_drafts_before(_cutoff())


def my_drafts() -> list[Draft]:
    """This phone's drafts, the last changed first (expired ones thrown away first)."""
    expire_drafts()
    return service().store.drafts_of(phone_id())


def new_draft(text: str, reuse: str | None = None) -> str:
    """Keep ``text`` as a new draft of this phone; its id. With ``reuse``, the phone's draft already held
    under that key is returned as it is instead. Raises ``LibraryFull`` (too large, or too many drafts)."""
    _check_size(text)
    owner, store = phone_id(), service().store
    expire_drafts()
    if reuse:
        found = store.draft_for_key(owner, reuse)
        if found is not None:
            return found.draft_id
    if len(store.drafts_of(owner)) >= MAX_DRAFTS:
        raise LibraryFull(
            ngettext(
                "This phone already keeps %(num)s draft: continue it or throw it away first.",
                "This phone already keeps %(num)s drafts: continue one or throw one away first.",
                MAX_DRAFTS,
            )
        )
    draft_id = new_token()
    try:
        store.put_draft(draft_id, owner, text, reuse)
    except Exception:  # two taps at once under one reuse key: the key is unique per phone, one draft won
        found = store.draft_for_key(owner, reuse) if reuse else None
        if found is None:
            raise
        return found.draft_id
    return draft_id


def load_draft(draft_id: str) -> str:
    """The text of this phone's draft; raises ``LookupError`` when it has none by that id (another
    phone's, expired, thrown away)."""
    found = service().store.draft(draft_id)
    if found is None or found.owner != phone_id() or found.updated_at < _cutoff():
        raise LookupError(draft_id)
    return found.content


def store_draft(draft_id: str, text: str) -> None:
    """Keep this phone's draft's new text; raises ``LookupError`` for a draft not its own and
    ``LibraryFull`` for a text too large."""
    _check_size(text)
    load_draft(draft_id)
    if not service().store.put_draft(draft_id, phone_id(), text):
        raise LookupError(draft_id)


def drop_draft(draft_id: str) -> None:
    """Throw away this phone's draft (another phone's is left alone)."""
    service().store.drop_draft(draft_id, phone_id())


def my_editions() -> list[NamedEdition]:
    """The editions this phone saved, newest first."""
    return service().store.named_editions(phone_id())


def saved_name_taken(name: str) -> bool:
    """Whether this phone already saved an edition under ``name``."""
    return service().store.named_edition(phone_id(), name) is not None


def save_named(name: str, text: str, replace: bool) -> Edition:
    """Validate ``text`` and keep it as this phone's edition ``name``. A name this phone already used
    is replaced only with ``replace`` (else ``NameTaken``); beyond ``MAX_SAVED`` editions, or for a text
    too large, ``LibraryFull``; an invalid text raises ``EditionError``."""
    _check_size(text)
    taken = saved_name_taken(name)
    if taken and not replace:
        raise NameTaken(name)
    if not taken and len(my_editions()) >= MAX_SAVED:
        raise LibraryFull(
            ngettext(
                "This phone already keeps %(num)s saved edition: remove one first.",
                "This phone already keeps %(num)s saved editions: remove one first.",
                MAX_SAVED,
            )
        )
    return service().library.save_edition(name, text, phone_id())


def drop_named(name: str) -> None:
    """Forget this phone's edition ``name`` (games made with it keep their copy)."""
    service().store.drop_named_edition(phone_id(), name)


def share_token(name: str) -> str | None:
    """The token of the share link of this phone's edition ``name`` (made once); None: no such edition."""
    return service().store.share_edition(phone_id(), name, new_token())


def publish_named(name: str, published: bool) -> None:
    """Publish this phone's edition ``name`` for every table, or take it back."""
    service().store.publish_edition(phone_id(), name, published)
