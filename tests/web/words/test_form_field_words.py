"""A form refused for its shape speaks the player's words, over the whole space: every field of every
form has a name in English and Spanish, every sentence marshmallow can say of it is said again in both,
and hostile values posted to every real route are refused (400) by field names and sentences a player
reads, with no field code and none of marshmallow's English, recording nothing."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from marshmallow import Schema, ValidationError, fields
from werkzeug.datastructures import MultiDict

import companion.web.forms as forms_package
import companion.web.perform as perform_module
from companion.formats.schema_errors import flatten_messages
from companion.web.forms.fields import ActionForm, field_named, parse, schema_of
from companion.web.forms.messages import in_words, templates
from companion.web.words.form_fields import ANOTHER, field_word
from tests.builders import found
from tests.web.conftest import Phone
from tests.web.pages.test_after_game import timed_log, upload

LANGUAGES = ("en", "es")
HOSTILE = ("", "x" * 500, "9" * 30, "abc", "-7", "1.5", "zz:zz", "<b>&</b>")
# Fields a page posts under other names, gathered by the form itself (the sheet's ``infamy-0``, the
# move list's ``way``).
POSTED_AS = {
    ("TallySheetForm", "circles"): ("empty-3", "cube-3"),
    ("TallySheetForm", "players"): ("infamy-0", "skull-0-3", "fraud_amount-0-0"),
    ("MoveForm", "to_shield"): ("to_shield", "way"),
}


def _forms() -> dict[str, type[Schema]]:
    """Every schema the pages' forms declare (bases and parts included), and the schemas they nest."""
    found: dict[str, type[Schema]] = {}
    for module in pkgutil.iter_modules(forms_package.__path__):
        loaded = importlib.import_module(f"{forms_package.__name__}.{module.name}")
        for value in vars(loaded).values():
            if isinstance(value, type) and issubclass(value, Schema) and value.__module__ == loaded.__name__:
                found[value.__name__] = value
    return found


FORMS = _forms()
FORM_FIELDS = [(name, field) for name, form in sorted(FORMS.items()) for field in sorted(form().fields)]
ACTION_FORMS = {name for name, form in FORMS.items() if issubclass(form, ActionForm)}


def _inner(field: fields.Field[Any]) -> Iterator[fields.Field[Any]]:
    """A field and the fields it holds (a list's items, a mapping's keys and values)."""
    yield field
    if isinstance(field, fields.List):
        yield from _inner(field.inner)
    if isinstance(field, fields.Dict):
        for part in (field.key_field, field.value_field):
            if part is not None:
                yield from _inner(part)


def _sentences(field: fields.Field[Any]) -> list[Any]:
    """Every sentence ``field`` can say of a bad value: its error messages (the app's own are lazy, said
    in the reader's language) and its validators' refusals."""
    said: list[Any] = []
    for part in _inner(field):
        said += part.error_messages.values()
        for validator in part.validators:
            for value in ("", "x" * 500, -(10**9), 10**9, "zz:zz", object()):
                try:
                    validator(value)
                except (ValidationError, TypeError) as exc:
                    if isinstance(exc, ValidationError):
                        said += flatten_messages(exc.messages).get("", [])
    return said


def _marshmallow_english() -> list[str]:
    """The fixed words of marshmallow's sentences ("Length must be between", "Not a valid integer."), but
    those our own sentences say too ("Must be less than")."""
    parts = {p.strip() for t in templates() for p in re.split(r"\{\w+\}", t)}
    ours = " ".join(str(s) for s in templates().values())  # read outside a request: in English
    return sorted(p for p in parts if len(p) >= 8 and p not in ours)


ENGLISH = _marshmallow_english()


@pytest.fixture(scope="module")
def words_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """One app for the tests that only say words (no database is written)."""
    from companion.web import create_app

    folder = tmp_path_factory.mktemp("words")
    return create_app({"TESTING": True, "DATABASE": str(folder / "w.sqlite3"), "SECRET_KEY": "t"})


@pytest.mark.parametrize(("form", "field"), FORM_FIELDS, ids=[f"{f}.{n}" for f, n in FORM_FIELDS])
def test_every_field_of_every_form_has_a_word_in_english_and_spanish(words_app: Flask, form: str, field: str) -> None:
    with words_app.test_request_context():
        said = {}
        for language in LANGUAGES:
            with force_locale(language):
                said[language] = field_word(field)
                assert said[language] != str(ANOTHER), f"{form}.{field} has no word: add it to FORM_FIELDS"
        assert said["en"] != said["es"], f"{form}.{field} is not translated: {said['en']!r}"
        assert not re.search(r"\w_\w", " ".join(said.values())) and field not in said.values()


