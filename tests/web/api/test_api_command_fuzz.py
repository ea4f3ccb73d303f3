"""Hostile commands through the API: every command type (read from ``COMMAND_TYPES``, so a new
command is covered without touching this file) with hostile values in every field, sent to games
in each phase and to a quick tally. None may crash the server, and a refused one leaves the log
exactly as it was (the stored rows are compared before and after). On both engines (the PostgreSQL
run is part of ``make test-pg``, so of CI)."""

from __future__ import annotations

import dataclasses
import random
import typing
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.commands import COMMAND_TYPES
from companion.game.state import Phase
from companion.web import create_app
from companion.web.http.db import service
from testkit.random_play import choices
from tests.builders import game_view
from tests.safety.engines import engine_url

HOSTILE_INTS: tuple[Any, ...] = (-1, -(2**63), 2**63, 10**30, 7, 99, "1", "", None, 1.5, True, [], {})
HOSTILE_STRS: tuple[Any, ...] = ("", "zz", "1a ", "x" * 5000, "\u202e", 5, None, [], {"a": 1})
HOSTILE_LISTS: tuple[Any, ...] = ([], None, "abc", 3, [None], [10**30], [-1], ["zz"], [[]], [{}])


def baseline(tp: Any) -> Any:
    """A plain, well-typed value for a field of type ``tp`` (a dataclass gives a dict)."""
    origin = typing.get_origin(tp)
    if origin is tuple:
        return []
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return None
    if dataclasses.is_dataclass(tp):
        return {f.name: baseline(h) for f, h in fields_of(tp)}
    return {int: 0, str: "", bool: False, object: {}}.get(tp, 0)


def fields_of(cls: Any) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls)]


def hostile_values(tp: Any) -> list[Any]:
    """Values a careless or hostile client might send for a field of type ``tp``."""
    origin = typing.get_origin(tp)
    if origin is tuple:
        return list(HOSTILE_LISTS)
    if origin is not None:  # X | None
        inner = next(a for a in typing.get_args(tp) if a is not type(None))
        return [None, *hostile_values(inner)]
    if dataclasses.is_dataclass(tp):
        return [None, "x", 1, [], {}, *[baseline(tp) | {k: v} for k, v in nested_hostiles(tp)]]
    if tp is str:
        return list(HOSTILE_STRS)
    if tp is bool:
        return [None, "yes", 2, []]
    return list(HOSTILE_INTS)


def nested_hostiles(cls: Any) -> list[tuple[str, Any]]:
    return [(f.name, v) for f, tp in fields_of(cls) for v in hostile_values(tp)[:4]]


