"""A background thread that writes files, so a save never stalls a frame.

The game hands it the bytes of the newest save after every action; the thread
writes them with `write_atomic`. When writes queue up for one file, only the newest
is written (the older ones are already out of date). `flush` waits until everything
handed over is on disk: the game calls it on quit and on window close.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

from .errors import WriteProblem
from .safefile import backup_of, write_atomic


class SaveWriter:
    """Writes (or deletes) files in order on one daemon thread; ``background=False`` does it at once."""

    def __init__(self, *, background: bool = True) -> None:
        self.background = background
        self._errors: dict[Path, WriteProblem] = {}  # per file: one file's success hides no other's failure
        self._jobs: dict[Path, tuple[bytes, bool] | None] = {}
        self._lock = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None

    @property
    def error(self) -> str | None:
        """A write that failed and was not followed by a good write of the same file, if any:
        the file's name and the system's words."""
        problem = self.problem
        return None if problem is None else f"{problem.file}: {problem.detail}"

    @property
    def problem(self) -> WriteProblem | None:
        """The same failed write as `error`, with why it failed as a reason key."""
        return next(iter(self._errors.values()), None)

    def write(self, path: Path, data: bytes, *, private: bool = False) -> None:
        """Write ``data`` to ``path`` (atomically, keeping a backup) soon; ``private``: owner-only."""
        self._submit(path, (data, private))

    def delete(self, path: Path) -> None:
        """Delete ``path`` and its backup soon (after any write already handed over)."""
        self._submit(path, None)

    def _submit(self, path: Path, data: tuple[bytes, bool] | None) -> None:
        if not self.background:
            self._do(path, data)
            return
        with self._lock:
            self._jobs.pop(path, None)  # re-insert so the order of files follows the hand-over order
            self._jobs[path] = data
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="huit-saves", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._jobs:
                    self._busy = False
                    self._lock.notify_all()
                    if not self._lock.wait(timeout=5.0) and not self._jobs:
                        self._thread = None
                        return
                path = next(iter(self._jobs))
                data = self._jobs.pop(path)
                self._busy = True
            self._do(path, data)

    def _do(self, path: Path, data: tuple[bytes, bool] | None) -> None:
        try:
            if data is None:
                for target in (path, backup_of(path)):
                    with contextlib.suppress(FileNotFoundError):
                        target.unlink()
            else:
                write_atomic(path, data[0], private=data[1])
            self._errors.pop(path, None)
        except OSError as exc:  # a full or read-only disk: keep playing, say it
            self._errors[path] = WriteProblem.of(path.name, exc)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every handed-over write is done; False if ``timeout`` ran out."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._jobs and not self._busy, timeout=timeout)
