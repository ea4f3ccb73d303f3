"""The limits and vocabularies an edition file is held to: the most a board, a box and the app's pages can hold
(docs/edition-format.md "Limits"), the words each choice may take and every error code the validator can raise."""

from __future__ import annotations

import re

SOURCES_V1 = ("rulebook", "estimated")
SOURCE_TAGS = ("estimated", "assumption", "checked")  # checked: confirmed on a real board (the guided check)
RULEBOOK_TAG = re.compile(r"^rulebook: seed (\d{3}) (\S.*)$")
REFERENCE_TAG = re.compile(r"^reference: RULES\.md §\d+(\.\d+)*$")
# A source map names fields of its object, or one of these groups of values the object stands for:
# a board side's ``geometry`` (its circles, lines and gates), the wall's ``gates`` (on every side).
SOURCE_GROUPS = frozenset({"geometry", "gates"})
# Statements format-2 files written before ``rulings`` named in a source map (games pin such copies);
# a file now says them in ``rulings``.
LEGACY_STATEMENTS = frozenset({"one_term", "at_scoring", "guardians_to_empty", "desks", "needs_own_disc"})
MAX_RULINGS = 12
ADJACENCY_RULES = ("row_and_lines", "row", "lines")
# ---------------------------------------------------------------------------------------------
# Limits: what a board, a box and the app's pages can hold (docs/edition-format.md "Limits").
MAX_FILE_CHARS = 512 * 1024
MAX_SHIELDS_PER_CIRCLE = 8  # the map draws a circle's row in one band; past 8 its shields stop being tappable
MAX_PLAYERS = 4
MAX_SIDES = 4
MAX_LIST = 64  # any other list (menus, guardians, quarters, …)
MAX_TRACK_LENGTH = 20
MAX_SCALE = 20  # Phlegethon spaces
MAX_LOAN_SPACES = 20
MAX_TOWER_FLOORS = 10
MAX_SMALL = 99  # a price, an amount, an infamy on a circle, a count of pieces
MAX_COINS = 999  # ranges.coins_max itself
MAX_INFAMY_RANGE = 9999
MAX_TEXT = 200
MAX_DEPTH = 8  # how deep a note may nest (the file's own values nest at most 6 deep)
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
PIECE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}$")  # a shield, gate, colour, quarter, guardian, location id
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
STEP_KINDS = ("start", "pagan", "fraud", "diploma", "final")
POSITIONS = ("far_left", "far_right")
STYX_GROUPS = ("first_four", "last_four")
REWARD_IDS = (
    "florins",
    "drachmas",
    "infamy",
    "skull",
    "half_diploma",
    "tower_floor",
    "urchin",
    "cube_right",
    "disc",
    "nothing",
)
REQUIREMENT_IDS = (
    "always",
    "barrels",
    "guests_at_least",
    "skull_at_least",
    "diplomas_at_least",
    "no_loans",
    "floors_at_least",
)
EFFECT_IDS = ("infamy", "infamy_per_diploma", "skull", "half_diploma", "cube_right")
ASSUMPTIONS = (
    "fraud_without_barrels",
    "toll_on_guardian_push",
    "loan_any_time",
    "dante_fraud_optional",
    "expansion_replaces_guardians",
    "loan_for_toll",
    "fraud_in_hand_scores",
)
EXPANSION_GUARDIANS = ("plutus", "phlegyas")

# Every code the validator can raise: the words module gives each a sentence in every language.
ERROR_CODES = (
    "invalid",
    "too_large",
    "not_json",
    "too_deep",
    "not_a_number",
    "duplicate_key",
    "not_object",
    "wrong_format",
    "wrong_version",
    "missing",
    "not_integer",
    "not_boolean",
    "not_text",
    "not_list",
    "out_of_range",
    "too_few",
    "too_many",
    "text_too_long",
    "bad_text",
    "bad_id",
    "bad_slug",
    "bad_name",
    "bad_colour_code",
    "bad_date",
    "not_a_choice",
    "bad_source",
    "source_names_no_field",
    "duplicate_id",
    "unknown_circle",
    "unknown_quarter",
    "unknown_shield",
    "unknown_guardian",
    "unknown_location",
    "unknown_colour",
    "unknown_tie_breaker",
    "wrong_circles",
    "no_shields",
    "too_many_shields",
    "lacks_quarter",
    "line_not_one_down",
    "no_line_down",
    "no_gate",
    "gate_off_wall",
    "wall_not_adjacent",
    "no_side",
    "too_few_colours",
    "location_per_track",
    "layout_incomplete",
    "loan_start_not_free",
    "no_minimum_space",
    "off_the_scale",
    "bonus_tiles",
    "no_dante_path",
    "step_off_path",
    "step_needs_track",
    "track_group",
    "tower_start",
    "min_above_max",
    "start_beyond_purse",
    "guardians_count",
    "guardians_share_shield",
    "plague_card",
    "urchins_at_home",
)

PRIMITIVES = frozenset({"petrify", "descend", "wall_pass", "shift"})
TARGETS = ("adjacent_standing_soul",)  # the souls an effect may reach: standing, next to the standee
TIE_BREAKERS = ("fewest_loans", "most_diplomas", "most_drachmas", "most_florins")
