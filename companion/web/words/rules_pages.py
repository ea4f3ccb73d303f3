"""The rulebook's pages a refusal cites, each in one line of what it rules: the second half of the rules reference
(``words/rules_reference``), beside the digest's sections (``words/rules_digest``)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import LazyString

from companion.web.words.catalogue import lazy_gettext

__all__ = ["PAGES", "Page"]

_ = lazy_gettext


@dataclass(frozen=True)
class Page:
    """One rulebook page (or pair) a refusal cites, and in one line what it rules."""

    pages: str  # "11", "14–15"
    rules: LazyString

    @property
    def anchor(self) -> str:
        return "p" + self.pages.replace("–", "-")


PAGES: tuple[Page, ...] = (
    Page(
        "9",
        _(
            "The River Styx: 1, 2 or 3 souls of one colour for sin-track steps; with one soul left, only the "
            "first option, then the Cemetery refills."
        ),
    ),
    Page(
        "11",
        _(
            "Moving a soul: it falls past taken shields, never below its own circle, crosses the Wall only by "
            "your disc; no possible move ends the game."
        ),
    ),
    Page(
        "12",
        _(
            "Florence: the shield where your soul stopped sets the quarter (2 drachmas for another); a "
            "location never blocks."
        ),
    ),
    Page(
        "14–15",
        _(
            "Accusing: a member already there and the location's requirement; then a soul to the Cemetery, "
            "your skull up, Dante one step."
        ),
    ),
    Page(
        "16–17",
        _(
            "Final scoring: the Phlegethon drops one space per empty shield (never below 1); each diploma "
            "scores Phlegethon times skull level."
        ),
    ),
    Page(
        "22–23",
        _(
            "Guardians: move one to another empty shield to use its effect on nearby souls, never past a "
            "soul's own circle."
        ),
    ),
)
