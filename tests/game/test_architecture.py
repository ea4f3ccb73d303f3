"""The core stays pure: nothing in companion/game imports Flask, SQL, marshmallow or the web."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "companion" / "game"
ALLOWED_PREFIXES = ("companion.game", "events.catalog", "__future__")


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_core_modules_import_only_the_standard_library_and_the_event_catalog() -> None:
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        for name in imports_of(path):
            top = name.split(".")[0]
            if name.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names:
                continue
            offenders.append(f"{path.relative_to(CORE.parent.parent)} imports {name}")
    assert offenders == []


def test_the_check_would_catch_a_flask_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from flask import Flask\nimport sqlite_utils\n", encoding="utf-8")
    assert imports_of(bad) == ["flask", "sqlite_utils"]
    assert "flask" not in sys.stdlib_module_names


def test_events_catalog_is_pure_too() -> None:
    path = CORE.parent.parent / "events" / "catalog.py"
    for name in imports_of(path):
        assert name.split(".")[0] in sys.stdlib_module_names or name == "__future__", name
