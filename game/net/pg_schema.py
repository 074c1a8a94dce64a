"""The rooms' PostgreSQL database as tables: each version's migration, and how a database is checked
and brought to this version when an instance starts (`prepare`); the reads and writes are `pgstore`'s.

The tables mirror `sqlite_schema`'s (rooms, log, snapshots, profiles, ratings, ranked,
encounters, wallets, stakes), with PostgreSQL's types: ``BIGINT`` for seeds (drawn below
2**62), ``DOUBLE PRECISION`` for the server's clock, ``BOOLEAN`` for flags, and ``TEXT`` for
the JSON the store writes and reads whole (rules, seats, snapshots, opponents: never queried
inside, so ``JSONB``'s parsing on every write would buy nothing). Rooms also keep ``rev``,
their stored revision: every write to a room bumps it, and a write from a replica that is not
at the stored revision is refused (`roomstore.Behind`: several instances share the database).

**Versioned migrations** (`MIGRATIONS`): each one brings the tables from the version before
it to its own, in the order given, all of a start's in one transaction with the version
stored (PostgreSQL's DDL is transactional: a start killed halfway leaves the database as it
was). The table ``huit_schema`` keeps one row: the version, and the oldest server schema
version that can still use it (``compatible``: a migration that only adds what an older
instance ignores keeps it; one that changes what an older instance reads or writes raises
it). So during a rolling upgrade an older instance goes on with a newer database as long as
it is compatible, and refuses it otherwise with a `roomstore.StoreError`.

**Several instances starting at once**: the whole check-and-migrate runs under a
transaction-level advisory lock (`SCHEMA_LOCK`), so exactly one of them migrates and the
others, waiting on the lock, find the version already there. A database holding tables of
its own but no ``huit_schema`` (someone else's) is refused, never filled.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

import psycopg

from .roomstore import StoreError


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its ``version``, the oldest server schema version that can use
    a database at this version (``compatible``), and its SQL."""

    version: int
    compatible: int
    sql: str


FIRST: Final = """
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed BIGINT NOT NULL,
    first INTEGER,
    created DOUBLE PRECISION NOT NULL,
    active DOUBLE PRECISION NOT NULL,
    owner TEXT NOT NULL DEFAULT '',
    joined BOOLEAN NOT NULL DEFAULT TRUE,
    kind TEXT NOT NULL DEFAULT 'private',
    rev BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX rooms_active ON rooms (active);
CREATE TABLE log (
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (room, seq)
);
CREATE TABLE snapshots (
    room TEXT PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    avatar INTEGER NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    active DOUBLE PRECISION NOT NULL,
    tag TEXT NOT NULL DEFAULT '',
    skeleton TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX profiles_tag ON profiles (skeleton, tag);
CREATE INDEX profiles_active ON profiles (active);
CREATE TABLE ratings (
    player TEXT NOT NULL,
    preset TEXT NOT NULL,
    xp BIGINT NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (player, preset)
);
CREATE INDEX ratings_board ON ratings (preset, xp DESC);
CREATE TABLE ranked (
    room TEXT NOT NULL,
    deal INTEGER NOT NULL,
    player TEXT NOT NULL,
    preset TEXT NOT NULL,
    players INTEGER NOT NULL,
    xp INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    opponents TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (room, deal, player)
);
CREATE INDEX ranked_player ON ranked (player, at);
CREATE TABLE encounters (
    room TEXT NOT NULL,
    deal INTEGER NOT NULL,
    preset TEXT NOT NULL,
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    address TEXT NOT NULL,
    opponent_address TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    counts BOOLEAN NOT NULL,
    PRIMARY KEY (room, deal, player, opponent)
);
CREATE INDEX encounters_players ON encounters (player, opponent, at);
CREATE INDEX encounters_addresses ON encounters (address, opponent_address, at);
CREATE INDEX encounters_rivals ON encounters (preset, player, opponent_address);
CREATE TABLE wallets (
    player TEXT PRIMARY KEY,
    tokens BIGINT NOT NULL,
    day INTEGER NOT NULL
);
CREATE TABLE stakes (
    room TEXT NOT NULL,
    deal INTEGER NOT NULL,
    player TEXT NOT NULL,
    amount INTEGER NOT NULL,
    day INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    counted BOOLEAN NOT NULL,
    opponents TEXT NOT NULL,
    PRIMARY KEY (room, deal, player)
);
CREATE INDEX stakes_player ON stakes (player, counted);
CREATE TABLE presence (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    instance TEXT NOT NULL,
    PRIMARY KEY (room, seat, instance)
);
"""
"""Version 1: the tables of `sqlite_schema` version 3, each room's ``rev``, and who is connected to
which seat on which instance (``presence``: `pgcluster`)."""

