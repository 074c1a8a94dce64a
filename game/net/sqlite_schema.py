"""The rooms' SQLite file as tables: each version's schema, how a file is checked, and how an
older one is brought to this version (`prepare`); the reads and writes are `sqlitestore`'s.

Opening is careful, because a file that is not what it should be must never cost the
rooms in it: a folder, a device, a file that is not SQLite (`inspect`), a damaged one
(SQLite's quick check), one whose tables are not the rooms' (a table missing, or other
columns), or one written by a newer Huit is refused with a `roomstore.StoreError` that
names the file and the problem, and nothing is written to it. A new, empty file is made
whole in one transaction (so a kill during the first start leaves it empty, not half
made); a database of an earlier version is brought to this one in one transaction
(version 0 had no ``owner`` and ``joined`` columns; version 1 no room ``kind``, and none
of the players' tables).

The file holds every room's seed, from which anyone who reads it can deal every hidden
hand again: it is made readable by its owner only (0600, `create_owner_only`; SQLite gives
its ``-wal`` and ``-shm`` files the database's own mode), and an existing file is set to
that mode too (`owner_only`).

Besides the rooms, the file keeps the players (version 2): ``profiles`` (a player key's
digest, name and avatar: `profiles`), ``ratings`` (experience points per player and
rule set: the leaderboards) and ``ranked`` (each player's ranked games and penalties:
their history, keyed by room, deal and player so that a line is written once however
often the server is restarted).

Version 3 (issue 32) adds:

- ``snapshots``: a room's log stays bounded, its snapshot standing for the deals before
  its current one (`room_snapshot`); a version 2 room keeps its whole log until its next
  deal;
- the tokens (`tokens`): ``wallets`` (each player's balance and the day of its last
  change) and ``stakes`` (what each competitive game did to each player's tokens, keyed
  like ``ranked``); the players of a version 2 file hold the grant;
- the tags the server assigns (`NAMES_SCHEMA`: each profile's ``tag`` and its name's
  `profiles.skeleton`, no two profiles of one skeleton sharing a tag); a version 2 file's
  profiles get a fresh tag each;
- fair play (`fair_play`): each ranked line's ``reason`` and ``encounters`` (who met whom
  in a ranked game that counted, with their addresses); a version 2 file's encounters are
  made from its lines' opponents' names.

Version 4 (issue 33) adds each room's revision (``rooms.rev``: its writes so far, which a
server checks before writing the room: `roomstore.Behind`; rooms of a version 3 file start
at 0), and the create and claim requests of the last minutes (``requests``: a retry after a
lost answer finds its seat again, whichever server it reaches).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import Final

from .profiles import free_tag, skeleton
from .roomstore import StoreError

VERSION: Final = 4
"""The schema's version, kept in SQLite's ``user_version`` (0 in files of the first version)."""

HEADER: Final = b"SQLite format 3\x00"
OWNER_ONLY: Final = 0o600

SCHEMA: Final = """
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    first INTEGER,
    created REAL NOT NULL,
    active REAL NOT NULL,
    owner TEXT NOT NULL DEFAULT '',
    joined INTEGER NOT NULL DEFAULT 1,
    kind TEXT NOT NULL DEFAULT 'private'
);
CREATE TABLE log (
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (room, seq)
);
"""

PLAYERS_SCHEMA: Final = """
CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    avatar INTEGER NOT NULL,
    created REAL NOT NULL,
    active REAL NOT NULL
);
CREATE TABLE ratings (
    player TEXT NOT NULL,
    preset TEXT NOT NULL,
    xp INTEGER NOT NULL,
    games INTEGER NOT NULL,
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
    at REAL NOT NULL,
    opponents TEXT NOT NULL,
    PRIMARY KEY (room, deal, player)
);
CREATE INDEX ranked_player ON ranked (player, at);
"""
"""The players' tables (version 2): profiles, experience points per rule set, ranked games."""

FAIR_PLAY_SCHEMA: Final = """
CREATE TABLE encounters (
    room TEXT NOT NULL,
    deal INTEGER NOT NULL,
    preset TEXT NOT NULL,
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    address TEXT NOT NULL,
    opponent_address TEXT NOT NULL,
    at REAL NOT NULL,
    counts INTEGER NOT NULL,
    PRIMARY KEY (room, deal, player, opponent)
);
CREATE INDEX encounters_players ON encounters (player, opponent, at);
CREATE INDEX encounters_addresses ON encounters (address, opponent_address, at);
CREATE INDEX encounters_rivals ON encounters (preset, player, opponent_address);
"""
"""Fair play's table (version 3): who met whom in a counted ranked game (`roomstore.Encounter`)."""
SNAPSHOTS_SCHEMA: Final = """
CREATE TABLE snapshots (
    room TEXT PRIMARY KEY REFERENCES rooms(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""
"""Each room's snapshot (version 3): the room as it stood before the deal its log's entry
``seq`` (the ``deal`` entry; every entry before it is forgotten) dealt."""
TOKENS_SCHEMA: Final = """
CREATE TABLE wallets (
    player TEXT PRIMARY KEY,
    tokens INTEGER NOT NULL,
    day INTEGER NOT NULL
);
CREATE TABLE stakes (
    room TEXT NOT NULL,
    deal INTEGER NOT NULL,
    player TEXT NOT NULL,
    amount INTEGER NOT NULL,
    day INTEGER NOT NULL,
    at REAL NOT NULL,
    counted INTEGER NOT NULL,
    opponents TEXT NOT NULL,
    PRIMARY KEY (room, deal, player)
);
CREATE INDEX stakes_player ON stakes (player, counted);
"""
"""The tokens' tables (version 3): each player's balance (`tokens`), and what each competitive
game did to each player's tokens (keyed like ``ranked``: written once)."""

