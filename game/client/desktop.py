"""Desktop integration on Linux (XDG): ``huit --install-desktop`` and ``--uninstall-desktop``.

For the current user only, install writes:

- ``$XDG_DATA_HOME/applications/huit.desktop``: the menu entry, whose ``Exec`` line starts
  this same Huit (the ``huit`` command, the bundle's executable, or ``python main.py`` of
  a checkout) with the clicked link (``%u``), and which declares the ``huit://`` and
  ``huits://`` links (``MimeType=x-scheme-handler/huit;x-scheme-handler/huits;``);
- ``$XDG_DATA_HOME/icons/hicolor/NxN/apps/huit.png`` at each of `assets.ICON_SIZES`
  (an 8 on a card, drawn by ``python -m tools.icon`` and shipped as package data);
- in ``$XDG_CONFIG_HOME/mimeapps.list``, ``huit.desktop`` first in the lists of
  ``x-scheme-handler/huit`` and ``x-scheme-handler/huits`` under ``[Default Applications]``
  and ``[Added Associations]``, every other line of the file kept as it was.

Uninstall removes exactly that: the entry (only if it is Huit's), the icons (and the size
folders they leave empty), and ``huit.desktop`` from those four lists (a list it leaves
empty goes, and so does a group left empty, or the file if nothing else is in it). A list
that named other applications before the install is written back as it was.

Nothing here needs a display, and nothing imports pygame.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from . import assets

DESKTOP_ID: Final = "huit.desktop"
ICON_NAME: Final = "huit"
SCHEMES: Final = ("huit", "huits")
MIME_TYPES: Final = tuple(f"x-scheme-handler/{scheme}" for scheme in SCHEMES)
GROUPS: Final = ("Default Applications", "Added Associations")
MARK: Final = "X-Huit-Installed-By=huit --install-desktop"
"""A line only Huit's own entry has: uninstall never removes someone else's ``huit.desktop``."""
WM_CLASS: Final = "huit"
"""The window's class (X11) and app id (Wayland), so the desktop matches the window to the entry."""


class DesktopError(Exception):
    """Desktop integration is not possible here (the message says why)."""


@dataclass
class Report:
    """What an install or uninstall did, to tell the person."""

    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """A line per file and note."""
        return ([f"wrote {p}" for p in self.written] + [f"removed {p}" for p in self.removed]
                + self.notes)


