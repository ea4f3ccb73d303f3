"""Every app-wide error handler, in one place: a player never meets a stack trace, only a sentence
and a way back; a program calling the API gets JSON with a machine-readable ``code``."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from companion.service import KeyReused
from companion.web.api.endpoints import ApiError, api_error
from companion.web.http.htmx import htmx_answer
from companion.web.words.catalogue import gettext

__all__ = ["register"]

log = logging.getLogger(__name__)


def is_api() -> bool:
    """Whether this request is the API's (it answers in JSON, never a page)."""
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    """Install the error handlers on ``app``."""

    @app.errorhandler(ApiError)
    def api_refusal(exc: ApiError) -> Response:
        response = jsonify(exc.payload)
        response.status_code = exc.status
        return response

    @app.errorhandler(KeyReused)
    def key_reused(_exc: KeyReused) -> Response | tuple[Response, int]:
        """A form's key sent again for a different entry: a sentence and a way back, never a 500.

        The page says nothing about what the key recorded before. An htmx request gets the whole
        page in place of the current one (its forms carry the stale key).
        """
        if is_api():
            return jsonify({"code": "key_reused", "message": "This idempotency key was already used."}), 422
        text = gettext(
            "This form was already used for a different entry, so nothing was recorded. "
            "Reload the page and enter it again."
        )
        page = render_template("pages/error.html", title=gettext("Nothing recorded"), text=text)
        return htmx_answer(page, 422, retarget="body", reswap="innerHTML")

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        text = gettext("This form has expired or did not come from this app. Reload the page and try again.")
        return render_template("pages/error.html", title=gettext("Form expired"), text=text), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int, list[tuple[str, str]]] | Response:
        if is_api():
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
