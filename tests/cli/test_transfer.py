"""``companion transfer`` (first called ``migrate``): every golden game moves to the other engine and
back, whole, and each copy is proven."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.editions import load_all
from companion.formats.export import import_game
from companion.game.commands import BringSoul, CreateGame, EndTurn, SendMember
from companion.service import GameService
from companion.service.transfer import copy_games
from events.catalog import SeatSetup
from events.factory import open_store
from events.store import NewEvent

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".script.json"))


def filled(url: str) -> list[str]:
    """A store holding every golden game, one game played live (its idempotency keys kept) with a join code."""
    service = GameService(open_store(url), load_all())
    ids = [import_game(service, json.loads(p.read_text(encoding="utf-8"))) for p in GOLDEN]
    seats = (SeatSetup("Ana", "crimson"), SeatSetup("Ben", "navy"))
    live = service.create_game(CreateGame(seats, plague_card=(2, 3, 4)), "mk-create")
    service.execute(live, 2, BringSoul(0, 2, "1a"), "mk-k1")
    service.execute(live, 4, SendMember(0, "noble", "banquet"), "mk-k2")
    service.execute(live, 6, EndTurn(0), "mk-k3")
    service.store.close()
    return [*ids, live]


def snapshot(url: str) -> dict[str, tuple[Any, ...]]:
    """Everything a store holds of each game: its index row, its rows, its edition text and replayed state."""
    store = open_store(url)
    service = GameService(store, load_all())
    found = {}
    for game_id in store.game_ids():
        meta = store.game(game_id)
        found[game_id] = (
            meta,
            tuple(store.read(game_id)),
            store.edition_content(meta["edition_hash"]),
            service.view(game_id).state,
        )
    store.close()
    return found


def test_every_golden_game_round_trips_to_the_other_engine_and_back(store_url: str, tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    ids = filled(source)
    assert len(ids) == len(GOLDEN) + 1 >= 6

    there = copy_games(source, store_url, load_all())
    assert [(m.copied, m.problem) for m in there] == [(True, None)] * len(ids)
    assert sorted(m.game_id for m in there) == sorted(ids)
    again = copy_games(store_url, back, load_all())
    assert [(m.copied, m.problem) for m in again] == [(True, None)] * len(ids)

    original = snapshot(source)
    assert snapshot(store_url) == original == snapshot(back)
    target, first = open_store(store_url), open_store(source)
    assert target.game_ids() == first.game_ids()  # newest first, in the same order
    # A phone's retry after the move is still recognised: its keys moved with the game.
    assert target.action_for_key(ids[-1], "mk-k3") == first.action_for_key(ids[-1], "mk-k3") is not None
    target.close()
    first.close()


def test_a_second_run_copies_nothing_and_verifies_everything(store_url: str, tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    ids = filled(source)
    copy_games(source, store_url, load_all())
    rerun = copy_games(source, store_url, load_all())
    assert [(m.copied, m.problem) for m in rerun] == [(False, None)] * len(ids)


def test_a_copy_that_differs_from_its_source_is_reported(store_url: str, tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    ids = filled(source)
    copy_games(source, store_url, load_all())
    # The target already holds the live game; the source then moves on by one more action.
    store = open_store(source)
    store.append(ids[-1], store.last_seq(ids[-1]), [NewEvent("TurnEnded", 1, {"player": 1})], "mk-late")
    store.close()
    rerun = copy_games(source, store_url, load_all())
    problems = {m.game_id: m.problem for m in rerun if m.problem}
    assert problems == {ids[-1]: "its events differ in the target"}


def test_the_command_line_moves_a_database_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    ids = filled(source)
    assert main(["transfer", "--from", source, "--to", target]) == 0
    out, err = capsys.readouterr()
    assert sorted(line.split()[0] for line in out.splitlines()) == sorted(ids)
    assert all(line.endswith("copied  verified") for line in out.splitlines())
    assert f"{len(ids)} games: {len(ids)} copied, 0 already there, 0 failed" in err
    assert (tmp_path / "target.sqlite3").exists()


def test_the_first_name_of_the_command_still_runs_it() -> None:
    from companion.cli import build_parser

    first, now = (build_parser().parse_args([name, "--from", "a", "--to", "b"]) for name in ("migrate", "transfer"))
    assert first.run is now.run and (first.source, first.target) == (now.source, now.target) == ("a", "b")
