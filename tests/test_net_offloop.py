"""A room's commits off the event loop (issue 33): other rooms go on meanwhile, each room keeps its order.

The server runs the store's commits on worker threads when the store says it may
(`RoomStore.worker_threads`), under one lock per room (`room_locks`). `SlowStore` wraps a real
store (SQLite's, serialized, or PostgreSQL's) and says it may: a room's commits can be held on a
`threading.Event`, slowed or refused, on the worker thread, while real clients play."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import pytest

from game.net.clock import ManualClock
from game.net.pgcluster import PgCluster
from game.net.room_locks import Taken
from game.net.roomstore import StoreFailure
from game.net.stores import is_postgres
from game.net.wire import view_to_json
from tests.net_support import Peer, play_until, start_server, wait_for
from tests.pg_support import open_for_tests

HUMAN = {"kind": "human"}
MEDIUM = {"kind": "computer", "level": "medium"}


class SlowStore:
    """A `RoomStore` handing every call to ``inner``, which the server may call from ``threads``
    worker threads (``serial``: one call at a time into ``inner``, for SQLite's one connection).
    ``gates[room]``: that room's appends wait for the event (``arrived[room]`` says one does);
    ``delay``: seconds every append takes first; ``fail``: rooms whose next append is refused.
    ``appended``: the appends stored, in the order they were (room, kind, seat, text)."""

    def __init__(self, inner: Any, threads: int = 4, serial: bool = False) -> None:
        self.inner = inner
        self.threads = threads
        self.serial: Any = threading.Lock() if serial else contextlib.nullcontext()
        self.gates: dict[str, threading.Event] = {}
        self.gated_seat: int | None = None  # only that seat's appends wait at a gate (None: all)
        self.arrived: dict[str, threading.Event] = {}
        self.delay = 0.0
        self.fail: set[str] = set()
        self.appended: list[tuple[str, str, int | None, str]] = []
        self.on_loop: list[bool] = []  # per append: whether it ran on the event loop's thread
        self.events: list[str] = []  # "stored" per append stored, "closed" when the server closed it

    def worker_threads(self) -> int:
        return self.threads

    def append(self, room, entry, now, lines=()) -> None:
        self.on_loop.append(threading.current_thread().name == "huit-server")
        gate = self.gates.get(room.room_id)
        if gate is not None and self.gated_seat in (None, entry.seat):
            self.arrived.setdefault(room.room_id, threading.Event()).set()
            gate.wait(20)
        if self.delay:
            time.sleep(self.delay)
        if room.room_id in self.fail:
            self.fail.discard(room.room_id)
            raise StoreFailure("refused by the test")
        with self.serial:
            self.inner.append(room, entry, now, lines)
            self.appended.append((room.room_id, entry.kind, entry.seat, entry.text))
            self.events.append("stored")

    def close(self) -> None:
        self.events.append("closed")
        self.inner.close()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            with self.serial:
                return method(*args, **kwargs)

        return call


def slow_server(db, **options) -> tuple[SlowStore, Any]:
    """A server on a `SlowStore` over ``db`` (a PostgreSQL URL: one of its cluster)."""
    store = SlowStore(open_for_tests(db), serial=not is_postgres(str(db)))
    if is_postgres(str(db)):
        options.setdefault("cluster", PgCluster(str(db)))
    return store, start_server(store, **options)


def computers_commit_held(store: SlowStore, port: int, seed: int) -> Peer:
    """Ana's duel against a Medium on ``store``'s server, once the computer's move waits at the
    store's gate (its commit in flight, held until ``store.gates[room].set()``); Ana's moves pass."""
    ana = Peer(port, seed)
    store.gated_seat = 1  # the computer's moves wait at the gate (Ana's do not)
    assert ana.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
    store.gates[ana.room_id] = threading.Event()
    ana.until(lambda m: m["type"] == "update")
    ana.drain(0.1)
    if ana.my_turn:
        ana.play_one()
    assert store.arrived.setdefault(ana.room_id, threading.Event()).wait(5)  # the computer's, held
    return ana


def duel(port: int, seed: int) -> tuple[Peer, Peer]:
    """Two people in a duel under way, each told the deal."""
    ana, ben = Peer(port, seed), Peer(port, seed + 1)
    assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
    assert ben.join(ana.room_id)["type"] == "joined"
    for peer in (ana, ben):
        peer.until(lambda m: m["type"] == "update")
        peer.drain(0.05)
    return ana, ben


def stored_view(db, room_id: str, seat: int) -> dict:
    """The view of ``seat`` as the room's stored log replays it."""
    store = open_for_tests(db)
    try:
        room = store.room(room_id)
    finally:
        store.close()
    assert room is not None and room.match is not None
    return view_to_json(room.match.view(seat))


def answers(peer: Peer, ref: str) -> list[str]:
    """The frames ``peer`` received that answer ``ref``."""
    return [f for f in peer.frames if f'"ref":"{ref}"' in f.replace(" ", "")]


def test_a_slow_commit_of_one_room_holds_neither_the_loop_nor_the_other_rooms(db):
    store, thread = slow_server(db)
    try:
        a1, a2 = duel(thread.port, 1)
        b1, b2 = duel(thread.port, 3)
        room_a = a1.room_id
        store.gates[room_a] = threading.Event()
        actor, other = (a1, a2) if a1.my_turn else (a2, a1)
        before = actor.view
        actor.send(type="action", action=actor.view["legal"][0], ref="held")
        assert store.arrived.setdefault(room_a, threading.Event()).wait(5)
        # Room A's commit waits on its thread: room B plays on, and A's other person is answered.
        play_until([b1, b2], lambda: b1.count + b2.count >= 4, seconds=10)
        other.send(type="ping", ref="ping")
        assert other.until(lambda m: m.get("ref") == "ping", timeout=5)["type"] == "pong"
        actor.drain(0.05)
        assert answers(actor, "held") == [] and actor.view == before  # not told before it is stored
        assert not store.on_loop[-1]  # the held commit runs on a worker thread
        store.gates[room_a].set()
        assert actor.until(lambda m: m.get("ref") == "held")["type"] == "update"
        other.until(lambda m: m["type"] == "update")
        for peer in (a1, a2, b1, b2):
            peer.drain(0.1)
            assert peer.view == stored_view(db, peer.room_id, peer.seat)
    finally:
        for gate in store.gates.values():
            gate.set()
        thread.stop()


def test_one_rooms_changes_sent_back_to_back_are_stored_and_told_in_order_none_lost_none_twice(db):
    store, thread = slow_server(db)
    store.delay = 0.01  # slow commits: the messages queue behind each other on the room's lock
    try:
        ana = Peer(thread.port, 5)
        assert ana.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
        ana.until(lambda m: m["type"] == "update")
        # Sent without waiting: the autopilot on and off, while the computer (and the autopilot, for
        # Ana) move in the same room through the same lock.
        refs = []
        for i in range(6):
            for on in (True, False):
                refs.append(f"{'on' if on else 'off'}{i}")
                ana.send(type="autopilot", on=on, ref=refs[-1])
        ana.until(lambda m: m.get("ref") == refs[-1])
        assert wait_for(lambda: ana.drain(0.2) or ana.view == stored_view(db, ana.room_id, ana.seat), 10)
        told = [r for f in ana.frames for r in refs if f'"ref":"{r}"' in f.replace(" ", "")]
        assert told == refs  # each answered once, in the order sent
        mine = [(kind, text) for room, kind, _, text in store.appended if room == ana.room_id]
        assert [text for kind, text in mine if kind == "autopilot"] == ["on", "off"] * 6
        checker = open_for_tests(db)
        try:
            since = checker.since(ana.room_id, 0)
        finally:
            checker.close()
        assert since is not None and since.entries is not None
        assert [(e.kind, e.text) for e in since.entries] == mine  # the log is what was committed, once each
    finally:
        thread.stop()


def test_a_commit_refused_off_the_loop_changes_nothing_and_the_room_plays_on(db):
    store, thread = slow_server(db)
    try:
        ana, ben = duel(thread.port, 7)
        actor, other = (ana, ben) if ana.my_turn else (ben, ana)
        before = actor.view
        heard = len(other.frames)
        store.fail.add(ana.room_id)
        actor.send(type="action", action=actor.view["legal"][0], ref="refused")
        answer = actor.until(lambda m: m.get("ref") == "refused")
        assert answer["type"] == "error" and answer["code"] == "server_error"
        actor.drain(0.1), other.drain(0.1)
        assert actor.view == before == stored_view(db, ana.room_id, actor.seat)
        assert not [f for f in other.frames[heard:] if '"type":"update"' in f.replace(" ", "")]
        assert actor.play_one()["type"] == "update"  # the room is still usable
        other.until(lambda m: m["type"] == "update")
        assert actor.view == stored_view(db, ana.room_id, actor.seat)
    finally:
        thread.stop()


def test_news_of_a_room_whose_change_is_in_flight_is_taken_after_it_never_in_its_middle(pg_url):
    first_store, first = slow_server(pg_url)
    second_store, second = slow_server(pg_url)
    try:
        ana, ben = Peer(first.port, 9), Peer(second.port, 10)
        assert ana.create("duel", [HUMAN, HUMAN])["type"] == "joined"
        assert ben.join(ana.room_id)["type"] == "joined"
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update")
        assert wait_for(lambda: ana.drain(0.02) or ana.view == stored_view(pg_url, ana.room_id, ana.seat))
        room_id = ana.room_id
        copy = first.server.service.rooms[room_id]
        locks = first.server.service.locks
        first_store.gates[room_id] = threading.Event()
        ana.send(type="autopilot", on=True, ref="mine")  # held in flight on the first instance
        assert first_store.arrived.setdefault(room_id, threading.Event()).wait(5)
        length, rev = copy.log_length, copy.rev
        # The second instance writes the room meanwhile: its news reaches the first, which waits.
        for on in (True, False):
            ben.send(type="autopilot", on=on, ref=f"theirs-{on}")
            assert ben.until(lambda m, on=on: m.get("ref") == f"theirs-{on}")["type"] == "update"
        assert wait_for(lambda: locks.waiting(room_id) >= 1)  # the news waits behind the change
        assert (copy.log_length, copy.rev) == (length, rev)  # nothing applied in its middle
        first_store.gates[room_id].set()
        # The change in flight finds the room written (`Behind`): caught up, it is decided again.
        assert ana.until(lambda m: m.get("ref") == "mine")["type"] == "update"
        assert wait_for(lambda: locks.waiting(room_id) == 0 and not locks.busy(room_id))
        for peer in (ana, ben):
            assert wait_for(lambda p=peer: p.drain(0.02) or p.view == stored_view(pg_url, room_id, p.seat))
        checker = open_for_tests(pg_url)
        try:
            since = checker.since(room_id, 0)
        finally:
            checker.close()
        assert since is not None and since.entries is not None
        assert sorted((e.seat, e.text) for e in since.entries if e.kind == "autopilot") == sorted(
            [(ana.seat, "on"), (ben.seat, "on"), (ben.seat, "off")])  # each once
    finally:
        first_store.gates.get(ana.room_id, threading.Event()).set()
        first.stop(), second.stop()


@pytest.mark.parametrize("threads", [0, 3])
def test_the_server_commits_on_the_loop_only_for_a_store_that_says_so(tmp_path, threads):
    store = SlowStore(open_for_tests(tmp_path / "rooms.sqlite3"), threads=threads, serial=True)
    thread = start_server(store)
    try:
        duel(thread.port, 11)
    finally:
        thread.stop()
    assert set(store.on_loop) == {threads == 0}


def test_a_client_flooding_one_rooms_changes_does_not_delay_the_other_rooms(db):
    store, thread = slow_server(db)
    try:
        a1, a2 = duel(thread.port, 13)
        b1, b2 = duel(thread.port, 15)
        store.delay = 0.02  # every commit waits on the disk a while (on its thread)
        # A's first player sends a burst of changes that each commit (the autopilot on, off...),
        # without waiting: they queue behind each other on room A's lock, and only there.
        for i in range(100):
            a1.send(type="autopilot", on=i % 2 == 0, ref=f"flood{i}")
        play_until([b1, b2], lambda: b1.count + b2.count >= 4, seconds=10)
        stored = [kind for room, kind, _, _ in store.appended if room == a1.room_id and kind == "autopilot"]
        assert len(stored) < 100  # room B played its moves while room A's burst was still committing
        a1.until(lambda m: m.get("ref") == "flood99", timeout=30)
        for peer in (a1, a2, b1, b2):
            assert wait_for(lambda p=peer: p.drain(0.02) or p.view == stored_view(db, p.room_id, p.seat))
    finally:
        thread.stop()


def test_a_server_stopping_with_a_computers_commit_in_flight_stores_it_whole_before_closing_the_store(db):
    store, thread = slow_server(db)
    ana = computers_commit_held(store, thread.port, 17)
    stopper = threading.Thread(target=thread.stop)  # as SIGTERM does: `RoomServer.stop`
    stopper.start()
    store.delay = 0.5  # the commit goes on a while after its release: the stop is under way meanwhile
    store.gates[ana.room_id].set()
    stopper.join(20)
    assert not thread.is_alive()
    assert store.events[-2:] == ["stored", "closed"]  # the commit in flight ended before the store closed
    with contextlib.suppress(Exception):
        ana.drain(0.2)
    checker = open_for_tests(db)
    try:
        since = checker.since(ana.room_id, 0)
    finally:
        checker.close()
    assert since is not None and since.entries is not None
    assert [e.seat for e in since.entries if e.kind == "action"][-1] == 1  # the computer's, once
    assert [(e.kind, e.seat, e.text) for e in since.entries] == [
        (kind, seat, text) for room, kind, seat, text in store.appended if room == ana.room_id]


# ---- what a handler checked before its commit holds after it (review of the off-loop commits) ----------
class GatedStore(SlowStore):
    """A `SlowStore` whose named calls (``held``: ``add``, ``save_seats``, ``delete``...) wait at
    ``gate`` on their worker thread while it is closed; ``entered`` says one does (``calls``: the
    room ids they were for, in order; quick match's rooms pass). ``refuse``: those calls are refused
    instead."""

    def __init__(self, inner: Any, held: set[str], **options: Any) -> None:
        super().__init__(inner, **options)
        self.held = held
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()
        self.calls: list[str] = []
        self.refuse = False

    def __getattr__(self, name: str) -> Any:
        method = super().__getattr__(name)
        if name not in self.held:
            return method

        def gated(*args: Any, **kwargs: Any) -> Any:
            first = args[0]
            if getattr(first, "kind", None) == "quick":
                return method(*args, **kwargs)  # quick match's rooms are made on the loop: never held
            self.calls.append(first if isinstance(first, str) else first.room_id)
            self.entered.set()
            self.gate.wait(20)
            if self.refuse:
                raise StoreFailure("refused by the test")
            return method(*args, **kwargs)

        return gated


def gated_server(tmp_path, held: set[str], **options) -> tuple[GatedStore, Any]:
    """A server on SQLite whose store says it may be called from worker threads (PostgreSQL's path)."""
    store = GatedStore(open_for_tests(tmp_path / "rooms.sqlite3"), held, threads=4, serial=True)
    return store, start_server(store, **options)


def kinds(peer: Peer, kind: str) -> list[dict]:
    """The frames of ``kind`` ``peer`` received."""
    return [m for m in map(json.loads, peer.frames) if m["type"] == kind]


def test_a_queued_player_who_creates_a_room_while_it_is_stored_is_seated_in_that_room_only(tmp_path):
    store, thread = gated_server(tmp_path, {"add"})
    try:
        ana, ben = Peer(thread.port, 21), Peer(thread.port, 22)
        ana.hello("Ana"), ben.hello("Ben")
        ana.send(type="queue", preset="duel", players=2)
        ana.until(lambda m: m["type"] == "queued")
        store.gate.clear()
        ana.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], name="")
        assert store.entered.wait(5)  # her room is being stored, on its thread
        ben.send(type="queue", preset="duel", players=2)  # a table would form with her ticket
        ben.until(lambda m: m["type"] in ("queued", "joined"))
        store.gate.set()
        assert ana.until(lambda m: m["type"] in ("joined", "error"))["type"] == "joined"
        ana.drain(0.3), ben.drain(0.1)
        assert len(kinds(ana, "joined")) == 1 and kinds(ben, "joined") == []
        service = thread.server.service
        seated = [(room, seat) for room, seats in service.seated.items() for seat in seats]
        assert seated == [(ana.room_id, 0)]  # seated once, in her own room: no ghost seat anywhere
        assert list(thread.server.rooms) == [ana.room_id]
    finally:
        store.gate.set()
        thread.stop()


