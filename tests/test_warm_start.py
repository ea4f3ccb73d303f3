"""No cold start a player can feel (issue 27, item 6): the app compiles its templates and loads its
catalogues when it is made, so the first tap of each kind after a restart compiles nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from companion.web import create_app
from tests.web.conftest import HX, Phone


def _counting_compiles(app: Flask) -> list[str]:
    """Every template compiled from now on, by name (the environment's own compile, counted)."""
    compiled: list[str] = []
    real: Callable[..., Any] = app.jinja_env.compile

    def compile(source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return real(source, name, *args, **kwargs)

    app.jinja_env.compile = compile  # type: ignore[method-assign]
    return compiled


def test_every_template_is_compiled_when_the_app_is_made(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "WARM_UP": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "t"})
    names = [n for n in app.jinja_env.list_templates() if n.endswith(".html")]
    assert "pages/game.html" in names
    compiled = _counting_compiles(app)
    for name in names:
        app.jinja_env.get_template(name)
    assert compiled == []


def test_an_app_made_for_tests_is_not_warmed_unless_asked(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "t"})
    assert len(app.jinja_env.cache or {}) < len(app.jinja_env.list_templates())


def test_the_first_tap_of_each_kind_after_a_start_compiles_no_template(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "WARM_UP": True,
            "DATABASE": str(tmp_path / "w.sqlite3"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
        }
    )
    compiled = _counting_compiles(app)
    phone = Phone(app.test_client())
    phone.create(plague=("9", "3", "2", "5"))
    parts = {"HX-Game-Parts": "turn:x", **HX}
    answers = [
        phone.client.get(f"{phone.url}?at={phone.seq}&select=cemetery-9", headers=parts),
        phone.post("bring", {"player": 0, "colour": 9, "shield": "1b"}),
        phone.post("send", {"player": 0, "kind": "noble", "location": "banquet", "bribe": "1"}),
        phone.post("end-turn", {"player": 0}),
        phone.post("loan", {"player": 1}),
        phone.post("undo", {}),
        phone.post("redo", {}),
        phone.client.get(f"{phone.url}/history"),
        phone.client.get(f"{phone.url}/score"),
    ]
    assert [a.status_code for a in answers] == [200] * len(answers)
    assert compiled == [], f"compiled on a first tap: {compiled}"


_SCHEMAS_AFTER_START = """
import sys, tempfile
from pathlib import Path
from marshmallow import Schema
from companion.web import create_app

tmp = Path(tempfile.mkdtemp())
create_app({"TESTING": True, "WARM_UP": True, "DATABASE": str(tmp / "w.sqlite3"), "SECRET_KEY": "t"})
from events.codec import _DUMPERS
dumpers = set(_DUMPERS)
made = []
real = Schema.__init__
def counting(self, *args, **kwargs):
    made.append(type(self).__name__)
    real(self, *args, **kwargs)
Schema.__init__ = counting

from bench.games import play_random_game, store_game
from companion.editions import DEFAULT_EDITION, load_all
from companion.formats.commands import command_from_json
from companion.service import GameService
from events.sqlite import SqliteStore

editions = load_all()
store = SqliteStore.open(tmp / "g.sqlite3")
kinds = set()
for seed in (1, 2, 3):
    game = play_random_game(editions[DEFAULT_EDITION][1], seed, 500)  # its commands written as JSON
    game_id = store_game(store, editions, game)  # its events written
    view = GameService(store, editions).view(game_id)  # and read back
    kinds |= {row.type for row in view.rows}
    for command in game.commands.values():
        command_from_json(command)
import json
new_dumpers = sorted(c.__name__ for c in set(_DUMPERS) - dumpers)
print(json.dumps({"kinds": len(kinds), "schemas": sorted(set(made)), "dumpers": new_dumpers}))
"""


def test_no_event_command_or_form_makes_a_schema_after_the_start(tmp_path: Path) -> None:
    """The events', commands' and forms' schemas, and the events' and commands' dumpers, are made when the app is
    (``events.codec.prepare``): three random games written and read back in a fresh process make none (a first
    accusation once made about ten)."""
    import subprocess
    import sys

    from companion.web.forms import fields

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", _SCHEMAS_AFTER_START], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert found["kinds"] >= 25  # the games' events are of many kinds (accusations, Dante, the council, loans)
    assert found["schemas"] == [] and found["dumpers"] == [], found
    app = create_app({"TESTING": True, "WARM_UP": True, "DATABASE": str(tmp_path / "f.sqlite3"), "SECRET_KEY": "t"})
    assert app is not None
    forms = [cls for cls in fields._SCHEMAS if cls.__module__.startswith("companion.web.forms.")]
    assert len(forms) >= 20 and {"AccuseForm", "SendForm"} <= {cls.__name__ for cls in forms}
