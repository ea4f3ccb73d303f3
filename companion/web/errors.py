"""Error pages: a player never meets a stack trace, only a sentence and a way back."""

from __future__ import annotations

import logging

from flask import Flask, render_template
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

__all__ = ["register"]

log = logging.getLogger(__name__)


def register(app: Flask) -> None:
    """Install the error handlers on ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        text = gettext("This form has expired or did not come from this app. Reload the page and try again.")
        return render_template("error.html", title=gettext("Form expired"), text=text), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int]:
        texts = {
            404: gettext("There is no game at this address. Check the link, or start a new game."),
            405: gettext("That is not something this page can do."),
            413: gettext("That upload is too large."),
        }
        text = texts.get(exc.code or 500, gettext("Something went wrong with that request."))
        return render_template("error.html", title=str(exc.code), text=text), exc.code or 500

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[str, int]:
        log.exception("unexpected error")
        text = gettext("Something went wrong on our side. Nothing you recorded was lost: reload the page.")
        return render_template("error.html", title=gettext("Sorry"), text=text), 500