@pytest.mark.parametrize(("form", "field"), FORM_FIELDS, ids=[f"{f}.{n}" for f, n in FORM_FIELDS])
def test_every_sentence_a_form_field_can_say_is_said_in_english_and_spanish(
    words_app: Flask, form: str, field: str
) -> None:
    with words_app.test_request_context():
        for sentence in _sentences(FORMS[form]().fields[field]):
            with force_locale("en"):
                english = in_words(str(sentence))
            with force_locale("es"):
                spanish = in_words(str(sentence))
            assert english != spanish, f"{form}.{field}: {sentence!r} is said in English only"
            assert not any(words in english or words in spanish for words in ENGLISH), (form, field, english)
            assert not any(code in english or code in spanish for code in ("{", "noble, urchin", "_"))


def test_each_of_marshmallows_templates_reads_back_with_its_values(words_app: Flask) -> None:
    from marshmallow import validate

    cases = {
        validate.Range(min=1, max=9): (0, "Must be from 1 to 9.", "Debe estar entre 1 y 9."),
        validate.Range(min=0): (-1, "Must be 0 or more.", "Debe ser 0 o más."),
        validate.Range(min=1, max=9, min_inclusive=False): (1, "Must be more than 1 and at most 9.", None),
        validate.Range(min=1, max=9, max_inclusive=False): (9, "Must be at least 1 and less than 9.", None),
        validate.Length(min=1, max=8): ("", "Must have 1 to 8 characters.", "Debe tener de 1 a 8 caracteres."),
        validate.Length(max=24): ("x" * 25, "Must have at most 24 characters.", None),
        validate.Length(equal=3): ("x", "Must have exactly 3 characters.", None),
        validate.OneOf(["shared", "seats"]): ("x", "This is not one of the choices offered.", None),
    }
    with words_app.test_request_context():
        for validator, (value, english, spanish) in cases.items():
            with pytest.raises(ValidationError) as raised:
                validator(value)
            message = str(raised.value.messages[0])
            with force_locale("en"):
                assert in_words(message) == english
            with force_locale("es"):
                assert in_words(message) != english and (spanish is None or in_words(message) == spanish)


# --- hostile values at the real routes --------------------------------------------------------


def _text(html: str) -> str:
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _refusals(html: str) -> str:
    return " ".join(_text(box) for box in re.findall(r'<div class="refusal" role="alert".*?</div>', html, re.DOTALL))


def _sent(schema: type[Schema], field: str, value: str) -> str | list[str]:
    return [value] if isinstance(schema_of(schema).fields[field], fields.List) else value


def _refused(app: Flask, schema: type[Schema], data: dict[str, Any]) -> set[str | None] | None:
    """The fields ``schema`` refuses in ``data`` (``None``: it takes it), as ``parse`` reads a post."""
    with app.test_request_context():
        form = MultiDict([(k, v) for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs])])
        try:
            parse(schema, form)
        except ValidationError as exc:
            return {field_named(schema, path) for path in flatten_messages(exc.messages)}
    return None


def parsed_by_perform(client: FlaskClient, paths: list[str]) -> dict[str, type[Schema]]:
    """The form ``perform`` parses for each of ``paths`` that records through it (each posted once, empty,
    and watched)."""
    seen: dict[str, type[Schema]] = {}

    def watching(schema: type[Schema], form: MultiDict[str, str]) -> dict[str, Any]:
        from flask import request

        seen[request.path] = schema
        return parse(schema, form)  # the function ``perform`` imports

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(perform_module, "parse", watching)
        for path in paths:
            client.post(path, data={})
    return seen


def _routes(app: Flask, client: FlaskClient, game: str, tally: str) -> dict[str, type[Schema]]:
    """Every page route that records through ``perform``, and the form it parses (found by posting to
    each POST route of a game and a tally and watching ``perform`` parse)."""
    paths = [
        rule.rule.replace("<game_id>", tally if rule.rule.startswith("/t/") else game).replace("<option>", "exchange")
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and "game_id" in rule.arguments
    ]
    return parsed_by_perform(client, paths)


def _seq(client: FlaskClient, url: str) -> int:
    return int(found(r'data-seq="(\d+)"', client.get(url).data.decode()).group(1))