def test_creates_sent_together_while_the_first_is_stored_are_held_to_the_room_limit(tmp_path):
    store, thread = gated_server(tmp_path, {"add"}, max_rooms=2)
    try:
        peers = [Peer(thread.port, 30 + i) for i in range(6)]
        store.gate.clear()
        for peer in peers:
            peer.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], name="")
        assert store.entered.wait(5)
        time.sleep(0.2)  # every create is in (the gate holds the first ones' commits meanwhile)
        store.gate.set()
        told = sorted(p.until(lambda m: m["type"] in ("joined", "error")).get("code", "joined")
                      for p in peers)
        assert told == ["joined"] * 2 + ["server_full"] * 4
        assert len(thread.server.rooms) == 2 and not thread.server.service.creating
    finally:
        store.gate.set()
        thread.stop()


def test_a_create_the_store_refuses_counts_for_no_limit(tmp_path):
    store, thread = gated_server(tmp_path, {"add"}, max_rooms=1)
    try:
        ana = Peer(thread.port, 40)
        store.refuse = True
        assert ana.create("duel", [HUMAN, MEDIUM]).get("code") == "server_error"
        service = thread.server.service
        assert not service.creating and service.quotas.holding("127.0.0.1") == (0, 0)
        assert service.quotas.created.get("127.0.0.1", []) == []
        store.refuse = False
        assert ana.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
    finally:
        thread.stop()


