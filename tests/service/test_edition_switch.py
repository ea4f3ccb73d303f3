"""A corrected edition, given / when / then: it changes the legal moves exactly where it changed,
a running game switches to it only when every entry still holds, and the switch replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.editions import load_all
from companion.editions.library import toggle_line, validated
from companion.formats.export import export_game, import_game, replay_export
from companion.game.commands import BringSoul, EndTurn, MoveSoul, SendMember
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.rules.hell import legal_hell_moves
from companion.game.state import GameState
from companion.service import GameService
from companion.service.switches import preview_switch, switch_edition
from events.catalog import EditionChanged
from events.codec import decode, encode
from events.sqlite import SqliteStore
from tests.builders import ServedGame, Table, game_view


def _edit(edition: Edition, *lines: tuple[str, str]) -> tuple[str, Edition]:
    """The shipped edition with these lines of the 1-2 side toggled (added or removed)."""
    raw = json.loads(json.dumps(edition.raw))
    for origin, target in lines:
        raw = toggle_line(raw, "1-2", origin, target)
    return validated(raw)


def _landings(edition: Edition) -> set[tuple[str, ...]]:
    table = Table(edition).create(2, plague_card=(5, 2, 3))
    table.when(BringSoul(0, 5, "1a"))
    table.when(SendMember(0, "noble", "banquet"))
    table.when(EndTurn(0))
    table.when(BringSoul(1, 2, "1b"))
    table.when(SendMember(1, "noble", "bank"))
    table.when(EndTurn(1))
    return {m.path for m in legal_hell_moves(table.state, 0) if m.start == "1a"}


def test_a_modified_edition_changes_the_legal_moves_exactly_where_it_changed(edition: Edition) -> None:
    # given the shipped board, and a copy where 1A also has a line down to 2C
    _text, ours = _edit(edition, ("1a", "2c"))
    # when Ana's soul on 1A may fall
    shipped, corrected = _landings(edition), _landings(ours)
    # then the only new fall is the one along the new line
    assert ("2c",) not in shipped
    assert corrected - shipped == {("2c",)}
    assert shipped - corrected == set()


@pytest.fixture
def game(tmp_path: Path) -> tuple[GameService, str, dict[str, int]]:
    game = ServedGame.create(tmp_path / "switch.sqlite3", plague_card=(5, 2, 3))
    game.do("ana_brings", BringSoul(0, 5, "1a"))
    game.do("ana_sends", SendMember(0, "noble", "banquet"))
    game.do("ana_ends", EndTurn(0))
    game.do("ben_brings", BringSoul(1, 2, "1b"))
    game.do("ben_sends", SendMember(1, "noble", "bank"))
    game.do("ben_ends", EndTurn(1))
    game.do("ana_moves", MoveSoul(0, "1a", "2b"))  # along the shipped line 1A → 2B
    return game.service, game.game_id, game.seqs


def _save(service: GameService, edition: Edition, *lines: tuple[str, str]) -> str:
    text, _ = _edit(edition, *lines)
    return service.library.save_edition("Our copy", text).content_hash


def test_a_switch_that_every_entry_survives_is_recorded_and_the_rules_follow_it(game) -> None:
    service, game_id, _seqs = game
    shipped = service.view(game_id).state.edition
    ours = _save(service, shipped, ("1b", "2a"))  # a new line 1B → 2A; nothing recorded used it
    # when the table previews and then switches
    view, check = preview_switch(service, game_id, ours)
    assert check.broken is None and len(check.checked) == 7
    outcome = switch_edition(service, game_id, view.seq, "switch", ours)
    # then the log holds the switch, and the rules and the map use the new edition
    assert isinstance(outcome.events[0], EditionChanged) and outcome.events[0].edition_hash == ours
    state = outcome.view.state
    assert state.edition.content_hash == ours and "2a" in state.side.lines["1b"]
    assert service.view(game_id).edition.content_hash == shipped.content_hash  # the pin is kept


def test_a_switch_that_breaks_an_earlier_entry_is_refused_and_names_it(game) -> None:
    service, game_id, seqs = game
    shipped = service.view(game_id).state.edition
    ours = _save(service, shipped, ("1a", "2b"))  # the line Ana's soul fell along is gone
    _view, check = preview_switch(service, game_id, ours)
    assert check.broken == seqs["ana_moves"]
    assert check.reason is not None and check.checked[-1] == seqs["ben_ends"]
    before = service.view(game_id).seq
    with pytest.raises(RuleViolation) as info:
        switch_edition(service, game_id, before, "switch-bad", ours)
    assert info.value.code == "edition_breaks_entry" and info.value.params["entry"] == seqs["ana_moves"]
    assert service.view(game_id).seq == before  # nothing was recorded


def test_the_switch_is_undone_like_any_entry(game) -> None:
    service, game_id, _seqs = game
    shipped = service.view(game_id).state.edition
    ours = _save(service, shipped, ("1b", "2a"))
    switch_edition(service, game_id, service.view(game_id).seq, "switch", ours)
    after = service.undo(game_id, service.view(game_id).seq, "undo-switch")
    assert after.view.state.edition.content_hash == shipped.content_hash
    assert "2a" not in after.view.state.side.lines["1b"]


def test_an_exported_game_with_a_switch_replays_and_imports_to_the_same_state(game) -> None:
    service, game_id, _seqs = game
    shipped = service.view(game_id).state.edition
    ours = _save(service, shipped, ("1b", "2a"))
    switch_edition(service, game_id, service.view(game_id).seq, "switch", ours)
    state = game_view(service.view(game_id)).state
    data = json.loads(json.dumps(export_game(service, game_id)))
    _edition, replayed, breach = replay_export(data)
    assert breach is None and isinstance(replayed, GameState)
    assert replayed.edition.content_hash == ours and replayed.hell == state.hell
    imported = service.view(import_game(service, data)).state
    assert imported.edition.content_hash == ours and imported.side.lines == state.side.lines
    assert imported.p == state.p


def test_edition_changed_round_trips_through_json(edition: Edition) -> None:
    text, ours = _edit(edition, ("1b", "2a"))
    event = EditionChanged(ours.id, ours.content_hash, text)
    assert decode(*encode(event)) == event


def test_a_tally_keeps_its_edition(tmp_path: Path) -> None:
    from companion.game.commands import StartTally

    service = GameService(SqliteStore.open(tmp_path / "t.sqlite3"), load_all())
    tally = service.create_game(StartTally(("Ana", "Ben")), "tally")
    shipped = service.view(tally).edition
    ours = _save(service, shipped, ("1b", "2a"))
    with pytest.raises(RuleViolation) as info:
        preview_switch(service, tally, ours)
    assert info.value.code == "edition_switch_tally"
