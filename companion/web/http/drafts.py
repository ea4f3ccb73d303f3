"""Edition drafts as this phone keeps them: start one, read one, keep its new text.

The editor and the library pages go through these three functions only, so who may see a draft,
how long it is kept and how many a phone may hold are decided here, in one place.
"""

from __future__ import annotations

from companion.service import new_token
from companion.web.http.db import service

__all__ = ["load_draft", "new_draft", "store_draft"]


def new_draft(text: str) -> str:
    """Keep ``text`` as a new draft; its id."""
    draft_id = new_token()
    service().store.put_draft(draft_id, text)
    return draft_id


def load_draft(draft_id: str) -> str:
    """The text of a draft; raises ``LookupError`` when there is none."""
    text = service().store.draft(draft_id)
    if text is None:
        raise LookupError(draft_id)
    return text


def store_draft(draft_id: str, text: str) -> None:
    """Keep a draft's new text."""
    service().store.put_draft(draft_id, text)
