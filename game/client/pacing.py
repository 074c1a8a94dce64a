"""How the loop waits: frame by frame while something moves, asleep at rest; and stop signals.

`Pacer` is the loop's one place to wait. While something moves the loop sleeps until
the next frame is due (`Pacer.sleep`, frames at the display's rate). At rest it
sleeps until input comes, a stop signal arrives or the next thing a scene has due
(`Pacer.rest`).

Why not ``pygame.event.wait(timeout)``: pygame-ce implements it as a loop that pumps
SDL's events and sleeps one millisecond (``SDL_Delay(1)``), a thousand times a
second, which alone costs about 4% of a core under X11 (measured: see
docs/performance.md). `Pacer.rest` looks for input ``INPUT_POLL`` times a second
instead (``pygame.event.peek``, which pumps SDL's events without taking them) and
sleeps in between in ``select`` on the read end of a socket pair, so anything that
writes to the other end wakes it at once: `Pacer.wake` (safe from any thread) and
the operating system's signals.

Stop signals (SIGTERM, SIGINT, SIGHUP where it exists): `Pacer` installs a handler
that only records the signal (`Pacer.stop_signal`); nothing else happens in it.
Python runs such a handler in the main thread between two bytecodes, which a loop
asleep in a system call would only reach at its next wake-up; so the write end of
the socket pair is also given to ``signal.set_wakeup_fd``: the C-level handler writes
the signal's number there, ``select`` returns, the Python handler sets the flag, and
the loop sees it within the same wake-up. The loop then saves and exits with status
0 (see `game.client.app`). `Pacer.release` puts the previous handlers back;
`Pacer.default_signals` (called once the loop has seen a stop) lets a second signal
end the process at once.
"""

from __future__ import annotations

import contextlib
import select
import signal
import socket
import threading
import time
from types import FrameType
from typing import Final

import pygame

FRAME_RATE: Final = 60
"""Frames per second while something moves (the display's usual rate)."""

FRAME: Final = 1 / FRAME_RATE

INPUT_POLL: Final = 1 / 60
"""At rest, the loop looks for input this often (a frame's delay at most)."""

STOP_SIGNALS: Final = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                            if hasattr(signal, name))
"""The signals that save the game and end it: a service manager's stop, Ctrl-C, a closed terminal."""


class Pacer:
    """The loop's waits: frame pacing, resting until input, a wake-up or a signal; stop signals.

    ``signals``: whether to catch `STOP_SIGNALS` (only possible on the main thread;
    elsewhere, or with False, nothing is installed and `stop_signal` stays None).
    """

    def __init__(self, *, signals: bool = True) -> None:
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self.stop_signal: int | None = None
        self._previous: dict[int, object] = {}
        self._previous_wakeup: int | None = None
        if signals and threading.current_thread() is threading.main_thread():
            self._install()

    # ---- signals -----------------------------------------------------------------------------
    def _install(self) -> None:
        self._previous_wakeup = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        for number in STOP_SIGNALS:
            self._previous[number] = signal.signal(number, self._on_signal)

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        """Only note the signal: the loop does the work (saving is not safe inside a handler)."""
        self.stop_signal = number

    def default_signals(self) -> None:
        """From now on a stop signal ends the process at once (a second one while saving)."""
        for number in self._previous:
            signal.signal(number, signal.SIG_DFL)

    def release(self) -> None:
        """Put back the signal handlers and wake-up descriptor found, and close the socket pair."""
        for number, handler in self._previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]  # whatever getsignal gave back
        self._previous.clear()
        if self._previous_wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            self._previous_wakeup = None
        self._reader.close()
        self._writer.close()

    # ---- waiting -----------------------------------------------------------------------------
    def wake(self) -> None:
        """Wake the loop if it rests (safe from any thread: it writes a byte to the socket pair)."""
        with contextlib.suppress(OSError):  # full (it is already awake) or closed (it has ended)
            self._writer.send(b"\0")

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while self._reader.recv(512):
                pass

    def _nap(self, seconds: float) -> bool:
        """Sleep up to ``seconds`` in ``select``; True if woken (a wake-up or a signal)."""
        ready, _, _ = select.select([self._reader], [], [], max(0.0, seconds))
        if ready:
            self._drain()
            return True
        return False

    def sleep(self, seconds: float) -> None:
        """Sleep until the next frame (``seconds``), or less if a stop signal comes."""
        if seconds > 0 and self.stop_signal is None:
            self._nap(seconds)

    def rest(self, timeout: float | None) -> float:
        """Sleep until input is waiting, a wake-up or a signal comes, or ``timeout`` seconds
        (None: no limit) have passed; return the seconds slept."""
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        while self.stop_signal is None and not pygame.event.peek():
            now = time.perf_counter()
            if deadline is not None and now >= deadline:
                break
            nap = INPUT_POLL if deadline is None else min(INPUT_POLL, deadline - now)
            if self._nap(nap):
                break
        return time.perf_counter() - start
