"""``said_refusal`` caches the sentences a screen says on every drawing (the accusations not open now): per
language and per what the sentence reads of the game (the players' names, the board's side), equal to
``describe_refusal`` said afresh."""

from __future__ import annotations

import random

from flask import Flask
from flask_babel import force_locale

from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import RuleViolation
from companion.game.legal import florence_options
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.web.words import refusals
from companion.web.words.refusals import describe_refusal, said_refusal
from events.catalog import SeatSetup
from testkit.random_play import choices
from tests.builders import COLOURS


def _game(edition: Edition, names: tuple[str, ...] = ("Ana", "Ben", "Cleo")) -> GameState:
    table = tuple(SeatSetup(name, colour) for name, colour in zip(names, COLOURS, strict=False))
    return replay(edition, decide_create(edition, CreateGame(players=table, plague_card=(2, 4, 6, 8))))


def test_the_shut_accusations_are_said_as_afresh_in_both_languages(app: Flask, edition: Edition) -> None:
    rng = random.Random(11)
    state = _game(edition)
    said = 0
    for _ in range(400):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.FLORENCE:
            for check in florence_options(state, state.active).accusations:
                if check.refusal is None:
                    continue
                for language in ("es", "en"):
                    with app.test_request_context("/"), force_locale(language):
                        fresh = describe_refusal(check.refusal, state)
                        assert said_refusal(check.refusal, state) == fresh  # cached or said now
                        assert said_refusal(check.refusal, state) == fresh  # found again
                        said += 1
        try:
            for event in decide(state, rng.choice(choices(state, rng))):
                state = evolve(state, event)
        except RuleViolation:
            continue
    assert said > 20


def test_a_sentence_naming_players_is_kept_apart_for_each_table(app: Flask, edition: Edition) -> None:
    refusal = RuleViolation("not_your_turn", {"active": 0, "player": 1})
    one, other = _game(edition, ("Ana", "Ben", "Cleo")), _game(edition, ("Dani", "Eva", "Fran"))
    with app.test_request_context("/"), force_locale("en"):
        refusals._SAID.clear()
        assert "Ana" in said_refusal(refusal, one) and "Ben" in said_refusal(refusal, one)
        assert "Dani" in said_refusal(refusal, other) and "Ana" not in said_refusal(refusal, other)
    with app.test_request_context("/"), force_locale("es"):
        assert said_refusal(refusal, one) == describe_refusal(refusal, one) != said_refusal(refusal, other)


def test_a_sentence_naming_a_shield_is_said_as_afresh_on_either_side_of_the_board(app: Flask, edition: Edition) -> None:
    small, large = _game(edition, ("Ana", "Ben")), _game(edition, ("Ana", "Ben", "Cleo", "Dani"))
    assert small.side.id != large.side.id  # the side is in the key (an edition may label a shield apart on each)
    with app.test_request_context("/"), force_locale("es"):
        refusals._SAID.clear()
        for shield in sorted(small.side.shields)[:12]:
            refusal = RuleViolation("not_a_limbo_shield", {"shield": shield})
            for state in (small, large, small):
                assert said_refusal(refusal, state) == describe_refusal(refusal, state)
