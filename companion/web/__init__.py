"""The phone web app: the application factory, which registers one blueprint per screen (``pages/``),
the live streams and the API, and keeps what a process remembers in one ``Process`` (``process.py``).

``create_app`` loads and validates every edition file first, so a broken file stops the
app at start with a message naming the bad entry, never mid-game.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from babel import Locale
from flask import Flask, has_request_context, request, session
from flask_babel import Babel
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

from companion.editions import load_all
from companion.game.commands import COMMAND_TYPES
from companion.service.caches import DEFAULT_GAMES, DEFAULT_VIEW_BYTES, Memo, ViewCache
from companion.translations import compile_catalogues
from companion.web import process
from companion.web.api import endpoints as api
from companion.web.forms.fields import prepare_forms
from companion.web.http import db, security, server_timing, static_files
from companion.web.http.htmx import htmx
from companion.web.live import stream as live
from companion.web.pages import (
    corrections,
    data,
    edition_editor,
    edition_switch,
    editions,
    errors,
    florence,
    game,
    history,
    home,
    our_games,
    rules,
    score,
    table,
    tally,
    viewer,
)
from companion.web.screens import history_cache, list_filters, parts
from companion.web.screens.parts import live_answers
from companion.web.screens.parts import macros as part_macros
from companion.web.words import bidi, catalogue, template_globals
from events.catalog import EVENT_TYPES
from events.codec import prepare
from events.factory import open_store as open_migrated_store

__all__ = ["ROOT", "create_app", "warm_up"]

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "es")
LOCALES = {language: Locale.parse(language) for language in LANGUAGES}
# zstd first where the phone takes it (a few hundred bytes more than brotli's middle levels for a tap's answer, at
# a fraction of the server's time: bench/README.md weighs them), else brotli at a middle level, else gzip;
# text/event-stream is not among Flask-Compress's mimetypes: live streams always go out as written, never buffered
COMPRESSION = {
    "COMPRESS_ALGORITHM": ["zstd", "br", "gzip", "deflate"],
    "COMPRESS_ALGORITHM_STREAMING": ["zstd", "br", "deflate"],
    "COMPRESS_ZSTD_LEVEL": 3,
    "COMPRESS_BR_LEVEL": 4,
}


def _secret_key(instance: Path) -> str:
    env = os.environ.get("COMPANION_SECRET_KEY")
    if env:
        return env
    instance.mkdir(parents=True, exist_ok=True)
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


def select_locale() -> Locale:
    """The language: the player's switch, else the browser's preference, else English (outside a request too),
    as the one ``Locale`` of each language, made once (Flask-Babel takes a ``Locale`` as it is)."""
    if not has_request_context():  # an app context without a request (a command's)
        return LOCALES["en"]
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return LOCALES[str(chosen)]
    return LOCALES[request.accept_languages.best_match(LANGUAGES) or "en"]


PAGES = (
    home.bp,
    game.bp,
    florence.bp,
    corrections.bp,
    live.bp,
    data.bp,
    table.bp,
    viewer.bp,
    history.bp,
    score.bp,
    tally.bp,
    our_games.bp,
    rules.bp,
    editions.bp,
    edition_editor.bp,
    edition_switch.bp,
)
"""Every page's blueprint (and the live streams'), registered in this order."""


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``test_config`` overrides settings (tests pass a temp DATABASE)."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(ROOT / "instance"),
    )
    configure(app, test_config)
    shipped = load_all()  # a broken edition file stops the app here, with its message
    live.install_notifier(app)  # wakes every open live page after a write
    open_migrated_store(app.config["DATABASE"]).close()  # creates (a SQLite file's folder too) and migrates
    csrf = install_extensions(app)
    games = int(app.config["VIEW_CACHE_GAMES"])
    app.extensions[process.KEY] = process.Process(
        editions=shipped,
        views=ViewCache(budget_bytes=int(app.config["VIEW_CACHE_BYTES"])),
        parts=parts.part_slots(games),
        score_progress=Memo(games),
        stores=process.StorePool(app),
    )
    history_cache.install(app)
    live_answers.install(app)
    app.teardown_appcontext(db.close_store)
    app.before_request(db.check_address)
    for blueprint in PAGES:
        app.register_blueprint(blueprint)
    csrf.exempt(api.blp)  # the API authenticates with a bearer token, not a cookie: no CSRF to forge
    api.init_api(app)
    errors.register(app)  # after the API, so HTML pages keep their own error pages
    template_globals.install(app)
    bidi.install(app)
    list_filters.install(app)  # filters that pick a list's items by a field
    part_macros.install(app)  # last: the forms' and parts' macros as globals, their modules see every global
    server_timing.install(app)  # outermost, when asked: the answer's time in the app, proxies and all
    if app.config.get("WARM_UP", not app.testing):  # tests make hundreds of apps, each drawing a few pages
        warm_up(app)
    return app


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The app's settings: the defaults, the environment's, then ``test_config``; a secret key made once."""
    instance = Path(app.instance_path)
    app.config.from_mapping(
        DATABASE=os.environ.get("COMPANION_DB", str(instance / "companion.sqlite3")),
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "companion" / "translations"),
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        # The cookie is written only when this phone's choices change: a page or live refresh still in
        # flight with the old cookie can then never overwrite a seat or a language just chosen.
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        VIEW_CACHE_GAMES=int(os.environ.get("COMPANION_VIEW_CACHE_GAMES", DEFAULT_GAMES)),
        VIEW_CACHE_BYTES=int(os.environ.get("COMPANION_VIEW_CACHE_BYTES", DEFAULT_VIEW_BYTES)),
        PROXY_HOPS=int(os.environ.get("COMPANION_PROXY_HOPS") or 0),  # proxies in front whose X-Forwarded-* count
        BACKGROUND_COMMIT=os.environ.get("COMPANION_BACKGROUND_COMMIT")
        == "1",  # a tap's COMMIT in a thread (web/perform)
        SERVER_TIMING=os.environ.get("COMPANION_SERVER_TIMING") == "1",  # answers' time in the app (http/server_timing)
    )
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.config.update({k: v for k, v in COMPRESSION.items() if k not in app.config})


