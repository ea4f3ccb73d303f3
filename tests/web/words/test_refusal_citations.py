"""A refusal on the phone: its sentence, its rule as the rulebook cites itself, and its
alternatives, all in the reader's language and in words (never codes or raw ids)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.conftest import Phone


def _box(html: str, control: str) -> str:
    box = re.search(rf'<div class="refusal" role="alert" id="refusal-{control}">(.*?)</div>', html, re.S)
    assert box is not None
    return box.group(1)


def test_a_refusal_cites_the_reference_in_english(phone: Phone) -> None:
    phone.create()
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1a"})
    box = _box(phone.html, "bring")
    assert 'Rule: <a href="/rules#s4-1">Reference §4.1</a>' in box  # a link to the section it cites
    assert "RULES.md" not in box and "choice." not in box
    assert "Bring in one green soul" in box  # the alternatives, by colour name


def test_a_refusal_reads_in_spanish_with_a_spanish_citation(phone: Phone, client: FlaskClient) -> None:
    client.get("/lang/es")
    phone.create()
    phone.post("bring", {"player": 0, "colour": 9, "shield": "1a"})
    box = _box(phone.html, "bring")
    assert "En el Cementerio no hay ningún Alma de color azul hielo." in box
    assert 'Regla: <a href="/rules#s4-1">Referencia §4.1</a>' in box
    assert "Traer un Alma de color verde" in box
    assert "Reference" not in box and "RULES.md" not in box
