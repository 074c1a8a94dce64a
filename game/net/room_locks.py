"""One lock per room, held from the check of a change to its broadcast, in the order asked.

Why: the store's commits may run off the event loop (`store_threads`), so a change of a room
awaits its commit, and other coroutines run meanwhile. A room's guarantees must hold all the
same: its changes are committed and told in the order they were decided, and nothing else
changes the room between the check of a change and its application (another player's
message, its computers and clocks, a vote, a seat, another instance's news being caught up,
expiry). So whatever changes a room holds its lock from the check to the broadcast; those who
want it meanwhile wait their turn, first come first served. Different rooms never wait for
each other: their commits overlap (PostgreSQL then shares one disk flush among them).

Two ways to hold a room's lock:

- `RoomLocks.hold` (``async with``): a coroutine that awaits its commit (a player's action, a
  computer's move, a deal); it waits while another holds the lock. A free lock is taken by a
  look-up (`RoomLocks.take`), with nothing awaited and no future made: on a store whose
  commits stay on the loop (SQLite) the lock is always free then, and costs next to nothing.
- `RoomLocks.claimed` (``with``): a synchronous change (a timer's, the news of another
  instance), which awaits nothing and so is whole anyway: it takes the lock only when free (or
  already its task's), so that an awaited change in flight is never cut in two; a change that
  finds the lock taken is run after it (`roomservice.RoomService.when_free`).

A lock is not reentrant: the entry points take it (handlers, the rooms' own tasks, timers,
news), and what they call checks it is held (`RoomLocks.held`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator
from types import TracebackType
from typing import Final


class Taken(Exception):
    """Another holds the room's lock: a synchronous change must wait its turn (`RoomLocks.claimed`)."""


_SYNC: Final = object()
"""The holder of a lock taken by a synchronous change (nothing else runs until it ends)."""


def running_task() -> asyncio.Task[object] | None:
    """Who asks: the task running now (None outside one: a callback of the loop, or no loop
    running, as for a test calling the service directly)."""
    try:
        return asyncio.current_task()
    except RuntimeError:  # no loop running
        return None


class RoomLocks:
    """Every room's lock (see the module); a lock nobody holds or waits for takes no room."""

    def __init__(self) -> None:
        self._holders: dict[str, object] = {}  # room id -> its holder: a task, or `_SYNC`
        self._waiting: dict[str, deque[tuple[object, asyncio.Future[None]]]] = {}

    def held(self, room_id: str) -> bool:
        """Whether the one asking holds ``room_id``'s lock (its task, or a synchronous change
        under way: nothing else runs meanwhile)."""
        holder = self._holders.get(room_id)
        return holder is not None and (holder is _SYNC or holder is running_task())

    def busy(self, room_id: str) -> bool:
        """Whether someone else holds ``room_id``'s lock (or waits for it)."""
        return not self.held(room_id) and (room_id in self._holders or bool(self._waiting.get(room_id)))

    def waiting(self, room_id: str) -> int:
        """How many wait for ``room_id``'s lock now (changes queued behind the one in flight)."""
        return sum(not turn.done() for _, turn in self._waiting.get(room_id, ()))

    def hold(self, room_id: str) -> Hold:
        """Hold ``room_id``'s lock for the ``async with`` block, after those who asked first (a
        lock nobody holds or waits for is taken at once: nothing is awaited, no future made).

        Raises:
            RuntimeError: the task holds it already (the lock is not reentrant).
        """
        return Hold(self, room_id)

    def take(self, room_id: str) -> bool:
        """Take ``room_id``'s lock for the task running now if nobody holds it or waits for it
        (nothing awaited, no future made: the common case); whether it did (else `acquire`).
        What `hold` does first: use `hold`, which gives it back however its block ends."""
        if room_id in self._holders or self._waiting.get(room_id):
            return False
        self._holders[room_id] = asyncio.current_task()
        return True

    async def acquire(self, room_id: str) -> None:
        """Take ``room_id``'s lock for the task running now, once those who asked first are done
        (at once if nobody holds it or waits for it). What `hold` does when `take` could not:
        use `hold`, which gives it back however its block ends.

        Raises:
            RuntimeError: the task holds it already.
        """
        if self.take(room_id):
            return
        me = asyncio.current_task()
        if self._holders.get(room_id) is me:
            raise RuntimeError(f"room {room_id}: its lock is held already by this task")
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._waiting.setdefault(room_id, deque())
        queue.append((me, turn))
        try:
            await turn  # `release` hands the lock over: it is ours when this returns
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(room_id)  # handed over as we were cancelled: pass it on
            else:
                with contextlib.suppress(ValueError):
                    queue.remove((me, turn))
            raise

    @contextlib.contextmanager
    def claimed(self, room_id: str) -> Iterator[None]:
        """Hold ``room_id``'s lock for a synchronous block (nothing in it awaits); already held by
        the one asking: the block runs within their hold.

        Raises:
            Taken: someone else holds it or waits for it (nothing was run).
        """
        if self.held(room_id):
            yield
            return
        if self.busy(room_id):
            raise Taken(room_id)
        self._holders[room_id] = _SYNC
        try:
            yield
        finally:
            self.release(room_id)

    def release(self, room_id: str) -> None:
        """Hand ``room_id``'s lock to the first still waiting, or free it (what `hold` and
        `claimed` do on leaving)."""
        queue = self._waiting.get(room_id)
        while queue:
            task, turn = queue.popleft()
            if not turn.done():
                self._holders[room_id] = task
                turn.set_result(None)
                return
        self._waiting.pop(room_id, None)
        self._holders.pop(room_id, None)


class Hold:
    """``async with`` a room's lock (`RoomLocks.hold`): taken on entering (after those who asked
    first), handed on or freed on leaving, however the block ends."""

    __slots__ = ("_locks", "_room_id")

    def __init__(self, locks: RoomLocks, room_id: str) -> None:
        self._locks = locks
        self._room_id = room_id

    async def __aenter__(self) -> None:
        # (A class rather than a generator-based context manager: this runs for every change of
        # every room, and a free lock must cost next to nothing: a look-up, nothing awaited.)
        if not self._locks.take(self._room_id):
            await self._locks.acquire(self._room_id)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        self._locks.release(self._room_id)
