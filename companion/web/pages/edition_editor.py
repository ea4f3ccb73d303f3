"""The edition editor and the guided check: a draft walked through question by question — each circle
of each board side drawn as printed, then each component of the box — where "Matches" checks what is
shown and "Different" edits it in place; the whole edition is judged when the table leaves a
question, and saved under a name.

Every tap is held in the draft at once (``http/drafts``), so leaving the page loses nothing.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, session, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from companion.editions import board, check, library
from companion.editions.components import Component, asked_units, component, components, questions
from companion.game.edition import Edition, EditionError
from companion.web.http.drafts import LibraryFull, load_draft, save_named, saved_name_taken, store_draft
from companion.web.http.htmx import Answer
from companion.web.http.phone import remember_edition
from companion.web.screens.edition_check import circle_picture, field_rows
from companion.web.screens.edition_preview import preview_context
from companion.web.words.catalogue import gettext
from companion.web.words.editions import component_title, edition_problem, problem_text, question_text

__all__ = ["bp"]

bp = Blueprint("edition_editor", __name__, url_prefix="/editions/drafts")

Raw = dict[str, Any]
CIRCLE_OPS = ("symbol", "swap", "line", "gate", "add", "remove")
EDIT_OPS = (*CIRCLE_OPS, "step_add", "step_remove")


def _raw(draft_id: str) -> Raw:
    try:
        return dict(json.loads(load_draft(draft_id)))
    except LookupError:
        abort(404)


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _valid(raw: Raw) -> tuple[Edition | None, str | None]:
    """The draft's edition, or why the validator refuses it (in words)."""
    try:
        return library.validated(raw)[1], None
    except EditionError as exc:
        return None, edition_problem(exc, raw)


# --------------------------------------------------------------------------- the overview


@bp.context_processor
def _words() -> dict[str, Any]:
    return {"comp_title": component_title, "comp_question": question_text}


@bp.get("/<draft_id>")
def editor(draft_id: str) -> Answer:
    """The draft: how far the check is, every question and setting to open, and the save form."""
    raw = _raw(draft_id)
    pick = request.args.get("pick", "")
    side = request.args.get("side", "")
    sides = [s.get("id") for s in raw["sides"]]
    if pick and side in sides:  # "Our board is different" from a game: straight to that shield's circle
        index = sides.index(side)
        for number, row in raw["sides"][index]["circles"].items():
            if pick in {e["id"] for e in row}:
                return redirect(_question_url(draft_id, f"circle-{index}-{number}", mode="edit", pick=pick), 303)
    progress = check.progress(raw)
    if request.args.get("section") == "check" and progress.next:
        return redirect(_question_url(draft_id, progress.next, mode="check"), 303)
    return _overview(draft_id, raw)


def _overview(draft_id: str, raw: Raw, error: str | None = None, status: int = 200, **extra: Any) -> tuple[str, int]:
    edition, invalid = _valid(raw)
    progress = check.progress(raw)
    asked = questions(raw, asked_units(library.check_units(raw)))
    settings = [c for c in components(raw) if not c.asked]
    side_id = request.args.get("side", "")
    preview: dict[str, Any] = {}
    if edition is not None:
        side_id = side_id if side_id in edition.sides else next(iter(edition.sides))
        preview = preview_context(edition, side_id)
    return render_template(
        "pages/editions_editor.html",
        draft_id=draft_id,
        raw=raw,
        edition=edition,
        invalid=invalid,
        progress=progress,
        asked=asked,
        settings=settings,
        error=error,
        side_id=side_id,
        switch_game=session.get("switch_after", {}).get(draft_id),
        **preview,
        **extra,
    ), status


# --------------------------------------------------------------------------- one question


def _question_url(draft_id: str, key: str, **args: str) -> str:
    given: dict[str, Any] = {k: v for k, v in args.items() if v}
    return url_for("edition_editor.question", draft_id=draft_id, key=key, **given)


def _component(raw: Raw, key: str) -> Component:
    try:
        return component(raw, key)
    except (KeyError, IndexError, TypeError, ValueError):
        abort(404)


