"""Writing files so that a crash, a power cut or a full disk never loses the last good one.

`write_atomic` writes to ``NAME.tmp``, flushes and fsyncs it, keeps the current file
as ``NAME.bak`` (a hard link, or a copy where links are not possible), then renames
the new file over ``NAME`` with `os.replace`, which is atomic: at every moment
``NAME`` is either the old complete file or the new complete file. A ``.tmp`` left by
a killed process is simply overwritten by the next write and never read.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def backup_of(path: Path) -> Path:
    """``NAME.bak``: the previous good version of ``path``."""
    return path.with_name(path.name + ".bak")


def corrupt_of(path: Path) -> Path:
    """``NAME.corrupt``: where an unreadable ``path`` is kept aside."""
    return path.with_name(path.name + ".corrupt")


def _temp_of(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def _fsync_dir(folder: Path) -> None:
    # The renames themselves must reach the disk too; not every system can open a folder.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_synced(path: Path, data: bytes, private: bool = False) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    if private:
        os.chmod(path, 0o600)  # an older file may have been made readable by others
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: Path, data: bytes, *, backup: bool = True, private: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, keeping the current file as ``NAME.bak``.

    ``private`` files (seat keys) are readable by their owner only.

    Raises:
        OSError: the folder cannot be created or written (the old file is untouched).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_of(path)
    _write_synced(temp, data, private)
    if backup and path.is_file():
        keep = backup_of(path)
        link = path.with_name(path.name + ".bak.tmp")
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        try:
            os.link(path, link)  # no copy: the backup is the very file being replaced
        except OSError:
            _write_synced(link, path.read_bytes(), private)
        os.replace(link, keep)
    os.replace(temp, path)
    _fsync_dir(path.parent)


def set_aside(path: Path) -> Path | None:
    """Rename an unreadable ``path`` to ``NAME.corrupt`` (replacing an older one); return it.

    Returns None when there is no such file.
    """
    if not path.is_file():
        return None
    target = corrupt_of(path)
    os.replace(path, target)
    _fsync_dir(path.parent)
    return target