def test_a_join_retried_with_its_request_id_while_the_first_is_stored_gets_the_same_seat(tmp_path):
    store, thread = gated_server(tmp_path, {"save_seats"})
    try:
        ana = Peer(thread.port, 50)
        assert ana.create("classic", [HUMAN, HUMAN, HUMAN])["type"] == "joined"
        first, retry = Peer(thread.port, 51), Peer(thread.port, 52)
        store.gate.clear()
        first.send(type="join", room=ana.room_id, name="Ben", request="req0123456789abcdef")
        assert store.entered.wait(5)  # the claim is being stored
        retry.send(type="join", room=ana.room_id, name="Ben", request="req0123456789abcdef")
        time.sleep(0.2)  # the retry is in before the first's answer
        store.gate.set()
        a = first.until(lambda m: m["type"] in ("joined", "error"))
        b = retry.until(lambda m: m["type"] in ("joined", "error"))
        assert a["type"] == b["type"] == "joined" and a["seat"] == b["seat"] == 1 and a["key"] == b["key"]
        room = thread.server.rooms[ana.room_id]
        assert [i for i, s in enumerate(room.seats) if s.key_hash is not None] == [0, 1]
    finally:
        store.gate.set()
        thread.stop()


def test_a_create_retried_with_its_request_id_while_the_first_is_stored_gets_the_same_room(tmp_path):
    store, thread = gated_server(tmp_path, {"add"})
    try:
        first, retry = Peer(thread.port, 60), Peer(thread.port, 61)
        store.gate.clear()
        for peer in (first, retry):  # the same sender (its address): a game that reconnected
            peer.send(type="create", preset="duel", options={}, seats=[HUMAN, HUMAN], name="",
                      request="req0123456789abcdef")
            if peer is first:
                assert store.entered.wait(5)
        time.sleep(0.2)
        store.gate.set()
        a = first.until(lambda m: m["type"] in ("joined", "error"))
        b = retry.until(lambda m: m["type"] in ("joined", "error"))
        assert a["type"] == b["type"] == "joined" and (a["room"], a["seat"]) == (b["room"], b["seat"])
        assert list(thread.server.rooms) == [a["room"]] and len(store.calls) == 1
    finally:
        store.gate.set()
        thread.stop()


