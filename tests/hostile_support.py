"""Hostile files in a data folder, and the real game started on them, headless, in a subprocess.

A `Case` is what a test needs and nothing more: the files it puts in the data folder
(each as bytes, or a `Maker` that makes the thing at a path: a pipe, a link, a sparse
file), the line the player must see, and on which screen (the menu, or the online
lobby for seat keys). `twins` makes one hostile content into a case per data file it
applies to, each with the line that file's problem gets.

`start_game(folder, screen)` runs `game.client.launch.main` on that folder, in a process of
its own (a fork of a ``python -c`` that imported the game once: `Forks`), SDL's dummy drivers,
and the loop replaced: after the first frame of the menu
(or, for ``lobby``, after a real click on "Play with a friend") it records what the screen
shows, the CPU time the game took to get there (measured inside the subprocess, from
the call of ``main``), and every engine class attribute that changed, then quits as a
player would. `fingerprint` tells whether a file is still the same afterwards.

To add a case (a hostile pickle, say), append to a list of cases:
``Case("hash bomb", {"solo.huit": data}, SOLO.format(why="..."))`` or
``twins("hash bomb", lambda kind: data, "...", kinds=("game",))``.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import select
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
WALL_TIMEOUT: Final = 30.0  # seconds: only a hang gets near it
MENU: Final = "menu"
LOBBY: Final = "lobby"
ROOM: Final = "ROOM"  # the room id of the seat-key files

Maker = Callable[[Path], None]
Content = bytes | Maker


@dataclass(frozen=True)
class Case:
    """Files for the data folder (name relative to it: bytes or a maker), and the line shown for them."""

    name: str
    files: Mapping[str, Content]
    shows: str
    screen: str = MENU


@dataclass(frozen=True)
class Target:
    """A data file the game reads: its envelope kind, the line its problem gets, what must sit beside it."""

    name: str
    kind: str
    line: str
    screen: str = MENU
    beside: Mapping[str, bytes] = field(default_factory=dict)


KEPT: Final = " It is kept until you start a new game of that kind."
SOLO: Final = "The solo saved game could not be read: {why}." + KEPT
HOTSEAT: Final = "The same-device saved game could not be read: {why}." + KEPT
BACKUP: Final = "Its backup could not be used either: {why}."
SETTINGS: Final = "The settings could not be read ({why}); the defaults are in use."
STATISTICS: Final = ("The statistics could not be read ({why}); the file is kept as it is, and new "
                     "statistics start from zero.")
SEAT_KEY: Final = "Room " + ROOM + ": this device's key cannot be read ({why})."

TARGETS: Final = (
    Target("solo.huit", "game", SOLO),
    Target("hotseat.huit", "game", HOTSEAT),
    # A backup is read only when its save cannot be: an empty save beside it.
    Target("solo.huit.bak", "game", BACKUP, beside={"solo.huit": b""}),
    Target("hotseat.huit.bak", "game", BACKUP, beside={"hotseat.huit": b""}),
    Target("settings.json", "settings", SETTINGS),
    Target("settings.json.bak", "settings", SETTINGS),  # no settings.json: the backup is read
    Target("statistics.json", "statistics", STATISTICS),
    Target("statistics.json.bak", "statistics", STATISTICS),
    Target(f"online/{ROOM}.json", "seat", SEAT_KEY, LOBBY),
)
"""Every data file the game reads, and its backup where the game reads backups (not the seat keys')."""
JSON_KINDS: Final = ("settings", "statistics", "seat")
ALL_KINDS: Final = ("game", *JSON_KINDS)


def twins(name: str, content: Callable[[str], Content], why: str,
          kinds: tuple[str, ...] = ALL_KINDS) -> list[Case]:
    """One hostile content as a case per data file of ``kinds`` (``content(kind)`` makes it for that kind)."""
    return [Case(f"{name} as {t.name}", {**t.beside, t.name: content(t.kind)}, t.line.format(why=why),
                 t.screen) for t in TARGETS if t.kind in kinds]


# ---- makers --------------------------------------------------------------------------------------
def fifo(path: Path) -> None:
    """A named pipe: reading it waits for a writer that never comes."""
    os.mkfifo(path)


def link_to_dev_zero(path: Path) -> None:
    """A link to an endless stream of zeros."""
    os.symlink("/dev/zero", path)


def sparse_64_gib(path: Path) -> None:
    """A 64 GiB file that takes no room on the disk."""
    with open(path, "wb") as f:
        f.truncate(64 << 30)


def write(folder: Path, files: Mapping[str, Content]) -> None:
    """Put ``files`` in ``folder`` (sub-folders made as needed)."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            content(path)


def fingerprint(path: Path) -> tuple[object, ...]:
    """What a file is, without opening anything but a regular file: its type, a link's
    target, and a regular file's size, modification time and digest (of its first MiB
    when it is larger than that, so a 64 GiB sparse file costs nothing)."""
    st = os.lstat(path)
    kind = stat.S_IFMT(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        return kind, os.readlink(path)
    if not stat.S_ISREG(st.st_mode):
        return (kind,)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read(1 << 20)).hexdigest()
    return kind, st.st_size, st.st_mtime_ns, digest


# ---- the game in a subprocess --------------------------------------------------------------------
_SCRIPT: Final = r'''
import html, importlib, inspect, json, pkgutil, sys, time

import game.engine


def engine_classes():
    modules = [game.engine] + [importlib.import_module(m.name)
                               for m in pkgutil.walk_packages(game.engine.__path__, "game.engine.")]
    return {f"{c.__module__}.{c.__qualname__}": (c, dict(vars(c)))
            for m in modules for c in vars(m).values() if inspect.isclass(c) and c.__module__ == m.__name__}


def changed(before):
    out = []
    for name, (cls, attributes) in before.items():
        now = dict(vars(cls))
        out += [f"{name}.{a}" for a in sorted(set(now) | set(attributes))
                if a not in now or a not in attributes or now[a] is not attributes[a]]
    return out


def texts(scene):
    out = []
    for element in scene.manager.get_sprite_group().sprites():
        text = getattr(element, "html_text", None)
        if text is None:
            text = getattr(element, "text", None)
        if isinstance(text, str) and text:
            out += [html.unescape(line) for line in text.replace("<br>", "\n").split("\n")]
    return out


before = engine_classes()

import pygame

import game.client.app as app_module
import game.client.launch as launch

seen = {}


def click_on(app, label):
    for control in app.stack.top.controls:
        if control.element.text == label:
            x, y = control.element.rect.center
            for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                event = pygame.event.Event(kind, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0), button=1)
                pygame.event.post(event)
            return
    raise SystemExit(f"no {label!r} on {type(app.stack.top).__name__}")


def run(app):
    """The loop, until the screen asked for has been drawn once."""
    app.frame(1 / 60)
    if screen == "lobby":
        from game.client.i18n import tr

        click_on(app, tr("menu.online"))
        for _ in range(10):
            app.frame(1 / 60)
            if type(app.stack.top).__name__ == "LobbyScene":
                app.frame(1 / 60)
                break
    seen["cpu"] = time.process_time() - start
    seen["scene"] = type(app.stack.top).__name__
    seen["texts"] = texts(app.stack.top)
    app.shutdown()


# ---- the server: everything above is done once; each case runs in a fork of this process ----
import os


def serve():
    """Fork a child per request line (folder, screen, lang, output path); the parent says the
    child's pid, waits for it and says its exit code. The child returns the request."""
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            return request
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
    raise SystemExit(0)


