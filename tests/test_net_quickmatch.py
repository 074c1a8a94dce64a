"""Quick match, for real: players queueing are seated together, computers fill a table after the
wait a player chose (on the server's clock, never a sleep), leaving is instant, bad requests refused."""

from __future__ import annotations

import json
import time

import pytest

from game.net.clock import ManualClock
from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path, clock):
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)
    yield thread
    thread.stop()


def player(server, name: str, seed: int = 0) -> Peer:
    peer = Peer(server.port, seed)
    assert peer.hello(name)["type"] == "profile"
    return peer


def queued(peer: Peer, **fields) -> dict:
    peer.send(type="queue", **fields)
    return peer.until(lambda m: m["type"] in ("queued", "joined", "error"))


def test_two_players_asking_for_a_duel_are_seated_together_and_play(server):
    ana, ben = player(server, "Ana", 1), player(server, "Ben", 2)
    first = queued(ana, preset="duel", players=2)
    assert first["type"] == "queued" and first["waiting"] == 1 and first["preset"] == "duel"
    assert first["since"] == first["now"] and first["computers"] is False
    joined = queued(ben, preset="duel", players=2)
    assert joined["type"] == "joined" and joined["key"]
    ana.until(lambda m: m["type"] == "joined")
    assert ana.room_id == ben.room_id and {ana.seat, ben.seat} == {0, 1}
    for peer in (ana, ben):
        status = peer.until(lambda m: m["type"] == "room")
        assert status["kind"] == "quick" and status["state"] == "playing"
        assert [s["name"] for s in status["seats"]] == ["Ana", "Ben"]
        assert peer.view is not None and peer.view["status"] == "playing"
    mover = ana if ana.my_turn else ben
    assert mover.play_one()["type"] == "update"


def test_computers_fill_the_table_after_the_chosen_wait(server, clock):
    ana = player(server, "Ana")
    ben = player(server, "Ben")
    queued(ana, preset="colors", players=4, computers=True, wait=30)
    assert queued(ben, preset="colors", players=4)["waiting"] == 2  # Ben wants people only
    ana.until(lambda m: m["type"] == "queued" and m["waiting"] == 2)
    clock.advance(29)
    ana.drain(0.2)
    assert ana.room_id == ""
    clock.advance(1)
    joined = ana.until(lambda m: m["type"] == "joined")
    status = ana.until(lambda m: m["type"] == "room")
    assert joined["seat"] == 0 and status["kind"] == "quick" and status["state"] == "playing"
    assert [s["kind"] for s in status["seats"]] == ["human", "computer", "computer", "computer"]
    assert {s["level"] for s in status["seats"][1:]} == {"medium"}
    assert status["ranked"] is False  # one person is no competition
    still = ben.until(lambda m: m["type"] == "queued")
    assert still["waiting"] == 1 and ben.room_id == ""


def test_two_players_who_allowed_computers_are_seated_together_with_them(server, clock):
    ana, ben = player(server, "Ana"), player(server, "Ben")
    queued(ana, preset="points", players=3, computers=True)  # the default wait: 60 s
    clock.advance(20)
    queued(ben, preset="points", players=3, computers=True, wait=300)
    clock.advance(40)
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "joined")
    assert ana.room_id == ben.room_id
    status = ben.until(lambda m: m["type"] == "room")
    assert [s["kind"] for s in status["seats"]] == ["human", "human", "computer"]


def test_leaving_the_queue_is_instant_and_leaves_nobody_waiting_for_a_ghost(server, clock):
    ana, ben, cid = player(server, "Ana"), player(server, "Ben"), player(server, "Cid")
    queued(ana, preset="duel", players=2, computers=True, wait=10)
    ana.send(type="unqueue", ref="u")
    assert ana.until(lambda m: m.get("ref") == "u")["type"] == "unqueued"
    clock.advance(20)
    ana.drain(0.2)
    assert ana.room_id == ""  # no computers came for a player who left
    queued(ben, preset="duel", players=2)
    ben.close()  # closing the connection leaves the queue too
    deadline = time.monotonic() + 5
    while len(server.server.queues) and time.monotonic() < deadline:
        time.sleep(0.01)
    status = queued(cid, preset="duel", players=2)
    assert status["type"] == "queued" and status["waiting"] == 1


def test_asking_again_replaces_the_first_request_even_from_another_connection(server):
    ana = player(server, "Ana")
    queued(ana, preset="duel", players=2)
    again = Peer(server.port)
    again.hello(key=ana.player_key)
    status = queued(again, preset="duel", players=2)
    assert status["type"] == "queued" and status["waiting"] == 1  # never matched with herself
    assert ana.until(lambda m: m["type"] == "unqueued")


