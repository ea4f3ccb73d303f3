"""The rooms keep their rules (docs/architecture.md): each test reads every module's imports and fails
on the one that crosses a line, naming it.

- The core (``companion/game``) imports only the standard library and the event catalog.
- ``events`` imports nothing of the app.
- Below the web (service, readmodels, formats, editions, game, events) nothing imports the web,
  Flask or Werkzeug: the same rules and views serve the CLI, the API and the pages.
- No page imports another page, and nothing but the app factory imports a page: what two pages
  share lives in ``screens``, ``forms``, ``words`` or ``http``.
- Words import no screen, page, plumbing, stream or API; forms import only forms (and formats).
"""

from __future__ import annotations

import ast
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


def test_events_import_nothing_of_the_app() -> None:
    assert crossings(("events",), ("companion",)) == []


def test_nothing_below_the_web_imports_the_web_or_flask() -> None:
    below = ("companion/service", "companion/readmodels", "companion/formats", "companion/editions", "companion/game")
    assert crossings((*below, "events"), ("companion.web", *WEB_LIBRARIES)) == []


def test_no_page_imports_another_page_and_only_the_app_factory_imports_pages() -> None:
    offenders = []
    for path in modules("companion"):
        importer = module_name(path)
        if importer == "companion.web":
            continue  # create_app registers every page's blueprint
        for name in imports_of(path):
            if name.startswith("companion.web.pages"):
                offenders.append(f"{importer} imports {name}")
    assert offenders == []


def test_words_import_no_screen_page_plumbing_stream_or_api() -> None:
    rooms = ("companion.web.screens", "companion.web.pages", "companion.web.http", "companion.web.live")
    assert crossings(("companion/web/words",), (*rooms, "companion.web.api", "companion.web.process")) == []


def test_forms_import_only_forms_and_formats() -> None:
    web = ("companion.web",)
    assert crossings(("companion/web/forms",), web, allowed=("companion.web.forms",)) == []


def test_the_checks_would_catch_a_page_importing_a_page_and_the_core_importing_flask(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from flask import Flask\nimport sqlite_utils\nfrom companion.web.pages import home\n", encoding="utf-8"
    )
    names = imports_of(bad)
    assert {"flask", "sqlite_utils", "companion.web.pages.home"} <= set(names)
    assert "flask" not in sys.stdlib_module_names