TICKETS: Final = """
CREATE TABLE tickets (
    player TEXT PRIMARY KEY,
    ticket TEXT NOT NULL,
    instance TEXT NOT NULL,
    rules TEXT NOT NULL,
    players INTEGER NOT NULL,
    computers BOOLEAN NOT NULL,
    wait DOUBLE PRECISION NOT NULL,
    since DOUBLE PRECISION NOT NULL,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    avatar INTEGER NOT NULL,
    tag TEXT NOT NULL
);
CREATE INDEX tickets_queue ON tickets (players, rules, since);
CREATE INDEX tickets_instance ON tickets (instance);
"""
"""Version 2: quick match's one queue (`pg_tickets`): a ticket per waiting player, naming the
instance their connection is on. Compatible with version 1 servers (they ignore it: during a
rolling upgrade, each keeps its own queue in memory)."""

REQUESTS: Final = """
CREATE TABLE requests (
    sender TEXT NOT NULL,
    request TEXT NOT NULL,
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (sender, request)
);
CREATE INDEX requests_at ON requests (at);
"""
"""Version 3: the create and claim requests of the last minutes (`seating`): a retry after a lost
answer reaches any instance, and finds its seat again."""

NEWS_KEY: Final = """
CREATE TABLE news_key (
    one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
    key TEXT NOT NULL
);
"""
"""Version 4: the secret that signs the log entries instances' news carry (`pg_news`, `news_key`):
only roles that may read the instances' tables know it, not every role that may connect and
``NOTIFY``. Compatible with version 1 servers (they ignore it, and carry no entries)."""

MIGRATIONS: Final = (Migration(1, 1, FIRST), Migration(2, 1, TICKETS), Migration(3, 1, REQUESTS),
                     Migration(4, 1, NEWS_KEY))
"""Every step, in order (a new one goes at the end, with the next version)."""

VERSION: Final = MIGRATIONS[-1].version
"""The schema this server writes."""

META: Final = "huit_schema"
"""The table of the version (one row)."""

SCHEMA_LOCK: Final = (0x48756974, 1)  # "Huit", 1: the two-key advisory lock space never meets the one-key one
"""The advisory lock held while the schema is checked and migrated."""

TABLES: Final = ("rooms", "log", "snapshots", "profiles", "ratings", "ranked", "encounters", "wallets",
                 "stakes", "presence", "tickets", "requests", "news_key")
"""The tables of this version."""


def prepare(connection: psycopg.Connection[tuple[Any, ...]], shown: str) -> int:
    """Check the database ``connection`` reaches and bring it to this version, in one transaction
    under `SCHEMA_LOCK` (see the module); return the version it is at now (this one, or a newer
    one this server can still use). ``shown``: the database as a message names it.

    Raises:
        StoreError: the database is not Huit's, or its schema is newer than this server can use.
        psycopg.Error: the database refused (the caller says it as a `StoreError`).
    """
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", SCHEMA_LOCK)
        tables = {name for (name,) in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        if META not in tables:
            if tables & set(TABLES):
                raise StoreError(shown, "it holds tables that are not Huit's ("
                                        f"{', '.join(sorted(tables))[:120]}) and no {META} table; "
                                        "Huit does not start its rooms in it")
            connection.execute(f"CREATE TABLE {META} (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), "
                               "version INTEGER NOT NULL, compatible INTEGER NOT NULL)")
            connection.execute(f"INSERT INTO {META} (version, compatible) VALUES (0, 0)")
        row = connection.execute(f"SELECT version, compatible FROM {META}").fetchone()
        if row is None:
            raise StoreError(shown, f"its {META} table is empty")
        version, compatible = int(row[0]), int(row[1])
        if version > VERSION:
            if compatible > VERSION:
                raise StoreError(shown, f"its schema (version {version}) was written by a newer Huit "
                                        f"that older servers than schema {compatible} cannot use; this "
                                        f"one knows up to {VERSION}: upgrade it")
            return int(version)  # a newer schema this server can still use (a rolling upgrade)
        for step in MIGRATIONS:
            if step.version > version:
                connection.execute(step.sql.encode())
                connection.execute(f"UPDATE {META} SET version = %s, compatible = %s",
                                   (step.version, step.compatible))
        missing = [t for t in TABLES if t not in tables] if version == VERSION else []
        if missing:
            raise StoreError(shown, f"its {', '.join(missing)} table is missing; Huit does not start "
                                    "its rooms afresh in it")
        return VERSION


def news_key(connection: psycopg.Connection[tuple[Any, ...]]) -> bytes | None:
    """The secret that signs what news carry (`pg_news`): made once, by whichever instance asks first
    (two starting at once insert theirs, one wins, both read the winner's); None on a database
    of a schema before version 4 (that instance carries no entry, and takes none).

    Raises:
        psycopg.Error: the database refused.
    """
    with connection.transaction():
        there = connection.execute("SELECT to_regclass('news_key') IS NOT NULL").fetchone()
        if there is None or not there[0]:
            return None
        connection.execute("INSERT INTO news_key (key) VALUES (%s) ON CONFLICT DO NOTHING",
                           (secrets.token_hex(32),))
        row = connection.execute("SELECT key FROM news_key").fetchone()
    assert row is not None  # (inserted just now, or before)
    return bytes.fromhex(str(row[0]))
