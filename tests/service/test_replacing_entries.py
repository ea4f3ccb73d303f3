"""Correcting an earlier entry through the service: replace it, every later entry is checked
again, and the first that no longer holds is reported instead of forcing a long undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.formats.export import export_game, replay_export
from companion.game.commands import BringSoul, EndTurn, SendMember
from companion.game.errors import RuleViolation
from companion.game.state import GameState
from companion.service import GameService
from events.catalog import EntryReplaced
from tests.builders import ServedGame


@pytest.fixture
def game(tmp_path: Path) -> tuple[GameService, str, dict[str, int]]:
    game = ServedGame.create(tmp_path / "r.sqlite3", plague_card=(5, 2, 3))
    game.do("ana_brings", BringSoul(0, 5, "1a"))  # 1A shows the Eagle
    game.do("ana_sends", SendMember(0, "noble", "banquet"))  # the Banquet is in the Eagle quarter
    game.do("ana_ends", EndTurn(0))
    game.do("ben_brings", BringSoul(1, 2, "1b"))
    return game.service, game.game_id, game.seqs


def test_a_replacement_that_every_later_entry_survives_is_applied(game) -> None:
    service, game_id, seqs = game
    view, recheck = service.check_replacement(game_id, seqs["ana_brings"], BringSoul(0, 5, "1e"))  # 1E: Eagle too
    assert recheck.broken is None
    assert recheck.checked == (seqs["ana_sends"], seqs["ana_ends"], seqs["ben_brings"])
    outcome = service.replace(game_id, view.seq, "replace-1", seqs["ana_brings"], BringSoul(0, 5, "1e"))
    assert outcome.events[0] == EntryReplaced(seqs["ana_brings"])
    state = outcome.view.state
    assert "1e" in state.hell and "1a" not in state.hell and "1b" in state.hell
    assert state.p[0].tower[-1].height == 1  # the Banquet entry still holds


def test_the_first_later_entry_that_no_longer_holds_is_reported(game) -> None:
    service, game_id, seqs = game
    _view, recheck = service.check_replacement(game_id, seqs["ana_brings"], BringSoul(0, 5, "1b"))  # 1B: Key
    assert recheck.broken == seqs["ana_sends"]  # the Banquet is not in the Key quarter
    assert recheck.reason is not None and recheck.reason.code == "wrong_quarter"
    view = service.view(game_id)
    with pytest.raises(RuleViolation) as info:
        service.replace(game_id, view.seq, "replace-2", seqs["ana_brings"], BringSoul(0, 5, "1b"))
    assert info.value.code == "later_entry_breaks" and info.value.params["entry"] == seqs["ana_sends"]
    assert service.view(game_id).seq == view.seq  # nothing was recorded


def test_a_replacement_is_undone_like_any_entry(game) -> None:
    service, game_id, seqs = game
    view = service.view(game_id)
    service.replace(game_id, view.seq, "replace-3", seqs["ana_brings"], BringSoul(0, 5, "1e"))
    after = service.undo(game_id, service.view(game_id).seq, "undo-replace")
    assert "1a" in after.view.state.hell and "1e" not in after.view.state.hell


def test_an_illegal_replacement_is_refused_with_its_own_reason(game) -> None:
    service, game_id, seqs = game
    with pytest.raises(RuleViolation) as info:
        service.check_replacement(game_id, seqs["ana_brings"], BringSoul(0, 9, "1e"))
    assert info.value.code == "cemetery_has_no_such_soul"


def test_a_log_with_a_replacement_replays_through_the_rules(game) -> None:
    service, game_id, seqs = game
    service.replace(game_id, service.view(game_id).seq, "replace-4", seqs["ana_brings"], BringSoul(0, 5, "1e"))
    _edition, state, breach = replay_export(export_game(service, game_id))
    assert breach is None and isinstance(state, GameState) and "1e" in state.hell
