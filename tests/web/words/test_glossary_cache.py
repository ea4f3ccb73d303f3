"""The names of the glossary (colours, sins, quarters, locations, kinds, guardians) are worded once per process and
language, and each request still reads them in its own language: every name of every table, in English and Spanish,
in turn and under a locale forced within a request, is the name worded afresh from its table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from companion.web.words import glossary

NAMED: list[tuple[Callable[[Any], str], dict[Any, Any]]] = [
    (glossary.colour_name, glossary.COLOURS),
    (glossary.sin_name, glossary.SINS),
    (glossary.quarter_name, glossary.QUARTERS),
    (glossary.location_name, glossary.LOCATIONS),
    (glossary.kind_name, glossary.KINDS),
    (glossary.guardian_name, glossary.GUARDIANS),
]


def _each_name_as_worded_afresh() -> None:
    for name_of, table in NAMED:
        for key, lazy in table.items():
            assert name_of(key) == str(lazy), (name_of.__name__, key)
            assert name_of(key) == str(lazy), (name_of.__name__, key)  # the remembered one


@pytest.mark.parametrize("order", [("es", "en", "es"), ("en", "es", "en")])
def test_each_request_reads_the_names_in_its_language(app: Flask, order: tuple[str, ...]) -> None:
    glossary._NAMES_SAID.clear()
    for language in order:
        with app.test_request_context("/", headers={"Accept-Language": language}):
            _each_name_as_worded_afresh()
            with force_locale("en" if language == "es" else "es"):
                _each_name_as_worded_afresh()
            _each_name_as_worded_afresh()
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert glossary.colour_name(3) == "verde"
        assert glossary.sin_name(2) != "Lust"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert glossary.colour_name(3) == "green"


def test_a_name_outside_its_table_is_its_own_and_not_cached(app: Flask) -> None:
    glossary._NAMES_SAID.clear()
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        assert glossary.colour_name(42) == "42"
        assert glossary.location_name("nowhere") == "nowhere"
        assert glossary.quarter_name(None) == "—"
    assert glossary._NAMES_SAID == {}


def test_outside_a_request_the_names_are_english() -> None:
    assert glossary.colour_name(3) == "green"
    assert glossary.kind_name("urchin") == "urchin"
