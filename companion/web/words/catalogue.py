"""The app's words in the request's language: Flask-Babel's catalogue, each message looked up once per language.

The app's own code says its words through this module's ``gettext``, ``ngettext``, ``pgettext`` and
``lazy_gettext`` (the same signatures as Flask-Babel's): the language is Flask-Babel's ``get_locale()``, and each
language's lookups are made once per process (``words_for``). The templates use the same lookups
(``template_words``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flask_babel
from flask import current_app, g, has_app_context
from flask_babel import LazyString, get_locale
from jinja2 import Environment
from markupsafe import Markup

from companion.web.words.escaping import esc

__all__ = [
    "Words",
    "gettext",
    "install",
    "language",
    "lazy_gettext",
    "ngettext",
    "pgettext",
    "said",
    "said_plural",
    "template_words",
    "text_words",
    "words_for",
]


@dataclass(frozen=True)
class Words:
    """One language's lookups, each message found once (``lru_cache``)."""

    plain: Callable[[str], str]
    plural: Callable[[str, str, int], str]
    context: Callable[[str, str], str]


_WORDS: dict[str, Words] = {}


def words_for(language: str) -> Words:
    """The lookups of ``language`` (the request's: its catalogue is found through Flask-Babel once)."""
    words = _WORDS.get(language)
    if words is None:
        babel: Any = current_app.extensions["babel"].instance
        translations = babel.domain_instance.get_translations()
        words = Words(
            functools.lru_cache(maxsize=8192)(translations.ugettext),
            functools.lru_cache(maxsize=2048)(translations.ungettext),
            functools.lru_cache(maxsize=1024)(translations.upgettext),
        )
        _WORDS[language] = words
    return words


def _request_words() -> tuple[str, Words] | None:
    """The request's language and its lookups, or None outside an app's context. Worked out once for each locale
    the request is in (``g.said_in``: the locale and the pair; ``force_locale`` gives another locale, its own)."""
    if not has_app_context():
        return None
    locale = get_locale()
    if locale is None:
        return None
    said_in: tuple[object, tuple[str, Words]] | None = g.get("said_in")
    if said_in is not None and said_in[0] is locale:
        return said_in[1]
    name = str(locale)
    pair = (name, words_for(name))
    g.said_in = (locale, pair)
    return pair


def language() -> str:
    """The request's language ("en" outside a request), found once per request."""
    found = _request_words()
    return "en" if found is None else found[0]


def _words() -> Words | None:
    """The request's lookups, or None outside a request (Flask-Babel's own answer then)."""
    found = _request_words()
    return None if found is None else found[1]


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext``, each translation looked up once per language (``words_for``)."""
    words = _words()
    if words is None:
        return flask_babel.gettext(string, **variables)
    s = words.plain(string)
    return s % variables if variables else s


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext``, each translation looked up once per language (``words_for``)."""
    words = _words()
    if words is None:
        return flask_babel.ngettext(singular, plural, num, **variables)
    variables.setdefault("num", num)
    return words.plural(singular, plural, num) % variables


def pgettext(context: str, string: str, **variables: Any) -> str:
    """Flask-Babel's ``pgettext``, each translation looked up once per language (``words_for``)."""
    words = _words()
    if words is None:
        return flask_babel.pgettext(context, string, **variables)
    s = words.context(context, string)
    return s % variables if variables else s


def said(string: str) -> str:
    """The request's translation of ``string``, unformatted: Jinja's newstyle gettext formats it (``install``)."""
    words = _words()
    return flask_babel.gettext(string) if words is None else words.plain(string)


def said_plural(singular: str, plural: str, num: int) -> str:
    """The request's translation of a plural, unformatted: Jinja's newstyle ngettext formats it (``install``)."""
    words = _words()
    return flask_babel.ngettext(singular, plural, num) if words is None else words.plural(singular, plural, num)


