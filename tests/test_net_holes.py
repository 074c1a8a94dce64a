"""Issue 32, the network's smaller holes, each attack replayed against a real server on 127.0.0.1:
a ``create`` or ``join`` request id replayed by someone else, HTTP requests that once cost a
traceback (duplicate headers, bodies, pipelining, odd lines), and a flood of messages from
loopback (exempt from the per-address cap) that once took the server's CPU."""

from __future__ import annotations

import contextlib
import logging
import random
import socket

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game.net.clock import ManualClock
from game.net.http_front import MAX_PIPELINED
from game.net.protocol import FLOOD_CLOSE
from game.net.quotas import FLOOD_COOLDOWN
from tests.net_support import Peer, start_server, wait_for

HUMAN = {"kind": "human"}


def alive(peer: Peer) -> bool:
    """Whether the connection answers a ping."""
    peer.send(type="ping", ref="alive?")
    return peer.until(lambda m: m["type"] == "pong")["ref"] == "alive?"


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


# ---- every HTTP request answered or refused, never a traceback ---------------------------------------
@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def raw_http(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    """Send ``data`` on a fresh TCP connection; everything the server sends back until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def statuses(answer: bytes) -> list[int]:
    """The status of each response in ``answer``, in order (bodies skipped by their length)."""
    found = []
    while answer:
        head, _, rest = answer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        assert lines[0].startswith(b"HTTP/1.1 "), answer[:80]
        found.append(int(lines[0].split()[1]))
        length = next(int(line.split(b":")[1]) for line in lines
                      if line.lower().startswith(b"content-length:"))
        answer = rest[length:]
    return found


ROOM_PAGE = b"GET /r/ROOM HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.mark.parametrize(("request_bytes", "status"), [
    (ROOM_PAGE + b"Host: evil.example\r\n\r\n", 400),  # the 500 and traceback of issue 32
    (b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    (ROOM_PAGE + b"Host: 127.0.0.1\r\n\r\n", 400),  # the same value twice is still twice
    (b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", 400),
    (b"GET /health HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 1.2.3.4\r\nX-Forwarded-For: 5.6.7.8\r\n\r\n", 200),
    (ROOM_PAGE + b"Upgrade: h2c\r\nUpgrade: websocket\r\n\r\n", 400),
    (ROOM_PAGE + b"X-Forwarded-Proto: https\r\nX-Forwarded-Proto: http\r\n\r\n", 400),
    (ROOM_PAGE + b"Accept-Language: fr\r\nAccept-Language: en\r\n\r\n", 200),  # a list: it may be split
    (b"GET /r/ROOM HTTP/1.1\r\n\r\n", 200),  # no Host: the address the connection came to
    (b"GET /r/ROOM HTTP/1.0\r\n\r\n", 200),
    (ROOM_PAGE + b"Host\r\n\r\n", 400),
    (ROOM_PAGE + b" folded: line\r\n\r\n", 400),
    (ROOM_PAGE + b"X-Odd: a\x00b\r\n\r\n", 400),
    (ROOM_PAGE + b"Bad Name: x\r\n\r\n", 400),
    (b"POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", 405),  # once: no answer at all
    (b"PUT /r/ROOM HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 405),
    (b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", 400),
    (b"GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", 200),
    (b"BREW /health HTTP/1.1\r\nHost: a\r\n\r\n", 405),
    (b"GET /health HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    (b"GET /health\r\n\r\n", 400),
    (b"GET  /health HTTP/1.1\r\n\r\n", 400),
    (b"GET http://evil.example/health HTTP/1.1\r\n\r\n", 400),
    ("GET /r/é HTTP/1.1\r\n\r\n".encode(), 400),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),  # TLS on the plain port
    (b"GET /health HTTP/1.1\nHost: a\n\n", 400),  # bare line feeds
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n", 414),
    (b"GET /" + b"a" * 20000, 414),
    (b"GET /health HTTP/1.1\r\nX: " + b"b" * 9000 + b"\r\n\r\n", 431),
    (b"GET /health HTTP/1.1\r\n" + b"X: y\r\n" * 3000, 431),
    (b"GET /health HTTP/1.1\r\n" + b"".join(b"X%d: y\r\n" % i for i in range(200)) + b"\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", 400),  # no key
])
def test_every_http_request_is_answered_or_refused_without_a_traceback(server, caplog, request_bytes, status):
    room = Peer(server.port).create("duel", [HUMAN, HUMAN], name="Ana")["room"]
    answer = raw_http(server.port, request_bytes.replace(b"ROOM", room.encode()))
    assert statuses(answer)[0] == status
    head = answer.partition(b"\r\n\r\n")[0]
    assert b"\r\nServer: Huit" in head and b"Python" not in head and b"websockets" not in head
    assert not errors_logged(caplog)
    assert raw_http(server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n").startswith(b"HTTP/1.1 200")


def test_pipelined_requests_are_each_answered_in_order(server, caplog):
    room = Peer(server.port).create("duel", [HUMAN, HUMAN])["room"]
    one = b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n"
    answer = raw_http(server.port, one + b"GET /r/%s HTTP/1.1\r\nHost: a\r\n\r\n" % room.encode()
                      + b"GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n"
                      + b"HEAD /health HTTP/1.1\r\nHost: a\r\n\r\n")
    assert statuses(answer) == [200, 200, 404, 200]
    assert answer.count(b"Connection: close") == 1  # on the last answer only
    assert answer.index(b"Connection: close") > answer.rindex(b"HTTP/1.1 ")
    many = raw_http(server.port, one * 12)  # past MAX_PIPELINED, the rest is not read
    assert statuses(many) == [200] * MAX_PIPELINED
    behind_a_body = raw_http(server.port, b"POST /health HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n"
                                          b"GET /health HTTP/1.1\r\n\r\n" + one)
    assert statuses(behind_a_body) == [405]  # where a body ends is not trusted: nothing after it is read
    assert not errors_logged(caplog)


def test_no_answer_names_python_or_websockets(server):
    assert b"\r\nServer: Huit\r\n" in raw_http(server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:  # the upgrade's 101 too
        sock.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        head = sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101") and b"\r\nServer: Huit\r\n" in head and b"Python" not in head


def test_mangled_requests_are_all_answered_or_refused(tmp_path, caplog):
    """A fuzz: good requests cut, doubled, with bytes flipped or lines repeated, each answered
    (a status line) or refused (closed without a word), never a traceback; the server serves on."""
    server = start_server(tmp_path / "rooms.sqlite3", pages_per_second=10_000.0)
    try:
        mangle(server, caplog)
    finally:
        server.stop()


def mangle(server, caplog) -> None:
    rng = random.Random(32)
    room = Peer(server.port).create("duel", [HUMAN, HUMAN])["room"].encode()
    seeds = [b"GET /r/" + room + b" HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nAccept-Language: fr\r\n\r\n",
             b"GET /health HTTP/1.1\r\nHost: a\r\nX-Forwarded-Proto: https\r\n\r\n",
             b"HEAD /r/" + room + b"?lang=de HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
             b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"]
    for _ in range(150):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            kind = rng.randrange(4)
            if kind == 0:
                data[at] = rng.randrange(256)
            elif kind == 1:
                data[at:at] = data[at:at + rng.randint(1, 40)] * rng.randint(1, 3)
            elif kind == 2:
                del data[at:at + rng.randint(1, 10)]
            else:
                data[at:at] = rng.choice([b"\r\n", b"\n", b":", b" ", b"\x00", b"\r\nHost: x", b"\xff"])
        if not data.endswith(b"\r\n\r\n"):
            data += b"\r\n\r\n"  # else the server rightly waits for the rest
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(data)
            first = sock.recv(16)
        assert first == b"" or first.startswith(b"HTTP/1.1 "), (bytes(data), first)
    assert not errors_logged(caplog)
    assert raw_http(server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n").startswith(b"HTTP/1.1 200")


# ---- a flood costs almost nothing, and is closed ---------------------------------------------------------
def test_a_connection_flooding_past_both_allowances_is_closed_and_its_flood_never_read(tmp_path, monkeypatch,
                                                                                      caplog):
    import game.net.server as server_module

    parsed = {"decode": 0, "read_ref": 0}

    def counting(name, real):
        def count(*args):
            parsed[name] += 1
            return real(*args)
        return count

    monkeypatch.setattr(server_module, "decode", counting("decode", server_module.decode))
    monkeypatch.setattr(server_module, "read_ref", counting("read_ref", server_module.read_ref))
    clock = ManualClock()  # no time passes: no allowance comes back
    thread = start_server(tmp_path / "rooms.sqlite3", rate=20.0, burst=40.0, clock=clock)
    try:
        ana, ben = Peer(thread.port), Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        ben.join(ana.room_id, name="Ben")
        ben.drain()
        flood = Peer(thread.port)
        with contextlib.suppress(ConnectionClosed):  # the server may close it before the last is sent
            for i in range(500):
                flood.send(type="ping", ref=i)
        replies = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                replies.append(flood.recv(5))
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (FLOOD_CLOSE, "flooding")
        assert [m["type"] for m in replies] == ["pong"] * 40 + ["error"] * 41
        assert [m["code"] for m in replies[40:]] == ["rate_limited"] * 40 + ["flooding"]
        # 40 read, 40 refused with their ref read, the 420 after never parsed (+ Ana's create, Ben's join)
        assert parsed == {"decode": 40 + 2, "read_ref": 40}
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # no line per message
        ana.send(type="ping", ref="next door")  # another room's players never noticed
        assert ana.until(lambda m: m["type"] == "pong")["ref"] == "next door"
        assert alive(Peer(thread.port))  # loopback is exempt from the cool-down, as from the connection cap
    finally:
        thread.stop()


def flood_until_closed(peer: Peer, pings: int) -> None:
    """Send ``pings`` pings as fast as possible, then read until the server closes the connection."""
    with contextlib.suppress(ConnectionClosed):
        for i in range(pings):
            peer.send(type="ping", ref=i)
    with pytest.raises(ConnectionClosed):
        while True:
            peer.recv(5)


def test_an_address_whose_connection_flooded_opens_none_for_a_while(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", rate=20.0, burst=40.0, clock=clock, proxy_headers=True,
                          trusted_proxies=["127.0.0.1"])
    try:
        eve = Peer(thread.port, address="203.0.113.9")
        flood_until_closed(eve, 200)
        with pytest.raises(InvalidStatus) as refused:  # before any WebSocket work
            Peer(thread.port, address="203.0.113.9")
        assert refused.value.response.status_code == 429
        assert refused.value.response.headers["Retry-After"] == str(int(FLOOD_COOLDOWN))
        assert alive(Peer(thread.port, address="198.51.100.4"))  # another address never noticed
        page = raw_http(thread.port, b"GET /health HTTP/1.1\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n")
        assert page.startswith(b"HTTP/1.1 200")  # pages have their own allowance
        clock.advance(FLOOD_COOLDOWN)
        assert alive(Peer(thread.port, address="203.0.113.9"))
    finally:
        thread.stop()


def test_a_flooding_seat_holder_loses_the_connection_not_the_seat(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", rate=20.0, burst=40.0, clock=clock)
    try:
        ana = Peer(thread.port)
        ana.create("duel", [HUMAN, HUMAN], name="Ana")
        room, key = ana.room_id, ana.key
        flood_until_closed(ana, 100)
        assert wait_for(lambda: not thread.server.rooms[room].seats[0].connected)
        clock.advance(10.0)
        back = Peer(thread.port)
        assert back.join(room, seat=0, key=key)["type"] == "joined"  # the seat waited, as for a dropped line
    finally:
        thread.stop()
