"""The databases the shared store suite runs on: SQLite files and a real PostgreSQL.

`tests/conftest.py` makes the fixtures from these: ``pg_server`` (one scratch PostgreSQL
per pytest worker, `tools.scratch_pg`, or the one ``HUIT_TEST_PG`` names), ``pg_url`` (a
fresh empty database of it per test, dropped after), and ``db`` (parametrized ``sqlite`` and
``postgres``: what `game.net.stores.open_store` opens). When no PostgreSQL can be had
(``pgserver`` or psycopg missing), the ``postgres`` cases skip with a one-line reason.

`rows` and `run` read and write a database behind the store's back (SQL written with
``?`` placeholders, for both), `refusing` makes it refuse the store's changes for a while.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game.net.stores import is_postgres


def rows(db: str | Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows ``sql`` (``?`` placeholders) reads from the database ``db`` (a file or a URL)."""
    if is_postgres(db):
        import psycopg

        with psycopg.connect(str(db), autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s").encode(), params)
            return cursor.fetchall() if cursor.description is not None else []
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        return connection.execute(sql, params).fetchall()


def run(db: str | Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the database ``db`` with ``sql`` (``?`` placeholders), committed."""
    rows(db, sql, params)


@contextlib.contextmanager
def refusing(db: str | Path, store: Any) -> Iterator[None]:
    """The store's changes are refused while inside: SQLite's file is read-only for its
    connection; PostgreSQL's rooms and ranking tables are locked by another session (the
    store gives up after its ``lock_timeout``, which the suite's stores keep short)."""
    if not is_postgres(db):
        store.db.execute("PRAGMA query_only = ON")
        try:
            yield
        finally:
            store.db.execute("PRAGMA query_only = OFF")
        return
    import psycopg

    with psycopg.connect(str(db)) as other:
        other.execute("LOCK TABLE rooms, log, ranked, ratings IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            other.rollback()


def open_for_tests(db: str | Path) -> Any:
    """The store on ``db`` as the suite uses it (a PostgreSQL one gives up a lock in 0.3 s)."""
    if is_postgres(db):
        from game.net.pgstore import PostgresRoomStore

        return PostgresRoomStore(str(db), lock_timeout=0.3)
    from game.net.sqlitestore import SQLiteRoomStore

    return SQLiteRoomStore(db)


@contextlib.contextmanager
def connect_only_role(url: str) -> Iterator[str]:
    """A role of the PostgreSQL database ``url`` that may connect and nothing more (no privilege on
    any table; any role may ``NOTIFY``), made for the block and dropped after; its URL."""
    import secrets

    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    role = f"huit_snoop_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
    parts = conninfo_to_dict(url)
    parts["user"] = role
    parts.pop("password", None)
    try:
        yield make_conninfo("", **parts)
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP ROLE {role}")
