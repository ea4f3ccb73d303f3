"""The edition library: every edition this phone may choose, this phone's drafts, a draft copy of one
to edit or check, an edition file imported or exported, shared by a link and QR code, or published for
every table. The editor itself is ``edition_editor``; who owns what is decided in ``http/drafts``."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

import segno
from flask import Blueprint, Response, abort, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as WResponse

from companion.editions import library
from companion.game.edition import Edition, EditionError, parse_edition
from companion.service import is_game
from companion.service.published import agreement, imported_from, most_checked, stamp_import
from companion.web.http.db import service
from companion.web.http.drafts import (
    LibraryFull,
    NameTaken,
    drop_draft,
    drop_named,
    my_drafts,
    my_editions,
    new_draft,
    publish_named,
    save_named,
    share_token,
)
from companion.web.http.htmx import Answer
from companion.web.http.phone import phone_id, remember_edition, remembered_views
from companion.web.words.catalogue import gettext
from companion.web.words.editions import edition_problem, progress_text, value_words

__all__ = ["bp"]

bp = Blueprint("editions", __name__, url_prefix="/editions")


def _progress(raw: dict[str, Any]) -> dict[str, Any]:
    """How much of an edition is checked, and whose claim an imported file's checks are."""
    done, total, _left = library.check_progress(raw)
    claimed = imported_from(raw)
    return {
        "done": done,
        "total": total,
        "claimed_by": claimed[0] if claimed else "",
        "claimed_on": claimed[1] if claimed else "",
    }


def _proposal() -> tuple[str, str, int, int] | None:
    """The published edition most checked by the tables, as (hash, name, done, total)."""
    svc = service()
    published = svc.store.published_editions()[:50]
    raws = [svc.library.edition_by_hash(p.content_hash).raw for p in published]
    best = most_checked(raws)
    if best is None:
        return None
    done, total, _left = library.check_progress(raws[best])
    return published[best].content_hash, published[best].name, done, total


@bp.app_context_processor
def _chooser() -> dict[str, Any]:
    def edition_chooser() -> dict[str, Any]:
        svc = service()
        choices = svc.library.edition_choices(phone_id())
        hashes = {h for h, _ in choices}
        remembered = session.get("edition")
        proposal = _proposal()
        fallback = proposal[0] if proposal else choices[0][0]
        selected = remembered if isinstance(remembered, str) and remembered in hashes else fallback
        raw = svc.library.edition_by_hash(selected).raw
        return {"choices": choices, "selected": selected, "proposal": proposal, **_progress(raw)}

    def edition_check(edition: Edition) -> dict[str, Any]:
        return _progress(edition.raw)

    return {
        "edition_chooser": edition_chooser,
        "edition_progress": progress_text,
        "edition_check": edition_check,
    }


# --------------------------------------------------------------------------- the library


def _library() -> list[dict[str, Any]]:
    svc = service()
    shipped = {e.content_hash for _, e in svc.library.shipped.values()}
    mine = {e.content_hash: e for e in my_editions()}
    published = {e.content_hash for e in svc.store.published_editions()}
    items = []
    for content_hash, name in svc.library.edition_choices(phone_id()):
        own = mine.get(content_hash)
        items.append(
            {
                "hash": content_hash,
                "name": own.name if own else name,
                "shipped": content_hash in shipped,
                "mine": own is not None,
                "published": (own.published_at is not None) if own else content_hash in published,
                **_progress(svc.library.edition_by_hash(content_hash).raw),
            }
        )
    return items


def _drafts() -> list[dict[str, Any]]:
    items = []
    for draft in my_drafts():
        try:
            raw = json.loads(draft.content)
            progress = _progress(raw)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue
        items.append(
            {"id": draft.draft_id, "name": str(raw.get("name", "")), "updated": draft.updated_at[:10], **progress}
        )
    return items


@bp.get("")
def index(error: str | None = None, status: int = 200) -> tuple[str, int]:
    """Every edition this phone may use, its drafts: edit a copy, check it, share, publish, export; import one."""
    return (
        render_template("pages/editions.html", editions=_library(), drafts=_drafts(), error=error, games=_games()),
        status,
    )


def _games() -> list[tuple[str, str]]:
    """This phone's running games, as (id, players)."""
    games = []
    for view in remembered_views():
        if is_game(view) and view.state.ended is None:
            games.append((view.game_id, ", ".join(p.name for p in view.state.players)))
    return games[:6]


def _open_draft(text: str, section: str = "board", reuse: str | None = None) -> Answer:
    try:
        draft_id = new_draft(text, reuse)
    except LibraryFull as exc:
        return index(exc.message, 422)
    return redirect(url_for("edition_editor.editor", draft_id=draft_id, section=section), 303)


def _visible_text(content_hash: str) -> str:
    """The text of an edition this phone may see (404 otherwise)."""
    svc = service()
    if content_hash not in {h for h, _ in svc.library.edition_choices(phone_id())}:
        abort(404)
    try:
        return svc.library.edition_text(content_hash)
    except LookupError:
        abort(404)


@bp.post("/drafts")
def start_draft() -> Answer:
    """A draft copy of a shipped or saved edition."""
    section = request.form.get("section", "board")
    return _open_draft(
        _visible_text(request.form.get("base", "")), section if section in ("board", "check") else "board"
    )


