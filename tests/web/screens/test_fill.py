"""``parts.fill`` finds its marks with the string's own search: it must send what the two regexes it replaced sent.

The regexes were tried at every character of an answer: one left out the CSRF field of each htmx form, one replaced
each mark (``&key;``, ``&csrf;``, ``&seq;``, their ``&`` also written ``\\u0026`` in JSON). They are kept here as the
reference, and compared with ``fill`` over every marked answer of real games (both languages, whole pages and htmx
answers) and over any text made of the pieces that matter (hypothesis), with the keys and the token made constant.
"""

from __future__ import annotations

import importlib
import random
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion.web.screens.game as game_screen
import companion.web.screens.parts as parts
from bench.games import play_random_game, store_game
from bench.table_play import Phone, play_mix
from companion.editions import DEFAULT_EDITION, load_all
from companion.game.state import GameState
from companion.web import create_app
from companion.web.http.db import service
from events.sqlite import SqliteStore
from tests.builders import game_view
from tests.web.screens.test_answer_size import FlaskPhoneClient

# the module itself: the package rebinds its name ``marks`` to the function ``marks``
part_marks = importlib.import_module("companion.web.screens.parts.marking")
CSRF_FIELD = parts.CSRF_FIELD
REFERENCE_FORMS = re.compile(r'(<form\b[^>]*\bhx-post="[^"]*"[^>]*>\s*)' + re.escape(CSRF_FIELD))
REFERENCE_MARKS = re.compile(r"(?:&|\\u0026)(key|csrf|seq);")
TOKEN = '<input type="hidden" name="csrf_token" value="TOKEN">'


def reference_fill(html: str, seq: int, csrf: bool = True) -> str:
    """``fill`` as it was: two regexes (with the key and the token made constant)."""
    if "key;" not in html and "csrf;" not in html and "seq;" not in html:
        return html
    if not csrf:
        html = REFERENCE_FORMS.sub(r"\1", html)
    token = "TOKEN" if "csrf;" in html else ""
    return REFERENCE_MARKS.sub(lambda m: token if m[1] == "csrf" else str(seq) if m[1] == "seq" else "KEY", html)


@pytest.fixture
def constant_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(part_marks, "new_key", lambda: "KEY")
    monkeypatch.setattr(part_marks, "generate_csrf", lambda: "TOKEN")


PIECES = st.sampled_from(
    [
        "<form",
        "<form ",
        "<formal ",
        '<form method="post"',
        ' hx-post=""',
        ' hx-post="/g/1/loan"',
        ' hx-post=">"',
        " data-hx-post=''",
        'xhx-post=""',
        ">",
        " ",
        "\n  ",
        CSRF_FIELD,
        "&key;",
        "\\u0026key;",
        "&seq;",
        "\\u0026seq;",
        "&csrf;",
        "\\u0026csrf;",
        "&amp;seq;",
        "key;",
        "<p>",
        "x",
        '"',
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(PIECES, max_size=24), seq=st.integers(0, 10**6), csrf=st.booleans())
def test_any_text_is_filled_as_the_regexes_filled_it(
    constant_keys: None, pieces: list[str], seq: int, csrf: bool
) -> None:
    html = "".join(pieces)
    assert parts.fill(html, seq, csrf) == reference_fill(html, seq, csrf)


@pytest.mark.parametrize(
    ("html", "sent"),
    [
        # an htmx form's field goes, a plain form's stays (filled)
        (f'<form method="post" hx-post="">\n  {CSRF_FIELD}<b>', '<form method="post" hx-post="">\n  <b>'),
        (f'<form method="post">{CSRF_FIELD}', f'<form method="post">{TOKEN}'),
        # a second field right after the first stays: the regex went on after the field it left out
        (f'<form hx-post="">{CSRF_FIELD}{CSRF_FIELD}', f'<form hx-post="">{TOKEN}'),
        # a field after other markup, or with no form before it, stays
        (f'<form hx-post=""><p>{CSRF_FIELD}', f'<form hx-post=""><p>{TOKEN}'),
        (CSRF_FIELD, TOKEN),
        # the regex's tag began at the first "<form" that fits, not only the last one before the field
        (f'<form hx-post=""<form>{CSRF_FIELD}', '<form hx-post=""<form>'),
    ],
)
def test_the_token_fields_of_htmx_forms_go_and_the_others_stay(constant_keys: None, html: str, sent: str) -> None:
    assert parts.fill(html, 7, csrf=False) == sent == reference_fill(html, 7, csrf=False)


def test_each_key_is_fresh_and_the_json_marks_are_filled_too() -> None:
    html = "(&key;)(\\u0026key;)(&key;)|&seq;|\\u0026seq;|"  # brackets and bars: no key holds one
    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "t"})
    with app.test_request_context("/"):
        sent = parts.fill(html, 42)
    keys = re.findall(r"\(([^)]*)\)", sent)
    assert len(keys) == len(set(keys)) == 3 and all(re.fullmatch(r"[\w-]{22}", k) for k in keys)
    assert sent.endswith("|42|42|")


def test_every_answer_of_real_games_is_filled_as_the_regexes_filled_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every marked answer and page of a game played by the mix (each kind of tap, in English and Spanish)."""
    filled: list[tuple[str, int, bool]] = []
    real_fill = parts.fill

    def watching(html: str, seq: int, csrf: bool = True) -> str:
        filled.append((html, seq, csrf))
        return real_fill(html, seq, csrf)

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "fill.sqlite3"
        editions = load_all()
        store = SqliteStore.open(db)
        game_id = store_game(store, editions, play_random_game(editions[DEFAULT_EDITION][1], 11, 120))
        store.close()
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})
        monkeypatch.setattr(game_screen, "fill", watching)
        for language in ("en", "es"):
            client = app.test_client()
            client.get(f"/lang/{language}")
            phone = Phone(FlaskPhoneClient(client), game_id)  # type: ignore[arg-type]  # the test client in place of bench's
            phone.open()

            def state_of() -> tuple[GameState, bool, bool]:
                with app.app_context():
                    view = game_view(service().view(game_id))
                return view.state, bool(view.timeline.undoable), bool(view.timeline.undone)

            play_mix(phone, None, state_of, 40, random.Random(language))
    assert len(filled) > 80 and {csrf for _html, _seq, csrf in filled} == {True, False}
    assert any(CSRF_FIELD in html and 'hx-post=""' in html for html, _seq, _csrf in filled)
    monkeypatch.setattr(part_marks, "new_key", lambda: "KEY")
    monkeypatch.setattr(part_marks, "generate_csrf", lambda: "TOKEN")
    for html, seq, csrf in filled:
        assert parts.fill(html, seq, csrf) == reference_fill(html, seq, csrf)
