"""Undo and redo are appended events; the state is always the replay of what is in effect."""

from __future__ import annotations

import pytest

from companion.game.commands import BringSoul, EndTurn, SendMember, TakeLoan
from companion.game.errors import RuleViolation
from companion.game.projection import replay
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo
from events.catalog import ActionRedone, ActionUndone, Event
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
