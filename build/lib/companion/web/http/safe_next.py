"""Which "go back to" addresses a page may follow: only paths on this site, never another one.

Browsers forgive a lot in a Location header (they drop tabs and newlines, read ``\\`` as ``/``,
and take ``//host`` as another site), so a target is followed only when it is a plain path
with none of those tricks in it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["safe_next"]


def safe_next(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else None."""
    if not target or not target.startswith("/") or target[1:2] in ("/", "\\"):
        return None
    if "\\" in target or any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in target):
        return None  # control characters and spaces are dropped by browsers: "/\t/host" is "//host"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target
