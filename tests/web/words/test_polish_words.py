"""Issue 24's polish, as a player reads it: the Styx's track refusal, and the Spanish of souls,
coins and places (every colour, every count, every location)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale

from companion.game.commands import SendMember, StartTally, UseStyx
from companion.game.refusals import placeholders
from companion.game.tally import decide_start_tally, replay_tally
from companion.web import create_app
from companion.web.words.editions import edition_name
from companion.web.words.glossary import colour_name, location_name
from companion.web.words.history import narrate
from companion.web.words.refusals import describe_refusal
from events.catalog import TallyPlayerEntered, TurnEnded, TurnQuarterSet
from tests.builders import Table
from tests.web.words.message_forms import forms


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    folder = tmp_path_factory.mktemp("polish")
    return create_app({"TESTING": True, "DATABASE": str(folder / "w.sqlite3"), "SECRET_KEY": "t"})


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_styx_without_a_track_names_the_tracks_to_choose_not_a_0_track(
    app: Flask, table: Table, language: str
) -> None:
    table.create(plague_card=(5, 5, 5, 2)).given(TurnQuarterSet(0, "lily"))
    table.when(SendMember(0, "noble", "bonfire"))
    exc = table.refused(UseStyx(0, 5, 1), "styx_track_group")  # no track chosen: first_track is 0
    with app.test_request_context(), force_locale(language):
        told = describe_refusal(exc, table.state)
    assert "0" not in told, told
    lust = {"en": "Lust", "es": "Lujuria"}[language]
    assert lust in told, told
    assert ("Choose one" in told) == (language == "en"), told  # the Spanish sentence is translated


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_last_turn_of_the_game_does_not_say_who_plays_next(app: Flask, table: Table, language: str) -> None:
    """Issue 24, item 4: "…Cleo plays" on the end-of-game bar: nobody plays after the last turn."""
    state = table.create(players=3).state
    with app.test_request_context(), force_locale(language):
        going_on = narrate(TurnEnded(0, 1), state)
        last = narrate(TurnEnded(0, 1), replace(state, final_turns_left=1, end_trigger=2))
    assert "Ben" in going_on
    assert "Ben" not in last and "Ana" in last, last
    assert last.endswith("."), last
    ending = {"en": "the game is over", "es": "la partida ha terminado"}[language]
    assert ending in last, last


# --- issue 24, item 5: every colour in every Spanish sentence with a soul --------------------------------

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "companion" / "translations" / "es" / "LC_MESSAGES" / "messages.po"
MASCULINE = re.compile(r"\b(almas?)\s+(morados?|amarillos?|rojos?|blancos?|negros?|dorados?|oscuros?)\b", re.I)


def _soul_sentences() -> list[tuple[str, str]]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    found = []
    for message in catalog:
        ids, strs = forms(message.id), forms(message.string)
        if any("soul" in i and "%(colour)s" in i for i in ids):
            found += [(ids[0], s) for s in strs if s]
    return found


SOUL_SENTENCES = _soul_sentences()


def test_the_soul_sentences_are_found() -> None:
    assert len(SOUL_SENTENCES) >= 10


@pytest.mark.parametrize("colour", range(1, 10))
def test_every_colour_agrees_with_alma_in_every_sentence_with_a_soul(app: Flask, colour: int) -> None:
    """ "Un alma morado" was wrong: an alma is feminine, so a colour that follows it agrees (or the
    sentence says "de color …"). Every colour × every sentence: the one forgotten fails by name."""
    with app.test_request_context(), force_locale("es"):
        name = colour_name(colour)
    wrong = []
    for msgid, msgstr in SOUL_SENTENCES:
        values = {p: "1" for p in placeholders(msgstr)} | {"colour": name}
        text = msgstr % values
        if MASCULINE.search(text):
            wrong.append(f"{msgid!r} → {text!r}")
    assert not wrong, "\n".join(wrong)


# --- every location × every Spanish sentence that names one -------------------------------------------

LOCATIONS = ("haystack", "banquet", "bank", "courtyard", "bonfire", "wall", "market", "palace")
PLACE_KEYS = ("%(loc)s", "%(location)s", "%(wanted)s")


def _place_sentences() -> list[tuple[str, str]]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    found = []
    for message in catalog:
        ids, strs = forms(message.id), forms(message.string)
        if any(k in ids[0] for k in PLACE_KEYS):
            found += [(ids[0], s) for s in strs if s]
    return found


PLACE_SENTENCES = _place_sentences()


def test_the_place_sentences_are_found() -> None:
    assert len(PLACE_SENTENCES) >= 20


@pytest.mark.parametrize("location", LOCATIONS)
def test_every_location_takes_its_article_in_every_spanish_sentence(app: Flask, location: str) -> None:
    """ "a Hoguera" was wrong: a Spanish place name after "a", "de" or "en" (or opening a sentence)
    takes its article; the sentences say "la loseta Hoguera", which holds for every tile's gender."""
    with app.test_request_context(), force_locale("es"):
        name = location_name(location)
    bare = re.compile(rf"(?:\b(?:a|de|en|desde|al|del|hacia)\s+|^){re.escape(name)}\b")
    wrong = []
    for msgid, msgstr in PLACE_SENTENCES:
        if msgstr.strip() in PLACE_KEYS:
            continue  # the name alone, as a label
        values = {p: "1" for p in placeholders(msgstr)} | {"loc": name, "location": name, "wanted": name}
        text = msgstr % values
        if bare.search(text):
            wrong.append(f"{msgid!r} → {text!r}")
    assert not wrong, "\n".join(wrong)


