"""The room server's one clock: everything it times reads it, and waits on it.

Turn clocks and computers' delays (through each room's `TurnDriver`), the rate limit of
a connection, how long a request id is remembered, the rooms-per-hour quota, the
timestamps stored with each room and the expiry of idle rooms all take their time from
one `Clock`, injected as ``RoomServer(clock=...)``.

Its time is seconds since the Unix epoch, as the database stores it. `SystemClock`
reads the wall clock once, at start, and then carries it on with the monotonic clock:
the stored timestamps are the wall-clock dates they always were, and a turn or a
rate limit never jumps when the system's clock is set (NTP, daylight saving, an
operator). `ManualClock` moves only when told: tests advance it instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Protocol

SLACK = 1e-6
"""A `ManualClock` sleeper this close to its time is woken (float sums never land exactly)."""


class Clock(Protocol):
    """What the server asks of its clock."""

    def now(self) -> float:
        """Seconds since the Unix epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` of this clock have passed."""
        ...


class SystemClock:
    """The wall clock at start, carried on by the monotonic clock (see the module)."""

    def __init__(self) -> None:
        self._offset = time.time() - time.monotonic()

    def now(self) -> float:
        """Seconds since the Unix epoch, never going back while the server runs."""
        return self._offset + time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """`asyncio.sleep` (the event loop's clock is the monotonic clock too)."""
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that moves only by `advance`, from any thread (tests).

    A server sleeping on it (in its event loop, on another thread) wakes when the clock
    is advanced past its time.
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        """The time it was last advanced to."""
        with self._lock:
            return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock is advanced ``seconds`` past now (at once if they are none)."""
        if seconds <= SLACK:
            await asyncio.sleep(0)  # still let the event loop run, as a real sleep would
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            entry = (self._now + seconds, loop, future)
            self._sleepers.append(entry)
        try:
            await future
        finally:
            with self._lock, contextlib.suppress(ValueError):
                self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``; wake whoever slept until then."""
        with self._lock:
            self._now += seconds
            woken = [s for s in self._sleepers if s[0] <= self._now + SLACK]
            self._sleepers = [s for s in self._sleepers if s[0] > self._now + SLACK]
        for _, loop, future in woken:
            with contextlib.suppress(RuntimeError):  # that event loop is closed: nobody waits
                loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
