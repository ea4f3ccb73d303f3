"""Requests borrow a connection from the app's pool and give it back; one left mid-transaction is
closed, never lent again; the pool keeps only a few idle."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest
from flask import Flask
from werkzeug.test import EnvironBuilder

from companion.web.process import StorePool, process
from events.sqlite import SqliteStore
from tests.web.conftest import Phone


def test_a_page_borrows_a_pooled_connection_and_gives_it_back(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/").status_code == 200
    pool = process(app).stores
    lent = pool.take()
    pool.give(lent)
    assert client.get("/").status_code == 200
    assert pool.take() is lent  # the same connection served the next request
    pool.give(lent)


def test_a_connection_left_in_a_transaction_is_closed_not_lent(app: Flask) -> None:
    pool = StorePool(app, held=2)
    store = pool.take()
    assert isinstance(store, SqliteStore)
    store.conn.execute("BEGIN IMMEDIATE")
    pool.give(store)
    with pytest.raises(sqlite3.ProgrammingError):
        store.conn.execute("SELECT 1")
    assert pool.take() is not store


def test_only_a_few_idle_connections_are_kept(app: Flask) -> None:
    pool = StorePool(app, held=2)
    stores = [pool.take() for _ in range(4)]
    for store in stores:
        pool.give(store)
    assert isinstance(stores[-1], SqliteStore)
    with pytest.raises(sqlite3.ProgrammingError):
        stores[-1].conn.execute("SELECT 1")  # beyond the two kept: closed
    assert {id(pool.take()), id(pool.take())} == {id(stores[0]), id(stores[1])}


def test_answers_nobody_reads_hold_no_connection(app: Flask, phone: Phone) -> None:
    """A request gives its connection back before its answer is sent: twelve clients that ask for a game's export and
    never read it hold none of the pool, and the next page is served from an idle connection of it."""
    phone.create()
    game_id = phone.url.rsplit("/", 1)[-1]
    pool = process(app).stores
    unread = []
    for _ in range(12):
        environ = EnvironBuilder(path=f"/g/{game_id}/export.json").get_environ()
        statuses: list[str] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: object = None, said: list[str] = statuses
        ) -> Callable[[bytes], object]:
            said.append(status)
            return lambda data: None  # the WSGI write(): unused by Flask

        unread.append(app.wsgi_app(environ, start_response))
        assert statuses == ["200 OK"]
        assert pool._idle, "the request kept its connection while its answer waits to be read"
    idle = list(pool._idle)
    assert phone.client.get(phone.url).status_code == 200
    assert pool._idle and pool._idle[-1] in idle  # served by a connection the unread answers had given back
    for body in unread:
        assert b'"events"' in b"".join(body)