def hostile_commands(player: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command type, each field in turn replaced by each hostile value."""
    for name, cls in COMMAND_TYPES.items():
        base = {f.name: baseline(tp) for f, tp in fields_of(cls)}
        if "player" in base:
            base["player"] = player
        yield name, dict(base)
        yield name, {}
        for f, tp in fields_of(cls):
            for value in hostile_values(tp):
                yield name, {**base, f.name: value}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzz_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Flask:
    url = engine_url(request, request.param, tmp_path_factory.mktemp("fuzz"))
    return create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t"})


def new_game(app: Flask, key: str, expansion: bool = False, players: int = 3) -> dict[str, Any]:
    colours = ["crimson", "navy", "forest", "gold"]
    body = {
        "players": [{"name": f"P{i}", "colour": colours[i]} for i in range(players)],
        "plague_card": [2, 3, 5, 7],
        "random_florence": False,
        "expansion": expansion,
        "idempotency_key": key,
    }
    made = app.test_client().post("/api/v1/games", json=body)
    assert made.status_code == 201, made.get_json()
    return dict(made.get_json())


def advance(app: Flask, game: dict[str, Any], until: Phase, seed: int) -> None:
    """Play random legal commands through the service until the game reaches phase ``until``."""
    rng = random.Random(seed)
    with app.app_context():
        svc = service()
        for step in range(400):
            view = game_view(svc.view(game["game_id"]))
            if view.state.phase is until:
                return
            svc.execute(game["game_id"], view.seq, rng.choice(choices(view.state, rng)), f"adv-{seed}-{step:04d}")
    raise AssertionError(f"the game never reached {until}")


def rows_of(app: Flask, game_id: str) -> list[tuple[Any, ...]]:
    """Every stored row of the game's log, exactly as the store holds it."""
    with app.app_context():
        return [dataclasses.astuple(r) for r in service().store.read(game_id)]


def send(app: Flask, game: dict[str, Any], seq: int, kind: Any, data: Any, key: str) -> Any:
    return app.test_client().post(
        f"/api/v1/games/{game['game_id']}/commands",
        headers=auth(game["write_token"]),
        json={"expected_seq": seq, "idempotency_key": key, "command": {"type": kind, "data": data}},
    )


@pytest.fixture(scope="module")
def targets(fuzz_app: Flask) -> dict[str, dict[str, Any]]:
    """A game in each phase (base and expansion) and a quick tally."""
    games = {"hell": new_game(fuzz_app, "fuzz-hell-key-000001")}
    games["florence"] = new_game(fuzz_app, "fuzz-florence-key-001")
    advance(fuzz_app, games["florence"], Phase.FLORENCE, seed=1)
    games["action"] = new_game(fuzz_app, "fuzz-action-key-00001", expansion=True)
    advance(fuzz_app, games["action"], Phase.ACTION, seed=2)
    with fuzz_app.app_context():
        from companion.game.commands import StartTally

        svc = service()
        tally_id = svc.create_game(StartTally(("Ana", "Ben")), "fuzz-tally-0001")
        view = svc.view(tally_id)
        games["tally"] = {"game_id": tally_id, "read_token": view.read_token, "write_token": view.write_token}
    return games


@pytest.mark.parametrize("target", ["hell", "florence", "action", "tally"])
def test_every_command_type_with_hostile_values_is_refused_cleanly(
    fuzz_app: Flask, targets: dict[str, dict[str, Any]], target: str
) -> None:
    game = targets[target]
    with fuzz_app.app_context():
        active = getattr(service().view(game["game_id"]).state, "active", 0)
    crashes = []
    statuses: Counter[int] = Counter()
    rows = rows_of(fuzz_app, game["game_id"])
    for i, (kind, data) in enumerate(hostile_commands(active)):
        response = send(fuzz_app, game, rows[-1][0], kind, data, f"fuzz-{target}-{i:06d}")
        body = response.get_json(silent=True) or {}
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            crashes.append((kind, data, body))
        elif response.status_code >= 400:
            assert isinstance(body.get("code"), str), (kind, data, body)
            assert rows_of(fuzz_app, game["game_id"]) == rows, ("a refused command changed the log", kind, data)
        else:
            rows = rows_of(fuzz_app, game["game_id"])  # a hostile-looking command the rules accepted
    assert statuses[422] > 1000 and statuses[409] == 0, statuses  # judged on today's seq, not waved off as stale
    assert not crashes, "\n".join(repr(c)[:300] for c in crashes[:30]) + f"\n{len(crashes)} crashes"


@pytest.mark.parametrize(("seed", "expansion", "players"), [(11, False, 2), (12, True, 3), (13, True, 4)])
def test_the_id_check_never_refuses_a_legal_command(editions: Any, seed: int, expansion: bool, players: int) -> None:
    """Every command random legal play offers passes the id check: it refuses only what is unknown."""
    from companion.game.commands import CreateGame
    from companion.game.game_or_tally import decide_any, decide_start, evolve_any, replay_any
    from companion.web.api.command_check import check_command, wrong_log
    from events.catalog import SeatSetup

    edition = next(iter(editions.values()))[1]
    colours = ["crimson", "navy", "forest", "gold"]
    setup = CreateGame(tuple(SeatSetup(f"P{i}", colours[i]) for i in range(players)), expansion, (2, 3, 5, 7))
    state = replay_any(edition, decide_start(edition, setup))
    rng = random.Random(seed)
    checked = 0
    for _ in range(300):
        options = choices(state, rng)  # type: ignore[arg-type]
        if not options:
            break
        for option in options:
            assert wrong_log(state, option) is None and check_command(state, option) == {}, option
            checked += 1
        for event in decide_any(state, rng.choice(options)):
            state = evolve_any(state, event)
    assert checked > 300


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def random_commands(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """Any command type with each of its fields either well typed or any JSON value at all."""
    kind = draw(st.sampled_from(sorted(COMMAND_TYPES)))
    data: dict[str, Any] = {}
    for f, tp in fields_of(COMMAND_TYPES[kind]):
        choice = draw(st.sampled_from(["plain", "hostile", "json", "absent"]))
        if choice == "plain":
            data[f.name] = baseline(tp)
        elif choice == "hostile":
            data[f.name] = draw(st.sampled_from(hostile_values(tp)))
        elif choice == "json":
            data[f.name] = draw(JSON)
    return kind, data


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(sent=random_commands(), target=st.sampled_from(["hell", "florence", "action", "tally"]))
def test_random_json_in_any_command_never_crashes_nor_touches_the_log(
    fuzz_app: Flask, targets: dict[str, dict[str, Any]], sent: tuple[str, dict[str, Any]], target: str
) -> None:
    game = targets[target]
    rows = rows_of(fuzz_app, game["game_id"])
    response = send(fuzz_app, game, rows[-1][0], *sent, f"hypo-{len(rows)}-{abs(hash(repr(sent))):x}"[:60])
    assert response.status_code < 500, (sent, response.get_data(as_text=True))
    if response.status_code >= 400:
        assert isinstance(response.get_json()["code"], str)
        assert rows_of(fuzz_app, game["game_id"]) == rows, ("a refused command changed the log", sent)