@bp.post("/discard/<draft_id>")
def discard_draft(draft_id: str) -> WResponse:
    """Throw away one of this phone's drafts."""
    drop_draft(draft_id)
    return redirect(url_for("editions.index"), 303)


@bp.post("/import")
def import_file() -> Answer:
    """An edition file from this phone, validated, opened as a draft (the same file again: the same draft)."""
    upload = request.files.get("file")
    data = upload.read() if upload else request.form.get("text", "").encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:32]
    text = data.decode("utf-8", errors="replace")
    try:
        edition = parse_edition(text)
        stamped = library.to_text(stamp_import(edition.raw, datetime.now(UTC).date().isoformat()))
        parse_edition(stamped)
    except EditionError as exc:
        return index(gettext("This file is not a valid edition: %(message)s", message=edition_problem(exc)), 422)
    return _open_draft(stamped, reuse=f"import:{digest}")


@bp.get("/<content_hash>.json")
def export(content_hash: str) -> Response:
    """An edition as its exact file."""
    text = _visible_text(content_hash)
    edition_id = re.sub(r"[^A-Za-z0-9._-]", "-", service().library.edition_by_hash(content_hash).id)[:80] or "edition"
    return Response(
        text,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{edition_id}.json"'},
    )


# --------------------------------------------------------------------------- this phone's editions


def _own_name() -> str:
    name = request.form.get("name", "").strip()
    if not any(e.name == name for e in my_editions()):
        abort(404)
    return name


@bp.post("/mine/share")
def share() -> WResponse:
    """The share link of one of this phone's editions (made once, then the same)."""
    token = share_token(_own_name())
    if token is None:
        abort(404)
    return redirect(url_for("editions.shared", token=token), 303)


@bp.post("/mine/publish")
def publish() -> WResponse:
    """Publish one of this phone's editions for every table, or take it back."""
    publish_named(_own_name(), request.form.get("publish") == "1")
    return redirect(url_for("editions.published"), 303)


@bp.post("/mine/remove")
def remove() -> WResponse:
    """Forget one of this phone's editions (games made with it keep their own copy)."""
    drop_named(_own_name())
    return redirect(url_for("editions.index"), 303)


# --------------------------------------------------------------------------- sharing


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG, drawn as the join page draws its own."""
    svg: str = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff", border=3, omitsize=True)
    return svg


def _shared(token: str) -> tuple[Any, Edition]:
    svc = service()
    entry = svc.store.shared_edition(token) if re.fullmatch(r"[A-Za-z0-9_-]{8,64}", token) else None
    if entry is None:
        abort(404)
    return entry, svc.library.edition_by_hash(entry.content_hash)


@bp.get("/s/<token>")
def shared(token: str, error: str | None = None, status: int = 200) -> tuple[str, int]:
    """A shared edition: its name, how much of it is checked, and one button to use it on this phone."""
    entry, edition = _shared(token)
    link = url_for("editions.shared", token=token, _external=True)
    return (
        render_template(
            "pages/edition_shared.html",
            name=entry.name,
            token=token,
            link=link,
            qr=qr_svg(link),
            own=entry.owner == phone_id(),
            used=request.args.get("used") == "1",
            error=error,
            **_progress(edition.raw),
        ),
        status,
    )


@bp.post("/s/<token>/use")
def use_shared(token: str) -> Answer:
    """Make a shared edition this phone's saved edition (under its name; a name already used for
    another edition gets a number) and this phone's edition for new games."""
    entry, edition = _shared(token)
    text = service().library.edition_text(entry.content_hash)
    mine = {e.name: e.content_hash for e in my_editions()}
    name = entry.name
    number = 2
    while name in mine and mine[name] != entry.content_hash:
        name = f"{entry.name} ({number})"
        number += 1
    try:
        save_named(name, text, replace=True)
    except LibraryFull as exc:
        return shared(token, exc.message, 422)
    except NameTaken:  # pragma: no cover - replace=True never refuses
        abort(409)
    remember_edition(edition.content_hash)
    return redirect(url_for("editions.shared", token=token, used="1"), 303)


# --------------------------------------------------------------------------- published editions

_STEP = re.compile(r"([A-Za-z_]+)|\[(\d+)\]|\['([^']+)'\]")


def value_name(raw: dict[str, Any], path: str) -> str:
    """A checked value named in words, as the box names it."""
    return value_words(raw, path)


@bp.get("/published")
def published() -> tuple[str, int]:
    """Every published edition, and for each checked value how many tables checked it and whether they agree."""
    svc = service()
    entries = svc.store.published_editions()
    raws = [svc.library.edition_by_hash(e.content_hash).raw for e in entries]
    items = [
        {"name": e.name, "hash": e.content_hash, "mine": e.owner == phone_id(), **_progress(r)}
        for e, r in zip(entries, raws, strict=True)
    ]
    values = sorted(agreement(raws), key=lambda a: (a.agree, -a.tables, a.path))
    named = []
    for value in values:
        reference = next(r for r in raws if value.path in r.get("checks", {}))
        named.append({"name": value_name(reference, value.path), "tables": value.tables, "agree": value.agree})
    return render_template("pages/editions_published.html", editions=items, values=named), 200
