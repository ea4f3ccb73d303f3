"""The documentation speaks for the code: every event type is documented, as it is now."""

from __future__ import annotations

from pathlib import Path

from events.catalog import EVENT_TYPES
from events.reference import render

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_docs_events_md_matches_the_catalog() -> None:
    assert (DOCS / "events.md").read_text(encoding="utf-8") == render(), (
        "docs/events.md is stale: run `python -m events.reference > docs/events.md`"
    )


def test_every_event_type_has_a_section_and_a_description() -> None:
    text = (DOCS / "events.md").read_text(encoding="utf-8")
    for name, cls in EVENT_TYPES.items():
        assert f"## {name} (version {cls.VERSION})" in text
        assert cls.__doc__ and cls.__doc__.strip()
