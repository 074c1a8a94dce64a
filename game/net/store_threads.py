"""Where the store's commits run: on worker threads for a store safe across them, else on the loop.

A commit waits for the disk (PostgreSQL with ``synchronous_commit = on``: one WAL flush,
milliseconds, sometimes tens). Made on the server's event loop, one after the other, it held
every other room, broadcast and ping of the instance meanwhile, and an instance committed at
most a few hundred moves a second. Run on a thread pool, the commits of different rooms
overlap (PostgreSQL's group commit shares one flush among them) while the loop goes on; each
room's own changes stay in order under its lock (`room_locks`).

The store says whether it may be called so (`roomstore.RoomStore.worker_threads`): PostgreSQL's
pool is safe across threads, and the pool here has as many threads as the store allows. A
store that says 0 (SQLite: one connection, commits well under a millisecond) is called inline
on the loop exactly as before: nothing awaits, nothing changes for it.

The store itself stays synchronous (psycopg 3 with its pool: docs/architecture.md); what
changes is only where it is called from.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .roomstore import RoomStore, StoreFailure

T = TypeVar("T")

log = logging.getLogger("huit.server")


class StoreThreads:
    """Calls to ``store`` that wait on a commit: on its worker threads, or inline (see the module)."""

    def __init__(self, store: RoomStore) -> None:
        threads = store.worker_threads()
        self.threads = threads if isinstance(threads, int) and threads > 0 else 0
        self._pool = (ThreadPoolExecutor(self.threads, thread_name_prefix="huit-store")
                      if self.threads else None)
        self._pending: set[asyncio.Future[Any]] = set()
        self.closed = False

    @property
    def off_loop(self) -> bool:
        """Whether the calls run on worker threads (the loop goes on meanwhile)."""
        return self._pool is not None

    async def call(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` (a store method), on a worker thread or inline; its result or its error.

        A call once started is never called back: the thread finishes it whatever happens to
        the coroutine awaiting it (`close` waits for it).

        Raises:
            StoreFailure: the server is stopping (nothing was called), or the store's own.
        """
        if self.closed:
            raise StoreFailure("the server is stopping")
        if self._pool is None:
            return work(*args)
        future = asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(work, *args))
        self._pending.add(future)
        future.add_done_callback(self._pending.discard)
        return await asyncio.shield(future)

    async def close(self) -> None:
        """Take no more calls, and wait for those under way to end (before the store closes)."""
        self.closed = True
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=True)
