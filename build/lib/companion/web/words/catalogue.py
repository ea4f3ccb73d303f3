"""Flask-Babel's message lookups with the catalogue found once per request, not once per message.

Flask-Babel finds the catalogue for every message it translates (the request's locale turned back
into a string, then a dictionary lookup); a page of a long game's history translates thousands of
messages. ``RequestDomain`` keeps the catalogue on ``g`` beside the locale it was found for, so a
changed locale (``refresh``, ``force_locale``) still finds its own.
"""

from __future__ import annotations

from babel.support import Translations
from flask import g
from flask_babel import Babel, Domain, get_locale

__all__ = ["RequestDomain", "install"]


class RequestDomain(Domain):
    """The app's message domain, its catalogue kept for the rest of the request."""

    def get_translations(self) -> Translations:
        locale = get_locale()
        if locale is None:  # outside a request: Flask-Babel's own answer
            return super().get_translations()
        kept: tuple[object, Translations] | None = g.get("companion_translations")
        if kept is not None and kept[0] is locale:
            return kept[1]
        translations = super().get_translations()
        g.companion_translations = (locale, translations)
        return translations


def install(babel: Babel, domain: str = "messages") -> None:
    """Make ``RequestDomain`` the domain of ``babel`` (Flask-Babel keeps it as a cached property)."""
    babel.__dict__["domain_instance"] = RequestDomain(domain=domain)
