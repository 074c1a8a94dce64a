"""One data folder: saved games, settings, statistics and online seat keys, and "Clear data".

Settings and statistics are JSON documents in the same safe envelope as games
(atomic writes, a backup, format versions). An unreadable settings or statistics
file falls back to its backup, else to defaults, and is kept aside as
``NAME.corrupt`` the first time the game writes that file again.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from . import stats
from .document import Upgrade, pack_json, unpack_json
from .errors import SaveError
from .games import GameSlots
from .paths import ONLINE, SETTINGS, STATISTICS, data_dir, own_files
from .safefile import backup_of, set_aside
from .seatkeys import SeatKeys
from .stats import Statistics
from .writer import SaveWriter

SETTINGS_FORMAT = 1
SETTINGS_UPGRADES: dict[int, Upgrade] = {}


class JsonFile:
    """A JSON document of one kind: read (with a fallback to the backup) and write."""

    def __init__(self, path: Path, kind: str, version: int, steps: dict[int, Upgrade],
                 writer: SaveWriter) -> None:
        self.path, self.kind, self.version, self.steps, self.writer = path, kind, version, steps, writer
        self.problem: SaveError | None = None  # why the last read could not use the file itself
        self._checked = False

    def read(self) -> Any | None:
        """The document, its backup when the file is unreadable, or None; see ``problem``."""
        self.problem = None
        self.writer.flush()  # read what was last written, not what the disk had before
        for path in (self.path, backup_of(self.path)):
            try:
                value = unpack_json(path.read_bytes(), self.kind, self.version, self.steps)
            except FileNotFoundError:
                continue
            except OSError as exc:
                error: SaveError = SaveError("unreadable", detail=exc.strerror or str(exc))
            except SaveError as exc:
                error = exc
            else:
                self._checked = path == self.path
                return value
            if path == self.path:
                self.problem = error
        return None

    def write(self, value: Any) -> None:
        """Save ``value``; an unreadable file there is first kept aside as ``NAME.corrupt``."""
        if not self._checked:
            self.writer.flush()
            try:
                unpack_json(self.path.read_bytes(), self.kind, self.version, self.steps)
            except FileNotFoundError:
                pass
            except (OSError, SaveError):
                with contextlib.suppress(OSError):
                    set_aside(self.path)
            self._checked = True
        self.writer.write(self.path, pack_json(self.kind, self.version, value))


class DataStore:
    """Everything Huit keeps on this device, under one folder."""

    def __init__(self, root: str | os.PathLike[str] | None = None, *, background: bool = True) -> None:
        self.root = data_dir(root)
        self.writer = SaveWriter(background=background)
        self.games = GameSlots(self.root, self.writer)
        self.keys = SeatKeys(self.root, self.writer)
        self.settings = JsonFile(self.root / SETTINGS, "settings", SETTINGS_FORMAT, SETTINGS_UPGRADES,
                                 self.writer)
        self.statistics = JsonFile(self.root / STATISTICS, stats.KIND, stats.FORMAT, stats.UPGRADES,
                                   self.writer)

    def read_statistics(self) -> Statistics:
        """The statistics (empty when there are none or they cannot be read)."""
        return Statistics.from_json(self.statistics.read())

    def write_statistics(self, value: Statistics) -> None:
        """Save the statistics."""
        self.statistics.write(value.to_json())

    def flush(self) -> bool:
        """Wait for every pending write (on quit)."""
        return self.writer.flush()

    def clear(self) -> list[Path]:
        """Delete every save, backup, kept-aside file, the settings, statistics and seat keys.

        Only files with the game's own names are deleted; anything else in the folder
        stays. Returns the deleted files.
        """
        self.writer.flush()
        deleted = []
        for path in own_files(self.root):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                deleted.append(path)
        with contextlib.suppress(OSError):
            (self.root / ONLINE).rmdir()  # only if empty: something else may live there
        self.settings._checked = self.statistics._checked = False
        self.games._trusted.clear()
        return deleted
