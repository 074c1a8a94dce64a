"""Running a review's analysis beside the game: worker processes, progress, and cancelling.

The analysis is pure Python and busy: on a thread of the game's process it would hold the
interpreter's lock against the frame loop. So it runs in ``workers`` processes of its own
(spawned, not forked: the game's process holds a window, threads and open files), each
judging every ``workers``-th decision and sending back one result per decision. The screen
asks `Analysis.take_results` once a frame (it never waits), shows `progress`, and `cancel` stops
the workers (they are asked to stop between guesses, then ended if they do not).
"""

from __future__ import annotations

import contextlib
import multiprocessing
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as StopEvent
from typing import TYPE_CHECKING, Final

from .analysis import GUESSES, Cost, judge, judged

if TYPE_CHECKING:
    from multiprocessing.context import SpawnProcess

    from .story import Story

WORKERS: Final = 2
"""Processes per analysis: the two cores the game is measured on."""
JOIN: Final = 0.3  # seconds a stopped worker is given to end by itself before it is ended


def _work(story: Story, indices: list[int], guesses: int, out: Connection, stop: StopEvent) -> None:
    """A worker: judge ``indices`` in order, sending ``(index, cost or None)`` after each, then
    ``None`` (done). It stops early when ``stop`` is set."""
    try:
        for index in indices:
            if stop.is_set():
                break
            out.send((index, judge(story, index, guesses=guesses, stop=stop.is_set)))
        out.send(None)
    except (BrokenPipeError, EOFError, OSError):  # the screen went away: nothing to tell
        pass
    finally:
        out.close()


class Analysis:
    """The analysis of one story, under way in worker processes (started at once)."""

    def __init__(self, story: Story, *, guesses: int = GUESSES, workers: int = WORKERS) -> None:
        self.story = story
        self.indices = judged(story)
        self.results: dict[int, Cost | None] = {}
        self.cancelled = False
        self.failed = False
        self._links: list[Connection] = []
        self._processes: list[SpawnProcess] = []
        self._open = 0
        if not self.indices:
            return
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        count = max(1, min(workers, len(self.indices)))
        for part in range(count):
            mine, theirs = context.Pipe(duplex=False)
            process = context.Process(target=_work, name="huit-review", daemon=True,
                                      args=(story, self.indices[part::count], guesses, theirs, self._stop))
            process.start()
            theirs.close()  # the worker holds its end: a dead worker then reads as the pipe's end
            self._links.append(mine)
            self._processes.append(process)
        self._open = count

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
        """Whether every worker has finished (or the analysis was cancelled or failed)."""
        return self._open == 0

    @property
    def costs(self) -> list[Cost]:
        """The decisions judged so far, in the order of the deal."""
        return [c for _, c in sorted(self.results.items()) if c is not None]

    def take_results(self) -> None:
        """Take whatever the workers have sent, without waiting."""
        for link in list(self._links):
            try:
                while link.poll():
                    message = link.recv()
                    if message is None:
                        self._close(link)
                        break
                    index, cost = message
                    self.results[index] = cost
            except (EOFError, OSError):  # a worker died: the analysis is what it got
                self.failed = len(self.results) < len(self.indices)
                self._close(link)

    def _close(self, link: Connection) -> None:
        if link in self._links:
            self._links.remove(link)
            link.close()
            self._open -= 1

    def cancel(self) -> None:
        """Stop the workers (between two guesses), and end any that does not stop in time."""
        if self.done:
            return
        self.cancelled = True
        self._stop.set()
        self.close()

    def close(self) -> None:
        """Release the workers and their pipes (a finished analysis too)."""
        if self._processes:
            self._stop.set()
        for process in self._processes:
            process.join(JOIN)
            if process.is_alive():
                process.terminate()
                process.join(JOIN)
        for link in list(self._links):
            with contextlib.suppress(OSError):
                link.close()
        self._links.clear()
        self._open = 0

    def alive(self) -> int:
        """How many worker processes are still running (tests check that a cancel ends them)."""
        return sum(p.is_alive() for p in self._processes)
