"""The package declares what it imports: ``pip install .`` gives a package that runs.

Every third-party module imported anywhere in ``companion/`` or ``events/`` comes from a distribution
named in ``[project] dependencies``; every declared dependency is pinned in ``requirements.txt`` (the
lock ``make`` installs), and every development tool of ``[dependency-groups] dev`` in
``requirements-dev.txt``.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCAL = {"companion", "events", "__future__"}
NEWER_STDLIB = {"compression"}  # Python 3.14's (compression.zstd); older ones import backports.zstd


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised (``Flask-WTF>=1.3`` → ``flask-wtf``)."""
    name = re.match(r"[A-Za-z0-9_.\-]+", requirement.strip())
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def _pinned(path: Path) -> set[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {_name(line) for line in lines if line and not line.startswith("-r") and "==" in line}


def third_party_imports() -> dict[str, list[str]]:
    """Each top-level module imported from outside the project, with the files importing it."""
    found: dict[str, list[str]] = {}
    for path in sorted([*(ROOT / "companion").rglob("*.py"), *(ROOT / "events").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top not in LOCAL | NEWER_STDLIB and top not in sys.stdlib_module_names:
                    found.setdefault(top, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_imported_library_is_a_declared_dependency() -> None:
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    providers = packages_distributions()
    missing = []
    for module, files in third_party_imports().items():
        dists = {_name(d) for d in providers.get(module, [])}
        if not dists & declared:
            missing.append(f"{module} (imported by {files[0]}; from {sorted(dists) or 'nothing installed'})")
    assert missing == [], "declare these in [project] dependencies: " + "; ".join(missing)


def test_every_declared_dependency_is_pinned_in_the_lock() -> None:
    runtime = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    development = {_name(r) for r in PYPROJECT["dependency-groups"]["dev"]}
    assert runtime - _pinned(ROOT / "requirements.txt") == set()
    assert development - _pinned(ROOT / "requirements-dev.txt") == set()


def test_the_licence_is_an_spdx_expression_and_the_command_is_installed() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["scripts"] == {"companion": "companion.cli:main"}


def test_the_check_would_catch_an_undeclared_import() -> None:
    providers = packages_distributions()
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert "pytest" in {_name(d) for d in providers.get("pytest", [])}
    assert not {_name(d) for d in providers.get("pytest", [])} & declared  # pytest is not a runtime dependency
