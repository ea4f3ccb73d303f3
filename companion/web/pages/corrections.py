"""Corrections from the phone: set a value to match the board, or replace an earlier entry.

Replacing shows, before anything is recorded, what the entry would become and whether every
later entry still holds; the first that no longer holds is named with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, render_template, request
from marshmallow import Schema

from companion.game.commands import BringSoul, Correct, CorrectSoul, MoveSoul, SendMember
from companion.game.errors import RuleViolation
from companion.game.game_or_tally import evolve_any, replay_any
from companion.game.legal import florence_options
from companion.game.rules.corrections import RESOURCES
from companion.game.rules.hell import legal_hell_moves
from companion.game.state import GameState
from companion.service import GameView
from companion.web.forms.corrections import CorrectForm, CorrectSoulForm, ReplaceForm
from companion.web.forms.fields import new_key
from companion.web.http.db import recorded, service
from companion.web.http.htmx import Answer
from companion.web.perform import perform, perform_command
from companion.web.screens.history import history_entries
from companion.web.words.catalogue import gettext
from companion.web.words.glossary import colour_name, kind_name, location_name
from companion.web.words.history import narrate
from companion.web.words.refusals import describe_refusal

__all__ = ["bp"]

bp = Blueprint("corrections", __name__, url_prefix="/g/<game_id>")


def render_corrections(view: GameView, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The corrections page."""
    return render_template(
        "pages/corrections.html", view=view, state=view.state, new_key=new_key, resources=RESOURCES, **extra
    ), status


@bp.get("/correct")
def page(game_id: str) -> tuple[str, int]:
    """Forms to set any value to what the physical board shows."""
    return render_corrections(recorded(game_id))


def _correction(game_id: str, form: type[Schema], command_of: Callable[[dict[str, Any]], Any], control: str) -> Answer:
    """Record a correction (any seated phone may correct the board); the corrections page answers."""
    return perform_command(
        game_id,
        form,
        command_of,
        control,
        loans=False,
        render=render_corrections,
        after="corrections.page",
        acts_for_player=False,
    )


@bp.post("/correct")
def correct(game_id: str) -> Answer:
    """Record one correction."""

    return _correction(
        game_id,
        CorrectForm,
        lambda d: Correct(d["what"], d["reason"], d["player"], d["target_key"], d["value"], d["shield"]),
        "correct",
    )


@bp.post("/correct-soul")
def correct_soul(game_id: str) -> Answer:
    """Set what stands on a shield."""

    def soul(d: dict[str, Any]) -> CorrectSoul:
        return CorrectSoul(d["shield"], d["colour"], d["reason"], d["state"] == "laid", d["state"] == "petrified")

    return _correction(game_id, CorrectSoulForm, soul, "correct-soul")


def alternatives(view: GameView, target: int) -> list[tuple[str, Any, str]]:
    """What else could have been recorded at ``target``: (option id, command, label)."""
    command = service().commands(view).get(target)
    state = replay_any(view.edition, view.timeline.effective_events(before=target))
    assert isinstance(state, GameState)
    player = getattr(command, "player", state.active)
    options: list[tuple[str, Any, str]] = []
    if isinstance(command, (BringSoul, MoveSoul)):
        for m in legal_hell_moves(state, player):
            if m.kind == "bring":
                cmd: Any = BringSoul(player, m.colour, m.landing, borrow=True)
                key = f"bring-{m.colour}-{m.landing}"
                label = gettext(
                    "Bring one %(colour)s soul to %(shield)s", colour=colour_name(m.colour), shield=m.landing.upper()
                )
            else:
                cmd = MoveSoul(player, m.start or "", m.landing, via=m.path, borrow=True)
                key = f"move-{m.start}-{'-'.join(m.path)}"
                label = gettext(
                    "Move the %(colour)s soul from %(a)s to %(b)s",
                    colour=colour_name(m.colour),
                    a=(m.start or "").upper(),
                    b=" → ".join(p.upper() for p in m.path),
                )
            options.append((key, cmd, label))
    elif isinstance(command, SendMember):
        for s in florence_options(state, player).sends:
            for kind, _ in s.kinds:
                label = gettext("Send a %(kind)s to the %(loc)s", kind=kind_name(kind), loc=location_name(s.location))
                options.append(
                    (
                        f"send-{kind}-{s.location}",
                        SendMember(player, kind, s.location, bool(s.bribe), borrow=True),
                        label,
                    )
                )
    return options


@bp.get("/replace")
def replace_page(game_id: str) -> tuple[str, int]:
    """Choose what really happened at an earlier entry; with ``choice``, preview the outcome."""
    view = recorded(game_id)
    target = request.args.get("target", type=int)
    entries = {e.seq: e for e in history_entries(view)}
    if target is None or target not in entries:
        abort(404)
    options = alternatives(view, target)
    choice = request.args.get("choice")
    preview: dict[str, Any] | None = None
    if choice:
        command = next((c for k, c, _ in options if k == choice), None)
        if command is None:
            abort(404)
        try:
            _v, recheck = service().check_replacement(game_id, target, command)
        except RuleViolation as exc:
            preview = {"error": describe_refusal(exc, view.state)}
        else:
            before = replay_any(view.edition, view.timeline.effective_events(before=target))
            sentences = []
            for evt in recheck.events[1:]:
                sentences.append(narrate(evt, before))
                before = evolve_any(before, evt)
            preview = {
                "sentences": [s for s in sentences if s],
                "checked": recheck.checked,
                "broken": recheck.broken,
                "reason": describe_refusal(recheck.reason, view.state) if recheck.reason else None,
            }
    return render_template(
        "pages/replace.html",
        view=view,
        state=view.state,
        target=target,
        entry=entries[target],
        options=options,
        choice=choice,
        preview=preview,
        new_key=new_key,
    ), 200


@bp.post("/replace")
def replace(game_id: str) -> Answer:
    """Record the replacement (refused, naming the entry, if a later one no longer holds)."""

    def run(d: dict[str, Any]) -> Any:
        view = recorded(game_id)
        command = next((c for k, c, _ in alternatives(view, d["target"]) if k == d["choice"]), None)
        if command is None:
            raise RuleViolation("not_replaceable", {"action": d["target"]})
        return service().replace(game_id, d["seq"], d["key"], d["target"], command)

    return perform(game_id, ReplaceForm, run, "replace", after="timeline.history")
