"""Provenance a table can trust when it corrects its copy (edition ``source`` tags).

"rulebook" means the rulebook seeds say it, on a page that exists in the seed; a fact only the
project's digest (RULES.md) gives is "reference" with its section; a guess is "estimated"; a
reading of ours where the rulebook is silent is "assumption".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.game.edition import REFERENCE_TAG, RULEBOOK_TAG, parse_edition
from tests.game.variants import BASE, shipped_raw

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"  # the project's shared documents, beside the repository

# The pages (seed 000) and sections (seed 002, which has no page numbers) the seeds cite.
SEED_PAGES = {
    "000": {"p.9", "p.11", "p.12", "pp.14-15", "pp.16-17", "pp.22-23"},
    "002": {"Red Guardian (Plutus)", "Black Guardian (Phlegyas)"},
}


def tags(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (where, tag) under a ``source`` key of the edition data."""
    if isinstance(value, dict):
        for key, inner in value.items():
            here = f"{path}.{key}" if path else key
            if key == "source":
                for field, tag in inner.items() if isinstance(inner, dict) else [("", inner)]:
                    yield (f"{here}.{field}" if field else here), tag
            else:
                yield from tags(inner, here)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from tags(inner, f"{path}[{i}]")


def test_every_rulebook_tag_names_a_seed_page() -> None:
    found = 0
    for where, tag in tags(shipped_raw()):
        if not tag.startswith("rulebook"):
            continue
        match = RULEBOOK_TAG.match(tag)
        assert match, f"{where}: {tag!r} does not name a seed page"
        seed, page = match.groups()
        assert page in SEED_PAGES.get(seed, set()), f"{where}: seed {seed} has no page {page!r}"
        found += 1
    assert found >= 8


def test_the_cited_pages_exist_in_the_seeds() -> None:
    seeds = SHARED / "seeds"
    if not seeds.is_dir():
        pytest.skip("the rulebook seeds are not beside this repository")
    for seed, pages in SEED_PAGES.items():
        text = " ".join(p.read_text(encoding="utf-8") for p in seeds.glob(f"{seed}_*"))
        text = text.replace("–", "-")
        for page in pages:
            assert page in text, f"seed {seed} does not cite {page!r}"


def test_every_reference_names_a_section_of_the_digest() -> None:
    rules = SHARED / "docs" / "RULES.md"
    headings = rules.read_text(encoding="utf-8") if rules.is_file() else None
    for where, tag in tags(shipped_raw()):
        if not tag.startswith("reference"):
            continue
        assert REFERENCE_TAG.match(tag), f"{where}: {tag!r}"
        section = tag.split("§", 1)[1]
        if headings is not None:
            pattern = rf"^#+ {re.escape(section)}[. ]" if "." in section else rf"^## {re.escape(section)}\."
            assert re.search(pattern, headings, re.MULTILINE), f"{where}: RULES.md has no §{section}"


def _tag(raw: dict[str, Any], *path: str) -> str:
    value: Any = raw
    for key in path:
        value = value[key]
    return str(value)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # What the seeds do say, tagged from their page.
        (("phlegethon", "source", "minimum_value"), "rulebook: seed 000 pp.16-17"),
        (("economy", "source", "bribe_any_quarter"), "rulebook: seed 000 p.12"),
        (("styx", "source"), "rulebook: seed 000 p.9"),
        (("expansion", "source", "desks_per_player"), "rulebook: seed 002 Red Guardian (Plutus)"),
        (("expansion", "source", "toll"), "rulebook: seed 002 Red Guardian (Plutus)"),
        # What only the digest gives: a reference, not the rulebook.
        # Seed 000 p.9 groups "the first four / the last four tracks" (a ruling of ``tracks``);
        # that these are circles 2–5 and 6–9 only the digest says (issue 25).
        (("tracks", "source", "first_four"), "reference: RULES.md §4.6"),
        (("tracks", "source", "last_four"), "reference: RULES.md §4.6"),
        (("economy", "source", "council_infamy"), "reference: RULES.md §4.2"),
        (("loan_track", "source", "instant_penalty"), "reference: RULES.md §5"),
        (("economy", "source", "dante_final_infamy"), "reference: RULES.md §3.6"),
        (("economy", "source", "styx_use"), "reference: RULES.md §4.6"),
        (("economy", "source", "guardian_use"), "reference: RULES.md §3.7"),
        (("economy", "source", "fraud_at_wall"), "reference: RULES.md §3.7"),
        (("economy", "source", "special_entry_noble"), "reference: RULES.md §3.7"),
        (("economy", "source", "start_fraud_cards"), "reference: RULES.md §1"),
        (("tracks", "bonus_tiles", "source"), "reference: RULES.md §1"),
        (("dante", "shortcut", "source", "players"), "reference: RULES.md §2"),
        # Our readings.
        (("expansion", "source", "brown_circle"), "assumption"),
        (("empty_shield", "source", "standees_fill"), "assumption"),
        (("assumptions", "source"), "assumption"),
    ],
)
def test_named_values_carry_the_right_provenance(path: tuple[str, ...], expected: str) -> None:
    assert _tag(shipped_raw(), *path) == expected


def test_locations_map_to_circles_by_reference_not_rulebook() -> None:
    for location in shipped_raw()["locations"]:
        assert location["source"] == {"circle": "reference: RULES.md §3.1", "kind": "reference: RULES.md §3.7"}


def test_the_loan_track_names_no_missing_key() -> None:
    track = shipped_raw()["loan_track"]
    assert set(track["source"]) <= set(track)


def test_an_older_edition_with_bare_rulebook_tags_still_loads() -> None:
    # Games recorded before pin format-1 files; they keep replaying (upcast with the old values).
    raw = shipped_raw()
    raw["format_version"] = 1
    for section in ("empty_shield", "limbo", "setup", "styx", "ranges", "assumptions"):
        del raw[section]
    text = json.dumps(raw).replace('"reference: RULES.md', '"rulebook').replace('"assumption"', '"estimated"')
    text = re.sub(r'"rulebook[^"]*"', '"rulebook"', text)
    edition = parse_edition(text)
    assert edition.limbo == 1 and edition.standees_fill and edition.assumption("loan_for_toll")
    assert BASE.is_file()