def test_an_expiry_sweep_keeps_a_room_joined_while_it_deleted_another(tmp_path):
    clock = ManualClock()
    store, thread = gated_server(tmp_path, {"delete", "delete_expired"}, clock=clock,
                                 lonely_expiry=3 * 3600)
    try:
        one, two = Peer(thread.port, 70), Peer(thread.port, 71)
        # Rooms of three: the friend's join deals nothing (a deal's commit, holding the room's lock
        # as the sweep comes to it, would make the sweep pass it by rather than judge it again).
        one.create("classic", [HUMAN] * 3), two.create("classic", [HUMAN] * 3)
        rooms = {one.room_id, two.room_id}
        one.close(), two.close()
        store.gate.clear()
        clock.advance(3 * 3600 + 60)  # both lonely rooms expire: the sweep deletes the first, held
        assert store.entered.wait(5)
        (first,) = store.calls
        (other,) = rooms - {first}
        friend = Peer(thread.port, 72)
        assert friend.join(other)["type"] == "joined"  # joined meanwhile: the room is not idle any more
        store.gate.set()
        assert wait_for(lambda: first not in thread.server.rooms)
        assert wait_for(lambda: len(store.calls) == 2)  # the sweep came to the other room: judged again
        friend.drain(0.2)
        assert other in thread.server.rooms and thread.server.store.exists(other)
        assert thread.server.service.seated[other]
    finally:
        store.gate.set()
        thread.stop()