request = serve()
# The child: its own output files, no standard input (as the former `python -c` per case, whose
# exceptions and exit code the test reads the same way: this script's end is the child's end).
with open(os.devnull, "rb") as nothing:
    os.dup2(nothing.fileno(), 0)
for fd, suffix in ((1, ".out"), (2, ".err")):
    with open(request["output"] + suffix, "wb") as stream:
        os.dup2(stream.fileno(), fd)
os.environ.clear()
os.environ.update(request["env"])
folder, screen, lang = request["folder"], request["screen"], request["lang"]
app_module.App.run = run
start = time.process_time()
code = launch.main(["--data-dir", folder, "--lang", lang, "--size", "1024x600"])
seen["code"] = code
seen["changed"] = changed(before)
seen["process_cpu"] = time.process_time()
print("HOSTILE-RESULT " + json.dumps(seen))
'''


@dataclass(frozen=True)
class Shown:
    """What the game did on a data folder."""

    scene: str
    lines: list[str]
    cpu: float
    """CPU seconds from the call of ``main`` to the screen drawn."""
    changed: list[str]
    """Engine class attributes (``module.Class.name``) added, removed or replaced."""


def game_env() -> dict[str, str]:
    """The environment the game runs in: this one, SDL's dummy drivers, the checkout importable,
    no data folder from the environment (the folder is given by ``--data-dir``)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("HUIT_DATA_DIR", None)
    return env


class Forks:
    """`_SCRIPT` started once (``python -c``: the engine, pygame and the client imported, the engine's
    classes noted), then forked per game: each game is a process of its own that starts from there,
    as a fresh ``python -c`` of the whole script would, without paying the imports again. The
    server is this test process's (one per pytest worker), stopped when it exits."""

    def __init__(self) -> None:
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (kept open with the server: its own output)
        self.process = subprocess.Popen([sys.executable, "-c", _SCRIPT], cwd=ROOT, env=game_env(),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
                                        bufsize=0)
        self.pending = b""

    def line(self, timeout: float) -> str | None:
        """The server's next line, or None when ``timeout`` seconds pass first."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                self.errors.seek(0)
                said = self.errors.read().decode(errors="replace")
                raise AssertionError(f"the game's fork server ended: {said}")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()

    def run(self, request: dict[str, object]) -> int:
        """Run one game (`_SCRIPT`'s request); its exit code. Raises `subprocess.TimeoutExpired`
        (the game killed) when it is not over within `WALL_TIMEOUT` seconds."""
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        started = self.line(WALL_TIMEOUT)
        assert started is not None and started.startswith("pid "), started
        ended = self.line(WALL_TIMEOUT)
        if ended is None:
            os.kill(int(started.split()[1]), signal.SIGKILL)
            self.line(WALL_TIMEOUT)
            what = [str(request[k]) for k in ("folder", "screen", "lang")]
            raise subprocess.TimeoutExpired(["python", "-c", "_SCRIPT", *what], WALL_TIMEOUT)
        assert ended.startswith("exit "), ended
        return int(ended.split()[1])

    def close(self) -> None:
        """Stop the server (its end of standard input closed: its loop ends)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.errors.close()


_forks: Forks | None = None


def forks() -> Forks:
    """This process's `Forks`, started on first use (again if it ended)."""
    global _forks
    if _forks is None or _forks.process.poll() is not None:
        _forks = Forks()
        atexit.register(_forks.close)
    return _forks


def start_game(folder: Path, screen: str = MENU, lang: str = "en") -> Shown:
    """Start the real game on ``folder`` headless, stop once ``screen`` is shown; what it showed.

    Raises:
        subprocess.TimeoutExpired: it did not get there within `WALL_TIMEOUT` (a hang).
        AssertionError: it failed (its output is in the message).
    """
    with tempfile.TemporaryDirectory() as scratch:
        output = os.path.join(scratch, "game")
        code = forks().run({"folder": str(folder), "screen": screen, "lang": lang, "output": output,
                            "env": game_env()})
        stdout = Path(output + ".out").read_text(errors="replace")
        stderr = Path(output + ".err").read_text(errors="replace")
    found = re.search(r"^HOSTILE-RESULT (.*)$", stdout, re.MULTILINE)
    assert code == 0 and found, f"exit {code}\n{stdout}\n{stderr}"
    seen = json.loads(found.group(1))
    assert seen["code"] == 0, seen
    return Shown(seen["scene"], seen["texts"], seen["cpu"], seen["changed"])
