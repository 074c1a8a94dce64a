"""A room's stored log stays bounded: a snapshot at each deal, the entries before it forgotten,
and the room rebuilt from it exactly as it stands live: a version 2 SQLite file, then a real
server (the store's own promises, on SQLite and PostgreSQL: tests/test_store_suite.py)."""

from __future__ import annotations

import json
import random

from game.ai import player_for
from game.engine import PRESETS, Status, parse_action
from game.net.clock import ManualClock
from game.net.rooms import LogEntry, Room, Seat
from game.net.sqlite_schema import COLUMNS, THIRD_COLUMNS
from game.net.sqlitestore import SQLiteRoomStore
from tests.net_support import Peer, play_until, start_server

HUMAN = {"kind": "human"}


def _room(preset: str = "duel", seats: int = 2) -> Room:
    names = ["Ana", "Ben", "Cy"][:seats]
    people = [Seat("human", name=name, key_hash=str(i) * 64) for i, name in enumerate(names)]
    return Room("long", PRESETS[preset], people, seed=42)


def _play_deal(store: SQLiteRoomStore, room: Room, rng: random.Random) -> None:
    """Both seats play the deal to its end (Medium's choices), every change stored first."""
    ai = player_for("medium")
    assert room.match is not None
    while room.match.status == Status.PLAYING:
        seat = room.match.to_act
        assert seat is not None
        action = ai.choose(room.match.view(seat), rng)
        store.append(room, LogEntry("action", seat, str(action)), 1.0)
        room.apply(seat, parse_action(str(action)))


def _next_deal(store: SQLiteRoomStore, room: Room) -> None:
    for seat in range(room.players):
        if room.seats[seat].is_human:
            store.append(room, LogEntry("accept", seat), 1.0)
            room.accept(seat)
    store.append(room, LogEntry("deal"), 1.0)
    room.next_round()


def _live_room(store: SQLiteRoomStore, deals: int, preset: str = "duel") -> Room:
    room = _room(preset)
    store.add(room, 1.0)
    store.append(room, LogEntry("start"), 1.0)
    room.start()
    rng = random.Random(7)
    for deal in range(deals):
        _play_deal(store, room, rng)
        if deal < deals - 1:
            _next_deal(store, room)
    return room


def _same(live: Room, rebuilt: Room) -> None:
    assert rebuilt.match == live.match  # every card, the scores, the results and the generator
    assert rebuilt.round_events == live.round_events  # what a seat rejoining the deal is sent
    assert rebuilt.log_length == live.log_length
    assert [s.public() for s in rebuilt.seats] == [s.public() for s in live.seats]
    assert (rebuilt.abandoned_in, rebuilt.votes, rebuilt.penalised) == (live.abandoned_in, live.votes,
                                                                          live.penalised)
    assert rebuilt.turns == live.turns  # fair play's count of a match over several deals


def _as_version_2(store: SQLiteRoomStore) -> None:
    """Take from ``store``'s file what version 3 added: its tables, indexes and columns."""
    db = store.db
    for (index,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                               "AND name NOT IN ('ratings_board', 'ranked_player')").fetchall():
        db.execute(f"DROP INDEX {index}")
    for table in sorted(set(COLUMNS) - set(THIRD_COLUMNS)):
        db.execute(f"DROP TABLE {table}")
    for table, columns in THIRD_COLUMNS.items():
        for column in COLUMNS[table][len(columns):]:
            db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.execute("PRAGMA user_version=2")


