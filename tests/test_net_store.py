"""The server's storage seam: the server keeps everything in the RoomStore it is given, and only the
stores speak SQL (the protocol's promises, on SQLite and PostgreSQL: tests/test_store_suite.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.net.roomstore import RoomStore
from tests.net_support import Peer, start_server
from tests.pg_support import open_for_tests

ROOT = Path(__file__).resolve().parent.parent
HUMAN = {"kind": "human"}
SQL = re.compile(r"\b(SELECT\s+\S+.*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
                 r"CREATE\s+(TABLE|INDEX)|ALTER\s+TABLE|PRAGMA)\b")


SQLITE_MODULES = ("sqlitestore.py", "sqlite_schema.py")  # the store's reads and writes, its file's tables
# The same on PostgreSQL, its instances' news, presence and leases, and quick match's shared queue.
POSTGRES_MODULES = ("pgstore.py", "pg_schema.py", "pg_ranking.py", "pgcluster.py", "pg_tickets.py")


def test_only_the_stores_speak_sql_or_import_their_drivers():
    speaking = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        sqlite = re.search(r"^\s*(import sqlite3|from sqlite3 import)", text, re.MULTILINE)
        postgres = re.search(r"^\s*(import psycopg|from psycopg)", text, re.MULTILINE)
        if ((sqlite and path.name not in SQLITE_MODULES) or (postgres and path.name not in POSTGRES_MODULES)
                or (SQL.search(text) and path.name not in SQLITE_MODULES + POSTGRES_MODULES)):
            speaking.append(str(path.relative_to(ROOT)))
    assert speaking == []


@pytest.mark.parametrize("modules", [SQLITE_MODULES, POSTGRES_MODULES], ids=["sqlite", "postgres"])
def test_the_sql_pattern_finds_the_stores_statements(modules):
    text = "".join((ROOT / "game" / "net" / name).read_text(encoding="utf-8") for name in modules)
    kinds = {m.group(1).split()[0] for m in SQL.finditer(text)}
    assert {"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE"} <= kinds


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


def test_the_server_keeps_everything_in_the_room_store_it_is_given(db):
    store = RecordingStore(open_for_tests(db))  # SQLite's, then PostgreSQL's
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
    again = open_for_tests(db)
    try:
        rooms, broken = again.load()
    finally:
        again.close()
    assert broken == [] and [r.room_id for r in rooms] == [ana.room_id] and rooms[0].log_length == 2
