"""The package declares what it imports: ``pip install .`` gives a package that runs.

Every third-party module imported anywhere in ``companion/`` or ``events/`` comes from a distribution
named in ``[project] dependencies``; every declared dependency is pinned in ``requirements.txt`` (the
lock ``make`` installs), and every development tool of ``[dependency-groups] dev`` in
``requirements-dev.txt``.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCAL = {"companion", "events", "__future__"}
NEWER_STDLIB = {"compression", "_typeshed"}  # 3.14's compression.zstd; _typeshed: only for the type checker


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


SETUP_PYTHON = ROOT / "scripts" / "python.sh"


def test_the_venv_is_made_from_the_python_named_in_python() -> None:
    """``PYTHON=…`` chooses the interpreter ``make setup`` and ``make run`` make ``.venv`` from."""
    done = subprocess.run(
        [str(SETUP_PYTHON)], env={**os.environ, "PYTHON": "/opt/some/python3.12"}, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "/opt/some/python3.12"


def test_the_python_chosen_for_the_venv_makes_one_and_runs_the_app() -> None:
    """Without ``PYTHON``: an interpreter that can make a venv with pip in it (``venv``, ``ensurepip``), on Python 3.11
    or newer, as ``pyproject.toml`` asks: Debian's ``python3.11`` where it can, else ``python3``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    chosen = subprocess.run([str(SETUP_PYTHON)], env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert chosen in ("/usr/bin/python3.11", "python3")
    probe = "import ensurepip, sys, venv; print(sys.version_info >= (3, 11))"
    ran = subprocess.run([chosen, "-c", probe], env=env, capture_output=True, text=True, check=False)
    assert ran.returncode == 0 and ran.stdout.strip() == "True", ran.stderr
    if chosen == "python3":
        assert (
            not Path("/usr/bin/python3.11").exists()
            or subprocess.run(
                ["/usr/bin/python3.11", "-c", "import ensurepip, venv"], capture_output=True, check=False
            ).returncode
            != 0
        ), "Debian's python3.11 makes venvs: it is the one to choose"