def test_different_rules_or_player_counts_wait_in_different_queues(server):
    ana, ben, cid = player(server, "Ana"), player(server, "Ben"), player(server, "Cid")
    queued(ana, preset="duel", players=2)
    assert queued(ben, preset="duel", players=2, options={"max_draws": 3})["waiting"] == 1
    assert queued(cid, preset="classic", players=2)["waiting"] == 1
    assert ana.room_id == ben.room_id == cid.room_id == ""


@pytest.mark.parametrize(("fields", "code"), [
    ({"preset": "poker", "players": 2}, "bad_rules"),
    ({"preset": "duel", "players": 3}, "bad_rules"),
    ({"preset": "colors", "players": 4, "options": {"pairs": "yes"}}, "bad_rules"),
    ({"preset": "duel", "options": [], "players": 2}, "bad_rules"),
    ({"preset": "duel"}, "bad_message"),
    ({"preset": "duel", "players": 2.0}, "bad_message"),
    ({"preset": "duel", "players": True}, "bad_message"),
    ({"preset": "duel", "players": 9}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": "yes"}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": True, "wait": 1}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": True, "wait": 10_000}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": True, "wait": "60"}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": True, "wait": "NaN"}, "bad_message"),
    ({"preset": "duel", "players": 2, "computers": True, "wait": "Infinity"}, "bad_message"),
])
def test_a_bad_quick_match_request_is_refused_and_queues_nothing(server, fields, code):
    ana = player(server, "Ana")
    if fields.get("wait") in ("NaN", "Infinity"):  # not JSON, though Python reads them as numbers
        ana.ws.send('{"v": 2, "type": "queue", "preset": "duel", "players": 2, "computers": true, '
                    f'"wait": {fields["wait"]}}}')
    else:
        ana.send(type="queue", **fields)
    assert ana.recv()["code"] == code
    ben = player(server, "Ben")
    assert queued(ben, preset="duel", players=2)["waiting"] == 1  # Ana waits nowhere


