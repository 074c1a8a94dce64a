"""The server's SQLite file: rooms, their seats (keys as digests) and their change logs.

Every change is committed before the server tells anyone about it. The database runs
in WAL mode with ``synchronous=NORMAL``: a commit survives the server process being
killed at any moment (it is in the log file the next start reads), at the cost of
the last commits on a power cut, and commits are fast enough to make on the
server's event loop.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from .rooms import LogEntry, Room, Seat
from .wire import rules_from_json, rules_to_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    first INTEGER,
    created REAL NOT NULL,
    active REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (room, seq)
);
"""


class RoomStore:
    """Rooms on disk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _seats(self, room: Room) -> str:
        return json.dumps([s.to_json() for s in room.seats])

    def add(self, room: Room, now: float) -> None:
        """Store a new room."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (room.room_id, json.dumps(rules_to_json(room.rules)), self._seats(room),
                             room.seed, room.first, now, now))

    def save_seats(self, room: Room, now: float) -> None:
        """Store the room's seats (a claim) and mark it active."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE rooms SET seats = ?, active = ? WHERE id = ?",
                            (self._seats(room), now, room.room_id))

    def append(self, room: Room, entry: LogEntry, now: float) -> None:
        """Store one change of the room, committed when this returns."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)",
                            (room.room_id, room.log_length, entry.kind, entry.seat, entry.text))
            self.db.execute("UPDATE rooms SET active = ? WHERE id = ?", (now, room.room_id))
        room.log_length += 1

    def load(self) -> tuple[list[Room], list[tuple[str, str]]]:
        """Every stored room rebuilt, and the ids of rooms that could not be (with why)."""
        rooms, broken = [], []
        for row in self.db.execute("SELECT id, rules, seats, seed, first FROM rooms ORDER BY created"):
            try:
                rooms.append(self._rebuild(*row))
            except Exception as exc:  # one damaged room must not keep the others from starting
                broken.append((row[0], f"{type(exc).__name__}: {exc}"))
        return rooms, broken

    def _rebuild(self, room_id: str, rules: str, seats: str, seed: int, first: int | None) -> Room:
        stored: list[dict[str, Any]] = json.loads(seats)
        room = Room(room_id, rules_from_json(json.loads(rules)),
                    [Seat(s["kind"], s["level"], s["name"], s["key_hash"]) for s in stored], seed, first)
        entries = [LogEntry(kind, seat, text) for kind, seat, text in self.db.execute(
            "SELECT kind, seat, text FROM log WHERE room = ? ORDER BY seq", (room_id,))]
        room.replay(entries)
        return room

    def expired(self, before: float) -> list[str]:
        """Ids of rooms with no activity since ``before``."""
        return [r[0] for r in self.db.execute("SELECT id FROM rooms WHERE active < ?", (before,))]

    def delete(self, room_id: str) -> None:
        """Forget a room and its log."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM log WHERE room = ?", (room_id,))
            self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

    def exists(self, room_id: str) -> bool:
        """Whether the room is stored."""
        return self.db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone() is not None
