"""The rules reference a citation opens: where each citation of a refusal links to, and the links in its text.

Every refusal cites "Reference §4.3", "Rulebook p. 11" or the expansion's rulebook
(``companion.game.refusals.Citation``); the page ``/rules`` shows one section of the digest per anchor
(``s4-3``), one line per rulebook page (``p11``, ``p14-15``) and the expansion (``s9``): the text itself
is the data of ``words/rules_digest``. ``rule_url`` is where a citation opens; ``link_citations`` turns the
citations inside a translated sentence into links, ``link_sections`` the sections a paragraph points to.
"""

from __future__ import annotations

import re

from flask import url_for
from markupsafe import Markup, escape

from companion.game.errors import RuleViolation
from companion.game.refusals import Citation
from companion.web.words.catalogue import gettext
from companion.web.words.rules_digest import SECTIONS, Section
from companion.web.words.rules_pages import PAGES, Page

__all__ = ["PAGES", "SECTIONS", "Page", "Section", "citation_anchor", "link_citations", "link_sections", "rule_url"]


def citation_anchor(citation: Citation) -> str:
    """The anchor a citation opens on the reference page: ``s4-3``, ``p11``, ``p14-15``; the
    expansion's rulebook opens the reference's section on the expansion (``s9``)."""
    if citation.source == "rulebook":
        return "p" + citation.where.replace("–", "-")
    if citation.source == "reference":
        return "s" + citation.where.replace(".", "-")
    return "s9"


def rule_url(citation: Citation | RuleViolation | None) -> str:
    """Where a citation opens (``/rules#s4-3``); "" for no citation."""
    if isinstance(citation, RuleViolation):
        citation = citation.citation
    if citation is None:
        return ""
    return url_for("rules.reference", _anchor=citation_anchor(citation))


def _pattern(msgid: str, name: str, value: str) -> str:
    """A translated citation as a regular expression, its number captured."""
    before, _sep, after = gettext(msgid, **{name: "\0"}).partition("\0")
    return re.escape(before) + f"(?P<{name}>{value})" + re.escape(after)


def link_citations(text: str) -> Markup:
    """``text`` escaped, each citation in it ("Reference §6", "Rulebook p. 11") a link to its section."""
    reference = _pattern("Reference §%(section)s", "section", r"\d+(?:\.\d+)*")
    pages = _pattern("Rulebook pp. %(pages)s", "pages", r"\d+–\d+")
    page = _pattern("Rulebook p. %(page)s", "page", r"\d+")
    found = re.compile("|".join((reference, pages, page)))
    out: list[str] = []
    last = 0
    for match in found.finditer(text):
        if match["section"]:
            cite = Citation("reference", match["section"])
        else:
            cite = Citation("rulebook", match["pages"] or match["page"])
        out += [escape(text[last : match.start()]), Markup('<a href="%s">%s</a>') % (rule_url(cite), match[0])]
        last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


_SECTION = re.compile(r"§(\d+(?:\.\d+)*)")


def link_sections(text: str) -> Markup:
    """A paragraph of the reference escaped, each "§4.6" it points to a link to that section."""
    text = str(text)  # a lazy string of SECTIONS, in the reader's language
    anchors = {section.anchor for section in SECTIONS}
    out: list[str] = []
    last = 0
    for match in _SECTION.finditer(text):
        anchor = "s" + match[1].replace(".", "-")
        if anchor in anchors:
            out += [escape(text[last : match.start()]), Markup('<a href="#%s">%s</a>') % (anchor, match[0])]
            last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)
