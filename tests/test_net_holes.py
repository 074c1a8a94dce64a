"""Issue 32, the network's smaller holes, each attack replayed against a real server on 127.0.0.1:
a ``create`` or ``join`` request id replayed by someone else, HTTP requests that once cost a
traceback (duplicate headers, bodies, pipelining, odd lines), and a flood of messages from
loopback (exempt from the per-address cap) that once took the server's CPU."""

from __future__ import annotations

import logging

import pytest

from tests.net_support import Peer, start_server

HUMAN = {"kind": "human"}


def errors_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# ---- request ids belong to their sender ------------------------------------------------------------
@pytest.fixture
def proxied(tmp_path):
    """A server behind a trusted proxy on 127.0.0.1, so that a `Peer` can come from any address."""
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["127.0.0.1"])
    yield thread
    thread.stop()


def test_a_create_request_id_replayed_from_another_address_gets_a_room_of_its_own(proxied):
    ana = Peer(proxied.port, address="198.51.100.4")
    ana.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-1")
    created = ana.until(lambda m: m["type"] == "joined")
    thief = Peer(proxied.port, address="203.0.113.9")  # another address, no hello
    thief.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-1")
    got = thief.until(lambda m: m["type"] in ("joined", "error"))
    assert got["type"] == "joined" and got["room"] != created["room"] and got["key"] != created["key"]
    assert len(proxied.server.rooms) == 2
    ana.send(type="ping", ref="still here")  # the owner was not displaced
    assert ana.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    # Ana's own retry, after a lost answer, still gets her seat back.
    ana.close()
    again = Peer(proxied.port, address="198.51.100.4")
    again.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-1")
    repeated = again.until(lambda m: m["type"] == "joined")
    assert (repeated["room"], repeated["seat"], repeated["key"]) == (created["room"], 0, created["key"])


def test_a_join_request_id_replayed_from_another_address_leaks_no_seat_or_key(proxied):
    ana = Peer(proxied.port, address="198.51.100.4")
    room = ana.create("duel", [HUMAN, HUMAN, ], name="Ana")["room"]
    ben = Peer(proxied.port, address="198.51.100.5")
    ben.send(type="join", room=room, request="req-claim-ben-1", name="Ben")
    claimed = ben.until(lambda m: m["type"] == "joined")
    thief = Peer(proxied.port, address="203.0.113.9")
    thief.send(type="join", room=room, request="req-claim-ben-1")
    got = thief.until(lambda m: m["type"] in ("joined", "error"))
    assert got["type"] == "error" and got["code"] == "no_free_seat"  # a fresh claim: the room is full
    assert claimed["key"] not in "".join(thief.frames)
    ben.send(type="ping", ref="still here")
    assert ben.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_a_request_id_of_a_player_is_theirs_from_any_address(proxied):
    """After hello, the id is the player's: their retry from a new address (wifi to mobile) is
    theirs; the same id from the old address without the player key is not."""
    ana = Peer(proxied.port, address="198.51.100.4")
    ana.hello("Ana")
    ana.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-2")
    created = ana.until(lambda m: m["type"] == "joined")
    ana.close()
    stranger = Peer(proxied.port, address="198.51.100.4")  # the same address, not the player
    stranger.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-2")
    assert stranger.until(lambda m: m["type"] == "joined")["room"] != created["room"]
    moved = Peer(proxied.port, address="192.0.2.77")
    moved.hello(key=ana.player_key)
    moved.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], request="req-create-ana-2")
    repeated = moved.until(lambda m: m["type"] == "joined")
    assert (repeated["room"], repeated["key"]) == (created["room"], created["key"])
