"""Switch from there: when a corrected edition would record an entry otherwise, the game goes back
to that entry, switches, and records the entries from there again where they are still legal, in
one action that one undo takes back and one redo puts back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.editions.library import validated
from companion.formats.export import export_game, replay_export
from companion.game.commands import BringSoul, EndTurn, MoveSoul, SendMember
from companion.game.errors import RuleViolation
from companion.service import Conflict, GameService
from companion.service.switches import preview_switch, preview_switch_from, switch_from
from events.catalog import EditionChanged, EntriesSetAside, SoulMoved, TurnQuarterSet
from tests.builders import ServedGame, game_view


@pytest.fixture
def game(tmp_path: Path) -> ServedGame:
    game = ServedGame.create(tmp_path / "from.sqlite3", plague_card=(5, 2, 3))
    game.do("ana_brings", BringSoul(0, 5, "1a"))
    game.do("ana_sends", SendMember(0, "noble", "banquet"))
    game.do("ana_ends", EndTurn(0))
    game.do("ben_brings", BringSoul(1, 2, "1b"))
    game.do("ben_sends", SendMember(1, "noble", "bank"))
    game.do("ben_ends", EndTurn(1))
    game.do("ana_moves", MoveSoul(0, "1a", "2b"))  # 2B shows the Cross on the shipped board
    game.do("ana_courtyard", SendMember(0, "noble", "courtyard"))  # the Cross quarter's free location
    return game


def _swapped(service: GameService, game_id: str) -> str:
    """Our board: 2B shows the Eagle and 2D the Cross (the shipped estimate has them the other way)."""
    raw = json.loads(json.dumps(service.view(game_id).state.edition.raw))
    row = raw["sides"][0]["circles"]["2"]
    row[1]["quarter"], row[3]["quarter"] = row[3]["quarter"], row[1]["quarter"]
    text, _ = validated(raw)
    return service.library.save_edition("Our copy", text).content_hash


def test_the_preview_names_the_entry_and_what_it_would_record_now(game: ServedGame) -> None:
    service, game_id = game.service, game.game_id
    ours = _swapped(service, game_id)
    _view, check = preview_switch(service, game_id, ours)
    # then Ana's move is the entry that breaks: under our board it sets the Eagle quarter, not the Cross
    assert check.broken == game.seqs["ana_moves"]
    assert check.reason is not None and check.reason.code == "different_events"
    assert TurnQuarterSet(0, "eagle") in check.instead
    assert check.before is not None and check.before.edition.content_hash == ours


def test_switch_from_there_records_again_what_still_holds_and_lists_the_rest(game: ServedGame) -> None:
    service, game_id, seqs = game.service, game.game_id, game.seqs
    ours = _swapped(service, game_id)
    before = service.view(game_id)
    _view, plan = preview_switch_from(service, game_id, ours, seqs["ana_moves"])
    assert plan.again == (seqs["ana_moves"],)
    assert [(seq, why.code) for seq, why in plan.dropped] == [(seqs["ana_courtyard"], "wrong_quarter")]
    # when the table switches from there
    outcome = switch_from(service, game_id, before.seq, "from-there", ours, seqs["ana_moves"])
    # then one action holds it all: the entries set aside, the switch, Ana's move recorded again
    first, switch, *rest = outcome.events
    assert first == EntriesSetAside((seqs["ana_moves"], seqs["ana_courtyard"]), (seqs["ana_moves"],))
    assert isinstance(switch, EditionChanged) and switch.edition_hash == ours
    assert rest == [SoulMoved(0, "1a", ("2b",), False), TurnQuarterSet(0, "eagle")]
    state = game_view(outcome.view).state
    assert state.edition.content_hash == ours and state.quarter == "eagle"
    # and a cold read of the log, and the audit of every entry through the rules, agree
    service.cache.clear()
    assert service.view(game_id).state == state
    _edition, replayed, breach = replay_export(json.loads(json.dumps(export_game(service, game_id))))
    assert breach is None and replayed == state


def test_one_undo_takes_the_whole_switch_back_and_one_redo_puts_it_back(game: ServedGame) -> None:
    service, game_id, seqs = game.service, game.game_id, game.seqs
    ours = _swapped(service, game_id)
    before = service.view(game_id).state
    after = switch_from(service, game_id, service.view(game_id).seq, "from-there", ours, seqs["ana_moves"]).view.state
    undone = service.undo(game_id, service.view(game_id).seq, "undo").view
    assert undone.state == before and seqs["ana_courtyard"] in undone.timeline.live
    redone = service.redo(game_id, service.view(game_id).seq, "redo").view
    assert redone.state == after and seqs["ana_courtyard"] not in redone.timeline.live
    service.cache.clear()
    assert service.view(game_id).state == after
    # and "undo to here" from before the switched entry takes back everything from there
    back = service.undo(game_id, service.view(game_id).seq, "undo-to", to_action=seqs["ben_ends"]).view
    assert max(back.timeline.live) < seqs["ben_ends"] and back.state.edition.content_hash != ours


def test_two_phones_confirming_at_once_record_it_once(game: ServedGame) -> None:
    service, game_id, seqs = game.service, game.game_id, game.seqs
    ours = _swapped(service, game_id)
    seq = service.view(game_id).seq
    first = switch_from(service, game_id, seq, "same-key", ours, seqs["ana_moves"])
    again = switch_from(service, game_id, seq, "same-key", ours, seqs["ana_moves"])
    assert not first.duplicate and again.duplicate and again.view.seq == first.view.seq
    with pytest.raises(Conflict):
        switch_from(service, game_id, seq, "other-phone", ours, seqs["ana_moves"])


def test_a_switch_from_an_entry_that_is_not_the_one_that_breaks_is_refused(game: ServedGame) -> None:
    service, game_id, seqs = game.service, game.game_id, game.seqs
    ours = _swapped(service, game_id)
    with pytest.raises(RuleViolation) as info:
        switch_from(service, game_id, service.view(game_id).seq, "wrong", ours, seqs["ben_ends"])
    assert info.value.code == "edition_switch_from_moved"
