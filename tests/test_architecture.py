"""The rooms keep their rules (docs/architecture.md). import-linter holds the contracts (pyproject.toml,
``lint-imports``): the layers, no Flask below the web, independent pages, words and forms apart, no import cycle.
These tests run it, and read the core's imports for what a contract cannot list: that the core
(``companion/game``) and the event catalog import nothing but the standard library (and the catalog).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE_ALLOWED = ("companion.game", "events.catalog", "__future__")
WEB_LIBRARIES = ("flask", "flask_babel", "flask_wtf", "flask_htmx", "flask_smorest", "werkzeug", "jinja2_fragments")


def module_name(path: Path) -> str:
    """``companion/web/pages/home.py`` → ``companion.web.pages.home``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[str]:
    """Every module ``path`` imports, by absolute name (inside functions and TYPE_CHECKING too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]  # ``from companion.web.pages import home``
    return names


def modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def crossings(folders: tuple[str, ...], forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    """Each import from ``folders`` of a module under one of ``forbidden`` (not under ``allowed``)."""
    found = []
    for path in modules(*folders):
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden) and not name.startswith(allowed):
                found.append(f"{module_name(path)} imports {name}")
    return found


def test_the_core_imports_only_the_standard_library_and_the_event_catalog() -> None:
    offenders = []
    for path in modules("companion/game"):
        for name in imports_of(path):
            top = name.split(".")[0]
            if name.startswith(CORE_ALLOWED) or top in sys.stdlib_module_names:
                continue
            offenders.append(f"{module_name(path)} imports {name}")
    assert offenders == []


def test_the_event_catalog_imports_only_the_standard_library() -> None:
    for name in imports_of(ROOT / "events" / "catalog.py"):
        assert name.split(".")[0] in sys.stdlib_module_names or name.startswith("__future__"), name


def test_every_room_keeps_its_contract() -> None:
    """``lint-imports`` (import-linter, configured in pyproject.toml) finds every contract kept: the layers, the
    pure core, no Flask below the web, independent pages, words and forms apart, no cycle anywhere."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:]
    assert " BROKEN" not in done.stdout and "Contracts: 8 kept, 0 broken." in done.stdout, done.stdout[-2000:]


def test_the_checks_would_catch_a_page_importing_a_page_and_the_core_importing_flask(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from flask import Flask\nimport sqlite_utils\nfrom companion.web.pages import home\n", encoding="utf-8"
    )
    names = imports_of(bad)
    assert {"flask", "sqlite_utils", "companion.web.pages.home"} <= set(names)
    assert "flask" not in sys.stdlib_module_names
