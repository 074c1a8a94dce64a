"""Where Huit keeps its files: the platform's user data folder, or one chosen.

The folder is, in order: the ``--data-dir`` flag, the ``HUIT_DATA_DIR`` environment
variable (a kiosk points it at a persistent volume), else platformdirs' user data
folder for "Huit". Every file the game writes there has a name listed here, so
"Clear data" can delete exactly the game's files and nothing else.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Final

ENV_VAR: Final = "HUIT_DATA_DIR"
APP_NAME: Final = "Huit"

MODES: Final = ("solo", "hotseat")
"""The modes with a saved game on this device (online rooms keep seat keys instead)."""

SETTINGS: Final = "settings.json"
STATISTICS: Final = "statistics.json"
REVIEWS: Final = "reviews.json"
"""The last deals' reviews (`reviews`)."""
ROOMS: Final = "rooms.sqlite3"
"""The database of rooms this device hosted ("Host on this computer")."""
PLAYER: Final = "player.json"
"""This device's player online: the secret player key, each server's word on it (`player`)."""
ONLINE: Final = "online"
"""The folder of online seat keys, one file per room."""

SUFFIXES: Final = ("", ".bak", ".tmp", ".bak.tmp", ".corrupt")
"""A file, its previous good version, a write in progress, and an unreadable file kept aside."""

ROOM_ID: Final = r"[A-Za-z0-9_-]{1,64}"
"""What a room id looks like (the server's ids, and the names of the seat-key files)."""
ROOM_FILE: Final = re.compile(rf"^{ROOM_ID}\.json(\.bak|\.tmp|\.bak\.tmp|\.corrupt)?$")


def game_file(mode: str) -> str:
    """The file name of a mode's saved game.

    Raises:
        ValueError: not a mode in `MODES`.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    return f"{mode}.huit"


class DataFolderError(ValueError):
    """The data folder asked for can never hold the game's files; the message says why."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder for saves, settings, statistics and seat keys (not created here: see
    `make_data_dir`).

    Raises:
        DataFolderError: ``~user`` names a user this computer does not have, or ``~`` a home
            folder it cannot find (the message names the flag or ``HUIT_DATA_DIR``).
    """
    if override:
        return _expanded(override, "--data-dir")
    env = os.environ.get(ENV_VAR)
    if env:
        return _expanded(env, ENV_VAR)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _deletable(path: Path) -> bool:
    """A file, or a link, pipe or device left under one of the game's names (never a folder)."""
    return path.is_symlink() or (path.exists() and not path.is_dir())


def _expanded(folder: str | os.PathLike[str], source: str) -> Path:
    path = Path(folder)
    try:
        return path.expanduser()
    except RuntimeError:  # pathlib's answer to an unknown ~user, or to no home folder at all
        head = path.parts[0]
        what = f"there is no user {head[1:]!r} on this computer" if head != "~" else \
            "the home folder ~ stands for cannot be found"
        raise DataFolderError(f"{source} {_quoted(path)}: {what}") from None


def make_data_dir(root: Path) -> None:
    """Create the data folder if it is missing, so that a folder that can never be made is
    refused when the game or the server starts rather than at its first save.

    A folder that exists but refuses a write (read-only, full) is not refused here: that may
    change while the game runs, and each failed write is reported where it happens.

    Raises:
        DataFolderError: the path is a file, goes through a file, or cannot be created.
    """
    try:
        root.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFolderError(f"the data folder {_quoted(root)} is a file, not a folder") from None
    except NotADirectoryError:
        raise DataFolderError(f"the data folder {_quoted(root)} cannot be made: "
                              "part of its path is a file") from None
    except OSError as exc:
        raise DataFolderError(f"the data folder {_quoted(root)} cannot be made: "
                              f"{exc.strerror or exc}") from None


def _quoted(path: Path, limit: int = 160) -> str:
    text = str(path)
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


PROBE: Final = ".huit-probe.tmp"
"""The small file `safefile.probe_folder` writes and removes at once."""


def leftovers(root: Path) -> list[Path]:
    """The game's writes in progress left under its own names (``NAME.tmp``, ``NAME.bak.tmp``, the
    folder probe: a full disk, a killed process): never read, safe to delete when the game or the
    server starts. Only those exact names: a ``.tmp`` of any other name is not the game's."""
    temps = tuple(s for s in SUFFIXES if s.endswith(".tmp"))
    found = [p for p in own_files(root) if p.name.endswith(temps)]
    return found + ([root / PROBE] if _deletable(root / PROBE) else [])


def remove_leftovers(root: Path) -> list[Path]:
    """Delete the `leftovers` in ``root`` (call it at start, before anything is written there);
    return those deleted. One that cannot be deleted is left (and not listed)."""
    deleted = []
    for path in leftovers(root):
        try:
            path.unlink()
        except OSError:
            continue
        deleted.append(path)
    return deleted


def own_files(root: Path) -> list[Path]:
    """Every file under ``root`` that Huit wrote and may delete, and nothing else.

    Something else left under one of those names (a link, a pipe: what the game refused
    to read) is listed too, so that Clear data ends the complaint; a folder never is.
    """
    names = [game_file(m) for m in MODES] + [SETTINGS, STATISTICS, REVIEWS, PLAYER]
    found = [root / (n + s) for n in names for s in SUFFIXES if _deletable(root / (n + s))]
    found += [root / (ROOMS + s) for s in ("", "-wal", "-shm", "-journal") if (root / (ROOMS + s)).is_file()]
    online = root / ONLINE
    if online.is_dir():
        found += sorted(p for p in online.iterdir() if _deletable(p) and ROOM_FILE.match(p.name))
    return found
