"""The columns of the tables both engines create, and the pieces of migration m006 both apply.

Each engine's migrations wrap these in its own statements (``events.sqlite``, ``events.postgres``);
the queries of each role are in the sibling modules.
"""

from __future__ import annotations

__all__ = ["DRAFT_OWNER_COLUMNS", "LIBRARY_INDEXES", "OWNED_NAMES", "TABLES"]

# The columns of the tables both engines create, each as its migration made it, written once: an engine
# wraps them in its own CREATE TABLE (SQLite's are STRICT; PostgreSQL's games add ``created_order``,
# and its presence times are DOUBLE PRECISION where SQLite's are REAL). Applied migrations never
# change: a new column is a new migration in both engines.
TABLES = {
    "events": """
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        action INTEGER NOT NULL,
        type TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        idempotency_key TEXT,
        command TEXT,
        actor TEXT,
        PRIMARY KEY (game_id, seq)
    """,
    "games": """
        game_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        edition_hash TEXT NOT NULL,
        read_token TEXT NOT NULL,
        write_token TEXT NOT NULL
    """,
    "editions": "hash TEXT PRIMARY KEY, edition_id TEXT NOT NULL, content TEXT NOT NULL",
    "edition_names": "name TEXT PRIMARY KEY, hash TEXT NOT NULL, saved_at TEXT NOT NULL",
    "edition_drafts": "draft_id TEXT PRIMARY KEY, content TEXT NOT NULL, updated_at TEXT NOT NULL",
    "snapshots": """
        game_id TEXT NOT NULL,
        projection_version INTEGER NOT NULL,
        edition_hash TEXT NOT NULL,
        seq INTEGER NOT NULL,
        in_effect TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, projection_version, edition_hash, seq)
    """,
    "presence": "holder TEXT PRIMARY KEY, process TEXT NOT NULL, game_id TEXT NOT NULL, seat TEXT NOT NULL",
}

# Migration m006 (both engines): drafts and named editions belong to a phone. ``edition_names`` gets its
# owner, its publication and its share token, and is keyed (owner, name); ``edition_drafts`` its owner and
# reuse key. SQLite rebuilds ``edition_names`` with these columns (in this order); PostgreSQL alters it.
OWNED_NAMES = """
        name TEXT NOT NULL,
        hash TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        owner TEXT NOT NULL DEFAULT '',
        published_at TEXT,
        share_token TEXT,
        PRIMARY KEY (owner, name)
"""
DRAFT_OWNER_COLUMNS = ("owner TEXT NOT NULL DEFAULT ''", "reuse_key TEXT")
LIBRARY_INDEXES = (
    "CREATE UNIQUE INDEX edition_names_share_token ON edition_names (share_token) WHERE share_token IS NOT NULL",
    "CREATE INDEX edition_names_published ON edition_names (published_at) WHERE published_at IS NOT NULL",
    "CREATE INDEX edition_drafts_owner ON edition_drafts (owner, updated_at)",
    "CREATE INDEX edition_drafts_updated ON edition_drafts (updated_at)",
    "CREATE UNIQUE INDEX edition_drafts_reuse ON edition_drafts (owner, reuse_key) WHERE reuse_key IS NOT NULL",
)
