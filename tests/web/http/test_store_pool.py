"""Requests borrow a connection from the app's pool and give it back; one left mid-transaction is
closed, never lent again; the pool keeps only a few idle."""

from __future__ import annotations

import sqlite3

import pytest
from flask import Flask

from companion.web.http.db import StorePool
from companion.web.process import process


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
    pool = StorePool(app, kept=2)
    store = pool.take()
    store.conn.execute("BEGIN IMMEDIATE")
    pool.give(store)
    with pytest.raises(sqlite3.ProgrammingError):
        store.conn.execute("SELECT 1")
    assert pool.take() is not store


def test_only_a_few_idle_connections_are_kept(app: Flask) -> None:
    pool = StorePool(app, kept=2)
    stores = [pool.take() for _ in range(4)]
    for store in stores:
        pool.give(store)
    with pytest.raises(sqlite3.ProgrammingError):
        stores[-1].conn.execute("SELECT 1")  # beyond the two kept: closed
    assert {id(pool.take()), id(pool.take())} == {id(stores[0]), id(stores[1])}
