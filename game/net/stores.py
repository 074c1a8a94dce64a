"""Which `roomstore.RoomStore` a ``--db`` names: the one place the server chooses its database.

``--db FILE`` (or nothing: ``rooms.sqlite3`` in the data folder) is an SQLite file
(`sqlitestore`): one server on one machine. ``--db postgresql://USER@HOST/DB`` (or
``postgres://``) is a PostgreSQL database (`pgstore`) that several instances share. The
PostgreSQL driver is an optional extra: without it, opening such a URL is a one-line
`roomstore.StoreError` saying what to install. A URL is only ever shown without its
password (`redacted`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit

from .defaults import SCHEMES as SCHEMES  # how a PostgreSQL URL begins (what --db tells from a file name)
from .defaults import is_postgres as is_postgres
from .roomstore import RoomStore, StoreError

INSTALL: Final = "pip install 'huit[postgres]'"
"""What brings the PostgreSQL driver (psycopg 3 with its pool)."""


def redacted(url: str) -> str:
    """``url`` without its password (in the user part, or a ``password=`` parameter)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}@{host}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode([(k, v) for k, v in pairs if k.lower() != "password"], safe="/")
    if netloc == parts.netloc and len(query) == len(parts.query) or not parts.scheme:
        return url  # nothing to hide (kept exactly as written)
    # Written out by hand: urlunsplit drops the empty host of postgresql:///db.
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


def open_store(db: str | Path) -> RoomStore:
    """The store ``db`` names: a PostgreSQL URL's (`pgstore.PostgresRoomStore`), else an SQLite file's.

    Raises:
        StoreError: the database cannot be used (or the PostgreSQL driver is not installed).
    """
    if is_postgres(db):
        assert isinstance(db, str)
        try:
            from .pgstore import PostgresRoomStore
        except ImportError:
            raise StoreError(redacted(db), f"the PostgreSQL driver is not installed: {INSTALL}") from None
        return PostgresRoomStore(db)
    from .sqlitestore import SQLiteRoomStore

    return SQLiteRoomStore(db)
