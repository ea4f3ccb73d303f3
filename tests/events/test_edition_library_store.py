"""The edition library in the store, on both engines: drafts and named editions belong to a phone
(names unique per phone), a draft is reused under a key and expires, a named edition is shared by a
token made once and published; and migration m006 carries an existing database's library over."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.factory import is_postgres, open_store
from events.sql.engine import utc_now
from events.sqlite import SqliteStore, migrations
from events.store import NO_OWNER, Store


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = open_store(store_url)
    yield s
    s.close()


def test_a_draft_belongs_to_its_phone_and_another_phone_cannot_overwrite_it(store: Store) -> None:
    assert store.put_draft("d1", "ana", "text 1")
    assert not store.put_draft("d1", "ben", "ben's text")  # the same id from another phone keeps nothing
    kept = store.draft("d1")
    assert kept is not None and kept.owner == "ana" and kept.content == "text 1"
    assert store.put_draft("d1", "ana", "text 2")
    assert store.draft("d1").content == "text 2"  # type: ignore[union-attr]
    store.drop_draft("d1", "ben")  # another phone's throw-away leaves it alone
    assert store.draft("d1") is not None
    assert [d.draft_id for d in store.drafts_of("ana")] == ["d1"] and store.drafts_of("ben") == []
    store.drop_draft("d1", "ana")
    assert store.draft("d1") is None


def test_drafts_are_listed_newest_first_and_found_by_their_reuse_key(store: Store) -> None:
    store.put_draft("old", "ana", "a")
    time.sleep(0.005)  # times are kept to the millisecond
    store.put_draft("new", "ana", "b", "import:abc")
    assert [d.draft_id for d in store.drafts_of("ana")] == ["new", "old"]
    time.sleep(0.005)
    store.put_draft("old", "ana", "a again")  # changed last: first
    assert [d.draft_id for d in store.drafts_of("ana")] == ["old", "new"]
    found = store.draft_for_key("ana", "import:abc")
    assert found is not None and found.draft_id == "new" and found.reuse_key == "import:abc"
    assert store.draft_for_key("ben", "import:abc") is None


def test_drafts_last_changed_before_a_time_are_thrown_away(store: Store) -> None:
    store.put_draft("d1", "ana", "a")
    store.drop_drafts_before("2000-01-01T00:00:00.000+00:00")
    assert store.draft("d1") is not None
    store.drop_drafts_before("9999-01-01T00:00:00.000+00:00")
    assert store.draft("d1") is None


def test_names_are_unique_per_phone_and_saving_again_points_the_name_to_the_new_content(store: Store) -> None:
    store.name_edition("ana", "Our copy", "a" * 64, "our-copy", '{"v": 1}')
    store.name_edition("ben", "Our copy", "b" * 64, "our-copy", '{"v": 2}')
    assert [(e.name, e.content_hash) for e in store.named_editions("ana")] == [("Our copy", "a" * 64)]
    assert [(e.name, e.content_hash) for e in store.named_editions("ben")] == [("Our copy", "b" * 64)]
    store.name_edition("ana", "Our copy", "c" * 64, "our-copy", '{"v": 3}')
    assert store.named_edition("ana", "Our copy").content_hash == "c" * 64  # type: ignore[union-attr]
    assert store.named_edition("ben", "Our copy").content_hash == "b" * 64  # type: ignore[union-attr]
    store.drop_named_edition("ana", "Our copy")
    assert store.named_edition("ana", "Our copy") is None and store.edition_content("c" * 64) == '{"v": 3}'


def test_a_share_token_is_made_once_and_names_the_edition(store: Store) -> None:
    store.name_edition("ana", "Our copy", "a" * 64, "our-copy", "{}")
    assert store.share_edition("ana", "Our copy", "token-one") == "token-one"
    assert store.share_edition("ana", "Our copy", "token-two") == "token-one"
    assert store.share_edition("ben", "Our copy", "token-three") is None  # not ben's
    shared = store.shared_edition("token-one")
    assert shared is not None and (shared.owner, shared.name) == ("ana", "Our copy")
    assert store.shared_edition("token-two") is None


def test_only_published_editions_are_listed_for_every_table(store: Store) -> None:
    store.name_edition("ana", "Checked", "a" * 64, "checked", "{}")
    store.name_edition("ben", "Private", "b" * 64, "private", "{}")
    assert store.published_editions() == []
    store.publish_edition("ana", "Checked", True)
    store.publish_edition("ana", "Private", True)  # not ana's: nothing
    assert [(e.owner, e.name) for e in store.published_editions()] == [("ana", "Checked")]
    assert store.published_editions()[0].published_at is not None
    store.publish_edition("ana", "Checked", False)
    assert store.published_editions() == []


def _legacy_rows(run: object) -> None:
    """An edition saved and a draft kept before phones had owners (m003's columns)."""
    assert callable(run)
    run("INSERT INTO editions (hash, edition_id, content) VALUES ('" + "a" * 64 + "', 'old', '{}')")
    run("INSERT INTO edition_names (name, hash, saved_at) VALUES ('Old copy', '" + "a" * 64 + f"', '{utc_now()}')")
    run(f"INSERT INTO edition_drafts (draft_id, content, updated_at) VALUES ('old-draft', '{{}}', '{utc_now()}')")


def _migrated_until_m005(store_url: str, tmp_path: Path) -> None:
    if is_postgres(store_url):
        import psycopg

        from events.postgres import MIGRATIONS

        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute("CREATE TABLE companion_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            for name, statements in MIGRATIONS:
                if name == "m006_phone_library":
                    break
                for statement in statements:
                    conn.execute(statement.encode())
                conn.execute("INSERT INTO companion_migrations (name, applied_at) VALUES (%s, %s)", (name, utc_now()))
            _legacy_rows(lambda q: conn.execute(q.encode()))
        return
    import sqlite_utils

    db = sqlite_utils.Database(str(tmp_path / "companion.sqlite3"))
    migrations.apply(db, stop_before="m006_phone_library")
    _legacy_rows(lambda q: db.execute(q))
    db.conn.commit()
    db.close()


def test_an_existing_library_is_migrated_the_server_keeps_its_names_and_old_drafts_no_owner(
    store_url: str, tmp_path: Path
) -> None:
    _migrated_until_m005(store_url, tmp_path)
    store = open_store(store_url)
    try:
        old = store.named_edition(NO_OWNER, "Old copy")
        assert old is not None and old.content_hash == "a" * 64 and old.published_at is None
        draft = store.draft("old-draft")
        assert draft is not None and draft.owner == NO_OWNER and draft.reuse_key is None
        store.name_edition("ana", "Old copy", "a" * 64, "old", "{}")  # the same name, another phone: both kept
        assert store.named_edition("ana", "Old copy") is not None and store.named_edition(NO_OWNER, "Old copy")
        if isinstance(store, SqliteStore):
            tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert "edition_names_m003" not in tables
    finally:
        store.close()


def test_a_reuse_key_names_one_draft_per_phone(store: Store) -> None:
    store.put_draft("first", "ana", "a", "fix:g1")
    with pytest.raises(Exception, match=r"(?i)unique"):
        store.put_draft("second", "ana", "b", "fix:g1")  # a second tap racing the first: one draft stays
    store.put_draft("bens", "ben", "c", "fix:g1")  # another phone's key is its own
    assert store.draft_for_key("ana", "fix:g1").draft_id == "first"  # type: ignore[union-attr]
    assert store.draft("second") is None
