"""A citation opens what it cites: every "Reference §x.y", "Rulebook p. N" and expansion citation of
the refusal catalogue, the choice catalogue and the glossary resolves to a section of the rules
reference page in English and Spanish; a refusal on the game page links to it; the Spanish page
has no English sentence; each rulebook page says in one line what it rules."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext

from companion.game.refusals import CHOICES, REFUSALS, Citation
from companion.web.words.glossary import GUARDIAN_NOTES, guardian_note
from companion.web.words.refusals import describe_rule
from companion.web.words.rules_reference import PAGES, SECTIONS, citation_anchor, link_citations, rule_url
from tests.web.conftest import Phone
from tests.web.pages.test_board_check_pages import _english_words, _text

LANGS = ["en", "es"]


def _page(client: FlaskClient, lang: str) -> str:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    response = client.get("/rules")
    assert response.status_code == 200
    return response.data.decode()


def _anchors(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


def _section(page: str, anchor: str) -> str:
    """The text of the element the anchor names, up to its end."""
    found = re.search(rf'<(section|li)[^>]*\bid="{anchor}"[^>]*>(.*?)</\1>', page, re.S)
    assert found, anchor
    return _text(found.group(2))


def _every_citation() -> dict[str, Citation]:
    """Every citation the catalogues carry, named by who carries it."""
    cited = {f"refusal {r.code}": r.cite for r in REFUSALS.values() if r.cite is not None}
    cited |= {f"choice {c.key}": cite for c in CHOICES.values() if (cite := getattr(c, "cite", None)) is not None}
    return cited


def test_the_catalogues_cite_sections_pages_and_the_expansion() -> None:
    sources = {c.source for c in _every_citation().values()}
    assert sources == {"reference", "rulebook", "expansion"}
    assert len(_every_citation()) >= 80


@pytest.mark.parametrize("lang", LANGS)
def test_every_citation_of_the_catalogues_opens_an_anchor_of_the_page(app: Flask, lang: str) -> None:
    client = app.test_client()
    anchors = _anchors(_page(client, lang))
    missing = {}
    with app.test_request_context(), force_locale(lang):
        for who, cite in _every_citation().items():
            url = rule_url(cite)
            assert url.startswith("/rules#"), (who, url)
            if url.partition("#")[2] not in anchors:
                missing[who] = describe_rule(cite)
    assert missing == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_citation_in_the_glossary_is_a_link_to_an_anchor_of_the_page(app: Flask, lang: str) -> None:
    anchors = _anchors(_page(app.test_client(), lang))
    word = {"en": "Reference §", "es": "Referencia §"}[lang]
    with app.test_request_context(), force_locale(lang):
        notes = [guardian_note(note) for note in GUARDIAN_NOTES]
        choices = [gettext(c.phrase) for c in CHOICES.values()]
    cited = [n for n in notes + choices if word in n or "§" in n]
    assert len(cited) >= 2  # Medusa's §6 and the sixth guardian's §10.15
    for note in cited:
        links = re.findall(r'<a href="/rules#([\w-]+)">([^<]+)</a>', note)
        assert len(links) == note.count("§"), note  # no citation left as plain text
        assert [anchor for anchor, _ in links if anchor not in anchors] == [], note
        assert all(text.startswith(word) for _, text in links), note


@pytest.mark.parametrize("lang", LANGS)
def test_every_rulebook_page_says_in_one_line_what_it_rules(app: Flask, lang: str) -> None:
    page = _page(app.test_client(), lang)
    with app.test_request_context(), force_locale(lang):
        pages = {c.where for c in _every_citation().values() if c.source == "rulebook"}
        for where in pages:
            anchor = citation_anchor(Citation("rulebook", where))
            line = " ".join(_section(page, anchor).split()).replace(" :", ":")
            label = describe_rule(Citation("rulebook", where))
            assert line.startswith(label + ":"), line
            rules = line.removeprefix(label + ":")
            assert 40 < len(rules) < 200, line  # one line of words, not a page
            assert rules.rstrip(".").count(". ") == 0, line  # one sentence


def test_every_section_the_page_shows_has_its_anchor_title_and_how_sure_it_is(client: FlaskClient) -> None:
    page = _page(client, "en")
    for section in SECTIONS:
        text = _section(page, section.anchor)
        assert f"§{section.number} {section.title}" in " ".join(text.split())
        assert str(section.sure) in " ".join(text.split())
    assert {p.anchor for p in PAGES} <= _anchors(page)
    assert len(_anchors(page)) == len(re.findall(r'\bid="', page))  # no anchor twice


@pytest.mark.parametrize("lang", LANGS)
def test_a_section_that_points_to_another_links_to_it(client: FlaskClient, lang: str) -> None:
    page = _page(client, lang)
    rivers = re.search(r'<section[^>]*id="s3-3".*?</section>', page, re.S)
    assert rivers is not None
    assert re.findall(r'<a href="#(s[\d-]+)">§([\d.]+)</a>', rivers.group(0)) == [("s4-6", "4.6"), ("s7-2", "7.2")]
    links = set(re.findall(r'<a href="#(s[\d-]+)">', page))
    assert links and links <= _anchors(page)


def test_the_page_says_in_words_what_is_estimated_or_unknown(client: FlaskClient) -> None:
    for lang, words in {"en": ("estimated", "unknown"), "es": ("estimad", "desconocid")}.items():
        text = _text(_page(client, lang)).lower()
        for word in words:
            assert text.count(word) >= 5, (lang, word)
    en = " ".join(_section(_page(client, "en"), "s10-15").split())
    assert "Unknown" in en and "estimated" in en
    tie = " ".join(_section(_page(client, "en"), "s7-2").split())
    assert "tie-breakers are unknown" in tie


def test_the_spanish_reference_has_no_english_sentence(client: FlaskClient) -> None:
    english = _english_words()
    text = _text(_page(client, "es"))
    leaks = sorted(set(re.findall(r"[A-Za-z]{4,}", text.lower())) & english)
    assert leaks == []
    assert "Referencia de reglas" in text and "Páginas del reglamento" in text


def test_every_page_of_the_app_links_to_the_reference(client: FlaskClient) -> None:
    for lang, label in {"en": "Rules", "es": "Reglas"}.items():
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
        home = client.get("/").data.decode()
        assert re.search(rf'<a class="rules-link" href="/rules">{label}</a>', home)


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_on_the_game_page_links_to_the_section_it_cites(phone: Phone, lang: str) -> None:
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    phone.create()
    response = phone.post("bring", {"player": 0, "colour": 9, "shield": "1a"})
    assert response.status_code == 422
    box = re.search(r'<div class="refusal" role="alert" id="refusal-bring">(.*?)</div>', phone.html, re.S)
    assert box is not None
    cite = {"en": "Reference §4.1", "es": "Referencia §4.1"}[lang]
    link = re.search(r'<p class="rule">[^<]*<a href="([^"]+)">([^<]+)</a></p>', box.group(1))
    assert link is not None, box.group(1)
    assert link.group(2) == cite
    path, _, anchor = html.unescape(link.group(1)).partition("#")
    assert (path, anchor) == ("/rules", "s4-1")
    opened = phone.client.get(path).data.decode()
    section = _section(opened, anchor)
    heading = {"en": "§4.1 The Hell phase", "es": "§4.1 La fase del Infierno"}[lang]
    assert heading in section
    assert ("Cemetery" if lang == "en" else "Cementerio") in section


def test_link_citations_escapes_the_text_around_the_links(app: Flask) -> None:
    with app.test_request_context(), force_locale("en"):
        linked = str(link_citations("<b>Reference §4.3</b> & Rulebook pp. 14–15, Rulebook p. 9"))
    assert linked == (
        '&lt;b&gt;<a href="/rules#s4-3">Reference §4.3</a>&lt;/b&gt; &amp; '
        '<a href="/rules#p14-15">Rulebook pp. 14–15</a>, <a href="/rules#p9">Rulebook p. 9</a>'
    )