@pytest.mark.parametrize("language", LANGUAGES)
def test_hostile_values_at_every_route_are_refused_in_the_players_words_and_record_nothing(
    app: Flask, client: FlaskClient, phone: Phone, language: str
) -> None:
    phone.create()
    game = phone.url.rsplit("/", 1)[1]
    made = client.post("/tally", data={"key": "tally-key-00001", "name": ["Ana", "Ben"]})
    tally = made.headers["Location"].rsplit("/", 1)[1]
    routes = _routes(app, client, game, tally)
    assert {schema.__name__ for schema in routes.values()} == ACTION_FORMS - {"PlayerActionForm"}
    client.get(f"/lang/{language}")
    before = {url: _seq(client, url) for url in (f"/g/{game}", f"/t/{tally}")}
    problems, posts, covered = [], 0, set()
    with app.test_request_context(), force_locale(language):
        words = {name: field_word(name) for _, name in FORM_FIELDS}
        another = str(ANOTHER)
    for path, schema in sorted(routes.items(), key=lambda item: item[0]):
        base = {"seq": str(before[f"/t/{tally}" if path.startswith("/t/") else f"/g/{game}"]), "player": "0"}
        for field, declared in schema_of(schema).fields.items():
            said: set[frozenset[str | None]] = set()
            for name, value in [(n, v) for n in POSTED_AS.get((schema.__name__, field), (field,)) for v in HOSTILE]:
                sent = _sent(schema, field, value) if name == field else value
                data = {**base, "key": f"hostile-key-{posts:06d}", name: sent}
                refused = _refused(app, schema, data)
                if refused is None or frozenset(refused) in said or (name == field and field not in refused):
                    continue
                said.add(frozenset(refused))
                posts += 1
                covered.add(f"{schema.__name__}.{field}")
                htmx = {"HX-Request": "true"} if posts % 2 else {}
                answer = client.post(path, data=data, headers=htmx)
                html = answer.data.decode()
                shown, page = _refusals(html), _text(html)
                where = f"{schema.__name__}.{field}={value[:12]!r} ({language}, {path})"
                if answer.status_code != 400:
                    problems.append(f"{where}: answered {answer.status_code}")
                    continue
                missing = [name for name in refused if name and (words[name] not in shown or words[name] == another)]
                codes = [name for name in schema_of(schema).fields if "_" in name and name in page]
                lines = re.findall(
                    r"<li>(.*?)</li>", " ".join(re.findall(r'class="refusal".*?</div>', html, re.DOTALL))
                )
                codes += [line for line in lines if re.match(r"\s*[a-z]+(_[a-z]+)*\s*:", line)]
                english = [words for words in ENGLISH if words in page]
                if missing or codes or english or not shown:
                    problems.append(f"{where}: words missing {missing}, codes {codes}, English {english}: {shown!r}")
            if not isinstance(declared, fields.Boolean) and f"{schema.__name__}.{field}" not in covered:
                problems.append(f"{schema.__name__}.{field}: no hostile value was refused")
    assert problems == []
    assert {url: _seq(client, url) for url in before} == before  # nothing was recorded
    assert posts > 150


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_forms_that_start_a_game_refuse_hostile_values_without_codes_or_marshmallows_english(
    client: FlaskClient, language: str
) -> None:
    finished = upload(client, timed_log())
    client.get(f"/lang/{language}")
    pages = {
        "/games": FORMS["CreateForm"],
        "/tally": FORMS["TallyStartForm"],
        f"{finished}/again": FORMS["PlayAgainForm"],
    }
    with client.application.test_request_context(), force_locale(language):
        words = {name: field_word(name) for _, name in FORM_FIELDS}
    problems, silent = [], []
    for path, schema in pages.items():
        base: dict[str, Any] = {"key": "start-key-000001", "name": ["Ana"], "plague": ["3"], "colour": ["crimson"]}
        for field in schema_of(schema).fields:
            for value in HOSTILE:
                answer = client.post(path, data={**base, field: _sent(schema, field, value)})
                html = answer.data.decode()
                page = _text(html)
                codes = [name for name in schema_of(schema).fields if "_" in name and name in page]
                english = [words for words in ENGLISH if words in page]
                if answer.status_code >= 500 or codes or english:
                    problems.append(f"{schema.__name__}.{field}={value[:12]!r}: {answer.status_code} {codes} {english}")
                # a refused field is said: beside itself, or atop the form with its word (a hidden field too)
                if answer.status_code == 400 and f'id="error-{field}"' not in html and words[field] not in page:
                    silent.append(f"{schema.__name__}.{field}={value[:12]!r}")
                if answer.status_code == 400 and field == "key":  # a forged key is never drawn again
                    assert f'name="key" value="{_sent(schema, field, value)}"' not in html
    assert problems == []
    assert silent == []  # the creation key, Florence's layout and the table's mode were refused in silence