def install(env: Environment) -> None:
    """The templates' ``_``, ``gettext`` and ``ngettext`` say the app's words through the lookups above, each message
    found once per language, where Flask-Babel's would find the request's catalogue again for every message (Jinja's
    documented ``install_gettext_callables``; call after Flask-Babel's own)."""
    env.install_gettext_callables(said, said_plural, newstyle=True)  # type: ignore[attr-defined]


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """Flask-Babel's ``lazy_gettext``: said in the language of the request that reads it."""
    lazy: Any = LazyString  # typed by Flask-Babel as taking no arguments; speaklater's takes (func, *args, **kwargs)
    return lazy(gettext, string, **variables)  # type: ignore[no-any-return]


_TEMPLATE_WORDS: dict[str, dict[str, Callable[..., str]]] = {}


_TEXT_WORDS: dict[str, Callable[..., str]] = {}


def text_words() -> Callable[..., str]:
    """The templates' ``_`` for the request's language (the translation as escaped markup, its values escaped) as
    plain text, to join with markup written in Python: a literal added to ``Markup`` would be escaped again. Made
    once per language; it fills the text itself (``_filled_text``), without making the ``Markup`` it would return."""
    said_in = language()
    as_words = _TEXT_WORDS.get(said_in)
    if as_words is None:
        plain = words_for(said_in).plain

        def as_text(message: str, **values: Any) -> str:
            return _filled_text(plain(message), values)

        as_words = _TEXT_WORDS[said_in] = as_text
    return as_words


def template_words(language: str) -> dict[str, Callable[..., str]]:
    """The templates' ``_``/``gettext``/``ngettext`` for ``language`` (given in the context the game's parts
    are drawn with, they shadow Flask-Babel's), each message looked up once per process.

    They say what Jinja's newstyle gettext says in an autoescaped template (the translation as ``Markup``,
    its ``%(name)s`` filled with escaped values, ``num`` given to ``ngettext``), but take no context: Jinja
    calls a function that takes its context with a copy of the whole context (every variable and block)
    whenever the block calling it has set a variable, as most of the game's blocks do.
    """
    found = _TEMPLATE_WORDS.get(language)
    if found is None:
        words = words_for(language)
        plain, plural = words.plain, words.plural

        def template_gettext(__string: str, **variables: Any) -> str:
            return _filled(plain(__string), variables)

        def template_ngettext(__singular: str, __plural: str, __num: int, **variables: Any) -> str:
            variables.setdefault("num", __num)
            return _filled(plural(__singular, __plural, __num), variables)

        found = {"_": template_gettext, "gettext": template_gettext, "ngettext": template_ngettext}
        _TEMPLATE_WORDS[language] = found
    return found


_OTHER_CONVERSION = re.compile(r"%(?!\(\w+\)s|%)")
"""A ``%`` in a message that is neither ``%(name)s`` nor ``%%``: a conversion only ``Markup``'s own ``%`` fills."""


@functools.lru_cache(maxsize=8192)
def _plain_names(said: str) -> bool:
    """Whether every conversion of ``said`` (a translation) is ``%(name)s`` or ``%%``."""
    return _OTHER_CONVERSION.search(said) is None


def _filled(said: str, variables: dict[str, Any]) -> Markup:
    """``Markup(said) % variables``, as Jinja's newstyle gettext fills a translation in an autoescaped template,
    without Markup's own formatting where it is not needed: a translation without ``%`` is the markup as it is, and
    one whose conversions are all ``%(name)s`` is filled with the values escaped, as ``Markup``'s ``%`` escapes them.
    ``tests/web/words/test_template_words.py`` holds the two equal."""
    return Markup(_filled_text(said, variables))


def _filled_text(said: str, variables: dict[str, Any]) -> str:
    """``_filled``'s text as a plain string, for the parts that join it with markup as text (``text_words``)."""
    if not variables and "%" not in said:
        return said
    if variables and _plain_names(said):
        return said % {name: esc(value) for name, value in variables.items()}
    return str(Markup(said) % variables)
