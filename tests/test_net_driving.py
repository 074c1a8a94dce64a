"""A room's own moves (`driving.Driving`): each step made by the room's own task, never cut in two.

A step (a computer's move, a deal, the clock between two deals) holds the room's lock and may
commit. It runs in the room's own task, with no task of its own per step (a single server on
SQLite pays nothing for the commits PostgreSQL's make off the loop); a re-plan of the room while
its step awaits its commit (PostgreSQL's path: `SlowStore` on worker threads) does not cancel it:
the step ends whole, stored and told, and the new plan runs after it."""

from __future__ import annotations

import asyncio
import time

from game.engine import Status
from game.net.rooms import LogEntry
from tests.net_support import Peer, start_server, wait_for
from tests.pg_support import open_for_tests
from tests.test_net_offloop import HUMAN, MEDIUM, SlowStore, computers_commit_held, slow_server, stored_view


def on_loop(thread, work):
    """Run ``work()`` on the server thread's event loop; its result."""
    async def run():
        return work()

    return asyncio.run_coroutine_threadsafe(run(), thread._loop).result(10)


class WhoCommits(SlowStore):
    """A `SlowStore` that notes, for each append made on the event loop, whether the task making it
    is the room's own (`Driving.tasks`) and how many tasks the loop has then."""

    def __init__(self, inner, **options) -> None:
        super().__init__(inner, **options)
        self.driving = None
        self.by_task: list[tuple[str, int | None, bool]] = []  # (kind, seat, made by the room's own task)

    def append(self, room, entry: LogEntry, now, lines=()) -> None:
        if self.driving is not None:
            try:
                task = asyncio.current_task()
            except RuntimeError:  # a worker thread: no loop here
                task = None
            self.by_task.append((entry.kind, entry.seat, task is not None
                                 and task is self.driving.tasks.get(room.room_id)))
        super().append(room, entry, now, lines)


def test_a_computers_move_on_sqlite_is_committed_by_its_rooms_own_task_and_told_as_stored(tmp_path):
    store = WhoCommits(open_for_tests(tmp_path / "rooms.sqlite3"), threads=0, serial=True)
    thread = start_server(store)
    try:
        store.driving = thread.server.driving
        ana = Peer(thread.port, 21)
        assert ana.create("duel", [HUMAN, MEDIUM])["type"] == "joined"
        ana.until(lambda m: m["type"] == "update")

        def computer_moves() -> list[bool]:
            return [own for kind, seat, own in store.by_task if kind == "action" and seat == 1]

        deadline = time.monotonic() + 20
        while len(computer_moves()) < 3 and ana.view["status"] == "playing" and time.monotonic() < deadline:
            if ana.my_turn:
                assert ana.play_one()["type"] == "update"
            ana.drain(0.05)
        computer = computer_moves()
        assert computer and all(computer)  # each made in the room's task itself: no task per step
        mine = [own for kind, seat, own in store.by_task if kind == "action" and seat == 0]
        assert not any(mine)  # a person's move is made by their connection's task
        assert wait_for(lambda: ana.drain(0.02) or ana.view == stored_view(tmp_path / "rooms.sqlite3",
                                                                           ana.room_id, ana.seat))
    finally:
        thread.stop()


def test_a_replan_while_a_computers_commit_is_in_flight_lets_it_end_whole_then_plans_again(db):
    store, thread = slow_server(db)
    try:
        ana = computers_commit_held(store, thread.port, 23)
        driving, service = thread.server.driving, thread.server.service
        room = service.rooms[ana.room_id]
        for _ in range(3):  # re-planned from outside its step meanwhile (a search woke it, a quota)
            on_loop(thread, lambda: driving.kick(room))
        length = room.log_length
        store.gates[ana.room_id].set()
        # Stored, applied and told once, whole.
        assert wait_for(lambda: room.log_length > length)
        assert wait_for(lambda: ana.drain(0.02) or ana.view == stored_view(db, ana.room_id, ana.seat))
        checker = open_for_tests(db)
        try:
            since = checker.since(ana.room_id, 0)
        finally:
            checker.close()
        assert since is not None and since.entries is not None
        assert [(e.kind, e.seat, e.text) for e in since.entries] == [
            (kind, seat, text) for r, kind, seat, text in store.appended if r == ana.room_id]
        assert len(since.entries) == room.log_length
        # Then the room's new plan goes on with the game: one task, no lock held or waited for.
        store.gated_seat = None
        if ana.view["status"] == "playing" and ana.my_turn:
            before = room.log_length
            ana.play_one()
            assert wait_for(lambda: room.log_length >= before + 2 or room.state != Status.PLAYING)
        assert wait_for(lambda: not service.locks.busy(ana.room_id))
        assert on_loop(thread, lambda: driving.stepping) == set()
    finally:
        for gate in store.gates.values():
            gate.set()
        thread.stop()