def _page(
    draft_id: str,
    raw: Raw,
    comp: Component,
    *,
    mode: str,
    pick: str = "",
    from_check: bool = False,
    error: str | None = None,
    problems: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    progress = check.progress(raw)
    position = next((i for i, c in enumerate(progress.left) if c == comp.key), None)
    picture = circle_picture(raw, comp, pick) if comp.kind == "circle" else None
    return render_template(
        "pages/edition_question.html",
        draft_id=draft_id,
        raw=raw,
        comp=comp,
        mode=mode,
        pick=pick if picture is not None and pick in picture.shields else "",
        from_check=from_check,
        picture=picture,
        rows=field_rows(raw, comp, values or check.form_values(raw, comp), problems or {}),
        progress=progress,
        position=position,
        checked=comp.key not in progress.left,
        max_shields=board.MAX_SHIELDS,
        error=error,
        status_code=status,
    ), status


@bp.get("/<draft_id>/q/<key>")
def question(draft_id: str, key: str) -> tuple[str, int]:
    """One question: the circle or component as printed, with "Matches" and "Different" (or its controls)."""
    raw = _raw(draft_id)
    comp = _component(raw, key)
    mode = request.args.get("mode", "check")
    mode = mode if mode in ("check", "edit") and comp.asked else "edit"  # app settings are never asked
    return _page(
        draft_id,
        raw,
        comp,
        mode=mode,
        pick=request.args.get("pick", ""),
        from_check=request.args.get("from") == "check",
    )


def _next_after(draft_id: str, raw: Raw) -> Response:
    progress = check.progress(raw)
    if progress.next:
        return redirect(_question_url(draft_id, progress.next, mode="check"), 303)
    return redirect(url_for("edition_editor.editor", draft_id=draft_id, done=1) + "#save", 303)


def _edited(raw: Raw, comp: Component, form: MultiDict[str, str]) -> Raw:
    """One tap's change: on a circle's picture, or a step added to or taken off Dante's track."""
    op = form.get("op", "")
    if op == "step_add" and comp.key == "dante":
        return check.add_step(raw)
    if op == "step_remove" and comp.key == "dante":
        return check.remove_step(raw, int(form.get("step", "")))
    if op in CIRCLE_OPS and comp.kind == "circle":
        return _circle_op(raw, comp, form)
    raise KeyError(op)


def _circle_op(raw: Raw, comp: Component, form: MultiDict[str, str]) -> Raw:
    op, side = form.get("op", ""), comp.side
    if op == "symbol":
        return board.set_symbol(raw, side, form["shield"], form["quarter"])
    if op == "swap":
        return board.swap_symbols(raw, side, form["shield"], form["other"])
    if op == "line":
        return library.toggle_line(raw, raw["sides"][side]["id"], form["shield"], form["other"])
    if op == "gate":
        return library.toggle_gate(raw, raw["sides"][side]["id"], form["shield"])
    if op == "add":
        return board.insert_shield(raw, side, comp.circle, int(form["place"]))
    if op == "remove":
        return board.remove_shield(raw, side, form["shield"])
    raise KeyError(op)


@bp.post("/<draft_id>/q/<key>")
def answer(draft_id: str, key: str) -> Answer:
    """An answer to a question: "Matches", one tap on the circle, typed values, or "Done"."""
    raw = _raw(draft_id)
    comp = _component(raw, key)
    try:
        return _answer(draft_id, key, raw, comp, request.form)
    except LibraryFull as full:  # the phone's library is full or the file too large: nothing was held
        return _page(
            draft_id,
            raw,
            comp,
            mode="edit",
            from_check=request.form.get("from") == "check",
            error=full.message,
            status=422,
        )


def _answer(draft_id: str, key: str, raw: Raw, comp: Component, form: MultiDict[str, str]) -> Answer:
    op = form.get("op", "")
    from_check = form.get("from") == "check"
    if op == "match":
        edition, invalid = _valid(raw)
        if edition is None:
            return _page(draft_id, raw, comp, mode="edit", from_check=True, error=invalid, status=422)
        store_draft(draft_id, library.to_text(check.match(raw, comp, _today())))
        return _next_after(draft_id, _raw(draft_id))
    if op in EDIT_OPS:
        try:
            changed = _edited(raw, comp, form)
        except (KeyError, ValueError, IndexError):
            message = gettext("That change cannot be made here.")
            return _page(draft_id, raw, comp, mode="edit", from_check=from_check, error=message, status=422)
        store_draft(draft_id, library.to_text(check.uncheck_changed(raw, changed, comp)))
        back = {"from": "check" if from_check else "", "pick": form.get("keep", "")}
        return redirect(_question_url(draft_id, key, mode="edit", **back), 303)
    if op == "done":
        values = {k: v for k, v in form.items() if k.startswith("v:")}
        changed = raw
        if values:
            try:
                changed = check.apply_values(raw, comp, values)
            except check.ValuesRefused as refused:
                problems = {path: problem_text(p) for path, p in refused.problems.items()}
                message = gettext("Some values cannot be kept: see the fields marked below. Nothing was changed.")
                return _page(
                    draft_id,
                    raw,
                    comp,
                    mode="edit",
                    from_check=from_check,
                    error=message,
                    problems=problems,
                    values=values,
                    status=422,
                )
        edition, invalid = _valid(changed)
        if edition is None:  # typed values are not held; a circle's taps already are, to finish
            return _page(
                draft_id,
                raw,
                comp,
                mode="edit",
                from_check=from_check,
                error=invalid,
                values=values or None,
                status=422,
            )
        edited = check.uncheck_changed(raw, changed, comp)
        if from_check:
            edited = check.match(edited, comp, _today())
        store_draft(draft_id, library.to_text(edited))
        if from_check:
            return _next_after(draft_id, edited)
        return redirect(url_for("edition_editor.editor", draft_id=draft_id) + f"#q-{key}", 303)
    abort(400)


# --------------------------------------------------------------------------- saving


@bp.post("/<draft_id>/save")
def save(draft_id: str) -> Answer:
    """Keep the draft under a name; it can then be chosen for a new game or a running one."""
    raw = _raw(draft_id)
    name = request.form.get("name", "").strip()[:60]
    if not name:
        return _overview(draft_id, raw, gettext("Give the edition a name to save it."), 422)
    if saved_name_taken(name) and request.form.get("replace") != "yes":
        return _overview(draft_id, raw, None, 409, replace_name=name)
    try:
        text, _ = library.validated(library.with_name(raw, name))
        edition = save_named(name, text, replace=True)
    except EditionError as exc:
        return _overview(draft_id, raw, gettext("Not saved: %(message)s", message=edition_problem(exc, raw)), 422)
    except LibraryFull as exc:
        return _overview(draft_id, raw, exc.message, 422)
    remember_edition(edition.content_hash)
    game_id = session.get("switch_after", {}).get(draft_id)
    if game_id:
        return redirect(url_for("edition_switch.choose", game_id=game_id, to=edition.content_hash), 303)
    return redirect(url_for("editions.index", saved=name), 303)
