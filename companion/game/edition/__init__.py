"""The physical game as data: an edition's board geometry and every number, loaded and validated.

``parse_edition(text)`` turns an edition file's JSON text into a frozen ``Edition`` or raises
``EditionError`` (and nothing else, whatever the text) with a message that names the bad entry and
a ``code``, ``where`` and ``params`` that pages say in words (``companion.web.words.edition_errors``).
Every value the app reads is checked for its type and range (``schema``, docs/edition-format.md
"Limits") before any is used, then every id it names and how the numbers fit together (``references``).
A game pins the edition's ``content_hash``; the shell keeps that exact text so a recorded game never
changes when the file is edited (RULES.md "The unknown numbers").

Provenance (``source``) tags: ``rulebook: seed NNN <page>`` (the rulebook seed says it on that
page), ``reference: RULES.md §N`` (the project's digest, not the rulebook), ``estimated`` (a
guess), ``assumption`` (our reading where the rulebook is silent) and ``checked`` (confirmed on a
real board by the editor's guided check). Format version 1 files,
pinned by games recorded before, used only ``rulebook`` and ``estimated``; ``upcast_v1`` gives
them the sections added since, holding the values the code used to hard-code.

The package, by job: ``model`` (the frozen types, the error, the content hash), ``limits`` (limits,
vocabularies, error codes), ``checks`` (one check per kind of value), ``schema`` (the shape of each
section), ``rows`` and ``references`` (how entries fit together, as a table), ``loading`` (the text to an
``Edition``). Callers import every name from here.
"""

from __future__ import annotations

from companion.game.edition.checks import Where, path_text, source_tag_ok
from companion.game.edition.limits import (
    ADJACENCY_RULES,
    ASSUMPTIONS,
    CONTROL,
    DATE,
    EFFECT_IDS,
    ERROR_CODES,
    EXPANSION_GUARDIANS,
    HEX_COLOUR,
    LEGACY_STATEMENTS,
    MAX_COINS,
    MAX_DEPTH,
    MAX_FILE_CHARS,
    MAX_INFAMY_RANGE,
    MAX_LIST,
    MAX_LOAN_SPACES,
    MAX_PLAYERS,
    MAX_RULINGS,
    MAX_SCALE,
    MAX_SHIELDS_PER_CIRCLE,
    MAX_SIDES,
    MAX_SMALL,
    MAX_TEXT,
    MAX_TOWER_FLOORS,
    MAX_TRACK_LENGTH,
    PIECE_ID,
    POSITIONS,
    PRIMITIVES,
    REFERENCE_TAG,
    REQUIREMENT_IDS,
    REWARD_IDS,
    RULEBOOK_TAG,
    SLUG,
    SOURCE_GROUPS,
    SOURCE_TAGS,
    SOURCES_V1,
    STEP_KINDS,
    STYX_GROUPS,
    TARGETS,
    TIE_BREAKERS,
)
from companion.game.edition.loading import parse_edition, upcast_v1
from companion.game.edition.model import (
    Circle,
    Edition,
    EditionError,
    Guardian,
    Location,
    Shield,
    Side,
    content_hash,
    dante_path_of,
)

__all__ = [
    "ADJACENCY_RULES",
    "ASSUMPTIONS",
    "CONTROL",
    "DATE",
    "EFFECT_IDS",
    "ERROR_CODES",
    "EXPANSION_GUARDIANS",
    "HEX_COLOUR",
    "LEGACY_STATEMENTS",
    "MAX_COINS",
    "MAX_DEPTH",
    "MAX_FILE_CHARS",
    "MAX_INFAMY_RANGE",
    "MAX_LIST",
    "MAX_LOAN_SPACES",
    "MAX_PLAYERS",
    "MAX_RULINGS",
    "MAX_SCALE",
    "MAX_SHIELDS_PER_CIRCLE",
    "MAX_SIDES",
    "MAX_SMALL",
    "MAX_TEXT",
    "MAX_TOWER_FLOORS",
    "MAX_TRACK_LENGTH",
    "PIECE_ID",
    "POSITIONS",
    "PRIMITIVES",
    "REFERENCE_TAG",
    "REQUIREMENT_IDS",
    "REWARD_IDS",
    "RULEBOOK_TAG",
    "SLUG",
    "SOURCES_V1",
    "SOURCE_GROUPS",
    "SOURCE_TAGS",
    "STEP_KINDS",
    "STYX_GROUPS",
    "TARGETS",
    "TIE_BREAKERS",
    "Circle",
    "Edition",
    "EditionError",
    "Guardian",
    "Location",
    "Shield",
    "Side",
    "Where",
    "content_hash",
    "dante_path_of",
    "parse_edition",
    "path_text",
    "source_tag_ok",
    "upcast_v1",
]
