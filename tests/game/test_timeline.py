"""Undo and redo are appended events; the state is always the replay of what is in effect."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.commands import BringSoul, EndTurn, SendMember, TakeLoan
from companion.game.errors import RuleViolation
from companion.game.projection import replay
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo, extend_timeline, records_of
from events.catalog import ActionRedone, ActionUndone, EntriesSetAside, Event
from tests.builders import Table


class Log:
    """A log of actions (batches of events), as the store keeps it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.records: list[Recorded] = []
        self._add(table.log)

    def _add(self, events: list[Event]) -> int:
        first = len(self.records) + 1
        for i, e in enumerate(events):
            self.records.append(Recorded(first + i, first, e))
        return first

    @property
    def timeline(self):
        return build_timeline(self.records)

    @property
    def state(self):
        return replay(self.table.edition, self.timeline.effective_events())

    def do(self, command) -> int:
        from companion.game.rules import decide

        return self._add(decide(self.state, command))

    def undo(self, to: int | None = None) -> int:
        return self._add(list(decide_undo(self.timeline, to)))

    def redo(self) -> int:
        return self._add([decide_redo(self.timeline)])


@pytest.fixture
def log(table: Table) -> Log:
    return Log(table.create(plague_card=(2, 3, 4, 5)))


def test_undo_restores_the_exact_prior_state(log: Log) -> None:
    before = log.state
    log.do(BringSoul(0, 2, "1a"))
    assert log.state != before
    log.undo()
    assert log.state == before


def test_undo_appends_an_event_and_deletes_nothing(log: Log) -> None:
    action = log.do(TakeLoan(0))
    count = len(log.records)
    log.undo()
    assert len(log.records) == count + 1
    assert log.records[-1].event == ActionUndone(action)


def test_redo_puts_the_action_back(log: Log) -> None:
    brought = log.do(BringSoul(0, 2, "1a"))
    after = log.state
    log.undo()
    action = log.redo()
    assert log.records[action - 1].event == ActionRedone(brought)
    assert log.state == after


def test_redo_is_gone_once_a_new_action_is_recorded(log: Log) -> None:
    log.do(TakeLoan(0))
    log.undo()
    log.do(BringSoul(0, 2, "1a"))
    with pytest.raises(RuleViolation) as info:
        decide_redo(log.timeline)
    assert info.value.code == "nothing_to_redo"


def test_redo_with_nothing_undone_says_so_not_that_a_new_entry_came(log: Log) -> None:
    """A fresh game, and an undo already redone: nothing is undone (a new entry did not take its place)."""
    with pytest.raises(RuleViolation) as fresh:
        decide_redo(log.timeline)
    assert fresh.value.code == "nothing_undone"
    log.do(TakeLoan(0))
    log.undo()
    log.redo()
    with pytest.raises(RuleViolation) as redone:
        decide_redo(log.timeline)
    assert redone.value.code == "nothing_undone"


def test_the_game_creation_cannot_be_undone(log: Log) -> None:
    with pytest.raises(RuleViolation) as info:
        decide_undo(log.timeline)
    assert info.value.code == "nothing_to_undo"


def test_undo_to_here_takes_back_that_entry_and_every_later_one(log: Log) -> None:
    start = log.state
    first = log.do(BringSoul(0, 2, "1a"))
    second = log.do(SendMember(0, "noble", "banquet"))  # 1A shows the Eagle: the Banquet's quarter
    third = log.do(EndTurn(0))
    log.undo(to=first)
    assert log.state == start
    assert [r.event for r in log.records[-3:]] == [ActionUndone(third), ActionUndone(second), ActionUndone(first)]
    assert log.timeline.undone == (third, second, first)


def test_redo_after_undo_to_here_restores_in_order(log: Log) -> None:
    first = log.do(BringSoul(0, 2, "1a"))
    log.do(SendMember(0, "noble", "banquet"))
    mid = log.state
    log.do(EndTurn(0))
    log.undo(to=first)
    log.redo()
    log.redo()
    assert log.state == mid


def test_undo_to_an_entry_not_in_effect_is_refused(log: Log) -> None:
    log.do(TakeLoan(0))
    action = log.do(TakeLoan(0))
    log.undo()
    with pytest.raises(RuleViolation) as info:
        decide_undo(log.timeline, action)
    assert info.value.code == "not_undoable"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["act", "undo", "redo", "set_aside"]), st.integers(0, 50)), max_size=40))
def test_a_timeline_extended_action_by_action_is_the_one_built_at_once(table: Table, steps: list) -> None:
    """``extend_timeline`` keeps what each action set aside with the timeline instead of working it out
    from every action again: the result is still the timeline built from the whole log, at every step."""
    log = Log(table)
    extended = build_timeline(log.records)
    moves = [BringSoul(0, 2, "1a"), TakeLoan(0)]
    for kind, pick in steps:
        done = extended.done[1:]
        first = len(log.records) + 1
        if kind == "undo" and done:
            log._add([ActionUndone(done[pick % len(done)])])
        elif kind == "redo" and extended.undone:
            log._add([ActionRedone(extended.undone[-1])])
        elif kind == "set_aside" and done:
            later = tuple(done[pick % len(done) :])
            log._add([EntriesSetAside(later, ())])
        else:
            log._add([moves[pick % len(moves)]])
        extended = extend_timeline(extended, [r for r in log.records if r.seq >= first])
        built = build_timeline(log.records)
        assert (extended.done, extended.undone, extended.live) == (built.done, built.undone, built.live)
        assert extended.set_aside == built.set_aside == {a.seq: a.sets_aside for a in built.actions if a.sets_aside}
        assert extended.replacements == built.replacements
        # what the undo bar asks of every fresh timeline, without copying ``undoable``
        assert extended.last_undoable == (built.undoable[-1] if built.undoable else None)
        # each action found by halving, as the index a replay makes finds it; a seq that starts none, refused
        assert [extended.action(a.seq) for a in built.actions] == list(built.actions)
        assert extended.by_seq == {a.seq: a for a in built.actions}
        assert records_of(extended.actions) == log.records  # the log's records, made again from its actions
        inside = {r.seq for r in log.records} - {a.seq for a in built.actions}
        for seq in (0, len(log.records) + 1, *sorted(inside)[:3]):
            with pytest.raises(KeyError):
                extended.action(seq)
