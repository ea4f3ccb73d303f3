"""The message catalogue is found once per request, and still follows the request's locale.

``companion/web/words/catalogue.py`` keeps the catalogue on ``g`` beside the locale it was found for;
these check that each request, each language and a locale forced within a request get their own.
"""

from __future__ import annotations

from flask import Flask
from flask_babel import force_locale, gettext

from companion.web.words.catalogue import RequestDomain


def test_the_app_translates_through_the_request_domain(app: Flask) -> None:
    assert isinstance(app.extensions["babel"].instance.domain_instance, RequestDomain)


def test_each_request_and_each_forced_locale_finds_its_own_catalogue(app: Flask) -> None:
    for language, players in (("es", "Jugadores"), ("en", "Players"), ("es", "Jugadores")):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            assert gettext("Players") == players
            assert gettext("Players") == players  # the kept catalogue
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
    """``template_words`` (no context passed: the parts are drawn faster) gives the same text as Jinja's
    newstyle gettext through Flask-Babel: the translation, its values escaped, ``num`` filled, ``%%``."""
    from companion.web.words.catalogue import template_words

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


def test_the_language_kept_per_header_is_the_one_werkzeug_chooses_afresh(app: Flask) -> None:
    """``preferred_language`` works out a header once per process: each header finds the language the request's own
    ``accept_languages`` would, and the page is in it."""
    from companion.web import LANGUAGES, preferred_language

    for header in ACCEPT_LANGUAGE:
        with app.test_request_context("/", headers={"Accept-Language": header}):
            from flask import request

            fresh = request.accept_languages.best_match(LANGUAGES) or "en"
            assert preferred_language(header) == fresh, header
            assert gettext("Players") == ("Jugadores" if fresh == "es" else "Players"), header