NAMES_COLUMNS: Final = ["tag", "skeleton"]
"""The profiles' columns version 3 adds for names and tags (`_migrate_names`)."""
NAMES_SCHEMA: Final = """
CREATE UNIQUE INDEX profiles_tag ON profiles (skeleton, tag);
"""
"""Version 3: a tag is unique among the profiles whose names look alike, and those are found by
the index (`look_alikes`)."""

REQUESTS_SCHEMA: Final = """
CREATE TABLE requests (
    sender TEXT NOT NULL,
    request TEXT NOT NULL,
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (sender, request)
);
CREATE INDEX requests_at ON requests (at);
"""
"""Version 4: the create and claim requests of the last minutes (`seating`), by sender and id."""

FIRST_COLUMNS: Final = {"rooms": ["id", "rules", "seats", "seed", "first", "created", "active"],
                        "log": ["room", "seq", "kind", "seat", "text"]}
"""The tables as the first version wrote them."""
SECOND_COLUMNS: Final = {"rooms": FIRST_COLUMNS["rooms"] + ["owner", "joined"], "log": FIRST_COLUMNS["log"]}
"""The tables as version 1 wrote them."""
THIRD_COLUMNS: Final = {"rooms": SECOND_COLUMNS["rooms"] + ["kind"], "log": FIRST_COLUMNS["log"],
                        "profiles": ["id", "name", "avatar", "created", "active"],
                        "ratings": ["player", "preset", "xp", "games"],
                        "ranked": ["room", "deal", "player", "preset", "players", "xp", "outcome", "at",
                                   "opponents"]}
"""The tables as version 2 wrote them."""
FOURTH_COLUMNS: Final = {**THIRD_COLUMNS, "profiles": THIRD_COLUMNS["profiles"] + NAMES_COLUMNS,
                  "ranked": THIRD_COLUMNS["ranked"] + ["reason"],
                  "snapshots": ["room", "seq", "state"],
                  "wallets": ["player", "tokens", "day"],
                  "stakes": ["room", "deal", "player", "amount", "day", "at", "counted", "opponents"],
                  "encounters": ["room", "deal", "preset", "player", "opponent", "address",
                                 "opponent_address", "at", "counts"]}
"""The tables as version 3 wrote them."""
COLUMNS: Final = {**FOURTH_COLUMNS, "rooms": FOURTH_COLUMNS["rooms"] + ["rev"],
                  "requests": ["sender", "request", "room", "seat", "at"]}
"""The tables as this version writes them."""
COLUMNS_OF: Final = {0: FIRST_COLUMNS, 1: SECOND_COLUMNS, 2: THIRD_COLUMNS, 3: FOURTH_COLUMNS,
                     VERSION: COLUMNS}
"""The tables each version wrote, by schema version."""


def _migrate_names(db: sqlite3.Connection) -> None:
    """Version 3's names and tags (inside the caller's transaction): the profiles' ``tag`` and
    ``skeleton`` columns, a fresh tag for every existing profile (unique among the names that
    look alike, the oldest profile first), then the unique index."""
    db.execute("ALTER TABLE profiles ADD COLUMN tag TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE profiles ADD COLUMN skeleton TEXT NOT NULL DEFAULT ''")
    taken: dict[str, set[str]] = {}
    for player, name in db.execute("SELECT id, name FROM profiles ORDER BY created, id").fetchall():
        key = skeleton(name)
        tag = free_tag(taken.setdefault(key, set()))
        taken[key].add(tag)
        db.execute("UPDATE profiles SET tag = ?, skeleton = ? WHERE id = ?", (tag, key, player))
    statements(db, NAMES_SCHEMA)


def _migrate_fair_play(db: sqlite3.Connection) -> None:
    """Bring version 2's tables to fair play's (inside the caller's transaction): the lines'
    ``reason`` (empty: they earned their points) and ``encounters``, made from the lines of
    games (not penalties) with each opponent as the name and tag the line keeps (version 2 kept
    no opponent's id or address), so that a player's distinct opponents so far still count."""
    db.execute("ALTER TABLE ranked ADD COLUMN reason TEXT NOT NULL DEFAULT ''")
    statements(db, FAIR_PLAY_SCHEMA)
    db.execute("INSERT OR IGNORE INTO encounters SELECT r.room, r.deal, r.preset, r.player, "
               "'name:' || o.value, '', 'name:' || o.value, r.at, 1 FROM ranked r, json_each(r.opponents) o "
               "WHERE r.outcome != 'penalty'")