def test_a_version_2_file_with_a_whole_log_loads_and_is_bounded_at_its_next_deal(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    # A room as a version 2 server stored it: every entry from its start.
    store = SQLiteRoomStore(path)
    room = _room()
    store.add(room, 1.0)
    _as_version_2(store)
    rng = random.Random(7)
    log = [("start", None, "")]
    room.start()
    for deal in range(5):
        ai = player_for("medium")
        while room.match.status == Status.PLAYING:
            seat = room.match.to_act
            action = ai.choose(room.match.view(seat), rng)
            log.append(("action", seat, str(action)))
            room.apply(seat, action)
        if deal < 4:
            log += [("accept", 0, ""), ("accept", 1, ""), ("deal", None, "")]
            room.accept(0), room.accept(1)
            room.next_round()
    store.db.executemany("INSERT INTO log VALUES ('long', ?, ?, ?, ?)",
                         [(i, kind, seat, text) for i, (kind, seat, text) in enumerate(log)])
    store.close()
    upgraded = SQLiteRoomStore(path)
    assert upgraded.db.execute("PRAGMA user_version").fetchone()[0] == 4
    (rebuilt,), broken = upgraded.load()
    assert broken == [] and rebuilt.match == room.match and rebuilt.log_length == len(log)
    _next_deal(upgraded, rebuilt)
    assert upgraded.db.execute("SELECT COUNT(*) FROM log").fetchone()[0] == 1  # the deal entry alone
    upgraded.close()
    again = SQLiteRoomStore(path)
    (final,), _ = again.load()
    room.accept(0), room.accept(1)
    room.next_round()
    assert final.match == room.match and final.round_events == room.round_events
    again.close()


# ---- against a real server ----------------------------------------------------------------------------
def _rejoin(port: int, room: str, seat: int, key: str) -> list[str]:
    """The frames a seat coming back to ``room`` is sent: joined, its view with the deal so far, the room."""
    peer = Peer(port)
    assert peer.join(room, seat=seat, key=key)["type"] == "joined"
    peer.until(lambda m: m["type"] == "room")
    peer.drain(0.2)
    peer.close()
    return peer.frames


def test_a_long_room_restarted_sends_its_players_exactly_what_the_live_one_does(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db, clock=ManualClock(), burst=100_000.0)
    try:
        ana, ben = Peer(thread.port, 1), Peer(thread.port, 2)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        ben.join(ana.room_id, name="Ben")
        room = ana.room_id
        play_until([ana, ben], lambda: ana.view is not None and ana.view["round_number"] >= 6
                   and len(ana.view["hand"]) < 7)
        keys = (ana.key, ben.key)
        ben.close()
        ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [1])
        ana.close()
        live = _rejoin(thread.port, room, 0, keys[0])
        live_again = _rejoin(thread.port, room, 0, keys[0])
    finally:
        thread.stop()
    store = SQLiteRoomStore(db)
    kinds = [k for (k,) in store.db.execute("SELECT kind FROM log WHERE room = ? ORDER BY seq", (room,))]
    store.close()
    assert kinds[0] == "deal" and "start" not in kinds and kinds.count("deal") == 1  # the current deal only
    again = start_server(db, clock=ManualClock(), burst=100_000.0)
    try:
        restarted = _rejoin(again.port, room, 0, keys[0])
    finally:
        again.stop()
    assert live == live_again  # (a rejoin is sent the same frames each time)
    update = json.loads(restarted[1])
    assert update["type"] == "update" and update["earlier"][0]["type"] == "RoundStarted"
    assert update["view"]["round_number"] >= 6
    assert restarted == live  # byte for byte


def test_a_ranked_room_without_a_target_is_written_once_per_deal_across_restarts(tmp_path):
    proxy = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db, **proxy)
    try:
        ana, ben = Peer(thread.port, 3, address="203.0.113.1"), Peer(thread.port, 4, address="203.0.113.2")
        ana.hello("Ana"), ben.hello("Ben")
        ana.create("duel", [HUMAN, HUMAN], public=True)
        ben.join(ana.room_id)
        ana.until(lambda m: m["type"] == "room" and m["state"] == "playing")
        assert ana.room["ranked"] is True
        play_until([ana, ben], lambda: ana.view is not None and ana.view["round_number"] >= 4
                   and ana.view["status"] == "match_over")
        deals = ana.view["round_number"]
        ana.drain(0.3)
        before = Peer(thread.port).hello(key=ana.player_key)["xp"]
    finally:
        thread.stop()
    for _ in range(2):
        again = start_server(db, **proxy)
        try:
            assert Peer(again.port).hello(key=ana.player_key)["xp"] == before
        finally:
            again.stop()
    store = SQLiteRoomStore(db)
    lines = store.db.execute("SELECT deal, COUNT(*) FROM ranked GROUP BY deal ORDER BY deal").fetchall()
    store.close()
    assert lines == [(deal, 2) for deal in range(1, deals + 1)]  # each deal a game, each written once
