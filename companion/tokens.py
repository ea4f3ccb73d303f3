"""The ids a game is reached by: unguessable tokens (a game's id, its read and write links, a draft's
id, a share code) and the short join code a phone types. Below the service, so the service, the
import of an exported game and the web's drafts make them alike."""

from __future__ import annotations

import secrets

__all__ = ["JOIN_ALPHABET", "new_join_code", "new_token"]

JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: easy to read aloud and type


def new_token() -> str:
    """An unguessable id: 128 bits of randomness, URL-safe, never starting with "-" (which a
    command line would read as an option: ``companion export -Ab…``)."""
    while True:
        token = secrets.token_urlsafe(16)
        if not token.startswith("-"):
            return token


def new_join_code() -> str:
    """A short code to type on a phone: 10 characters (about 50 bits), shown as XXXXX-XXXXX."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(10))
