"""The rooms' database on disk against local readers and damage (issue 25, section 5): owner-only
files, and a damaged database stopping `serve` with one line that names the file, leaving it
untouched and never resetting rooms silently."""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import PRESETS
from game.net.rooms import Room, Seat
from game.net.roomstore import StoreError
from game.net.sqlitestore import SQLiteRoomStore
from tests.net_support import Peer, start_server

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}


# ---- the rooms' database on disk --------------------------------------------------------------------
def test_the_rooms_database_and_its_wal_and_shm_files_are_owner_only(tmp_path):
    old = os.umask(0o022)
    try:
        db = tmp_path / "rooms.sqlite3"
        thread = start_server(db)
        try:
            ana = Peer(thread.port)
            ana.create("duel", [HUMAN, HUMAN])
            files = [db, tmp_path / "rooms.sqlite3-wal", tmp_path / "rooms.sqlite3-shm"]
            assert all(f.exists() for f in files)
            assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
        finally:
            thread.stop()
        db.chmod(0o644)  # a database of an earlier version
        thread = start_server(db)
        try:
            Peer(thread.port).create("duel", [HUMAN, HUMAN])
            assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
        finally:
            thread.stop()
    finally:
        os.umask(old)


# ---- a damaged rooms' database ----------------------------------------------------------------------
def _rooms_database(path: Path, rooms: int = 300) -> None:
    """A real rooms' database of several pages (rooms waiting for a second player)."""
    store = SQLiteRoomStore(path)
    for i in range(rooms):
        room = Room(f"room-{i:04d}", PRESETS["duel"], [Seat("human"), Seat("human")], seed=i,
                    owner="127.0.0.1")
        room.claim(None, f"Player {i}")
        store.add(room, 1_000_000.0)
    store.close()


def _damage(kind: str, tmp_path: Path) -> tuple[Path, str]:
    """A damaged database of ``kind``, and words the refusal must hold."""
    db = tmp_path / "rooms.sqlite3"
    if kind == "folder":
        db.mkdir()
        return db, "is a folder"
    if kind == "device":
        return Path("/dev/null"), "is not a regular file"
    _rooms_database(db)
    data = bytearray(db.read_bytes())
    if kind == "truncated":
        db.write_bytes(bytes(data[:len(data) // 2]))
        return db, "damaged"
    if kind == "header":
        data[:100] = random.Random(1).randbytes(100)
        db.write_bytes(bytes(data))
        return db, "is not an SQLite database"
    if kind == "zeroed_page":
        page = int.from_bytes(data[16:18], "big")
        data[3 * page:4 * page] = bytes(page)
        db.write_bytes(bytes(data))
        return db, "damaged"
    with sqlite3.connect(db) as raw:
        if kind == "dropped_log":
            raw.execute("DROP TABLE log")
            words = "its log table is missing"
        else:  # wrong columns
            raw.execute("DROP TABLE rooms")
            raw.execute("CREATE TABLE rooms (id TEXT PRIMARY KEY, everything TEXT)")
            words = "its rooms table has the columns id, everything"
    raw.close()
    return db, words


DAMAGES = ("truncated", "header", "zeroed_page", "dropped_log", "wrong_columns", "folder", "device")


@pytest.mark.parametrize("kind", DAMAGES)
def test_serve_stops_on_a_damaged_database_with_one_line_and_leaves_it_untouched(tmp_path, kind):
    db, words = _damage(kind, tmp_path)
    before = db.read_bytes() if db.is_file() else None
    done = subprocess.run([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                           "--db", str(db)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("python main.py serve: error: ") and str(db) in lines[0]
    assert words in lines[0] and "Traceback" not in done.stderr
    if before is not None:
        assert db.read_bytes() == before
        assert not (tmp_path / "rooms.sqlite3-wal").exists()


@pytest.mark.parametrize("kind", ["truncated", "zeroed_page", "dropped_log", "wrong_columns"])
def test_a_server_on_a_damaged_database_refuses_to_start_and_writes_nothing(tmp_path, kind):
    db, words = _damage(kind, tmp_path)
    before = db.read_bytes()
    with pytest.raises(StoreError) as refused:
        SQLiteRoomStore(db)
    assert str(db) in str(refused.value) and words in str(refused.value)
    assert db.read_bytes() == before


def test_a_sound_database_still_opens_with_all_its_rooms(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    _rooms_database(db)
    rooms, broken = SQLiteRoomStore(db).load()
    assert len(rooms) == 300 and broken == []


def test_a_colours_room_stored_before_counter_clockwise_replays_clockwise(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    store = SQLiteRoomStore(db)
    rules = PRESETS["colors"].with_options({"counter_clockwise": False})  # how colours played then
    room = Room("room-old", rules, [Seat("human"), Seat("computer"), Seat("computer")], seed=4,
                owner="127.0.0.1")
    store.add(room, 1_000_000.0)
    store.close()
    with sqlite3.connect(db) as raw:  # the rules as a server wrote them before the option existed
        (text,) = raw.execute("SELECT rules FROM rooms WHERE id = 'room-old'").fetchone()
        assert '"counter_clockwise": false' in text
        older = text.replace(', "counter_clockwise": false', "").replace('"counter_clockwise": false, ', "")
        raw.execute("UPDATE rooms SET rules = ? WHERE id = 'room-old'", (older,))
    rooms, broken = SQLiteRoomStore(db).load()
    assert broken == [] and [r.rules for r in rooms] == [rules]


def test_a_new_database_is_made_whole_or_not_at_all(tmp_path, monkeypatch):
    # A first start cut short while the tables are being made must not leave a file later
    # starts refuse as "other tables": the tables come in one transaction.
    from game.net import sqlite_schema

    path = tmp_path / "rooms.sqlite3"

    def cut_short(db):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sqlite_schema, "_migrate_fair_play", cut_short)
    with pytest.raises(StoreError):
        SQLiteRoomStore(path)
    monkeypatch.undo()
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    store = SQLiteRoomStore(path)  # the next start makes it whole
    assert store.load() == ([], [])
    store.close()
