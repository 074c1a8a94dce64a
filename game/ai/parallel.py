"""Search helpers: processes that play out guesses for Hard on the machine's other cores.

Python runs one thread of Python at a time, so a search on a thread uses one core. A
`Helpers` pool keeps a few processes (started once, on first use) that each deal their
own guesses of the same decision and play every candidate still in the running out on
them, exactly as the searching process does (`playout.outcomes`), and send back one row
of results per guess. The searcher merges the rows into its own: each row holds every
candidate still alive when the helper played it, so the comparison stays paired guess
by guess. When the searcher drops candidates it tells the helpers (`HelperSearch.narrow`);
when it decides it tells them to stop (`HelperSearch.end`). A helper that fails or dies
is left out; the search goes on alone, as it does when the pool is busy with another
search (one search at a time), so the helpers can only add playouts, never lose a move.

What a helper receives is what the searcher itself sees: the seat's view, the guesser
built from it and the public knowledge, the candidates (nothing of the hidden cards).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from game.engine import Action, PlayerView
from game.engine.scoring import team_of

from .judge import Judge
from .playout import outcomes
from .stakes import stakes_for

if TYPE_CHECKING:
    from .hard import Guesses

MAX_HELPERS = 3
LINGER = 0.2  # seconds past its budget a helper keeps playing a search nobody stopped


_ALLOWED: int | None = None  # cores the game may use (`use_cores`); None: every core


def use_cores(cores: int | None) -> None:
    """Let the game's computer players use at most ``cores`` cores (None: all of them; 1: no
    helper processes), as ``python main.py --cores N`` asks.

    Raises:
        ValueError: ``cores`` is below 1.
    """
    global _ALLOWED
    if cores is not None and cores < 1:
        raise ValueError(f"cores must be 1 or more, not {cores}")
    _ALLOWED = cores


def default_helpers() -> int:
    """Helpers for the game on this machine: one per core besides the one the game runs on
    (at most `MAX_HELPERS`, and within `use_cores`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    if _ALLOWED is not None:
        cores = min(cores, _ALLOWED)
    return max(0, min(MAX_HELPERS, cores - 1))


class _Task:
    """A helper's copy of one decision's search."""

    def __init__(self, ident: int, view: PlayerView, guesser: Guesses, candidates: Sequence[Action],
                 lacked: Sequence[frozenset[str]], horizon: int | None, seed: float, seconds: float,
                 judge: Judge | None) -> None:
        self.ident = ident
        self.guesser = guesser
        self.candidates = list(candidates)
        self.lacked = list(lacked)
        self.horizon = horizon
        self.judge = judge
        self.team = team_of(view.seat, view.players, view.rules.pairs)
        self.stakes = stakes_for(view, self.team)
        self.rng = random.Random(seed)
        self.alive: tuple[int, ...] = tuple(range(len(candidates)))
        self.until = time.perf_counter() + seconds + LINGER

    def row(self) -> list[float]:
        """Deal one guess and play each living candidate out on it."""
        guess = self.guesser.sample(self.rng)
        return outcomes(guess, [self.candidates[i] for i in self.alive], self.rng.random(),
                        self.lacked, self.horizon, self.team, self.stakes, self.judge)


def serve(conn: Connection) -> None:
    """A helper process's loop: wait for a search, send a row per guess until told to stop."""
    task: _Task | None = None
    while True:
        try:
            message = conn.recv() if task is None or conn.poll() else None
        except (EOFError, OSError):  # the game is gone
            return
        if message is not None:
            kind = message[0]
            if kind == "quit":
                return
            if kind == "task":
                try:
                    task = _Task(*message[1:])
                except Exception as exc:  # noqa: BLE001 - reported, the searcher goes on alone
                    _send(conn, ("failed", message[1], repr(exc)))
                    task = None
            elif task is not None and message[1] == task.ident:
                if kind == "alive":
                    task.alive = tuple(message[2])
                elif kind == "stop":
                    task = None
            continue
        assert task is not None
        if len(task.alive) < 2 or time.perf_counter() > task.until:
            task = None
            continue
        try:
            row = task.row()
        except Exception as exc:  # noqa: BLE001 - reported, the searcher goes on alone
            _send(conn, ("failed", task.ident, repr(exc)))
            task = None
            continue
        if not _send(conn, ("row", task.ident, task.alive, row)):
            return


def _send(conn: Connection, message: tuple[object, ...]) -> bool:
    try:
        conn.send(message)
    except (OSError, ValueError):
        return False
    return True


class HelperSearch:
    """The helpers' side of one decision's search, as the searcher sees it."""

    def __init__(self, pool: Helpers, ident: int, conns: list[Connection]) -> None:
        self._pool = pool
        self._ident = ident
        self._conns = conns

    def rows(self) -> Iterator[tuple[tuple[int, ...], list[float]]]:
        """The rows the helpers have sent since last asked (without waiting): the candidates a
        helper played out, and their results on its guess."""
        for conn in list(self._conns):
            try:
                while conn.poll():
                    message = conn.recv()
                    if message[1] != self._ident:
                        continue  # a late row of an earlier search
                    if message[0] == "row":
                        yield message[2], message[3]
                    else:  # the helper failed on this search: leave it out
                        self._conns.remove(conn)
                        break
            except Exception:  # noqa: BLE001 - a broken pipe or a garbled message: leave the helper out
                self._conns.remove(conn)
                self._pool.lost(conn)

    def narrow(self, alive: Sequence[int]) -> None:
        """Tell the helpers which candidates are still in the running."""
        self._tell(("alive", self._ident, tuple(alive)))

    def end(self) -> None:
        """The decision is made: the helpers stop, and the pool is free for the next search."""
        self._tell(("stop", self._ident))
        self._conns = []
        self._pool.release()

    def _tell(self, message: tuple[object, ...]) -> None:
        for conn in list(self._conns):
            if not _send(conn, message):
                self._conns.remove(conn)
                self._pool.lost(conn)


class Helpers:
    """A pool of helper processes, started on first use, shared by the searches of one process
    one at a time."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._conns: list[Connection] = []
        self._processes: list[multiprocessing.process.BaseProcess] = []
        self._lock = threading.Lock()
        self._ident = 0
        self._started = False

    def begin(self, view: PlayerView, guesser: Guesses, candidates: Sequence[Action],
              lacked: Sequence[frozenset[str]], horizon: int | None, rng: random.Random,
              seconds: float, wanted: int, judge: Judge | None = None) -> HelperSearch | None:
        """Start up to ``wanted`` helpers on a decision that the searcher gives ``seconds``,
        judging unfinished playouts with ``judge`` as the searcher does (None: no helper free
        or able to help)."""
        if self.count <= 0 or wanted <= 0 or not self._lock.acquire(blocking=False):
            return None
        try:
            if not self._started:
                self._start()
            self._ident += 1
            conns = []
            for conn in list(self._conns[:wanted]):
                message = ("task", self._ident, view, guesser, list(candidates), list(lacked), horizon,
                           rng.random(), seconds, judge)
                if _send(conn, message):
                    conns.append(conn)
                else:
                    self.lost(conn)
        except Exception:  # noqa: BLE001 - no helpers (no processes here, say): search alone
            self.count = 0
            self._lock.release()
            return None
        if not conns:
            self._lock.release()
            return None
        return HelperSearch(self, self._ident, conns)

    def release(self) -> None:
        """Free the pool for the next search."""
        self._lock.release()

    def lost(self, conn: Connection) -> None:
        """Leave out a helper whose pipe broke (closing our end lets a helper still alive exit)."""
        if conn in self._conns:
            self._conns.remove(conn)
        with contextlib.suppress(OSError):
            conn.close()

    def _start(self) -> None:
        self._started = True
        # Spawned, not forked: the game process may hold a window, threads and open files.
        context = multiprocessing.get_context("spawn")
        for _ in range(self.count):
            ours, theirs = context.Pipe()
            process = context.Process(target=serve, args=(theirs,), name="huit-helper", daemon=True)
            process.start()
            theirs.close()
            self._conns.append(ours)
            self._processes.append(process)

    def close(self) -> None:
        """Stop the helper processes."""
        for conn in self._conns:
            _send(conn, ("quit",))
            conn.close()
        for process in self._processes:
            process.join(timeout=1.0)
            if process.is_alive():
                process.terminate()
        self._conns, self._processes = [], []
        self._started = False


_SHARED: Helpers | None = None
_SHARED_LOCK = threading.Lock()


def shared(count: int) -> Helpers:
    """The process's pool of at least ``count`` helpers (made, or made larger, on demand)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None or _SHARED.count < count:
            if _SHARED is not None:
                _SHARED.close()
            _SHARED = Helpers(count)
        return _SHARED
