"""The room server under trouble: a disk that refuses a commit, players who leave on their turn,
hostile messages and floods of rooms, broken server messages on the client side."""

from __future__ import annotations

import json
import logging
import time

import pytest

from game.net.clock import ManualClock
from game.net.roomstore import StoreFailure
from game.net.sqlitestore import SQLiteRoomStore
from game.net.wire import WireError, view_from_json, view_to_json
from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}


def duel(server, options=None) -> tuple[Peer, Peer]:
    ana, ben = Peer(server.port, 1), Peer(server.port, 2)
    ana.create("duel" if not options else "action", [HUMAN, HUMAN], options=options)
    ben.join(ana.room_id)
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "update")
        peer.drain(0.1)
    return ana, ben


def test_an_action_the_disk_refuses_to_store_does_not_happen(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    thread = start_server(db)
    try:
        ana, ben = duel(thread)
        store = thread.server.store
        real = store.append
        failures = [1]

        def flaky(room, entry, now, lines=()):
            if failures[0]:
                failures[0] -= 1
                raise StoreFailure("database is locked")
            return real(room, entry, now, lines)

        store.append = flaky
        actor = ana if ana.my_turn else ben
        before = actor.view
        reply = actor.play_one()
        assert reply["type"] == "error" and reply["code"] == "server_error"
        actor.drain(0.1)
        assert actor.view == before  # nothing happened
        for _ in range(6):  # and the game goes on, stored move by move
            for peer in (ana, ben):
                peer.drain(0.02)
                if peer.my_turn:
                    assert peer.play_one()["type"] == "update"
        live = thread.server.rooms[ana.room_id].match
    finally:
        thread.stop()
    rooms, broken = SQLiteRoomStore(db).load()
    assert broken == [] and rooms[0].match == live


def test_the_clock_waits_for_a_player_who_left_on_their_turn(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        ana, ben = duel(thread, {"turn_seconds": 2})
        mover = ana if ana.my_turn else ben
        other = ben if mover is ana else ana
        room, seat, key = mover.room_id, mover.seat, mover.key
        clock.advance(0.5)
        mover.close()
        other.until(lambda m: m["type"] == "room" and m["waiting_for"] == [seat])
        clock.advance(2.5)  # longer than the whole turn
        other.drain(0.1)
        assert other.view["turn_no"] == 1 and other.view["to_act"] == seat  # no time-out while away
        back = Peer(thread.port)
        back.join(room, seat=seat, key=key)
        update = back.until(lambda m: m["type"] == "update")
        assert 1.0 <= update["timer"] <= 1.6  # the time that was left, not a fresh turn nor zero
        clock.advance(1.5)
        timed_out = back.until(lambda m: m["type"] == "update" and any(
            e["type"] == "TimedOut" for e in m["events"]), timeout=4)
        assert timed_out["view"]["turn_no"] >= 1
    finally:
        thread.stop()


def test_no_piece_of_a_key_reaches_the_server_log(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana, ben = duel(thread)
        ana.close()
        Peer(thread.port).join(ana.room_id, seat=0, key=ana.key)
        time.sleep(0.2)
    finally:
        thread.stop()
    server_lines = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("huit.server"))
    assert server_lines
    for key in (ana.key, ben.key):
        pieces = {key[i:i + 8] for i in range(len(key) - 7)}
        assert not any(piece in server_lines for piece in pieces)


def test_deeply_nested_json_gets_an_error_and_keeps_the_connection(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana, _ = duel(thread)
        ana.ws.send("[" * 4000 + "]" * 4000)
        assert ana.recv()["code"] == "bad_json"
        ana.send(type="ping", ref="ok")
        assert ana.until(lambda m: m["type"] == "pong")["ref"] == "ok"
    finally:
        thread.stop()


def test_one_address_cannot_fill_the_server_with_rooms(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", rooms_per_hour=5, max_rooms=8)
    try:
        codes = []
        for _ in range(7):
            peer = Peer(thread.port)
            reply = peer.create("duel", [HUMAN, HUMAN])
            codes.append(reply.get("code", "ok"))
            peer.close()
        assert codes == ["ok"] * 5 + ["too_many_rooms"] * 2
        assert len(thread.server.rooms) == 5
    finally:
        thread.stop()


@pytest.mark.parametrize("field,value", [
    ("legal", [1]), ("hand_counts", 5), ("hand_counts", [1]), ("seat", 9), ("to_act", "me"),
    ("players", 100), ("status", "won"), ("scores", ["x", 1]), ("called", 1), ("exposed", [7]),
])
def test_a_broken_view_from_a_server_is_refused_by_the_client_codec(field, value):
    from game.engine import PRESETS, Match

    view = view_to_json(Match(PRESETS["duel"], 2, 1).view(0))
    assert view_from_json(json.loads(json.dumps(view))) is not None
    view[field] = value
    with pytest.raises(WireError):
        view_from_json(view)


def test_a_create_or_claim_sent_again_after_a_lost_answer_gets_the_same_seat(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        first = Peer(thread.port)
        first.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-1")
        created = first.until(lambda m: m["type"] == "joined")
        first.close()  # as if the connection dropped as the answer came
        again = Peer(thread.port)
        again.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-1")
        repeated = again.until(lambda m: m["type"] == "joined")
        assert (repeated["room"], repeated["seat"], repeated["key"]) == (created["room"], 0, created["key"])
        assert len(thread.server.rooms) == 1
        ben = Peer(thread.port)
        ben.send(type="join", room=created["room"], request="req-claim-1")
        claimed = ben.until(lambda m: m["type"] == "joined")
        ben.close()
        ben_again = Peer(thread.port)
        ben_again.send(type="join", room=created["room"], request="req-claim-1")
        assert ben_again.until(lambda m: m["type"] == "joined")["key"] == claimed["key"]
        other = Peer(thread.port)
        other.send(type="join", room=created["room"], request="someone-else")
        assert other.until(lambda m: m["type"] == "error")["code"] == "no_free_seat"
    finally:
        thread.stop()


def test_one_address_cannot_open_connections_without_end(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", connections_per_address=3, trust_loopback=False)
    try:
        peers = [Peer(thread.port) for _ in range(3)]
        extra = Peer(thread.port)
        assert extra.recv()["code"] == "too_many_connections"
        peers[0].close()
        time.sleep(0.2)
        again = Peer(thread.port)
        again.send(type="ping", ref="in")
        assert again.until(lambda m: m["type"] == "pong")["ref"] == "in"
    finally:
        thread.stop()
