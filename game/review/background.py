"""Running a review's analysis beside the game: worker processes, progress, and cancelling.

The analysis is pure Python and busy: on a thread of the game's process it would hold the
interpreter's lock against the frame loop. So it runs in worker processes (spawned, not
forked: the game's process holds a window, threads and open files), kept for the session
once the first review started them (`Workers`: starting them costs half a second or more,
importing `game.ai`). Each analysis is a job with a number: every worker judges its share of
the decisions (every ``workers``-th) and sends one result per decision, tagged with the job,
then says it is done. The screen asks `Analysis.take_results` once a frame (it never waits),
shows `progress`, and `cancel` stops the job: the workers look between two guesses whether
their job is still the current one, and go back to waiting when it is not. A worker that
died is replaced at the next job; one that stops answering is ended.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Final

from .analysis import GUESSES, Cost, judge, judged

if TYPE_CHECKING:
    from multiprocessing.context import SpawnProcess
    from multiprocessing.sharedctypes import Synchronized

    from .story import Story

WORKERS: Final = 2
"""Processes per analysis: the two cores the game is measured on."""
SETTLE: Final = 0.3  # seconds a cancel waits for the workers to leave the job (they do within a guess)


def _serve(jobs: Connection, out: Connection, current: Synchronized[int]) -> None:
    """A worker: take ``(job, story, indices, guesses)`` jobs one after the other; judge ``indices``
    in order while ``job`` is the current one, sending ``(job, index, cost or None)`` after each,
    then ``(job, None)``. An empty message (or the pipe's end) ends it."""
    try:
        while True:
            message = jobs.recv()
            if message is None:
                return
            job, story, indices, guesses = message

            def stopped(job: int = job) -> bool:
                return bool(current.value != job)

            for index in indices:
                if stopped():
                    break
                out.send((job, index, judge(story, index, guesses=guesses, stop=stopped)))
            out.send((job, None))
    except (BrokenPipeError, EOFError, OSError, KeyboardInterrupt):  # the game went away
        return


class Workers:
    """The session's worker processes, started on first use (see the module doc)."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self.current: Synchronized[int] = self._context.Value("i", 0)
        self._processes: list[SpawnProcess] = []
        self._jobs: list[Connection] = []
        self.results: list[Connection] = []
        self._last_job = 0

    def _start(self, count: int) -> None:
        """Make sure ``count`` live workers wait for jobs (dead ones are replaced)."""
        if any(not p.is_alive() for p in self._processes):
            self.shut()
        while len(self._processes) < count:
            jobs_in, jobs_out = self._context.Pipe(duplex=False)
            results_in, results_out = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_serve, name="huit-review", daemon=True,
                                            args=(jobs_in, results_out, self.current))
            process.start()
            jobs_in.close()
            results_out.close()  # the worker holds its end: a dead worker then reads as the pipe's end
            self._processes.append(process)
            self._jobs.append(jobs_out)
            self.results.append(results_in)

    def submit(self, story: Story, indices: list[int], guesses: int, count: int) -> tuple[int, int]:
        """Start a job on ``count`` workers (the previous job stops); its number and its workers."""
        self._start(count)
        self._last_job += 1
        job = self._last_job
        self.current.value = job
        used = min(count, len(self._processes))
        for part in range(used):
            self._jobs[part].send((job, story, indices[part::used], guesses))
        return job, used

    def stop(self, job: int) -> None:
        """Stop ``job`` if it is the current one (the workers leave it within a guess)."""
        with self.current.get_lock():
            if self.current.value == job:
                self.current.value = 0

    def alive(self) -> int:
        """How many worker processes are running."""
        return sum(p.is_alive() for p in self._processes)

    def shut(self) -> None:
        """End every worker (the game is closing, or one of them died)."""
        for pipe in self._jobs:
            with contextlib.suppress(OSError):
                pipe.send(None)
        for process in self._processes:
            process.join(SETTLE)
            if process.is_alive():
                process.terminate()
                process.join(SETTLE)
        for pipe in self._jobs + self.results:
            with contextlib.suppress(OSError):
                pipe.close()
        self._processes, self._jobs, self.results = [], [], []


_shared: Workers | None = None


def shared() -> Workers:
    """The session's workers."""
    global _shared
    if _shared is None:
        _shared = Workers()
    return _shared


class Analysis:
    """The analysis of one story, under way in the session's workers (started at once)."""

    def __init__(self, story: Story, *, guesses: int = GUESSES, workers: int = WORKERS) -> None:
        self.story = story
        self.guesses, self.workers = guesses, workers
        self.indices = judged(story)
        self.results: dict[int, Cost | None] = {}
        self.cancelled = False
        self.failed = False
        self._pool: Workers | None = None
        self._links: list[Connection] = []
        self.job = 0
        if not self.indices:
            return
        self._run(self.indices)

    def _run(self, indices: list[int]) -> None:
        """Give ``indices`` (decisions of the story) to the session's workers as a new job."""
        self._pool = shared()
        count = max(1, min(self.workers, len(indices)))
        self.job, used = self._pool.submit(self.story, indices, self.guesses, count)
        self._links = list(self._pool.results[:used])

    @property
    def whole(self) -> bool:
        """Whether every decision has been judged (only then may the review say anything of the
        deal as a whole, such as "no costly decision")."""
        return len(self.results) == len(self.indices)

    def resume(self) -> None:
        """Go on with a stopped (or failed) analysis: the decisions not judged yet go to the
        workers again (each judged with its own seed, so the result is the one an analysis never
        stopped gives)."""
        if not self.done:
            return
        rest = [i for i in self.indices if i not in self.results]
        self.cancelled = self.failed = False
        if rest:
            self._run(rest)

    @property
    def total(self) -> int:
        """How many decisions are judged."""
        return len(self.indices)

    @property
    def progress(self) -> float:
        """0 to 1: the share of decisions judged so far."""
        return 1.0 if not self.indices else len(self.results) / len(self.indices)

    @property
    def done(self) -> bool:
        """Whether every worker has finished its share (or the analysis was cancelled or failed)."""
        return not self._links

    @property
    def costs(self) -> list[Cost]:
        """The decisions judged so far, in the order of the deal."""
        return [c for _, c in sorted(self.results.items()) if c is not None]

    def take_results(self) -> None:
        """Take whatever the workers have sent, without waiting (another job's leftovers are
        passed over)."""
        for link in list(self._links):
            try:
                while link.poll():
                    message: Any = link.recv()
                    if message[0] != self.job:
                        continue
                    if message[1] is None:
                        self._links.remove(link)
                        break
                    _, index, cost = message
                    if not self.cancelled:  # a search cut short by the cancel is no result
                        self.results[index] = cost
            except (EOFError, OSError):  # a worker died: the analysis is what it got
                self.failed = len(self.results) < len(self.indices)
                self._links.remove(link)

    def cancel(self) -> None:
        """Stop the workers' share of this analysis (between two guesses); what was judged stays."""
        if self.done:
            return
        self.take_results()  # what came before the stop is kept (it may be all of it)
        if self.done:
            return
        self.cancelled = True
        assert self._pool is not None
        self._pool.stop(self.job)
        deadline = time.monotonic() + SETTLE
        while self._links and time.monotonic() < deadline:  # they say they left it, within a guess
            self.take_results()
            time.sleep(0.005)
        if self._links:  # a worker that does not answer: end them all (new ones start next time)
            self._pool.shut()
        self._links = []

    def close(self) -> None:
        """Release this analysis (stopping it if it runs)."""
        self.cancel()

    def busy(self) -> int:
        """How many workers are still on this analysis (tests check that a cancel frees them)."""
        return len(self._links)

    def alive(self) -> int:
        """How many of the session's worker processes are running."""
        return 0 if self._pool is None else self._pool.alive()
