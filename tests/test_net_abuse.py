"""The room server against abuse (issue 25, section 5), each with a real server on 127.0.0.1
and real websocket clients: text a client sends that cannot be encoded, computers as free
CPU, one address filling the server, a client that stops reading, floods past the rate
limit, versions and sizes, and the search workers' lives (the rooms' database on disk is in
`test_net_rooms_db`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from game.ai.hard import Hard
from game.engine import PRESETS, Match
from game.net.clock import ManualClock
from game.net.protocol import MAX_MESSAGE, PROTOCOL
from game.net.search import MAX_BROKEN, MIN_BUDGET, WORKER_NICENESS, SearchPool
from game.net.server import SWEEP
from tests.net_support import Peer, start_server, wait_for

ROOT = Path(__file__).resolve().parent.parent
HUMAN, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "medium"}
HARD = {"kind": "computer", "level": "hard"}
SURROGATE = "\ud800"


@pytest.fixture
def server(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    yield thread
    thread.stop()


def alive(peer: Peer, ref: str = "still") -> bool:
    """Whether the connection still answers (a ping gets its pong)."""
    peer.send(type="ping", ref=ref)
    return peer.until(lambda m: m["type"] == "pong")["ref"] == ref


def errors_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# ---- lone surrogates and control characters ------------------------------------------------------
def test_a_key_holding_a_lone_surrogate_is_a_bad_key_not_a_server_error(server, caplog):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    for key in (SURROGATE, "A" * 31 + "\udfff", ana.key[:-1] + SURROGATE, "key with spaces", "\x00" * 8):
        thief = Peer(server.port)
        reply = thief.join(ana.room_id, seat=0, key=key)
        assert (reply["type"], reply["code"]) == ("error", "bad_key")
        assert alive(thief)
        thief.close()
    assert errors_logged(caplog) == []


@pytest.mark.parametrize(("message", "code"), [
    ({"type": "create", "preset": "duel", "options": {}, "seats": [HUMAN, HUMAN], "name": SURROGATE},
     "bad_message"),
    ({"type": "create", "preset": "duel", "options": {}, "seats": [HUMAN, HUMAN], "name": "Ana\x07"},
     "bad_message"),
    ({"type": "create", "preset": "duel", "options": {}, "seats": [{"kind": "human", "name": "x\udc00"},
                                                                   HUMAN]}, "bad_message"),
    ({"type": "create", "preset": SURROGATE, "options": {}, "seats": [HUMAN, HUMAN]}, "bad_rules"),
    ({"type": "create", "preset": "duel", "options": {SURROGATE: True}, "seats": [HUMAN, HUMAN]},
     "bad_rules"),
    ({"type": "create", "preset": "duel", "options": {"turn_seconds": SURROGATE}, "seats": [HUMAN, HUMAN]},
     "bad_rules"),
    ({"type": "create", "preset": "duel", "options": {}, "seats": [{"kind": SURROGATE}, HUMAN]},
     "bad_message"),
    ({"type": "create", "preset": "duel", "options": {}, "seats": [HUMAN, HUMAN], "request": SURROGATE * 8},
     "bad_message"),
    ({"type": "join", "room": SURROGATE}, "unknown_room"),
    ({"type": "join", "room": "ROOM", "name": SURROGATE}, "bad_message"),
    ({"type": "join", "room": "ROOM", "seat": 2, "key": SURROGATE * 32}, "bad_key"),
    ({"type": "ping", "ref": SURROGATE}, "bad_message"),
    ({"type": SURROGATE}, "unknown_type"),
])
def test_every_text_field_holding_a_lone_surrogate_is_refused_with_its_code(server, caplog, message, code):
    host = Peer(server.port)
    host.create("classic", [HUMAN, HUMAN, HUMAN], name="Ana")  # seats 1 and 2 stay free
    peer = Peer(server.port)
    fields = {k: (host.room_id if v == "ROOM" else v) for k, v in message.items()}
    peer.send(**fields)
    reply = peer.until(lambda m: m["type"] in ("error", "joined"))
    assert (reply["type"], reply["code"]) == ("error", code), reply
    assert alive(peer)
    assert errors_logged(caplog) == []
    assert len(server.server.rooms) == 1 and server.server.rooms[host.room_id].seats[1].key_hash is None


def test_an_action_holding_a_lone_surrogate_is_a_bad_message(server, caplog):
    ana, ben = Peer(server.port), Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN])
    ben.join(ana.room_id)
    ana.until(lambda m: m["type"] == "update")
    for text in ("play " + SURROGATE, SURROGATE, "draw\x00"):
        ana.send(type="action", action=text, ref="x")
        reply = ana.until(lambda m: m["type"] == "error")
        assert reply["code"] == "bad_message" and reply["ref"] == "x"
    assert alive(ana)
    assert errors_logged(caplog) == []


# ---- computers as free CPU -----------------------------------------------------------------------
def test_one_address_holds_at_most_its_quota_of_computer_seats(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", search=SearchPool(1, processes=False),
                          computer_seats=12)
    try:
        codes = []
        for _ in range(3):
            peer = Peer(thread.port)
            reply = peer.create("points", [HUMAN] + [MEDIUM] * 6, options={"turn_seconds": 1})
            codes.append(reply.get("code", "ok"))
        assert codes == ["ok", "ok", "too_many_computers"]
        assert alive(peer)  # refused, not thrown out
        human_only = Peer(thread.port).create("duel", [HUMAN, HUMAN])
        assert human_only["type"] == "joined"  # people's rooms do not count against it
    finally:
        thread.stop()


def test_computers_and_clocks_stand_still_while_nobody_of_the_room_is_here(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        ana = Peer(thread.port)
        ana.create("points", [HUMAN, MEDIUM, MEDIUM, MEDIUM], options={"turn_seconds": 1})
        room_id, key = ana.room_id, ana.key
        room = thread.server.rooms[room_id]
        ana.until(lambda m: m["type"] == "update" and m["view"]["to_act"] == 0)
        ana.close()
        assert wait_for(lambda: not room.anyone_here)
        time.sleep(0.2)
        stored = room.log_length
        for _ in range(30):  # thirty turns' worth of clock: the seat would time out each second
            clock.advance(1.0)
            time.sleep(0.01)
        time.sleep(0.2)
        assert room.log_length == stored  # nothing happened: no time-out, no computer's move
        back = Peer(thread.port)
        back.join(room_id, seat=0, key=key)
        back.until(lambda m: m["type"] == "update")
        clock.advance(1.5)  # the same clock with someone here: the turn times out, the computers play
        back.until(lambda m: m["type"] == "update" and any(e["type"] == "TimedOut" for e in m["events"]))
        assert room.log_length > stored
    finally:
        thread.stop()


class _Stuck(Hard):
    """A Hard player whose search waits for the test (a search under way)."""

    release = threading.Event()

    def choose(self, view, rng):  # type: ignore[no-untyped-def]
        self.release.wait(10)
        return super().choose(view, rng)


def test_the_search_pool_is_bounded_and_decides_at_once_by_the_rules_when_full():
    pool = SearchPool(workers=1, queue=1, budget=0.2, processes=False)
    match = Match(PRESETS["classic"], 3, 5)
    view = match.view(match.round.to_act)
    players = [_Stuck(0.5, min_playouts=1) for _ in range(3)]
    try:
        futures = [pool.submit(p.choose, view, random.Random(i)) for i, p in enumerate(players)]
        assert pool.searched == 2 and pool.pending == 2 and pool.peak == 2
        assert futures[2].done() and pool.decided_at_once == 1  # the pool was full: Medium's rules, now
        assert futures[2].result() in match.legal_actions(view.seat)
        assert players[0].budget == 0.2  # the server's budget, under the player's own
        assert players[1].budget == pytest.approx(max(MIN_BUDGET, 0.2 * 1 / 2))  # a busy server's
        assert not futures[0].done() and not futures[1].done()
        _Stuck.release.set()
        for future in futures[:2]:
            assert future.result(timeout=10) in match.legal_actions(view.seat)
        assert pool.pending == 0
    finally:
        _Stuck.release.set()
        pool.shutdown()


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
def test_search_workers_yield_the_cpu_to_the_servers_event_loop():
    pool = SearchPool(workers=1)
    try:
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        pool.shutdown()


class _Unstartable(Executor):
    """Worker processes that cannot start here (each pool is broken at once)."""

    started = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        _Unstartable.started += 1
        raise BrokenProcessPool("a child process terminated abruptly")


def test_a_search_pool_whose_workers_cannot_start_stops_trying_and_plays_by_the_rules(monkeypatch, caplog):
    pool = SearchPool(workers=1, queue=1, budget=0.2, processes=False)
    monkeypatch.setattr(pool, "_executor", _Unstartable)
    match = Match(PRESETS["classic"], 3, 5)
    view = match.view(match.round.to_act)
    for i in range(MAX_BROKEN + 5):
        future = pool.submit(Hard(0.5).choose, view, random.Random(i))
        assert future.result(timeout=1) in match.legal_actions(view.seat)
    assert _Unstartable.started == MAX_BROKEN and pool.decided_at_once == MAX_BROKEN + 5
    assert len([r for r in caplog.records if "Medium's rules" in r.getMessage()]) == 1


def test_the_load_benchmark_measures_an_attack_on_the_computers(capsys):
    from tools import loadtest

    assert loadtest.main(["--rooms", "2", "--duration", "3", "--think", "0.05", "--attack", "3"]) == 0
    out = capsys.readouterr().out
    assert "attack, computers: 3 connections, 2 rooms of 6 Hard computers" in out
    assert "1 refused (too_many_computers)" in out
    assert "round trip ms: p50" in out and "errors: 0" in out


# ---- one address filling the server ------------------------------------------------------------
def test_one_address_holds_at_most_its_quota_of_rooms_however_slowly_it_creates_them(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", rooms_per_hour=1000, rooms_held=3)
    try:
        codes = [Peer(thread.port).create("duel", [HUMAN, HUMAN]).get("code", "ok") for _ in range(4)]
        assert codes == ["ok", "ok", "ok", "too_many_rooms"]
        assert len(thread.server.rooms) == 3
    finally:
        thread.stop()


def test_a_room_nobody_but_its_creator_joined_expires_within_hours(tmp_path):
    clock = ManualClock()
    thread = start_server(tmp_path / "rooms.sqlite3", clock=clock, rooms_held=2, lonely_expiry=3 * 3600)
    try:
        lonely, friends, friend = Peer(thread.port), Peer(thread.port), Peer(thread.port)
        lonely.create("duel", [HUMAN, HUMAN])
        friends.create("duel", [HUMAN, HUMAN])
        friend.join(friends.room_id)
        for peer in (lonely, friends, friend):
            peer.close()
        assert Peer(thread.port).create("duel", [HUMAN, HUMAN])["code"] == "too_many_rooms"
        rooms = thread.server.rooms
        for _ in range(int(3 * 3600 / SWEEP) + 2):  # the sweeper looks every SWEEP seconds
            clock.advance(SWEEP)
            time.sleep(0.02)
        assert wait_for(lambda: lonely.room_id not in rooms)
        assert friends.room_id in rooms  # joined by a friend: its seven days
        assert not thread.server.store.exists(lonely.room_id)
        assert Peer(thread.port).create("duel", [HUMAN, HUMAN])["type"] == "joined"  # its place is free
    finally:
        thread.stop()


def test_loopback_is_exempt_from_the_connection_quota_only_without_a_proxy(tmp_path):
    direct = start_server(tmp_path / "a.sqlite3", connections_per_address=2)
    try:
        peers = [Peer(direct.port) for _ in range(4)]
        assert all(alive(p) for p in peers)
    finally:
        direct.stop()
    proxied = start_server(tmp_path / "b.sqlite3", connections_per_address=2, proxy_headers=True,
                           trusted_proxies=["127.0.0.1"])
    try:
        peers = [Peer(proxied.port) for _ in range(2)]  # the proxy's own: loopback, counted
        assert all(alive(p) for p in peers)
        assert Peer(proxied.port).recv()["code"] == "too_many_connections"
        forwarded = [Peer(proxied.port, headers={"X-Forwarded-For": "203.0.113.7"}) for _ in range(2)]
        assert all(alive(p) for p in forwarded)  # another client behind the proxy, its own quota
        extra = Peer(proxied.port, headers={"X-Forwarded-For": "203.0.113.7"})
        assert extra.recv()["code"] == "too_many_connections"
    finally:
        proxied.stop()


def test_loopback_through_a_proxy_nobody_declared_is_not_exempt(tmp_path, caplog):
    thread = start_server(tmp_path / "rooms.sqlite3", connections_per_address=2)
    try:
        peers = [Peer(thread.port, headers={"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(2)]
        assert all(alive(p) for p in peers)
        extra = Peer(thread.port, headers={"Forwarded": "for=203.0.113.9"})
        assert extra.recv()["code"] == "too_many_connections"  # all of them the proxy's one address
        assert alive(Peer(thread.port))  # a local player without a proxy is still exempt
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len([w for w in warnings if "--proxy-headers" in w]) == 1  # said once
    finally:
        thread.stop()


def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3", proxy_headers=True, trusted_proxies=["10.9.8.7"],
                          rooms_held=1)
    try:
        # 127.0.0.1 is not the trusted proxy: the header is the client's own word, ignored.
        first = Peer(thread.port, headers={"X-Forwarded-For": "198.51.100.1"})
        assert first.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        second = Peer(thread.port, headers={"X-Forwarded-For": "198.51.100.2"})
        assert second.create("duel", [HUMAN, HUMAN])["code"] == "too_many_rooms"
        assert thread.server.rooms[first.room_id].owner == "127.0.0.1"
    finally:
        thread.stop()
    thread = start_server(tmp_path / "other.sqlite3", proxy_headers=True, trusted_proxies=["127.0.0.0/8"],
                          rooms_held=1)
    try:
        first = Peer(thread.port, headers={"X-Forwarded-For": "198.51.100.1"})
        assert first.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        # A client's own header before the proxy's entry counts for nothing: the rightmost
        # address the trusted proxy did not add is the client.
        second = Peer(thread.port, headers={"X-Forwarded-For": "198.51.100.1, 198.51.100.2"})
        assert second.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        again = Peer(thread.port, headers={"X-Forwarded-For": "198.51.100.2"})
        assert again.create("duel", [HUMAN, HUMAN])["code"] == "too_many_rooms"
        owners = {room.owner for room in thread.server.rooms.values()}
        assert owners == {"198.51.100.1", "198.51.100.2"}
    finally:
        thread.stop()


# ---- a client that stops reading --------------------------------------------------------------------
def test_a_client_that_stops_reading_is_closed_once_whatever_it_sends(server):
    rooms = server.server
    spawned = []
    real_spawn = rooms.service.spawn

    async def stalled(client):  # the client reads nothing: what the server writes waits for ever
        await asyncio.Event().wait()

    def spawn(coro):
        spawned.append(coro)
        real_spawn(coro)

    rooms._write = stalled
    rooms.service.spawn = spawn
    rooms.burst = 100_000.0  # the backlog is tested here, not the flood rule (tests/test_net_holes.py)
    peer = Peer(server.port)
    sent = 0
    with pytest.raises(ConnectionClosed):
        for i in range(3000):
            peer.send(type="ping", ref=i)
            sent += 1
        peer.until(lambda m: False, timeout=5)
    assert sent > 500  # it was let go once the backlog was full, not at the first message

    async def tasks():
        return len(asyncio.all_tasks())

    assert len(spawned) == 1  # one close, however many messages came after
    assert asyncio.run_coroutine_threadsafe(tasks(), server._loop).result(5) < 10


# ---- past the rate limit -------------------------------------------------------------------------
def test_past_the_rate_limit_each_message_is_answered_with_its_ref_up_to_a_second_allowance(tmp_path):
    clock = ManualClock()  # no time passes: no allowance comes back
    thread = start_server(tmp_path / "rooms.sqlite3", rate=20.0, burst=40.0, clock=clock)
    try:
        peer = Peer(thread.port)
        for i in range(80):  # one more would close the connection (flooding: tests/test_net_holes.py)
            peer.send(type="ping", ref=i)
        replies = []
        with pytest.raises(TimeoutError):
            while True:
                replies.append(peer.recv(0.5))
        assert [m["ref"] for m in replies] == list(range(80))  # the first 80 answered, in order
        assert [m["type"] for m in replies] == ["pong"] * 40 + ["error"] * 40
        assert {m["code"] for m in replies[40:]} == {"rate_limited"}
        clock.advance(1.0)
        assert alive(peer, "after")  # and the connection goes on
    finally:
        thread.stop()


# ---- versions and sizes ---------------------------------------------------------------------------
@pytest.mark.parametrize("version", [True, 2.0, "2", 3, 1, None, [2], 2 + 2 ** 64])
def test_only_the_whole_number_2_is_version_2(server, version):
    assert PROTOCOL == 2  # (version 1 was the same test with 1: true, 1.0, "1"...)
    peer = Peer(server.port)
    peer.ws.send(json.dumps({"type": "ping", "ref": "v", "v": version}))
    reply = peer.recv()
    assert (reply["type"], reply["code"], reply["v"]) == ("error", "version", PROTOCOL)
    peer.ws.send(json.dumps({"type": "ping", "ref": "v", "v": PROTOCOL}))
    assert peer.recv()["type"] == "pong"


def _ping_of(size: int, char: str) -> str:
    """A ping of exactly ``size`` bytes of UTF-8, padded with ``char``."""
    head = json.dumps({"type": "ping", "v": PROTOCOL, "pad": ""})[:-2]  # up to the padding's opening quote
    room = size - len(head.encode()) - 2
    pad = char * (room // len(char.encode())) + "x" * (room % len(char.encode()))
    text = head + pad + '"}'
    assert len(text.encode()) == size
    return text


def test_the_8_kib_limit_counts_bytes_not_characters(server):
    peer = Peer(server.port)
    for char in ("x", "€", "😀"):
        peer.ws.send(_ping_of(MAX_MESSAGE, char))
        assert peer.recv()["type"] == "pong"
        peer.ws.send(_ping_of(MAX_MESSAGE + 1, char))
        reply = peer.recv()
        assert reply["code"] == "too_large" and f"{MAX_MESSAGE + 1:,} bytes" in reply["message"]
    wide = json.dumps({"type": "ping", "v": PROTOCOL, "pad": "€" * 8000}, ensure_ascii=False)  # 8,036 chars
    peer.ws.send(wide)
    assert peer.recv()["code"] == "too_large"


# ---- the search workers end with the server ------------------------------------------------------
def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found = set()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(proc.name))
    return found


def _is_worker(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _gone(pids: set[int]) -> bool:
    return not any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in pids)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_the_search_workers_end_with_the_server_however_it_ends(tmp_path, how):
    import signal

    server = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0",
                               "--db", str(tmp_path / "rooms.sqlite3"), "--think-scale", "0",
                               "--search-workers", "1", "--think-budget", "0.05"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    workers: set[int] = set()
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split(":")[1].split(",")[0])
        peer = Peer(port, 3)
        peer.create("classic", [HUMAN, HARD, HARD])
        deadline = time.monotonic() + 60
        while not workers and time.monotonic() < deadline:  # play until a Hard computer searched
            peer.drain(0.05)
            if peer.my_turn:
                peer.play_one()
            workers = {p for p in _children(server.pid) if _is_worker(p)}
        assert workers, "no search worker started"
        os.kill(server.pid, getattr(signal, how))
        assert server.wait(20) == (0 if how == "SIGTERM" else -signal.SIGKILL)
        assert wait_for(lambda: _gone(workers), 15)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in workers:  # never leave one behind, even when the test fails
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
