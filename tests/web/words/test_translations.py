"""Spanish and English throughout: every message is translated, with the same placeholders."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from tests.web.words.message_forms import forms

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "companion" / "translations" / "es" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[-+ 0#]*\d*(?:\.\d+)?[sdif]")


def test_every_message_has_a_spanish_translation_with_the_same_placeholders() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids, strings = forms(message.id), forms(message.string)
        wanted = set(PLACEHOLDER.findall(" ".join(ids)))
        for text in strings:
            if not text:
                problems.append(f"untranslated: {ids[0]!r}")
            elif set(PLACEHOLDER.findall(text)) - wanted or (
                len(ids) == 1 and set(PLACEHOLDER.findall(text)) != wanted
            ):
                problems.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
        if "fuzzy" in message.flags:
            problems.append(f"fuzzy: {ids[0]!r}")
    assert problems == []


def test_the_catalog_knows_every_message_in_the_code(tmp_path: Path) -> None:
    """Extracting again finds nothing the Spanish catalog lacks (run pybabel update if this fails)."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "lazy_gettext",
            "-k",
            "_l",
            "-k",
            "ngettext:1,2",
            "--no-location",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as new, PO.open("rb") as old:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(new) if m.id}
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(old) if m.id}
    assert sorted(extracted - known) == []


def test_the_translators_template_holds_every_message_of_the_code_and_no_other(tmp_path: Path) -> None:
    """``companion/translations/messages.pot`` is what ``make pot`` extracts (the refusals' ``N_`` too): a
    message added or removed without ``make pot`` leaves a translator a stale template."""
    pot = tmp_path / "messages.pot"
    keywords = ["-k", "lazy_gettext", "-k", "_l", "-k", "ngettext:1,2", "-k", "N_"]
    command = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", *keywords]
    subprocess.run([*command, "--no-location", "-o", str(pot), "."], cwd=ROOT, check=True, capture_output=True)
    committed = ROOT / "companion" / "translations" / "messages.pot"
    with pot.open("rb") as new, committed.open("rb") as old:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(new) if m.id}
        catalogued = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(old) if m.id}
    assert (sorted(extracted - catalogued), sorted(catalogued - extracted)) == ([], [])  # run `make pot`


def test_a_missing_or_stale_catalogue_is_compiled_and_a_fresh_one_left_alone(tmp_path: Path) -> None:
    from companion.translations import compile_catalogues

    folder = tmp_path / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "messages.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Game"\nmsgstr "Partida"\n'
    )
    assert compile_catalogues(tmp_path) == [folder / "messages.mo"]
    assert b"Partida" in (folder / "messages.mo").read_bytes()
    assert compile_catalogues(tmp_path) == []  # fresh: not written again
