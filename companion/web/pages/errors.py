"""Error pages: a player never meets a stack trace, only a sentence and a way back."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

__all__ = ["register"]

log = logging.getLogger(__name__)


def register(app: Flask) -> None:
    """Install the error handlers on ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        text = gettext("This form has expired or did not come from this app. Reload the page and try again.")
        return render_template("pages/error.html", title=gettext("Form expired"), text=text), 400

    def is_api() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int, list[tuple[str, str]]] | Response:
        if is_api():
            from companion.web.api.endpoints import api_error

            return api_error(exc)
        texts = {
            404: gettext("There is no game at this address. Check the link, or start a new game."),
            405: gettext("That is not something this page can do."),
            413: gettext("That upload is too large."),
        }
        text = texts.get(exc.code or 500, gettext("Something went wrong with that request."))
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]  # Allow on a 405
        return render_template("pages/error.html", title=str(exc.code), text=text), exc.code or 500, headers

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[str, int] | tuple[Response, int]:
        log.exception("unexpected error")
        if is_api():
            return jsonify({"code": "server_error", "message": "Something went wrong on our side."}), 500
        text = gettext("Something went wrong on our side. Nothing you recorded was lost: reload the page.")
        return render_template("pages/error.html", title=gettext("Sorry"), text=text), 500
