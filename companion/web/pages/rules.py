"""The rules reference: what a citation ("Reference §4.3", "Rulebook p. 11") opens, in the reader's
language, one anchor per section and per rulebook page (``words/rules_reference``)."""

from __future__ import annotations

from flask import Blueprint, render_template

from companion.web.words.rules_reference import PAGES, SECTIONS, link_sections

__all__ = ["bp"]

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def reference() -> str:
    """The project's rules digest in player words: each section, how sure it is, and each rulebook page cited."""
    return render_template("pages/rules.html", sections=SECTIONS, pages=PAGES, link=link_sections)
