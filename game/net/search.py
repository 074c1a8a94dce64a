"""The server's search pool: where every room's Hard computers choose, within bounds.

A Hard computer searches for its whole think budget, and a server runs the computers
of every room: left unbounded, a few rooms full of Hard computers take every core and
every room's round trip with them (Python runs one thread of Python at a time, so a
search on a thread of the server's process also takes turns with its event loop).
So the searches of a server go through one `SearchPool`, the executor the rooms' turn
drivers submit to (`game.play.TurnDriver.executor`):

- **worker processes** (``processes=True``, the default; spawned, not forked, and only
  once a search is asked for), so a search never holds the event loop's interpreter
  lock; ``workers`` of them: by default one per core but one, at most `MAX_WORKERS`.
  They run at a lower priority (`WORKER_NICENESS`), so that on a busy machine the
  system gives the event loop, which answers every room, its turn before a search,
  and end by themselves when the server process is gone (killed without stopping);
- **a bounded queue**: at most ``queue`` searches wait for a worker. A decision asked
  for when the pool is full is made at once by Medium's rules (what Hard itself falls
  back to when its budget allows too few playouts), on the event loop, in microseconds;
- **a think budget per server** (``budget`` seconds, at most the player's own), and a
  busy server's Hard thinks less: once every worker is taken, a search gets
  ``budget × workers / (searches under way + 1)``, never under `MIN_BUDGET`.

A worker that dies (killed, out of memory) costs nothing but that search: the decision
is made by Medium's rules and the next search starts a fresh pool. After `MAX_BROKEN`
pools broke in a row (worker processes cannot start here), the pool stops trying:
every decision is made by the rules, and the log says so once. The counts
(`searched`, `decided_at_once`, `peak`) are for tests and benchmarks.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from game.ai import Medium

from .defaults import BUDGET as BUDGET  # seconds: Hard's own think budget
from .defaults import MAX_WORKERS as MAX_WORKERS
from .defaults import MIN_BUDGET as MIN_BUDGET
from .defaults import default_workers as default_workers  # one search worker per core but one

MAX_BROKEN: Final = 3  # pools broken in a row before the pool stops starting workers
WORKER_NICENESS: Final = 10  # how much lower a search worker's priority is than the server's
WATCH_INTERVAL: Final = 1.0  # seconds between a worker's looks at whether its server is still there

log = logging.getLogger("huit.server.search")


class SearchPool(Executor):
    """A bounded executor for searching computer players (see the module).

    ``workers``: searches at once (default `default_workers`); ``queue``: searches that may
    wait for a worker (default twice the workers); ``budget``: the longest a search may
    think, in seconds; ``processes``: worker processes (default) or threads.
    """

    def __init__(self, workers: int | None = None, queue: int | None = None, budget: float = BUDGET,
                 processes: bool = True) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError(f"a search pool needs at least one worker, not {self.workers}")
        self.queue = queue if queue is not None else 2 * self.workers
        if self.queue < 0:
            raise ValueError(f"a search queue holds 0 or more searches, not {self.queue}")
        if not budget > 0:
            raise ValueError(f"a think budget is more than 0 seconds, not {budget}")
        self.budget = budget
        self.processes = processes
        self.searched = 0  # searches handed to a worker
        self.decided_at_once = 0  # decisions made by the rules because the pool was full (or broke)
        self.peak = 0  # the most searches under way or waiting at once
        self._pending = 0
        self._lock = threading.Lock()
        self._pool: Executor | None = None
        self._closed = False
        self.broken = 0  # pools that broke in a row (a search that ends well sets it back to 0)

    @property
    def pending(self) -> int:
        """Searches under way or waiting now."""
        with self._lock:
            return self._pending

    def budget_for(self, busy: int) -> float:
        """The think budget of a search asked for while ``busy`` others are under way or waiting."""
        if busy < self.workers:
            return self.budget
        return max(MIN_BUDGET, self.budget * self.workers / (busy + 1))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Search with ``fn`` (a searching player's bound ``choose``) on a worker, or decide at
        once by Medium's rules when the pool is full."""
        player: Any = getattr(fn, "__self__", None)
        with self._lock:
            busy = self._pending
            admitted = not self._closed and self.broken < MAX_BROKEN and busy < self.workers + self.queue
            if admitted:
                self._pending += 1
                self.peak = max(self.peak, self._pending)
                self.searched += 1
        if not admitted:
            return self._at_once(player, fn, args, kwargs)
        budget = getattr(player, "budget", None)
        if isinstance(budget, int | float):  # the turn driver hands over its own copy: ours to change
            player.budget = min(float(budget), self.budget_for(busy))
        outer: Future[Any] = Future()
        try:
            inner = self._executor().submit(fn, *args, **kwargs)
        except (BrokenExecutor, RuntimeError):  # broke since, or shut down: decide by the rules
            self._finished()
            self._broke()
            return self._at_once(player, fn, args, kwargs)
        inner.add_done_callback(lambda done: self._settle(done, outer, player, fn, args, kwargs))
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the workers (a search under way finishes first)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    # ---- inside ------------------------------------------------------------------------------
    def _executor(self) -> Executor:
        pool = self._pool
        if pool is None:
            if self.processes:
                # Spawned, not forked: the server may run inside the game, with a window and threads.
                pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                           initializer=_worker_start, initargs=(os.getpid(),))
            else:
                pool = ThreadPoolExecutor(self.workers, thread_name_prefix="huit-search")
            self._pool = pool
        return pool

    def _finished(self) -> None:
        with self._lock:
            self._pending -= 1

    def _settle(self, done: Future[Any], outer: Future[Any], player: Any, fn: Callable[..., Any],
                args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """A search ended (on the pool's thread): pass its answer on, or decide by the rules if
        its worker broke."""
        self._finished()
        if done.cancelled():
            outer.cancel()
            return
        failure = done.exception()
        if isinstance(failure, BrokenExecutor):
            self._broke()  # the next search starts a fresh pool
            quick = self._at_once(player, fn, args, kwargs)
            failure = quick.exception()
            if failure is None:
                outer.set_result(quick.result())
                return
        if failure is not None:
            outer.set_exception(failure)
        else:
            self.broken = 0
            outer.set_result(done.result())

    def _broke(self) -> None:
        """The pool broke: the next search starts a fresh one, unless too many broke in a row."""
        self._pool = None
        self.broken += 1
        if self.broken == MAX_BROKEN:
            log.warning("search workers failed %d times in a row; Hard computers now play by Medium's "
                        "rules on this server", MAX_BROKEN)

    def _at_once(self, player: Any, fn: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> Future[Any]:
        """The decision made now by Medium's rules (a searching player is a Medium underneath)."""
        with self._lock:
            self.decided_at_once += 1
        future: Future[Any] = Future()
        try:
            if isinstance(player, Medium):
                future.set_result(Medium.choose(player, *args, **kwargs))
            else:  # not a player we know how to hurry: it chooses as it would have
                future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # reported through the future, as a search's failure would be
            future.set_exception(exc)
        return future


def _worker_start(server: int) -> None:
    """A search worker's first step: yield the CPU to the server's event loop (where the
    system allows it), and end with the server, process ``server`` (`_outlive_no_server`;
    given by the server, for it may already be gone when this runs)."""
    with contextlib.suppress(AttributeError, OSError):  # no os.nice on Windows
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_outlive_no_server, args=(server,), name="huit-search-watch",
                     daemon=True).start()


def _outlive_no_server(server: int) -> None:
    """End this worker once the server that started it is gone (killed, say, with no chance
    to stop its pool): it is then adopted by another process, and nobody needs its searches."""
    while os.getppid() == server:
        time.sleep(WATCH_INTERVAL)
    os._exit(0)
