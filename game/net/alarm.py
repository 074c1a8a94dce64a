"""An alarm on the server's clock: sleep until the next thing is due, then ring.

Quick match (a queue's wait for computers running out) and the ranking (a person away
from a ranked game for too long) each keep one: ``due()`` says when the next thing is
due (the clock's time, or None), ``ring()`` does everything due by now. `replan` is
called after every change of what is due; it starts the alarm afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from .clock import SLACK, Clock

log = logging.getLogger("huit.server")


class Alarm:
    """One task sleeping on ``clock`` until ``due()``, then calling ``ring()``."""

    def __init__(self, clock: Clock, due: Callable[[], float | None], ring: Callable[[], None]) -> None:
        self.clock = clock
        self.due = due
        self.ring = ring
        self._task: asyncio.Task[None] | None = None

    def replan(self) -> None:
        """What is due changed: sleep until the new time (nothing when nothing is due)."""
        self.cancel()
        if self.due() is not None:
            with contextlib.suppress(RuntimeError):  # no event loop: the server is not running
                self._task = asyncio.get_running_loop().create_task(self._wait())

    def cancel(self) -> None:
        """Stop sleeping (the server stops)."""
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _wait(self) -> None:
        try:
            while True:
                when = self.due()
                if when is None:
                    return
                left = when - self.clock.now()
                if left > SLACK:
                    await self.clock.sleep(left)
                    continue
                self.ring()
                if self._task is not asyncio.current_task():
                    return  # ringing changed what is due, and another task now sleeps for it
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not stop the server; the next change plans again
            log.exception("an alarm failed")
