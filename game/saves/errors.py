"""Why a file could not be read, or the data folder written, in words a player understands."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Final

REASONS: Final = {
    "empty": "the file is empty",
    "not_a_save": "the file is not a Huit file",
    "newer": "the file was written by a newer version of Huit (format {version})",
    "unknown_version": "the file has an unknown format ({version})",
    "damaged": "the file is incomplete or damaged",
    "unsafe": "the file refers to something that is not part of a saved game, so it was not opened",
    "invalid": "the file's contents do not make a game ({detail})",
    "unreadable": "the file cannot be read ({detail})",
    "is_folder": "it is a folder, not a file",
    "is_pipe": "it is a pipe, not a file",
    "is_device": "it is a device, not a file",
    "not_a_file": "it is not a regular file",
    "too_large": "the file is far larger than Huit ever writes",
    "too_deep": "its contents are nested far deeper than Huit ever writes",
    "bad_number": "it holds a number far longer than Huit ever writes",
    "wrong_shape": "its contents are not laid out as Huit writes them",
    "bad_fields": "some of its values are of the wrong kind: {names}",
    "malformed": "the file is not laid out as a saved game is ({detail}), so it was not opened",
    "illegal_log": "the moves saved in the file break the rules ({detail})",
}


class SaveError(ValueError):
    """A file that cannot be loaded; ``key`` is one of `REASONS` (for translation), ``values`` fill it."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(REASONS[key].format(**values))


WRITE_PROBLEMS: Final = {
    "read_only": "the disk it is on is read-only",
    "full": "the disk is full",
    "not_a_folder": "it is a file, not a folder",
    "denied": "Huit is not allowed to write there",
    "other": "the system says: {detail}",
}
"""Why nothing could be written in the data folder, by key (the client translates them)."""

_WRITE_KINDS: Final = {
    errno.EROFS: "read_only", errno.ENOSPC: "full", getattr(errno, "EDQUOT", errno.ENOSPC): "full",
    errno.EFBIG: "full",
    errno.EEXIST: "not_a_folder", errno.ENOTDIR: "not_a_folder",
    errno.EACCES: "denied", errno.EPERM: "denied",
}


@dataclass(frozen=True)
class WriteProblem:
    """A write in the data folder that failed: the file, why (a key of `WRITE_PROBLEMS`) and
    the system's own words (kept for the ``other`` case and for logs)."""

    file: str
    key: str
    detail: str

    @classmethod
    def of(cls, file: str, exc: OSError) -> WriteProblem:
        """The problem an `OSError` raised while writing ``file`` stands for."""
        return cls(file, _WRITE_KINDS.get(exc.errno or 0, "other"), exc.strerror or str(exc))

    def __str__(self) -> str:
        """The file and the reason, in English."""
        return f"{self.file}: {WRITE_PROBLEMS[self.key].format(detail=self.detail)}"