def on_loop(thread: Any, scenario: Any) -> Any:
    """Run the coroutine function ``scenario`` on the server's event loop; its result."""
    return asyncio.run_coroutine_threadsafe(scenario(), thread.server.driving.loop).result(10)


def test_a_change_run_when_its_room_is_free_runs_once_when_it_meets_another_rooms_lock_taken(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    service = thread.server.service
    runs: list[str] = []

    def change() -> None:
        runs.append("run")
        with service.locks.claimed("other-room"):  # held by someone else: `Taken`, from inside the change
            runs.append("nested")

    async def scenario() -> str:
        holding, done = asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with service.locks.hold("other-room"):
                holding.set()
                await done.wait()

        task = asyncio.ensure_future(holder())
        await holding.wait()
        try:
            service.when_free("some-room", change)
            outcome = "ran"
        except Taken:
            outcome = "taken"
        await asyncio.sleep(0.1)  # a change spawned again would run now
        done.set()
        await task
        return outcome

    try:
        assert on_loop(thread, scenario) == "taken"  # the change's own failure, told to its caller
        assert runs == ["run"]  # never taken for the room's lock being busy and run a second time
    finally:
        thread.stop()


def test_a_stopped_server_plans_no_computer_move_for_a_room_its_closing_connections_leave(tmp_path):
    thread = start_server(tmp_path / "rooms.sqlite3")
    try:
        ana = Peer(thread.port, 80)
        assert ana.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
        driving, room = thread.server.driving, thread.server.rooms[ana.room_id]

        async def scenario() -> bool:
            driving.stop()  # as `RoomServer.stop` does first; closing connections then kick their rooms
            driving.kick(room)
            return room.room_id in driving.tasks

        assert not on_loop(thread, scenario)
    finally:
        thread.stop()
