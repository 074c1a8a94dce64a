"""One data folder: saved games, settings, statistics, online seat keys and player key, and "Clear data".

Settings and statistics are JSON documents in the same safe envelope as games
(atomic writes, a backup, format versions), read through `safefile.read_file` (a
regular file of at most `JSON_CAP` bytes) and `document.loads_json` (bounded nesting
and numbers). An unreadable settings or statistics file falls back to its backup,
else to defaults, and is kept aside as ``NAME.corrupt`` the first time the game
writes that file again; so is a readable one whose reader could not use every value
in it (`JsonFile.partly_read`), so that nothing a player had is lost.

Whether the folder can be written at all (`write_problem`: read-only, full, a file
where the folder should be) is asked by the screens that would lose something
(the menu, the settings); writes in progress left by a full disk or a killed
process are removed when the game starts (`clean_leftovers`).
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

from . import reviews, stats
from .document import Upgrade, pack_json, unpack_json
from .errors import SaveError, WriteProblem
from .games import GameSlots
from .paths import ONLINE, PROBE, REVIEWS, SETTINGS, STATISTICS, data_dir, own_files, remove_leftovers
from .player import PlayerFile
from .reviews import ReviewRecord, Reviews
from .safefile import JSON_CAP, backup_of, probe_folder, read_file, set_aside
from .seatkeys import SeatKeys
from .stats import Statistics
from .writer import SaveWriter

SETTINGS_FORMAT = 1
SETTINGS_UPGRADES: dict[int, Upgrade] = {}


class JsonFile:
    """A JSON document of one kind (an object): read (with a fallback to the backup) and write."""

    def __init__(self, path: Path, kind: str, version: int, steps: dict[int, Upgrade],
                 writer: SaveWriter, cap: int = JSON_CAP) -> None:
        self.path, self.kind, self.version, self.steps, self.writer = path, kind, version, steps, writer
        self.cap = cap
        self.problem: SaveError | None = None
        """Why the last read could not use the file (or, when there is no file, its backup)."""
        self.ignored: list[str] = []
        """What the reader of the last document could not use in it (see `partly_read`)."""
        self.from_backup = False
        """Whether the last read fell back to the backup."""
        self._checked = False
        self._partial = False

    def _decode(self, path: Path) -> Any:
        value = unpack_json(read_file(path, self.cap), self.kind, self.version, self.steps)
        if not isinstance(value, dict):
            raise SaveError("wrong_shape")
        return value

    def read(self) -> dict[str, Any] | None:
        """The document, its backup when the file is unreadable, or None; see ``problem``."""
        self.problem, self.ignored, self.from_backup = None, [], False
        self.writer.flush()  # read what was last written, not what the disk had before
        for path in (self.path, backup_of(self.path)):
            try:
                value = self._decode(path)
            except FileNotFoundError:
                continue
            except SaveError as exc:
                self.problem = self.problem or exc
                continue
            self._checked = path == self.path
            self.from_backup = not self._checked
            return value  # type: ignore[no-any-return]
        return None

    def partly_read(self, names: list[str]) -> None:
        """Say that the reader of the document just read could not use ``names`` in it.

        The file is then kept aside as ``NAME.corrupt`` before it is next replaced.
        """
        self.ignored = list(names)
        self._partial = bool(names)

    def write(self, value: Any) -> None:
        """Save ``value``; an unreadable or partly read file there is first kept aside (``NAME.corrupt``)."""
        if not self._checked or self._partial:
            self.writer.flush()
            try:
                self._decode(self.path)
                keep = self._partial
            except FileNotFoundError:
                keep = False
            except SaveError:
                keep = True
            if keep:
                set_aside(self.path)
            self._checked, self._partial = True, False
        self.writer.write(self.path, pack_json(self.kind, self.version, value))

    def forget(self) -> None:
        """The files are gone (Clear data): nothing read or checked is known any more."""
        self._checked = self._partial = self.from_backup = False
        self.problem, self.ignored = None, []


class DataStore:
    """Everything Huit keeps on this device, under one folder."""

    def __init__(self, root: str | os.PathLike[str] | None = None, *, background: bool = True) -> None:
        self.root = data_dir(root)
        self.writer = SaveWriter(background=background)
        self.games = GameSlots(self.root, self.writer)
        self.keys = SeatKeys(self.root, self.writer)
        self.player = PlayerFile(self.root, self.writer)
        self.settings = JsonFile(self.root / SETTINGS, "settings", SETTINGS_FORMAT, SETTINGS_UPGRADES,
                                 self.writer)
        self.statistics = JsonFile(self.root / STATISTICS, stats.KIND, stats.FORMAT, stats.UPGRADES,
                                   self.writer)
        self.reviews = JsonFile(self.root / REVIEWS, reviews.KIND, reviews.FORMAT, reviews.UPGRADES,
                                self.writer, cap=reviews.CAP)
        # The records as last read or kept (read once: a deal's end never waits for the file), and
        # the thread keeping the newest deal's, so that the result screen opens without waiting.
        self._reviews: Reviews | None = None
        self._reviews_lock = threading.Lock()
        self._keeping: threading.Thread | None = None

    def read_reviews(self) -> Reviews:
        """The last deals' review records (none when there are none or the file cannot be read;
        why, or which records were left out, is in ``reviews.problem`` and ``reviews.ignored``:
        the file is then kept aside before it is next written)."""
        self._wait_keeping()
        with self._reviews_lock:
            return Reviews(list(self._read_reviews().records))

    def _read_reviews(self) -> Reviews:
        if self._reviews is None:
            value, dropped = Reviews.parse(self.reviews.read())
            self.reviews.partly_read(dropped)
            self._reviews = value
        return self._reviews

    def add_reviews(self, records: list[ReviewRecord], *, wait: bool = False) -> None:
        """Keep a finished deal's review records (the oldest deals go past `reviews.KEEP`), on a
        thread of its own (``wait``: here and now); `read_reviews` and `flush` wait for it."""
        if not records:
            return
        self._wait_keeping()
        self._keeping = threading.Thread(target=self._keep, args=(list(records),), name="huit-reviews",
                                         daemon=True)
        self._keeping.start()
        if wait:
            self._wait_keeping()

    def _keep(self, records: list[ReviewRecord]) -> None:
        with self._reviews_lock:
            kept = self._read_reviews()
            for record in records:
                kept.add(record)
            self.reviews.write(kept.to_json())

    def _wait_keeping(self) -> None:
        keeping = self._keeping
        if keeping is not None:
            keeping.join()
            self._keeping = None

    def read_statistics(self) -> Statistics:
        """The statistics (empty when there are none or they cannot be read).

        Why not, or which entries were left out, is in ``statistics.problem`` and
        ``statistics.ignored``.
        """
        value, dropped = Statistics.parse(self.statistics.read())
        self.statistics.partly_read(dropped)
        return value

    def write_statistics(self, value: Statistics) -> None:
        """Save the statistics."""
        self.statistics.write(value.to_json())

    def busy(self) -> bool:
        """Whether writes are still in flight (a deal's review records being kept, or a file being
        written): the loop looks again soon, so that a failed write is said."""
        keeping = self._keeping
        return (keeping is not None and keeping.is_alive()) or not self.writer.flush(timeout=0)

    def flush(self) -> bool:
        """Wait for every pending write (on quit)."""
        self._wait_keeping()
        return self.writer.flush()

    def write_problem(self) -> WriteProblem | None:
        """Why the data folder cannot be written, if it cannot: the last failed write, else a
        small file written there and removed (read-only, full, a file where the folder is)."""
        self.writer.flush(timeout=0.5)
        failed = self.writer.problem
        if failed is not None:
            return failed
        exc = probe_folder(self.root)
        return None if exc is None else WriteProblem.of(PROBE, exc)

    def clean_leftovers(self) -> list[Path]:
        """Delete the game's writes in progress that a full disk or a killed process left
        (``NAME.tmp``; never read, and taking room on a disk that may be full). Call it when
        the game starts, before anything is written. Returns the deleted files."""
        return remove_leftovers(self.root)

    def clear(self) -> list[Path]:
        """Delete every save, backup, kept-aside file, the settings, statistics, seat keys and
        the player key.

        Only files with the game's own names are deleted; anything else in the folder
        stays. Returns the deleted files.
        """
        self._wait_keeping()  # a deal's review still being kept is written before, not after
        self.writer.flush()
        deleted = []
        for path in own_files(self.root):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                deleted.append(path)
        with contextlib.suppress(OSError):
            (self.root / ONLINE).rmdir()  # only if empty: something else may live there
        self.settings.forget()
        self.statistics.forget()
        with self._reviews_lock:
            self._reviews = None
        self.reviews.forget()
        self.games.forget_files()
        return deleted
