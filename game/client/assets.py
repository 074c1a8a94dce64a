"""The files the game ships: fonts with their licence, the pygame_gui theme, the sound effects
and the icon, kept in the checkout's top-level ``assets/`` folder.

Where they are depends on how the game runs, and `folder` is the one place that knows:

- from a checkout (``python main.py``, an editable install): the checkout's ``assets/``,
  beside the ``game`` package and the ``pyproject.toml`` that names the project;
- from an installed wheel or a PyInstaller bundle: package data, ``game/assets`` inside the
  package (the wheel's build copies the folder there, ``setup.py``; ``huit.spec`` does the
  same for the bundle), read through `importlib.resources`.

pygame opens fonts and sounds by file name, so `path` gives a real file: the file itself
whenever the package lives in folders (every case above); should the package ever be
imported from a zip archive, the file is copied once to a temporary folder that is removed
when the process ends.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import threading
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

PACKAGE: Final = "game"
FOLDER: Final = "assets"
"""The folder's name, in a checkout (beside the package) and in the package (``game/assets``)."""
PROJECT_FILE: Final = "pyproject.toml"
"""What marks a checkout: the project's file beside the ``game`` package (never in site-packages)."""

ICON_SIZES: Final = (16, 32, 48, 64, 128, 256, 512)
"""The sizes of the shipped icon, in pixels (square): the hicolor theme's usual ones."""

_extracted: dict[tuple[str, ...], Path] = {}
_copies = contextlib.ExitStack()  # temporary copies made for a zipped package, removed at exit
_lock = threading.Lock()
atexit.register(_copies.close)


class MissingAsset(FileNotFoundError):
    """A shipped file is not there: the installation is incomplete."""


@functools.cache
def folder() -> Traversable:
    """The folder of the shipped files: the checkout's ``assets/``, else the package's ``game/assets``.

    The checkout is recognised by its ``pyproject.toml`` beside the package, so an installed
    game never reads an unrelated ``assets`` folder that happens to sit beside it.
    """
    package = files(PACKAGE)
    if isinstance(package, Path):
        checkout = package.parent
        if (checkout / PROJECT_FILE).is_file() and (checkout / FOLDER).is_dir():
            return checkout / FOLDER
    return package.joinpath(FOLDER)


def resource(*parts: str) -> Traversable:
    """The shipped file or folder ``assets/PARTS…`` (not necessarily on the file system)."""
    return folder().joinpath(*parts)


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
