"""Reading files that may be hostile, and writing them so that a crash never loses the last good one.

`read_file` opens a data file only if it is a regular file (never a pipe, which would
hang, nor a device such as ``/dev/zero``, which never ends) and reads at most its
kind's cap: a file larger than that (a 64 GiB sparse file) is refused from its size,
without being read, and one that grows while it is read is refused after ``cap + 1``
bytes. What it is, is judged twice: from ``stat`` before opening (so a pipe or a device
is never even opened) and from ``fstat`` of the open descriptor (what is actually
read, whatever was swapped in between). A symbolic link is followed: the game's folder
or one of its files may legitimately be a link (a kiosk's volume, a dotfile manager),
and since the rules apply to what the link leads to, a link to ``/dev/zero`` or to a
huge file is refused exactly like the thing itself.

`write_atomic` writes to ``NAME.tmp``, flushes and fsyncs it, keeps the current file
as ``NAME.bak`` (a hard link, or a copy where links are not possible), then renames
the new file over ``NAME`` with `os.replace`, which is atomic: at every moment
``NAME`` is either the old complete file or the new complete file. A ``.tmp`` is never
read: a write that fails (a full disk) removes its own, one left by a killed process
(or anything else under that name) is replaced by the next write, and the game
removes those of its own names when it starts, and so does the server in its data folder
(`paths.remove_leftovers`).
`probe_folder` tells whether a folder can be written at all, by writing a small file
there and removing it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Final

from .errors import SaveError
from .paths import PROBE

GAME_CAP: Final = (16 << 20) + (4 << 10)
"""A saved game: the envelope's two lines and a body of at most 16 MiB (the largest seen
today, a 4-seat ``classic`` hot-seat game with its undo steps, is about 0.26 MB)."""
JSON_CAP: Final = 1 << 20
"""Settings and statistics (about 3 KB each with every preset, option and level filled in)."""
SEAT_KEY_CAP: Final = 64 << 10
"""An online seat key (under 0.5 KB with the longest room id)."""

_CHUNK: Final = 1 << 20
_OPEN_FLAGS: Final = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                      | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
"""``O_NONBLOCK``: a pipe swapped in after the first check is opened without waiting for a
writer (it would otherwise hang the game); ``O_NOCTTY``: a terminal never becomes ours."""


def backup_of(path: Path) -> Path:
    """``NAME.bak``: the previous good version of ``path``."""
    return path.with_name(path.name + ".bak")


def corrupt_of(path: Path) -> Path:
    """``NAME.corrupt``: where an unreadable ``path`` is kept aside."""
    return path.with_name(path.name + ".corrupt")


def _refuse_unless_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise SaveError("is_folder")
    if stat.S_ISFIFO(mode):
        raise SaveError("is_pipe")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise SaveError("is_device")
    raise SaveError("not_a_file")


def _refuse_if_larger(size: int, cap: int) -> None:
    if size > cap:
        raise SaveError("too_large")


def read_file(path: Path, cap: int) -> bytes:
    """The bytes of ``path``, if it is a regular file of at most ``cap`` bytes.

    Raises:
        FileNotFoundError: there is no such file (nor anything else by that name, nor a folder
            to hold it: a file where the data folder should be holds no saves).
        SaveError: a folder, a pipe, a device or a socket (``is_folder``, ``is_pipe``,
            ``is_device``, ``not_a_file``); more than ``cap`` bytes (``too_large``); or
            it cannot be opened or read (``unreadable``, with the system's words).
    """
    try:
        _refuse_unless_regular(os.stat(path).st_mode)  # a pipe or a device is not even opened
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise
    except NotADirectoryError:
        raise FileNotFoundError(f"no {path.name}: its folder is a file") from None
    except OSError as exc:
        raise SaveError("unreadable", detail=exc.strerror or str(exc)) from None
    try:
        opened = os.fstat(fd)  # what is actually read, whatever was swapped in since
        _refuse_unless_regular(opened.st_mode)
        _refuse_if_larger(opened.st_size, cap)
        chunks, total = [], 0
        while total <= cap:  # at most cap + 1 bytes: a file growing as it is read stops here
            chunk = os.read(fd, min(_CHUNK, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise SaveError("unreadable", detail=exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    _refuse_if_larger(total, cap)
    return b"".join(chunks)


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
    # A new file every time: whatever a killed process (or anyone) left under this name, a
    # pipe that would block the writer, a link leading elsewhere, is removed, never opened.
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o600 if private else 0o666)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: Path, data: bytes, *, backup: bool = True, private: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically, keeping the current file as ``NAME.bak``.

    ``private`` files (seat keys) are readable by their owner only.

    Raises:
        OSError: the folder cannot be created or written (the old file is untouched, and no
            ``NAME.tmp`` is left behind).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_of(path)
    try:
        _write_synced(temp, data, private)
    except OSError:
        with contextlib.suppress(OSError):  # a full disk leaves an empty or partial file
            temp.unlink()
        raise
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




def probe_folder(folder: Path) -> OSError | None:
    """Whether ``folder`` can be written: None, or the error a write there gets (the folder is a
    file, read-only, full, not ours). A few bytes are written, synced (a full disk may only
    say so then) and removed."""
    probe = folder / PROBE
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)  # a file there: FileExistsError
        _write_synced(probe, b"huit\n")
    except OSError as exc:
        return exc
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def set_aside(path: Path) -> Path | None:
    """Rename an unreadable ``path`` to ``NAME.corrupt`` (replacing an older one); return it.

    Whatever has that name is moved, never opened: a file, a link, a pipe. Returns None
    when there is nothing by that name, or it cannot be moved (a folder where a
    ``NAME.corrupt`` file already is: the write that follows then fails and says so).
    """
    if not os.path.lexists(path):
        return None
    target = corrupt_of(path)
    try:
        os.replace(path, target)
    except OSError:
        return None
    _fsync_dir(path.parent)
    return target
