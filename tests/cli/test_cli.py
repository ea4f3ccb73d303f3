"""The command line: export, import and replay a game through the rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.editions import load_all
from companion.game.commands import BringSoul, CreateGame, EndTurn, SendMember
from companion.service import GameService
from events.catalog import SeatSetup
from events.sqlite import SqliteStore
from tests.builders import game_view

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture
def recorded(db_path: Path) -> str:
    service = GameService(SqliteStore.open(db_path), load_all())
    game = service.create_game(
        CreateGame((SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy")), plague_card=(2, 3, 4)), "create"
    )
    service.execute(game, 2, BringSoul(0, 2, "1a"), "k1")
    service.execute(game, 4, SendMember(0, "noble", "banquet"), "k2")
    service.execute(game, 6, EndTurn(0), "k3")
    return game


def test_export_then_replay_prints_the_final_state(recorded: str, db_path: Path, tmp_path: Path, capsys) -> None:
    assert main(["export", recorded, "--db", str(db_path)]) == 0
    exported = capsys.readouterr().out
    data = json.loads(exported)
    assert data["format"] == "inferno-companion/game-log" and data["format_version"] == 2
    assert [e["type"] for e in data["events"]][:2] == ["GameCreated", "PlagueCardRevealed"]
    assert all({"type", "version", "data"} <= set(e) for e in data["events"])
    path = tmp_path / "game.json"
    path.write_text(exported, encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    assert state["active"] == 1 and state["hell"] == {"1a": {"colour": 2, "laid": False, "petrified": False}}
    assert [p["drachmas"] for p in state["players"]] == [2, 3]


def test_replay_stops_at_the_first_illegal_event_naming_its_index(
    recorded: str, db_path: Path, tmp_path: Path, capsys
) -> None:
    main(["export", recorded, "--db", str(db_path)])
    data = json.loads(capsys.readouterr().out)
    data["events"][2]["data"]["cost"] = 0  # a soul brought in for free: not what the rules record
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "event 2 (entry #3) is illegal: different_events" in err


def test_replay_names_the_rule_of_a_refused_command(recorded: str, db_path: Path, tmp_path: Path, capsys) -> None:
    main(["export", recorded, "--db", str(db_path)])
    data = json.loads(capsys.readouterr().out)
    data["events"][2]["command"]["data"]["player"] = 1  # Ben acting on Ana's turn
    path = tmp_path / "wrong-player.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "not_your_turn" in capsys.readouterr().err


def test_import_stores_a_copy_under_a_new_id(recorded: str, db_path: Path, tmp_path: Path, capsys) -> None:
    main(["export", recorded, "--db", str(db_path)])
    path = tmp_path / "game.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    other_db = tmp_path / "other.sqlite3"
    assert main(["import", str(path), "--db", str(other_db)]) == 0
    new_id = capsys.readouterr().out.strip()
    assert new_id != recorded
    view = game_view(GameService(SqliteStore.open(other_db), load_all()).view(new_id))
    assert view.state.active == 1 and view.seq == 7


def test_import_refuses_a_log_that_does_not_replay(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "something-else"}), encoding="utf-8")
    assert main(["import", str(path), "--db", str(tmp_path / "x.sqlite3")]) == 1
    assert "not a game log" in capsys.readouterr().err


def test_the_companion_entry_point_runs_as_a_module() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(FIXTURES / "skeleton.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Ana" in proc.stdout and "Cemetery: 1×3" in proc.stdout


def test_score_prints_the_breakdown_of_a_tally(capsys) -> None:
    assert main(["score", str(FIXTURES / "tally-three.json")]) == 0
    out = capsys.readouterr().out
    assert "1. Ana: 47 infamy" in out
    assert "diploma circle 3: 4 × skull 3 =  12" in out


def test_score_json_lists_every_player_and_the_winners(capsys) -> None:
    assert main(["score", str(FIXTURES / "tally-three.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winners"] == ["Ana"]
    assert [p["total"] for p in data["players"]] == [47, 41, 41]


def test_replay_of_a_tally_prints_its_names_and_scores(capsys) -> None:
    assert main(["replay", str(FIXTURES / "tally-three.json")]) == 0
    out = capsys.readouterr().out
    assert "Ana" in out and "Cleo" in out and "47" in out
    assert main(["replay", str(FIXTURES / "tally-three.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["breach"] is None and data["state"]["names"] == ["Ana", "Ben", "Cleo"]


def test_an_export_is_format_version_2_without_keys_and_imports_again(
    recorded: str, db_path: Path, tmp_path: Path, capsys
) -> None:
    assert main(["export", recorded, "--db", str(db_path)]) == 0
    exported = capsys.readouterr().out
    data = json.loads(exported)
    assert data["format_version"] == 2 and "game_id" not in data
    assert all("idempotency_key" not in e for e in data["events"])
    assert "create" not in [e.get("idempotency_key") for e in data["events"]]
    path = tmp_path / "game.json"
    path.write_text(exported, encoding="utf-8")
    assert main(["import", str(path), "--db", str(tmp_path / "again.sqlite3")]) == 0
    assert main(["replay", str(path)]) == 0


def test_a_missing_file_is_one_line_and_exit_1(tmp_path: Path, capsys) -> None:
    for command in ("import", "replay", "score"):
        db = ["--db", str(tmp_path / "x.db")] if command == "import" else []
        assert main([command, str(tmp_path / "nowhere.json"), *db]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "nowhere.json" in err


def test_game_ids_never_look_like_an_option_to_the_command_line() -> None:
    """A game id starting with "-" made ``companion export <id>`` fail one run in 64."""
    from companion.tokens import new_token

    tokens = [new_token() for _ in range(5000)]
    assert not any(t.startswith("-") for t in tokens)
    assert len(set(tokens)) == len(tokens) and all(len(t) == 22 for t in tokens)
