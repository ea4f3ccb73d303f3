"""Switching a running game to a corrected edition: what a switch would record (its preview), and
the switch itself, recorded through the game service's one write path.

A switch holds only when every entry still holds under the new edition; otherwise the table may
switch from the first entry that breaks on, the entries from there set aside and recorded again
where still legal, in one action that one undo takes back. The edition's text is kept in the store
once the switch is recorded (a refused or stale switch keeps nothing).
"""

from __future__ import annotations

from companion.game.commands import SwitchEdition, SwitchEditionFrom
from companion.game.edition_recheck import Rerecorded, SwitchCheck, decide_switch_from, recheck_switch
from companion.game.edition_switch import edition_from_text
from companion.game.errors import Choice, RuleViolation
from companion.log_view import AnyView
from companion.service.games import GameService, Outcome
from events.catalog import Event

__all__ = ["preview_switch", "preview_switch_from", "switch_edition", "switch_from"]


def preview_switch(games: GameService, game_id: str, content_hash: str) -> tuple[AnyView, SwitchCheck]:
    """What switching the game to this edition would record, and the first entry it would break.

    Raises ``RuleViolation`` when the switch itself is refused. Nothing is recorded.
    """
    view = games.view(game_id)
    text = games.library.edition_text(content_hash)
    return view, recheck_switch(view.state, view.timeline, games.commands(view), text)


def switch_edition(
    games: GameService,
    game_id: str,
    expected_seq: int,
    idempotency_key: str,
    content_hash: str,
    actor: str | None = None,
) -> Outcome:
    """Switch a running game to a corrected edition if every entry still holds under it."""
    text = games.library.edition_text(content_hash)

    def produce(view: AnyView) -> list[Event]:
        check = recheck_switch(view.state, view.timeline, games.commands(view), text)
        if check.broken is not None and check.reason is not None:
            raise RuleViolation(
                "edition_breaks_entry",
                {"entry": check.broken, "why": check.reason.code, **check.reason.params},
                [Choice("choice.undo_to", {"action": check.broken})],
                rule="a game switches edition only when every entry still holds under the new one",
            )
        return list(check.events)

    command = {"type": SwitchEdition.__name__, "data": {"content": text}}
    outcome = games.record(game_id, expected_seq, idempotency_key, produce, command, actor)
    if not outcome.duplicate:
        games.library.keep(edition_from_text(text), text)
    return outcome


def preview_switch_from(games: GameService, game_id: str, content_hash: str, entry: int) -> tuple[AnyView, Rerecorded]:
    """What switching from ``entry`` on would record: the entries recorded again and those the
    table must enter again. Raises ``RuleViolation`` as ``switch_from`` would. Nothing is recorded."""
    view = games.view(game_id)
    text = games.library.edition_text(content_hash)
    return view, decide_switch_from(view.edition, view.timeline, games.commands(view), text, entry)


def switch_from(
    games: GameService,
    game_id: str,
    expected_seq: int,
    idempotency_key: str,
    content_hash: str,
    entry: int,
    actor: str | None = None,
) -> Outcome:
    """Switch to a corrected edition from ``entry`` (the first entry it would record otherwise) on:
    the entries from there are set aside and recorded again where still legal, in one action that
    one undo takes back. Raises ``RuleViolation`` when ``entry`` is no longer the one that breaks."""
    text = games.library.edition_text(content_hash)

    def produce(view: AnyView) -> list[Event]:
        return list(decide_switch_from(view.edition, view.timeline, games.commands(view), text, entry).events)

    command = {"type": SwitchEditionFrom.__name__, "data": {"content": text, "entry": entry}}
    outcome = games.record(game_id, expected_seq, idempotency_key, produce, command, actor)
    if not outcome.duplicate:
        games.library.keep(edition_from_text(text), text)
    return outcome
