"""A room's stored log stays bounded: a snapshot at each deal, the entries before it forgotten,
and the room rebuilt from it exactly as it stands live (unit level, then a real server)."""

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


def test_a_long_room_keeps_only_its_current_deal_in_the_log_and_is_rebuilt_exactly(tmp_path):
    store = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    live = _live_room(store, 12)
    rng = random.Random(3)
    ai = player_for("medium")
    _next_deal(store, live)
    for _ in range(3):  # into the 13th deal
        seat = live.match.to_act
        action = ai.choose(live.match.view(seat), rng)
        store.append(live, LogEntry("action", seat, str(action)), 1.0)
        live.apply(seat, action)
    rows = store.db.execute("SELECT seq, kind FROM log WHERE room = 'long' ORDER BY seq").fetchall()
    (base,) = store.db.execute("SELECT seq FROM snapshots WHERE room = 'long'").fetchone()
    assert [kind for _, kind in rows] == ["deal", "action", "action", "action"]
    assert rows[0][0] == base and rows[-1][0] == live.log_length - 1
    assert live.log_length > 100  # the twelve deals before were stored, then forgotten
    store.close()
    again = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    (rebuilt,), broken = again.load()
    assert broken == []
    _same(live, rebuilt)
    assert rebuilt.match.round.number == 13 and len(rebuilt.match.results) == 12
    # and it goes on as the live one does
    seat = live.match.to_act
    action = live.match.legal_actions(seat)[0]
    assert rebuilt.apply(seat, action) == live.apply(seat, action)
    again.close()


def test_a_room_whose_snapshot_is_damaged_is_set_aside_and_the_others_start(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteRoomStore(path)
    _live_room(store, 3)
    other = Room("other", PRESETS["duel"], [Seat("human", name="Cy", key_hash="2" * 64), Seat("human")],
                 seed=1)
    store.add(other, 2.0)
    store.db.execute("UPDATE snapshots SET state = ? WHERE room = 'long'", (json.dumps({"match": {}}),))
    rooms, broken = store.load()
    assert [r.room_id for r in rooms] == ["other"]
    assert [room for room, _ in broken] == ["long"] and "snapshot" in broken[0][1]
    assert store.exists("long")  # kept as it is, never started afresh
    store.delete("long")
    assert store.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 0
    assert store.db.execute("SELECT COUNT(*) FROM log WHERE room = 'long'").fetchone()[0] == 0
    store.close()


def test_a_match_with_a_target_is_rebuilt_between_and_within_its_deals(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteRoomStore(path)
    live = _live_room(store, 2, preset="points")
    assert live.match.status == Status.ROUND_OVER  # between two deals
    again = SQLiteRoomStore(path)
    (rebuilt,), _ = again.load()
    _same(live, rebuilt)
    again.close()
    _next_deal(store, live)
    _play_deal(store, live, random.Random(4))
    _next_deal(store, live)  # within the fourth deal
    store.close()
    third = SQLiteRoomStore(path)
    (rebuilt,), _ = third.load()
    _same(live, rebuilt)
    assert rebuilt.match.round.number == 4 and rebuilt.match.scores == live.match.scores
    assert rebuilt.turns > 0 and rebuilt.turns == live.turns  # the turns of its first three deals kept
    third.close()


def test_abandons_and_votes_before_a_deal_survive_its_snapshot(tmp_path):
    store = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    room = Room("long", PRESETS["classic"], [Seat("human", name=n, key_hash=str(i) * 64)
                                          for i, n in enumerate(["Ana", "Ben", "Cy"])], seed=5)
    store.add(room, 1.0)
    store.append(room, LogEntry("start"), 1.0)
    room.start()
    store.append(room, LogEntry("abandon", 2), 1.0)
    room.abandon(2)
    for voter in (0, 1):
        store.append(room, LogEntry("vote", voter, "2 yes"), 1.0)
        room.vote(voter, 2, True)
    rng = random.Random(1)
    for _ in range(3):
        _play_deal(store, room, rng)
        _next_deal(store, room)
    assert store.db.execute("SELECT COUNT(*) FROM log WHERE kind IN ('abandon', 'vote')").fetchone()[0] == 0
    store.close()
    again = SQLiteRoomStore(tmp_path / "rooms.sqlite3")
    (rebuilt,), _ = again.load()
    _same(room, rebuilt)
    assert rebuilt.seats[2].kind == "computer" and rebuilt.seats[2].abandoned
    assert rebuilt.abandoned_in == {2: 1} and rebuilt.votes == {2: {0: True, 1: True}}
    assert rebuilt.penalised == {2}
    assert 2 in rebuilt.computers
    again.close()


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
