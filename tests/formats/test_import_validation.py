"""Hostile or broken export files: every way in (the page, ``companion import``, ``replay`` and ``score``)
answers with one clear sentence and stores nothing; imports are checked with the API's own schemas."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.editions import load_all
from companion.formats.commands import command_from_json, command_to_json
from companion.formats.export import BadExport, import_game, parse_export, replay_export
from companion.game.edition import content_hash
from companion.service import GameService
from companion.web import create_app
from events.sqlite import SqliteStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LONG = "A" * 100_000


def game_log() -> dict[str, Any]:
    return json.loads((FIXTURES / "skeleton.json").read_text(encoding="utf-8"))


def tally_log() -> dict[str, Any]:
    return json.loads((FIXTURES / "tally-three.json").read_text(encoding="utf-8"))


def edited(base: Callable[[], dict[str, Any]], change: Callable[[dict[str, Any]], None]) -> str:
    data = base()
    change(data)
    return json.dumps(data)


def _long_game_name(data: dict[str, Any]) -> None:
    data["events"][0]["command"]["data"]["players"][0]["name"] = LONG
    data["events"][0]["data"]["players"][0]["name"] = LONG
    data["setup"]["players"][0]["name"] = LONG


def _long_tally_name(data: dict[str, Any]) -> None:
    data["events"][0]["command"]["data"]["players"][0] = LONG
    data["events"][0]["data"]["players"][0] = LONG
    data["setup"]["players"][0] = LONG


def _split_batch(data: dict[str, Any]) -> None:
    data["events"][1]["action"] = 2  # the plague card as an entry of its own, with no command


def _action_from_the_future(data: dict[str, Any]) -> None:
    data["events"][3]["action"] = 99


def _action_joining_the_previous(data: dict[str, Any]) -> None:
    data["events"][2]["action"] = 1  # BringSoul's head claims to belong to the creation


def _long_actor(data: dict[str, Any]) -> None:
    data["events"][2]["actor"] = LONG


def _bad_recorded_at(data: dict[str, Any]) -> None:
    data["events"][2]["recorded_at"] = "yesterday, roughly"


def _unknown_field(data: dict[str, Any]) -> None:
    data["events"][2]["note"] = "hello"


def _long_correction(data: dict[str, Any]) -> None:
    data["events"][2]["command"] = {"type": "Correct", "data": {"what": "infamy", "reason": LONG, "player": 0}}


def _nested_edition(data: dict[str, Any]) -> None:
    content = "[" * 100_000 + "]" * 100_000
    data["edition"] = {"id": "inferno-base", "hash": content_hash(content), "content": content}


def _seq_overflow(text: str) -> str:
    return text.replace('"seq": 1,', '"seq": 1e400,', 1)


HOSTILE: dict[str, tuple[Callable[[], str], str]] = {
    "kind is neither game nor tally": (lambda: edited(game_log, lambda d: d.update(kind="chess")), "kind"),
    "a game log marked as a tally": (lambda: edited(game_log, lambda d: d.update(kind="tally")), "kind"),
    "a tally marked as a game": (lambda: edited(tally_log, lambda d: d.update(kind="game")), "kind"),
    "a 100,000-character player name": (lambda: edited(game_log, _long_game_name), "name"),
    "a 100,000-character tally name": (lambda: edited(tally_log, _long_tally_name), "players"),
    "a forged action splitting a batch": (lambda: edited(game_log, _split_batch), "action"),
    "a forged action from the future": (lambda: edited(game_log, _action_from_the_future), "action"),
    "a forged action joining two entries": (lambda: edited(game_log, _action_joining_the_previous), "action"),
    "a 100,000-character actor": (lambda: edited(game_log, _long_actor), "actor"),
    "a recorded_at that is no time": (lambda: edited(game_log, _bad_recorded_at), "recorded_at"),
    "an unknown field in an event": (lambda: edited(game_log, _unknown_field), "note"),
    "a 100,000-character correction reason": (lambda: edited(game_log, _long_correction), "reason"),
    "an edition nested too deeply": (lambda: edited(game_log, _nested_edition), "edition"),
    "deeply nested JSON": (lambda: '{"format": ' + "[" * 200_000 + "]" * 200_000 + "}", "deep"),
    "seq 1e400": (lambda: _seq_overflow(json.dumps(game_log())), "number"),
    "a 5,000-digit seq": (
        lambda: json.dumps(game_log()).replace('"seq": 1,', '"seq": ' + "9" * 5000 + ",", 1),
        "number",
    ),
    "duplicate JSON keys": (lambda: '{"kind": "tally", ' + json.dumps(game_log())[1:], "duplicate"),
    "NaN": (lambda: json.dumps(game_log()).replace('"seq": 1,', '"seq": NaN,', 1), "number"),
    "not an object": (lambda: "[1, 2, 3]", "not a game log"),
    "not UTF-8": (lambda: '{"format": "\udcff"}', "UTF-8"),
}


def hostile(case: str) -> bytes:
    return HOSTILE[case][0]().encode("utf-8", "surrogatepass")


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    return GameService(SqliteStore.open(tmp_path / "import.sqlite3"), load_all())


def test_the_hostile_files_really_differ_from_a_good_one(service: GameService) -> None:
    """The base files import fine: each case below fails for its own reason."""
    assert import_game(service, parse_export(json.dumps(game_log())))
    assert import_game(service, parse_export(json.dumps(tally_log())))


@pytest.mark.parametrize("case", list(HOSTILE))
def test_an_import_refuses_it_and_stores_nothing(case: str, service: GameService) -> None:
    with pytest.raises(BadExport) as info:
        import_game(service, parse_export(hostile(case)))
    message = str(info.value)
    assert HOSTILE[case][1] in message and len(message) < 300 and "\n" not in message
    assert service.store.game_ids() == []


@pytest.mark.parametrize("case", list(HOSTILE))
def test_the_import_page_names_the_problem(case: str, tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )
    payload = hostile(case)
    response = app.test_client().post(
        "/import", data={"file": (io.BytesIO(payload), "game.json")}, content_type="multipart/form-data"
    )
    assert response.status_code in (400, 422)
    page = response.get_data(as_text=True)
    assert 'role="alert"' in page and HOSTILE[case][1] in page
    assert SqliteStore.open(tmp_path / "web.sqlite3").game_ids() == []


@pytest.mark.parametrize("command", ["import", "replay", "score"])
@pytest.mark.parametrize("case", list(HOSTILE))
def test_the_command_line_says_one_line_and_exits_1(case: str, command: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(hostile(case))
    db = tmp_path / "cli.sqlite3"
    argv = [command, str(path)] + (["--db", str(db)] if command == "import" else [])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 400 and HOSTILE[case][1] in err
    if command == "import":
        assert SqliteStore.open(db).game_ids() == []


def test_an_import_stores_validated_rows_not_the_raw_file(service: GameService) -> None:
    data = game_log()
    game = import_game(service, data)
    rows = service.view(game).rows
    canonical = [command_to_json(command_from_json(e["command"])) for e in data["events"] if e["command"]]
    assert [r.command for r in rows if r.command] == canonical
    assert all(r.idempotency_key is None for r in rows)


def test_an_old_version_1_export_still_replays_and_imports(service: GameService) -> None:
    data = game_log()
    assert data["format_version"] == 1
    _edition, state, breach = replay_export(data)
    assert breach is None and state is not None
    assert import_game(service, data)
