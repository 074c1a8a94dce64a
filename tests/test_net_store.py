"""The server's storage seam: the RoomStore protocol, its SQLite implementation, and SQL in one module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.engine import PRESETS
from game.net.profiles import Profile
from game.net.rooms import LogEntry, Room, Seat
from game.net.roomstore import RankedLine, RoomStore, StoreFailure
from game.net.sqlitestore import SQLiteRoomStore
from tests.net_support import Peer, start_server

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}
SQL = re.compile(r"\b(SELECT\s+\S+.*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
                 r"CREATE\s+(TABLE|INDEX)|ALTER\s+TABLE|PRAGMA)\b")


SQLITE_MODULES = ("sqlitestore.py", "sqlite_schema.py")  # the store's reads and writes, its file's tables


def test_only_the_sqlite_store_speaks_sql_or_imports_sqlite():
    speaking = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        if path.name in SQLITE_MODULES:
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"^\s*(import sqlite3|from sqlite3 import)", text, re.MULTILINE) or SQL.search(text):
            speaking.append(str(path.relative_to(ROOT)))
    assert speaking == []


def test_the_sql_pattern_finds_the_sqlite_stores_statements():
    text = "".join((ROOT / "game" / "net" / name).read_text(encoding="utf-8") for name in SQLITE_MODULES)
    kinds = {m.group(1).split()[0] for m in SQL.finditer(text)}
    assert {"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "PRAGMA"} <= kinds


class RecordingStore:
    """A `RoomStore` that is not the SQLite one: it hands every call on and notes its name."""

    def __init__(self, inner: RoomStore) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name: str):
        method = getattr(self.inner, name)

        def call(*args, **kwargs):
            self.calls.append(name)
            return method(*args, **kwargs)

        return call


def test_the_server_keeps_everything_in_the_room_store_it_is_given(tmp_path):
    store = RecordingStore(SQLiteRoomStore(tmp_path / "rooms.sqlite3"))
    thread = start_server(store)
    try:
        ana, ben = Peer(thread.port), Peer(thread.port, 1)
        ana.hello("Ana")
        assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        assert ben.join(ana.room_id)["type"] == "joined"
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update")
            peer.drain(0.1)
        actor = ana if ana.my_turn else ben
        assert actor.play_one()["type"] == "update"
    finally:
        thread.stop()
    assert {"load", "profile", "add_profile", "add", "save_seats", "append", "close"} <= set(store.calls)
    rooms, broken = SQLiteRoomStore(tmp_path / "rooms.sqlite3").load()
    assert broken == [] and [r.room_id for r in rooms] == [ana.room_id] and rooms[0].log_length == 2


def _room(room_id: str = "room-0001") -> Room:
    room = Room(room_id, PRESETS["duel"], [Seat("human"), Seat("human")], seed=7, owner="127.0.0.1")
    room.claim(None, "Ana")
    return room


def _line(xp: int = 20, deal: int = 1, outcome: str = "win", games: int = 1) -> RankedLine:
    return RankedLine("room-0001", deal, "a" * 64, "duel", 2, xp, outcome, 1000.0, ("Ben #ABC",), games)


def test_a_ranked_line_is_written_once_and_counted_once(tmp_path):
    store = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    store.add_profile(Profile("a" * 64, "Ana"), 1000.0)
    assert store.rank([_line()]) == [_line()]
    assert store.rank([_line()]) == []  # a restart finding the same finished match
    assert store.points("a" * 64) == {"duel": 20}
    board = store.leaderboard("duel", 10, "a" * 64)
    assert [(r.name, r.xp, r.games) for r in board.top] == [("Ana", 20, 1)]
    assert (board.you.rank, board.players) == (1, 1)
    assert store.history("a" * 64, None, 10) == [_line()]
    store.close()


def test_a_penalty_is_committed_with_the_vote_that_decides_it(tmp_path):
    store = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    room = _room()
    store.add(room, 1000.0)
    store.rank([_line()])
    penalty = _line(-20, deal=0, outcome="penalty", games=0)
    store.append(room, LogEntry("vote", 1, "0 yes"), 1001.0, [penalty])
    assert room.log_length == 1
    assert store.points("a" * 64) == {"duel": 0}
    assert store.history("a" * 64, "duel", 10) == [_line(), penalty]  # the same time: the later deal first
    store.close()


def test_a_change_the_database_refuses_is_a_store_failure_and_nothing_of_it_is_stored(tmp_path):
    store = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    room = _room()
    store.add(room, 1000.0)
    store.db.execute("PRAGMA query_only = ON")  # every write is refused from now on
    with pytest.raises(StoreFailure):
        store.append(room, LogEntry("start"), 1001.0, [_line()])
    with pytest.raises(StoreFailure):
        store.add(_room("room-0002"), 1001.0)
    assert room.log_length == 0
    store.db.execute("PRAGMA query_only = OFF")
    assert store.rank([_line()]) == [_line()]  # the line was not written with the refused change
    assert not store.exists("room-0002")
    store.close()
