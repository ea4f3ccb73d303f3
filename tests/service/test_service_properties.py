"""Properties of the whole write path (hypothesis, real SQLite in a temp folder).

Random sequences of legal commands, undos, redos, illegal commands, stale screens and repeated
taps go through ``GameService`` as the pages and the API send them. After every step:

- a refused request (rule or stale seq) leaves the stored log exactly as it was;
- a repeated idempotency key records nothing;
- the state the service keeps up to date (its view cache, brought forward event by event) equals
  a cold replay of the stored log by a brand-new service.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.editions import load_all
from companion.game.commands import BringSoul, Command, CreateGame, EndTurn, MoveSoul, TakeLoan
from companion.game.errors import RuleViolation
from companion.service import Conflict, GameService
from events.sqlite import SqliteStore
from testkit.random_play import choices
from tests.builders import game_view, seats

EDITIONS = load_all()


def stored(store: SqliteStore, game_id: str) -> list[tuple[object, ...]]:
    """Every stored row, every column."""
    return [
        (r.seq, r.action, r.type, r.version, repr(r.data), r.recorded_at, r.idempotency_key, r.actor)
        for r in store.read(game_id)
    ]


def wild_command(data: st.DataObject, shields: list[str]) -> Command:
    """A command drawn without looking at the board: usually illegal, sometimes not."""
    player = data.draw(st.integers(0, 3), label="player")
    kind = data.draw(st.sampled_from(["move", "bring", "end", "loan"]), label="wild")
    if kind == "move":
        return MoveSoul(player, data.draw(st.sampled_from(shields)), data.draw(st.sampled_from(shields)))
    if kind == "bring":
        return BringSoul(player, data.draw(st.integers(0, 10)), data.draw(st.sampled_from(shields)))
    if kind == "end":
        return EndTurn(player)
    return TakeLoan(player)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), players=st.integers(2, 4))
def test_refusals_never_touch_the_log_and_the_live_state_is_the_replay(data: st.DataObject, players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore.open(Path(folder) / "props.sqlite3")
        try:
            service = GameService(store, EDITIONS)
            game_id = service.create_game(CreateGame(players=seats(players), plague_card=(2, 4, 6, 8)), "create-001")
            shields = list(service.view(game_id).state.side.shields)
            refused = accepted = 0
            for step in range(data.draw(st.integers(5, 40), label="steps")):
                view = game_view(service.view(game_id))
                before = stored(store, game_id)
                roll = data.draw(st.integers(0, 9), label="roll")
                key = f"step-{step:04d}"
                try:
                    if roll == 0:
                        service.undo(game_id, view.seq, key)
                    elif roll == 1:
                        service.redo(game_id, view.seq, key)
                    elif roll == 2:
                        stale = data.draw(st.sampled_from([view.seq - 1, view.seq + 1, 0]), label="stale")
                        service.execute(game_id, stale, EndTurn(view.state.active), key)
                    elif roll in (3, 4):
                        service.execute(game_id, view.seq, wild_command(data, shields), key)
                    else:
                        options = choices(view.state)
                        if not options:
                            break
                        command = data.draw(st.sampled_from(options), label="command")
                        outcome = service.execute(game_id, view.seq, command, key)
                        after = stored(store, game_id)
                        assert len(after) == len(before) + len(outcome.events)
                        again = service.execute(game_id, view.seq, command, key)  # the double tap, same screen
                        assert again.duplicate and again.events == ()
                        assert stored(store, game_id) == after, "a double tap was recorded twice"
                    accepted += 1
                except (RuleViolation, Conflict):
                    refused += 1
                    assert stored(store, game_id) == before, "a refused request changed the log"
                    assert service.view(game_id).state == view.state
                live = service.view(game_id)
                cold = GameService(store, EDITIONS).view(game_id)
                assert live.seq == cold.seq
                assert live.state == cold.state, "the live state is not the replay of the log"
            assert refused + accepted > 0
        finally:
            store.close()
