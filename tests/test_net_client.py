"""The client side of online play: room links, and a connection that heals itself."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.net.client import (
    CLOSED,
    CONNECTED,
    RECONNECTING,
    RoomConnection,
    lan_address,
    make_link,
    parse_address,
    parse_link,
)
from game.net.hosting import ServerThread
from tests.net_support import wait_for

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def collect(connection: RoomConnection, *kinds: str, seconds: float = 5.0) -> list[dict]:
    """Poll ``connection`` until a message of one of the types ``kinds`` arrived; every message so far."""
    seen: list[dict] = []
    wait_for(lambda: bool(seen.extend(connection.poll())) or any(m["type"] in kinds for m in seen), seconds)
    return seen


def test_parse_link_reads_host_port_and_room():
    assert parse_link("huit://192.168.1.20:8765/AbC_12-x") == ("192.168.1.20", 8765, "AbC_12-x")
    assert parse_link("  HUIT://example.org:9000/room/ \n") == ("example.org", 9000, "room")
    assert parse_link("huit://[::1]:8765/r1") == ("::1", 8765, "r1")


@pytest.mark.parametrize("link, words", [
    ("http://host:1/room", "starts with huit://"),
    ("huit://host:8765", "no room"),
    ("huit://host:8765/", "no room"),
    ("huit://host/room", "no port"),
    ("huit://host:0/room", "port must be"),
    ("huit://host:70000/room", "port must be"),
    ("huit://host:http/room", "port must be"),
    ("huit://:8765/room", "not a host"),
    ("huit://bad host:8765/room", "not a host"),
    ("huit://host:8765/room?x=1", "room id"),
    ("huit://host:8765/" + "r" * 65, "room id"),
    ("huit://[zz]:8765/room", "IPv6"),
    ("huit://[::1]/room", "[::1]:PORT"),
])
def test_parse_link_refuses_bad_links_with_a_reason(link, words):
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("?", r"\?")):
        parse_link(link)


def test_make_link_round_trips_through_parse_link():
    for host, port, room in (("10.0.0.5", 8765, "Xy-9_z"), ("::1", 4000, "r"), ("localhost", 1, "a" * 64)):
        assert parse_link(make_link(host, port, room)) == (host, port, room)
    assert make_link("::1", 4000, "r") == "huit://[::1]:4000/r"
    with pytest.raises(ValueError):
        make_link("host", 8765, "no spaces")


def test_a_server_address_is_host_and_port():
    assert parse_address(" 192.168.0.7:8765 ") == ("192.168.0.7", 8765)
    with pytest.raises(ValueError, match="port"):
        parse_address("192.168.0.7")


def test_the_lan_address_is_an_ipv4_address():
    parts = lan_address().split(".")
    assert len(parts) == 4 and all(p.isdigit() for p in parts)


def test_a_connection_to_no_server_closes_and_says_why():
    connection = RoomConnection("127.0.0.1", free_port(), {"type": "join", "room": "abc"})
    assert wait_for(lambda: connection.status == CLOSED)
    assert connection.problem
    assert connection.poll() == []


def test_the_connection_rejoins_its_seat_after_the_server_restarts(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    server = ServerThread(db, host="127.0.0.1", port=0, think_scale=0)
    server.start()
    port = server.port
    hello = {"type": "create", "preset": "duel", "options": {}, "name": "Ana",
             "seats": [{"kind": "human"}, {"kind": "human"}]}
    ana = RoomConnection("127.0.0.1", port, hello, first_delay=0.05, max_delay=0.2)
    try:
        joined = next(m for m in collect(ana, "joined") if m["type"] == "joined")
        assert joined["seat"] == 0 and joined["key"] and ana.room == joined["room"]
        assert joined["key"] not in repr(ana)
        server.stop()
        assert wait_for(lambda: ana.status == RECONNECTING)
        server = ServerThread(db, host="127.0.0.1", port=port, think_scale=0)
        server.start()
        assert server.error is None
        assert wait_for(lambda: ana.status == CONNECTED)
        # Wait for the answer to the rejoin itself: a "room" message of the first server may still
        # be waiting in the inbox.
        again = [m for m in collect(ana, "joined", "error") if m["type"] in ("joined", "error")]
        assert again[0]["type"] == "joined" and again[0]["room"] == joined["room"]
        assert again[0]["seat"] == 0 and "key" not in again[0]  # the same seat, taken back with the key
        ana.send({"type": "ping"})
        assert any(m["type"] == "pong" for m in collect(ana, "pong"))
    finally:
        ana.close(leave=True)
        ana.join_thread()
        server.stop()
    assert ana.status == CLOSED


def test_serve_runs_the_server_without_loading_pygame():
    code = ("import sys, main\n"
            "try:\n    main.main(['serve', '--help'])\nexcept SystemExit as exit:\n    code = exit.code\n"
            "assert code == 0, code\n"
            "assert 'pygame' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout


def test_the_client_connection_never_loads_pygame():
    code = "import sys, game.net.client\nassert 'pygame' not in sys.modules\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_seat_taken_over_by_another_device_is_not_taken_back(tmp_path):
    server = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0)
    server.start()
    hello = {"type": "create", "preset": "duel", "options": {},
             "seats": [{"kind": "human"}, {"kind": "human"}]}
    first = RoomConnection("127.0.0.1", server.port, hello, first_delay=0.05)
    second = None
    try:
        joined = next(m for m in collect(first, "joined") if m["type"] == "joined")
        second = RoomConnection.rejoin("127.0.0.1", server.port, joined["room"], 0, joined["key"],
                                       first_delay=0.05)
        assert any(m["type"] == "joined" for m in collect(second, "joined"))
        assert wait_for(lambda: first.status == CLOSED)  # replaced: it does not come back for the seat
        assert any(m.get("code") == "replaced" for m in first.poll())
        time.sleep(0.2)
        assert second.status == CONNECTED
    finally:
        first.close()
        if second is not None:
            second.close()
        server.stop()
