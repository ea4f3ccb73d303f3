"""The undo bar's entries are told once (``history._told``): an undo tells the entry before it as it was told
when that one was recorded, and the entry it undid (to redo) from the state it was told from then. What is
kept is the telling in one language, of one action from one state, held weakly."""

from __future__ import annotations

import gc
import random
import weakref

from flask import Flask
from flask_babel import force_locale

from companion.game import projection
from companion.game.commands import CreateGame
from companion.game.errors import RuleViolation
from companion.web.http.db import service
from companion.web.screens import history
from companion.web.screens.history import _tell, latest_entries
from testkit.random_play import choices
from tests.builders import game_view, seats


def _game(app: Flask, seed: int, actions: int) -> str:
    """A game of three with ``actions`` random legal actions recorded."""
    rng = random.Random(seed)
    with app.test_request_context("/"):
        svc = service()
        game_id = svc.create_game(CreateGame(players=seats(3), plague_card=(2, 4, 6, 8)), f"told-{seed}")
        recorded = 0
        while recorded < actions:
            view = game_view(svc.view(game_id))
            try:
                svc.execute(game_id, view.seq, rng.choice(choices(view.state, rng)), f"told-{seed}-{view.seq}")
            except RuleViolation:
                continue
            recorded += 1
    return game_id


def test_an_undo_and_a_redo_tell_the_entries_as_they_were_told_before(app: Flask) -> None:
    game_id = _game(app, 3, 12)
    with app.test_request_context("/"):
        svc = service()
        view = svc.view(game_id)
        before_undo, _nothing = latest_entries(view)
        assert before_undo is not None
        previous = latest_entries(svc.view(game_id))  # told again: found, the same
        assert previous[0] == before_undo
        svc.undo(game_id, view.seq, "told-undo")
        undone = svc.view(game_id)
        last, redo = latest_entries(undone)
        assert redo is not None and redo.sentences == before_undo.sentences  # the entry undone, to redo
        history._TOLD.clear()
        assert latest_entries(undone) == (last, redo)  # the same as told afresh
        svc.redo(game_id, undone.seq, "told-redo")
        again, _none = latest_entries(svc.view(game_id))
        assert again is not None and again.sentences == before_undo.sentences


def test_an_entry_is_told_in_the_language_asked(app: Flask) -> None:
    game_id = _game(app, 4, 6)
    told: dict[str, tuple[str, ...]] = {}
    for language in ("en", "es", "en"):
        with app.test_request_context("/"), force_locale(language):
            last, _redo = latest_entries(service().view(game_id))
            assert last is not None
            told.setdefault(language, last.sentences)
            assert last.sentences == told[language]
    assert told["en"] != told["es"]


def test_an_entry_kept_does_not_keep_the_game_alive(app: Flask) -> None:
    game_id = _game(app, 5, 4)
    with app.test_request_context("/"):
        view = service().view(game_id)
        action = view.timeline.action(view.timeline.undoable[-1])
        before = view.state_before(action.seq)
        assert before is not None
        sentences = history._told(view, action, before)
        assert sentences == _tell(view, action, before)[0]
        assert history._told(view, action, before) is sentences  # kept
        state = weakref.ref(before)
        del before, view
    with app.test_request_context("/"):
        service().cache.clear()  # the game left aside: no view holds it
    projection._FOLDS.clear()
    gc.collect()
    assert state() is None  # nothing kept it: not the kept telling either