def install_extensions(app: Flask) -> CSRFProtect:
    """The libraries the app is built on, each as its documentation says: security headers and the session cookie,
    static files, CSRF (returned, for the API's exemption), the parts' marks, compression, htmx, languages."""
    security.install(app)
    static_files.install(app, security.FILE_HEADERS)  # WhiteNoise in front of the app, each text file compressed once
    csrf = CSRFProtect(app)
    parts.install(app)  # parts drawn with marks for the CSRF token
    Compress(app)
    htmx.init_app(app)
    try:
        compile_catalogues()
    except OSError:  # a read-only install: the catalogues compiled at set-up are used as they are
        app.logger.warning("could not compile the translation catalogues", exc_info=True)
    Babel(app, locale_selector=cast(Callable[[], str | None], select_locale))  # it parses a name; a Locale passes
    catalogue.install(app.jinja_env)  # the templates' words through the app's own lookups
    return csrf


def warm_up(app: Flask) -> int:
    """Compile every template, load every language's catalogue and make every event's, command's and form's
    schema now, when the process starts, so the first tap of any kind after a restart does not pay for them
    returns how many templates were compiled. The Jinja cache is made large enough to
    keep them all."""
    env = app.jinja_env
    names = [n for n in env.list_templates() if n.endswith((".html", ".svg", ".xml", ".txt"))]
    if env.cache is not None and getattr(env.cache, "capacity", len(names)) < 2 * len(names):
        from jinja2.environment import create_cache  # an LRU cache of this size, as Jinja makes its own

        env.cache = create_cache(max(400, 2 * len(names)))
    for name in names:
        env.get_template(name)
    app.url_map.update()
    prepare(EVENT_TYPES.values())  # the events', commands' and forms' schemas
    prepare(COMMAND_TYPES.values())
    prepare_forms()
    with app.test_request_context("/"):
        from flask_babel import force_locale, gettext

        for language in LANGUAGES:
            with force_locale(language):
                gettext("Map of Hell")  # loads and keeps the language's catalogue
    return len(names)
