"""Each request is said in its own language: the player's switch, else the browser's preference, else English; a
locale forced within a request gets its own words, and the templates' words are Flask-Babel's."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import force_locale, gettext

from companion.web import LANGUAGES
from companion.web.words.catalogue import gettext as app_gettext
from companion.web.words.catalogue import template_words


def test_each_request_and_each_forced_locale_finds_its_own_catalogue(app: Flask) -> None:
    for language, players in (("es", "Jugadores"), ("en", "Players"), ("es", "Jugadores")):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            assert gettext("Players") == players
            assert app_gettext("Players") == players  # the app's own lookup
            with force_locale("en" if language == "es" else "es"):
                assert gettext("Players") != players
            assert gettext("Players") == players


def test_a_page_in_spanish_then_english_from_one_client(client) -> None:
    spanish = client.get("/", headers={"Accept-Language": "es"}).data.decode()
    english = client.get("/", headers={"Accept-Language": "en"}).data.decode()
    assert "Inferno Companion" in spanish and "Start the game" in english and "Start the game" not in spanish


TEMPLATE = (
    '{% set who = "<Ana & Ben>" %}'  # a variable set in the block, as the game's parts do
    '{{ _("Waiting for %(name)s", name=who) }}|{{ _("Players") }}|{{ gettext("100%% of %(n)s", n=2) }}|'
    '{{ ngettext("%(num)d soul", "%(num)d souls", 1) }}|{{ ngettext("%(num)d soul", "%(num)d souls", 3, extra=who) }}'
)


def test_the_parts_words_say_what_flask_babels_say_in_a_template(app: Flask) -> None:
    """``template_words`` (its functions take no Jinja context) gives the same text as Jinja's
    newstyle gettext through Flask-Babel: the translation, its values escaped, ``num`` filled, ``%%``."""
    for language in ("en", "es"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            theirs = app.jinja_env.from_string(TEMPLATE).render()
            ours = app.jinja_env.from_string(TEMPLATE).render(**template_words(language))
            assert ours == theirs
            assert "&lt;Ana &amp; Ben&gt;" in ours and "100% of 2" in ours
            if language == "es":
                assert ours.startswith("Esperando") and "Jugadores" in ours


ACCEPT_LANGUAGE = (
    "",
    "es",
    "en",
    "es-ES,es;q=0.9,en;q=0.8",
    "en-GB,en;q=0.9,es;q=0.8",
    "fr-FR,fr;q=0.9",
    "fr;q=0.9,es;q=0.5",
    "es;q=0,en;q=0.1",
    "*",
    "de, es-MX;q=0.7",
    ";;,q=x",
)


def test_the_language_is_the_one_the_browser_prefers_else_english(app: Flask) -> None:
    """Each ``Accept-Language`` header, well formed or not, gives the language werkzeug finds best among the app's,
    else English, and the app's words are in it."""
    for header in ACCEPT_LANGUAGE:
        with app.test_request_context("/", headers={"Accept-Language": header}):
            wanted = request.accept_languages.best_match(LANGUAGES) or "en"
            assert gettext("Players") == ("Jugadores" if wanted == "es" else "Players"), header
            assert app_gettext("Players") == gettext("Players"), header


def test_the_players_switch_wins_over_the_browser(client) -> None:
    with client.session_transaction() as session:
        session["lang"] = "es"
    assert "Jugadores" in client.get("/", headers={"Accept-Language": "en"}).data.decode()