def inspect(path: Path) -> bool:
    """Check what is at ``path`` before SQLite opens it; return whether it is a new file.

    Raises:
        StoreError: a folder, not a regular file, or a file that is not an SQLite database.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return True
    except OSError as exc:
        raise StoreError(path, exc.strerror or str(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise StoreError(path, "it is a folder; name the rooms' SQLite file, e.g. rooms.sqlite3 in it")
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(path, "it is not a regular file (a device, a pipe or a socket)")
    if info.st_size == 0:
        return True
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise StoreError(path, f"it cannot be read ({exc.strerror or exc})") from None
    if not head.startswith(HEADER):
        raise StoreError(path, "it is not an SQLite database (its first bytes are not SQLite's header)")
    if len(head) < 100:
        raise StoreError(path, f"it is cut short ({info.st_size} bytes: not even SQLite's header)")
    return False


def create_owner_only(path: Path) -> None:
    """Make the empty file SQLite will fill, readable by its owner only (whatever the umask)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))


def owner_only(path: Path) -> None:
    """Set the database and its ``-wal``/``-shm`` files (those present) to owner-only."""
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            if stat.S_IMODE(file.stat().st_mode) != OWNER_ONLY:
                file.chmod(OWNER_ONLY)


def statements(db: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` inside the caller's transaction (``executescript`` commits)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_snapshots(db: sqlite3.Connection) -> None:
    """Bring a version 2 file to the snapshots of version 3: a room of it keeps its whole log until
    its next deal is stored (the first snapshot; its older entries go then)."""
    statements(db, SNAPSHOTS_SCHEMA)


def _migrate_tokens(db: sqlite3.Connection) -> None:
    """Version 3's tokens: the wallets and stakes tables (every player of an earlier file holds
    the grant: a player without a wallet does)."""
    statements(db, TOKENS_SCHEMA)


def prepare(db: sqlite3.Connection, path: Path) -> None:
    """Check a file's health and tables, then bring it to this version and make it ready (see the
    module); a new, empty file is made whole in one transaction.

    Raises:
        StoreError: the file cannot be used as the rooms' database.
    """
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if tables:
        _check(db, path, tables, version)
    db.execute("PRAGMA journal_mode=WAL")  # outside any transaction, as SQLite asks
    if not tables or version < VERSION:
        with db:
            db.execute("BEGIN")
            if not tables:  # a new file: version 2's tables, then the same steps as a file of version 2
                statements(db, SCHEMA)
                statements(db, PLAYERS_SCHEMA)
                version = 2
            _upgrade(db, version)
            db.execute(f"PRAGMA user_version={VERSION}")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    if str(path) != ":memory:":
        owner_only(path)


def _check(db: sqlite3.Connection, path: Path, tables: set[str], version: int) -> None:
    """Refuse a damaged file, a newer one, or one whose tables are not those its version wrote."""
    health = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if health != ["ok"]:
        raise StoreError(path, f"it is damaged (SQLite's check: {'; '.join(health)[:200]})")
    if version > VERSION:
        raise StoreError(path, f"it was written by a newer Huit (schema {version}; this one "
                               f"reads up to {VERSION})")
    wanted = COLUMNS_OF.get(version)
    if wanted is None:
        raise StoreError(path, f"its schema version {version} is not one Huit wrote")
    for table, columns in wanted.items():
        if table not in tables:
            raise StoreError(path, f"its {table} table is missing (tables: "
                                   f"{', '.join(sorted(tables))[:120]}); Huit does not start "
                                   "its rooms afresh in it")
        found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        if found != columns:
            raise StoreError(path, f"its {table} table has the columns "
                                   f"{', '.join(found)[:120]}, not {', '.join(columns)}")


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Bring the tables of ``version`` to this version's (inside the caller's transaction)."""
    if version < 1:
        db.execute("ALTER TABLE rooms ADD COLUMN owner TEXT NOT NULL DEFAULT ''")
        # Rooms of the first version keep the seven days they were promised.
        db.execute("ALTER TABLE rooms ADD COLUMN joined INTEGER NOT NULL DEFAULT 1")
    if version < 2:
        # Rooms made before there were public ones were all private.
        db.execute("ALTER TABLE rooms ADD COLUMN kind TEXT NOT NULL DEFAULT 'private'")
        statements(db, PLAYERS_SCHEMA)
    if version < 3:
        _migrate_snapshots(db)
        _migrate_tokens(db)
        _migrate_names(db)
        _migrate_fair_play(db)
    if version < 4:
        db.execute("ALTER TABLE rooms ADD COLUMN rev INTEGER NOT NULL DEFAULT 0")
        statements(db, REQUESTS_SCHEMA)