# ---- where -----------------------------------------------------------------------------------
def _xdg(variable: str, default: str) -> Path:
    """An XDG base folder: the variable when it is an absolute path (the spec ignores others)."""
    value = os.environ.get(variable, "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / default


def data_home() -> Path:
    """``$XDG_DATA_HOME``, else ``~/.local/share``."""
    return _xdg("XDG_DATA_HOME", ".local/share")


def config_home() -> Path:
    """``$XDG_CONFIG_HOME``, else ``~/.config``."""
    return _xdg("XDG_CONFIG_HOME", ".config")


def entry_path(data: Path) -> Path:
    """Where the menu entry goes."""
    return data / "applications" / DESKTOP_ID


def icon_paths(data: Path) -> dict[int, Path]:
    """Where each size of the icon goes, by size."""
    return {size: data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{ICON_NAME}.png"
            for size in assets.ICON_SIZES}


# ---- what to run -----------------------------------------------------------------------------
def launch_command(argv0: str | None = None) -> list[str]:
    """The command that starts this same Huit: the bundle's executable, the ``huit`` command
    this process was started as, ``python main.py`` of a checkout, else ``python -m game``."""
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: its executable
        return [os.path.abspath(sys.executable)]
    first = sys.argv[0] if argv0 is None else argv0
    if first and os.path.basename(first) == "main.py" and os.path.isfile(first):
        return [os.path.abspath(sys.executable), os.path.abspath(first)]
    if first and os.path.basename(first) in ("huit", "huit.exe") and os.path.isfile(first):
        return [os.path.abspath(first)]
    return [os.path.abspath(sys.executable), "-m", "game"]


_RESERVED: Final = re.compile(r"""[\s"'\\><~|&;$*?#()`]""")


def exec_value(command: Sequence[str]) -> str:
    """``command`` followed by ``%u``, as the ``Exec`` value of a desktop entry (its quoting
    rules, then the escapes of a string value).

    Raises:
        DesktopError: an argument holds a line break or a control character.
    """
    words = []
    for arg in command:
        if any(ord(c) < 32 or ord(c) == 127 for c in arg):
            raise DesktopError(f"cannot write a desktop entry for a command with control characters: {arg!r}")
        arg = arg.replace("%", "%%")
        if _RESERVED.search(arg) or not arg:
            arg = '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'
        words.append(arg)
    words.append("%u")
    return " ".join(words).replace("\\", "\\\\")


def desktop_entry(command: Sequence[str]) -> str:
    """The text of ``huit.desktop`` for ``command``."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=Huit",
        "GenericName=Crazy Eights",
        "GenericName[fr]=Huit américain",
        "Comment=Crazy Eights in five rule sets, alone, hot-seat or online",
        "Comment[fr]=Le huit américain en cinq variantes, seul, à plusieurs ou en ligne",
        f"Exec={exec_value(command)}",
        f"Icon={ICON_NAME}",
        "Terminal=false",
        "Categories=Game;CardGame;",
        "Keywords=cards;crazy eights;huit;",
        "MimeType=" + "".join(f"{m};" for m in MIME_TYPES),
        f"StartupWMClass={WM_CLASS}",
        MARK,
        "",
    ])


# ---- mimeapps.list ---------------------------------------------------------------------------
_GROUP: Final = re.compile(r"^\[(.*)\]\s*$")


def _items(value: str) -> list[str]:
    return [item.strip() for item in value.split(";") if item.strip()]


def register(text: str) -> str:
    """``text`` (a mimeapps.list) with ``huit.desktop`` first for each of `MIME_TYPES` in each
    of `GROUPS`; every other line as it was. A list that named others keeps them after it."""
    lines = text.splitlines()
    for group in GROUPS:
        start, end = _group_span(lines, group)
        if start is None:
            if lines and lines[-1].strip():
                lines.append("")
            lines.append(f"[{group}]")
            start, end = len(lines) - 1, len(lines)
        for mime in MIME_TYPES:
            index = _key_line(lines, start, end, mime)
            if index is None:
                lines.insert(end, f"{mime}={DESKTOP_ID};")
                end += 1
                continue
            value = lines[index].split("=", 1)[1]
            if _items(value)[:1] != [DESKTOP_ID]:
                lines[index] = f"{mime}={DESKTOP_ID};{value.lstrip()}"
    return "\n".join(lines) + "\n"


def unregister(text: str) -> str:
    """``text`` without ``huit.desktop`` in the lists of `MIME_TYPES` in `GROUPS` (what
    `register` added: a list that held only it goes, and so does a group left empty)."""
    lines = text.splitlines()
    for group in GROUPS:
        start, end = _group_span(lines, group)
        if start is None:
            continue
        for mime in MIME_TYPES:
            index = _key_line(lines, start, end, mime)
            if index is None:
                continue
            value = lines[index].split("=", 1)[1]
            if DESKTOP_ID not in _items(value):
                continue
            prefix = f"{DESKTOP_ID};"
            rest = value[len(prefix):] if value.startswith(prefix) else ";".join(
                item for item in value.split(";") if item.strip() != DESKTOP_ID)
            if _items(rest):
                lines[index] = f"{mime}={rest}"
            else:
                del lines[index]
                end -= 1
        if not any(line.strip() and not line.lstrip().startswith("#") for line in lines[start + 1:end]):
            del lines[start:end]
            if start == len(lines) and start > 0 and not lines[start - 1].strip():
                del lines[start - 1]  # the blank line `register` put before a group it added at the end
    return "\n".join(lines) + "\n" if lines else ""


def _group_span(lines: list[str], group: str) -> tuple[int | None, int]:
    """The line of ``[group]`` and the line after its last (the next group's, or the end)."""
    start = None
    for i, line in enumerate(lines):
        found = _GROUP.match(line.strip())
        if found is None:
            continue
        if start is not None:
            end = i
            while end - 1 > start and not lines[end - 1].strip():
                end -= 1  # blank lines before the next group stay with it
            return start, end
        if found[1] == group:
            start = i
    if start is None:
        return None, len(lines)
    end = len(lines)
    while end - 1 > start and not lines[end - 1].strip():
        end -= 1
    return start, end


def _key_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    for i in range(start + 1, end):
        name, eq, _ = lines[i].partition("=")
        if eq and name.strip() == key:
            return i
    return None


# ---- install, uninstall ----------------------------------------------------------------------
def _check_platform() -> None:
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        raise DesktopError("--install-desktop is for Linux desktops (XDG); on Windows and macOS, "
                           "docs/install.md says how to register the huit:// links")


def _write(path: Path, data: bytes) -> None:
    """Write ``path`` whole (a temporary file renamed over it), creating its folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def install(command: Sequence[str] | None = None, *, data: Path | None = None,
            config: Path | None = None) -> Report:
    """Write the menu entry and the icons, and register the links (see the module docstring).

    Raises:
        DesktopError: not an XDG platform, or the command cannot be written in an entry.
        OSError: a file could not be written.
    """
    _check_platform()
    data = data_home() if data is None else data
    config = config_home() if config is None else config
    report = Report()
    text = desktop_entry(launch_command() if command is None else command)
    entry = entry_path(data)
    _write(entry, text.encode("utf-8"))
    entry.chmod(0o755)  # some desktops only launch an executable entry from the user's folder
    report.written.append(entry)
    for size, target in icon_paths(data).items():
        _write(target, assets.path("icons", assets.icon_name(size)).read_bytes())
        report.written.append(target)
    mimeapps = config / "mimeapps.list"
    before = mimeapps.read_text(encoding="utf-8") if mimeapps.is_file() else ""
    after = register(before)
    if after != before:
        _write(mimeapps, after.encode("utf-8"))
        report.written.append(mimeapps)
    report.notes.append(f"Huit opens {' and '.join(s + '://' for s in SCHEMES)} links: "
                        f"{' '.join(text.split('Exec=', 1)[1].splitlines()[0].split())}")
    return report


def uninstall(*, data: Path | None = None, config: Path | None = None) -> Report:
    """Remove what `install` wrote (see the module docstring).

    Raises:
        DesktopError: not an XDG platform.
        OSError: a file could not be removed or rewritten.
    """
    _check_platform()
    data = data_home() if data is None else data
    config = config_home() if config is None else config
    report = Report()
    entry = entry_path(data)
    if entry.is_file():
        if MARK in entry.read_text(encoding="utf-8", errors="replace").splitlines():
            entry.unlink()
            report.removed.append(entry)
        else:
            report.notes.append(f"left {entry}: it is not the entry Huit wrote")
    for target in icon_paths(data).values():
        if target.is_file():
            target.unlink()
            report.removed.append(target)
            for folder in (target.parent, target.parent.parent):  # NxN/apps, then NxN, if now empty
                try:
                    folder.rmdir()
                except OSError:
                    break
    mimeapps = config / "mimeapps.list"
    if mimeapps.is_file():
        before = mimeapps.read_text(encoding="utf-8")
        after = unregister(before)
        if after != before:
            if after:
                _write(mimeapps, after.encode("utf-8"))
                report.written.append(mimeapps)
            else:
                mimeapps.unlink()
                report.removed.append(mimeapps)
    if not report.removed and not report.written:
        report.notes.append("nothing to remove: Huit was not installed on this desktop")
    return report
