"""The reference of every event type, generated from the catalog (``docs/events.md``).

``python -m events.reference > docs/events.md`` rewrites it; a test fails when the file
no longer matches the catalog, so a new event type cannot land undocumented.
"""

from __future__ import annotations

import inspect

from events.catalog import EVENT_TYPES
from events.codec import UPCASTERS
from events.shapes import fields_of

__all__ = ["render"]


def _type_name(annotation: object) -> str:
    text = str(annotation).replace("typing.", "").replace("events.catalog.", "")
    return text.replace("<class '", "").replace("'>", "")


def render() -> str:
    """The Markdown reference."""
    lines = [
        "# Event types",
        "",
        "Generated from `events/catalog.py` by `python -m events.reference > docs/events.md`;",
        "a test keeps this file in step with the code. Each event is a past-tense fact; `data` in",
        "the log holds its fields. Older versions are upcast on read (see `events/codec.py`).",
        "",
    ]
    for name in sorted(EVENT_TYPES):
        cls = EVENT_TYPES[name]
        version = cls.VERSION
        lines.append(f"## {name} (version {version})")
        lines.append("")
        lines.append(inspect.cleandoc(cls.__doc__ or "").replace("\n", " "))
        lines.append("")
        fields = fields_of(cls)
        if fields:
            lines.append("| field | type |")
            lines.append("|---|---|")
            for f, annotation in fields:
                lines.append(f"| `{f.name}` | `{_type_name(annotation)}` |")
        else:
            lines.append("No fields.")
        older = sorted(v for (t, v) in UPCASTERS if t == name)
        if older:
            lines.append("")
            lines.append("Upcast from version(s): " + ", ".join(str(v) for v in older) + ".")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