# --- item 7: counted words, never "(s)" -------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("count", [0, 1, 2])
def test_a_tallied_player_counts_diplomas_in_words(app: Flask, table: Table, language: str, count: int) -> None:
    tally = replay_tally(table.edition, decide_start_tally(table.edition, StartTally(("Ana",))))
    event = TallyPlayerEntered(0, 12, (), tuple(range(2, 2 + count)), count, 1, ())
    with app.test_request_context(), force_locale(language):
        told = narrate(event, tally)
    assert "(s)" not in told and "(es)" not in told, told
    one = {"en": "1 diploma,", "es": "1 diploma,"}[language]
    many = {"en": f"{count} diplomas,", "es": f"{count} diplomas,"}[language]
    assert (one if count == 1 else many) in told, told


def test_no_sentence_a_player_reads_in_my_files_says_s_in_brackets() -> None:
    """The history's words and the screens I own never count with "(s)" or "(es)"."""
    owned = [
        ROOT / "companion" / "web" / "words" / "history.py",
        ROOT / "companion" / "web" / "screens" / "loan_confirm.py",
        ROOT / "templates" / "screens" / "loan_confirm.html",
        ROOT / "templates" / "pages" / "history.html",
        ROOT / "templates" / "pages" / "undo_preview.html",
        ROOT / "templates" / "screens" / "florence_actions.html",
        ROOT / "templates" / "screens" / "location_actions.html",  # a location's options
        ROOT / "templates" / "screens" / "game_parts.html",  # the tiles of Florence and the players' parts
        ROOT / "templates" / "screens" / "hell_actions.html",  # the Hell phase's choices
    ]
    found = [
        f"{p.name}: {line.strip()}"
        for p in owned
        for line in p.read_text().splitlines()
        if re.search(r"\w\((e?s)\)", line)
    ]
    assert not found, "\n".join(found)


# --- the shipped edition's name in the reader's language ----------------------------------------------


def test_the_shipped_editions_name_is_shown_in_spanish_and_a_tables_own_name_as_typed(app: Flask) -> None:
    client = app.test_client()
    home = client.get("/", headers={"Accept-Language": "es"}).data.decode()
    library = client.get("/editions", headers={"Accept-Language": "es"}).data.decode()
    for page in (home, library):
        assert "con Pluto y Flegias" in page and "with Plutus" not in page
    english = client.get("/", headers={"Accept-Language": "en"}).data.decode()
    assert "with Plutus &amp; Phlegyas" in english
    with app.test_request_context(), force_locale("es"):
        assert edition_name("Our copy, ES 2024") == "Our copy, ES 2024"