def test_a_seated_connection_cannot_queue_and_quick_requests_are_counted(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", queue_per_hour=3)
    try:
        ana = player(thread, "Ana")
        for _ in range(3):
            assert queued(ana, preset="duel", players=2)["type"] == "queued"
        assert queued(ana, preset="duel", players=2)["code"] == "too_many_requests"
        other = Peer(thread.port)
        other.hello(key=ana.player_key)  # the same player elsewhere: counted too
        assert queued(other, preset="duel", players=2)["code"] == "too_many_requests"
        ben = player(thread, "Ben")
        ben.create("duel", [HUMAN, HUMAN])
        assert queued(ben, preset="duel", players=2)["code"] == "already_joined"
    finally:
        thread.stop()


def test_the_load_benchmark_runs_quick_match_players_without_errors(capsys):
    from tools import loadtest

    assert loadtest.main(["--quick", "--rooms", "2", "--duration", "2", "--think", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "seatings: " in out and "wait to be seated ms: p50" in out and "errors: 0" in out


# ---- quotas, and a table that cannot be seated ---------------------------------------------------------
PROXY = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}  # the tests' players come from afar


def test_quick_match_keeps_to_the_quotas_of_rooms_and_computer_seats(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0, rooms_held=1,
                          computer_seats=1, rooms_per_hour=1)
    try:
        ana = player(thread, "Ana")
        queued(ana, preset="colors", players=4, computers=True, wait=5)
        clock.advance(5)
        refused = ana.until(lambda m: m["type"] in ("error", "joined"))
        assert refused["code"] == "too_many_computers" and "computer seats" in refused["message"]
        assert ana.until(lambda m: m["type"] in ("unqueued", "queued"))["type"] == "unqueued"
        assert len(thread.server.queues) == 0 and thread.server.rooms == {}
        queued(ana, preset="duel", players=2, computers=True, wait=5)  # one computer: within the quota
        clock.advance(5)
        ana.until(lambda m: m["type"] == "joined")
        assert [s["kind"] for s in ana.until(lambda m: m["type"] == "room")["seats"]] == ["human", "computer"]
        again = Peer(thread.port)
        again.hello(key=ana.player_key)
        assert queued(again, preset="duel", players=2)["code"] == "too_many_rooms"  # told at once
        ben = player(thread, "Ben")  # another player, but Ana's address
        assert queued(ben, preset="duel", players=2, computers=True)["code"] == "too_many_rooms"
        assert len(thread.server.queues) == 0 and len(thread.server.rooms) == 1
    finally:
        thread.stop()


def test_a_player_over_a_quota_at_seating_leaves_the_queue_and_the_others_wait_on(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", burst=10_000.0, rooms_held=1, **PROXY)
    try:
        ana = Peer(thread.port, address="203.0.113.1")
        ana.hello("Ana")
        assert queued(ana, preset="duel", players=2)["type"] == "queued"
        elsewhere = Peer(thread.port, address="198.51.100.1")
        elsewhere.hello(key=ana.player_key)  # Ana, on another device, makes a room while she waits
        assert elsewhere.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        ben = Peer(thread.port, address="203.0.113.2")
        ben.hello("Ben")
        status = queued(ben, preset="duel", players=2)
        assert status["type"] == "queued" and status["waiting"] == 1  # Ben waits on, alone
        assert ana.until(lambda m: m["type"] == "error")["code"] == "too_many_rooms"
        assert ana.until(lambda m: m["type"] in ("unqueued", "queued"))["type"] == "unqueued"
        cid = Peer(thread.port, address="203.0.113.3")
        cid.hello("Cid")
        assert queued(cid, preset="duel", players=2)["type"] == "joined"
        ben.until(lambda m: m["type"] == "joined")
        assert ben.room_id == cid.room_id and ana.room_id == ""
    finally:
        thread.stop()


def test_a_player_alone_with_computers_holds_a_room_that_expires_early(tmp_path):
    from game.net.server import LONELY_EXPIRY, SWEEP

    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, burst=10_000.0)
    try:
        ana = player(thread, "Ana")
        queued(ana, preset="duel", players=2, computers=True, wait=5)
        clock.advance(5)
        ana.until(lambda m: m["type"] == "joined")
        room = ana.room_id
        ana.close()
        clock.advance(LONELY_EXPIRY + SWEEP)
        deadline = time.monotonic() + 5
        while room in thread.server.rooms and time.monotonic() < deadline:
            time.sleep(0.01)
        back = Peer(thread.port)
        assert back.join(room, seat=0, key=ana.key)["code"] == "unknown_room"
    finally:
        thread.stop()


def test_a_table_that_fails_to_be_seated_tells_each_of_its_players(server, clock, monkeypatch):
    def broken(group, computers):
        raise RuntimeError("a bug in seating")

    monkeypatch.setattr(server.server.queues, "make_room", broken)
    ana, ben = player(server, "Ana"), player(server, "Ben")
    queued(ana, preset="duel", players=2)
    for peer in (ben, ana):
        if peer is ben:
            peer.send(type="queue", preset="duel", players=2)
        failed = peer.until(lambda m: m["type"] in ("error", "joined"))
        assert failed["code"] == "server_error" and "quick match" in failed["message"]
        assert peer.until(lambda m: m["type"] in ("unqueued", "queued", "error"))["type"] == "unqueued"
    assert len(server.server.queues) == 0
    cid = player(server, "Cid")  # and when computers were to fill the table, on the clock
    queued(cid, preset="duel", players=2, computers=True, wait=5)
    clock.advance(5)
    assert cid.until(lambda m: m["type"] in ("error", "joined"))["code"] == "server_error"
    assert cid.until(lambda m: m["type"] in ("unqueued", "queued"))["type"] == "unqueued"
    assert len(server.server.queues) == 0
    ben.drain(0.2)
    assert sum(json.loads(f)["type"] == "error" for f in ben.frames) == 1  # told once


def test_a_restarted_server_still_counts_a_quick_room_for_each_of_its_people(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    peers = []
    thread = start_server(db, burst=10_000.0, rooms_held=1, **PROXY)
    try:
        for i, name in enumerate(("Ana", "Ben")):
            peer = Peer(thread.port, address=f"203.0.113.{i + 1}")
            peer.hello(name)
            peers.append(peer)
            peer.send(type="queue", preset="duel", players=2)
        for peer in peers:
            peer.until(lambda m: m["type"] == "joined")
    finally:
        thread.stop()
    again = start_server(db, burst=10_000.0, rooms_held=1, **PROXY)
    try:
        for i in range(len(peers)):
            newcomer = Peer(again.port, address=f"203.0.113.{i + 1}")  # another player, the same address
            newcomer.hello("Cid")
            assert queued(newcomer, preset="duel", players=2)["code"] == "too_many_rooms"
    finally:
        again.stop()
