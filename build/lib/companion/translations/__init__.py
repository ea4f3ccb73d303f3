"""The catalogues of the languages the pages speak besides English (messages.po per language).

``compile_catalogues`` writes each ``messages.mo`` from its ``.po`` when it is missing or older,
so the app speaks Spanish however it was started (``make`` compiles them too, at set-up).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = ["TRANSLATIONS", "compile_catalogues"]

TRANSLATIONS = Path(__file__).parent


def compile_catalogues(folder: Path = TRANSLATIONS) -> list[Path]:
    """Compile stale catalogues; return the ``.mo`` files written. Writes are atomic (rename)."""
    written = []
    for po in sorted(folder.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source)
        fd, tmp = tempfile.mkstemp(dir=mo.parent, suffix=".mo.tmp")
        with os.fdopen(fd, "wb") as target:
            write_mo(target, catalog)
        os.replace(tmp, mo)
        written.append(mo)
    return written
