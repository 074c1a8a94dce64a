"""The files the game ships: fonts with their licence, the pygame_gui theme, the sound effects
and the icon, kept as package data under ``game/assets`` and read through `importlib.resources`.

Nothing here computes a path from the source tree, so the same code finds the files in a
checkout, an editable install, a wheel installed into site-packages and a PyInstaller bundle.
pygame opens fonts and sounds by file name, so `path` gives a real file: the file itself
whenever the package lives in folders (every case above); should the package ever be
imported from a zip archive, the file is copied once to a temporary folder that is removed
when the process ends.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

PACKAGE: Final = "game"
FOLDER: Final = "assets"

ICON_SIZES: Final = (16, 32, 48, 64, 128, 256, 512)
"""The sizes of the shipped icon, in pixels (square): the hicolor theme's usual ones."""

_extracted: dict[tuple[str, ...], Path] = {}
_copies = contextlib.ExitStack()  # temporary copies made for a zipped package, removed at exit
_lock = threading.Lock()
atexit.register(_copies.close)


class MissingAsset(FileNotFoundError):
    """A shipped file is not there: the installation is incomplete."""


def resource(*parts: str) -> Traversable:
    """The shipped file or folder ``assets/PARTS…`` (not necessarily on the file system)."""
    return files(PACKAGE).joinpath(FOLDER, *parts)


def read_text(*parts: str) -> str:
    """The text of a shipped file (UTF-8).

    Raises:
        MissingAsset: the file is not there.
    """
    found = resource(*parts)
    if not found.is_file():
        raise MissingAsset(f"the game's file {'/'.join((FOLDER, *parts))} is missing: reinstall Huit")
    return found.read_text(encoding="utf-8")


def path(*parts: str) -> Path:
    """A real file name for the shipped file ``assets/PARTS…`` (pygame opens files by name).

    Raises:
        MissingAsset: the file is not there.
    """
    with _lock:
        known = _extracted.get(parts)
        if known is not None:
            return known
        found = resource(*parts)
        if not found.is_file():
            raise MissingAsset(f"the game's file {'/'.join((FOLDER, *parts))} is missing: reinstall Huit")
        # In folders: the file itself; in a zip: a temporary copy, kept for the life of the process.
        real = found if isinstance(found, Path) else _copies.enter_context(as_file(found))
        _extracted[parts] = real
        return real


def icon_name(size: int) -> str:
    """The file name of the icon at ``size`` pixels: ``huit-48.png``."""
    return f"huit-{size}.png"
