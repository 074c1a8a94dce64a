"""The harness of `tests/test_screen_current.py`: the loop left to run at rest as `App.run` runs it
(`settle`: lazy frames, `App.due`, its rests, in simulated time), a full redraw of every visible
scene to compare with (`reference`), and `Walk`, which takes a step by real events and checks the
frame shown against that redraw. Also the raw key and text events an accented letter arrives as."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from game.client import registry, ui
from game.client.app import App
from game.client.pacing import FRAME
from tests.client_support import click, labels, rect_of, tap, top_name

SIZES = [(1024, 600), (1920, 1080)]
REST_LIMIT = 8.0  # simulated seconds a step is left to run at most (a text cursor blinks forever)
MOVING_LIMIT = 30.0  # simulated seconds past the limit a step may go on moving (card flights...)
SCENE_NAMES = {cls: name for name, (_, cls) in registry.SCENES.items()}


# ---- the loop at rest, and the comparison --------------------------------------------------------
def settle(app: App, limit: float = REST_LIMIT, *, woken: bool = True) -> None:
    """Run the loop as `App.run` does after input, with no more input.

    The input wakes a loop at rest: its frame hands the rest to the top scene (``rested``), then
    takes the events, with the fixed-step accumulator empty (the worst case, which a real loop
    meets at random: the frame that applies an input runs no fixed step). Then a frame at once
    while input is queued (pygame_gui's own notices: `Pacer.rest` returns at once), frames at the
    display's rate while something moves, or a rest as long as what is due next (handed to the
    next frame as ``rested``); it stops when nothing is due (the loop would sleep until input) or,
    after ``limit`` simulated seconds, between two frames that are not moving (a text cursor
    blinks, a turn clock ticks forever). ``woken=False``: go on from where the last call stopped
    (no input frame). Every frame is lazy: drawn only when `App.needs_drawing`."""
    if woken:
        app.accumulator = 0.0
        rested = 0.25  # the player took a moment
        elapsed = rested + 0.001
    else:
        due = app.due()
        if due is None:
            return
        elapsed, rested = (FRAME, 0.0) if due < FRAME else (due, due)
    spent = 0.0
    while True:
        app.frame(elapsed, rested=rested, lazy=True)
        if pygame.event.peek():
            elapsed, rested = 0.001, 0.0
            continue
        due = app.due()
        if due is None or spent >= limit and due >= FRAME:
            return  # at rest, or only waiting for something later (a cursor's blink, a clock)
        assert spent < limit + MOVING_LIMIT, f"still moving after {spent:.1f} s with no input"
        if due < FRAME:
            elapsed, rested = FRAME, 0.0
        else:
            elapsed = rested = due
        spent += elapsed


def reference(app: App) -> pygame.Surface:
    """A full redraw of what is now: every visible scene's pygame_gui widgets made to finish what
    they hold for their next updates (a few updates that let no time pass: a text cursor's blink
    is held where it is), then every visible scene drawn, bottom first, into a surface of the
    window's size and format."""
    surface = pygame.Surface(app.screen.get_size(), 0, app.screen)  # the window's format
    surface.fill((255, 0, 255))  # anything a scene leaves undrawn shows
    for scene in app.stack.visible():
        manager = getattr(scene, "manager", None)
        if manager is not None:
            for element in manager.get_sprite_group().sprites():
                if isinstance(element, pygame_gui.elements.UITextEntryLine):
                    element.blink_cursor_time_acc = 0.0  # no blink in the updates below
            for _ in range(6):
                manager.update(0.0)
        scene.draw(surface)
    return surface


def differing_rows(a: pygame.Surface, b: pygame.Surface) -> tuple[int, int] | None:
    """The first and last row where ``a`` and ``b`` (of one size and pixel format) differ, or None."""
    w, h = a.get_size()
    if bytes(a.get_view("1")) == bytes(b.get_view("1")):  # the pixels as they are: no conversion
        return None
    one, two = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    if one == two:  # only the unused byte of each pixel differs
        return None
    stride = 3 * w
    rows = [y for y in range(h) if one[y * stride:(y + 1) * stride] != two[y * stride:(y + 1) * stride]]
    return rows[0], rows[-1]


class Walk:
    """Steps taken by real events; after each, the loop at rest and the comparison."""

    def __init__(self, app: App, label: str) -> None:
        self.app = app
        self.label = label
        self.visited: set[str] = set()
        self.steps = 0
        self.failures: list[str] = []

    def check(self, what: str, *, limit: float | None = REST_LIMIT) -> None:
        """Let the loop run with no more input: the frame shown must be a full redraw of the
        current state when the loop first rests (what a touchscreen shows after the tap), and
        again after ``limit`` seconds (nothing that happens later by itself is left undrawn;
        None: the first rest only, for a screen whose later is another step, a kiosk's menu)."""
        settle(self.app, 0.0)
        self.compare(what, "at the first rest")
        if limit is None:
            return
        settle(self.app, limit, woken=False)
        self.compare(what, f"{limit:g} s later")

    def compare(self, what: str, when: str) -> None:
        app = self.app
        self.steps += 1
        shown = app.screen.copy()
        fresh = reference(app)
        names = [SCENE_NAMES.get(type(s).__name__, type(s).__name__) for s in app.stack.visible()]
        self.visited.update(names)
        rows = differing_rows(shown, fresh)
        if rows is not None:
            folder = Path(tempfile.gettempdir()) / "huit-screen-current"
            folder.mkdir(exist_ok=True)
            stem = f"{self.label}-{self.steps:02d}"
            pygame.image.save(shown, folder / f"{stem}-shown.png")
            pygame.image.save(fresh, folder / f"{stem}-redrawn.png")
            self.failures.append(f"step {self.steps} ({what}, {when}, scenes {names}): rows "
                                 f"{rows[0]}-{rows[1]} differ ({folder}/{stem}-*.png)")
        moving = app.due()
        if moving is not None and moving < FRAME:
            self.failures.append(f"step {self.steps} ({what}, {when}): still asks for frames at the "
                                 f"display's rate (scenes {names})")

    def finish(self) -> None:
        """Fail with every step whose frame was not a full redraw of the current state."""
        assert not self.failures, (f"{self.label}: the frame shown is not a full redraw of the current "
                                   "state after " + "; ".join(self.failures))

    # ---- input, as the player gives it (then `check`) --------------------------------------
    def tap(self, label: str, what: str = "", *, limit: float | None = REST_LIMIT) -> None:
        tap(self.app, rect_of(self.app, label).center, frames=0)
        self.check(what or f"tap {label!r}", limit=limit)

    def tap_starting(self, start: str, what: str = "") -> None:
        found = [text for text in labels(self.app) if text.startswith(start)]
        assert found, f"no button starting {start!r} on {top_name(self.app)}"
        self.tap(found[0], what)

    def click(self, pos: tuple[int, int], what: str) -> None:
        click(self.app, pos, frames=0)
        self.check(what)

    def key(self, key: int, what: str, unicode: str = "", *, limit: float | None = REST_LIMIT) -> None:
        post_key(key, unicode)
        self.check(what, limit=limit)

    def rests_between_changes(self, what: str, seconds: float, most: int) -> None:
        """Left ``seconds`` (simulated) with no input, the loop draws at most ``most`` frames (a
        clock that changes once a second is drawn once a second, not at the display's rate), and
        the frame shown is then a full redraw."""
        before = self.app.draws
        settle(self.app, seconds, woken=False)
        drawn = self.app.draws - before
        if drawn > most:
            self.failures.append(f"{what}: {drawn} frames drawn in {seconds:g} s with no input "
                                 f"(at most {most} expected)")
        self.compare(what, f"{seconds:g} s at rest")

    def texts(self) -> list[str]:
        """The texts the scenes draw with `ui` now (recorded while `reference` redraws them aside:
        the screen and the scenes' dirty marks are left as they are)."""
        with ui.recording() as drawn:
            reference(self.app)
        return [d.text for d in drawn]

    def until(self, done: Callable[[], bool], seconds: float = 20.0) -> None:
        """Online: real frames until ``done()`` (the server answers in its own time)."""
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            self.app.frame(1 / 60, lazy=True)  # as the loop: drawn only when something changed
            time.sleep(0.002)
        assert done(), f"{self.label}: waited {seconds} s in vain on {top_name(self.app)}"


def post_key(key: int, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=unicode, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=unicode, scancode=0))


def type_accent_by_text(char: str) -> None:
    """A letter as SDL sends a key that makes it directly (an é key): its key, then its text."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=char, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=0, mod=0, unicode="", scancode=0))


def type_accent_by_dead_key(accent: str, letter: str, char: str) -> None:
    """A dead key then a letter, as SDL sends them through an input method: the dead key's press
    (no text) and its composition shown (TEXTEDITING), then the letter's press, the composition
    ended (an empty TEXTEDITING) and the composed letter as TEXTINPUT."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text=accent, start=1, length=0, window=None))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=0, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(letter), mod=0, unicode=char, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text="", start=0, length=0, window=None))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=ord(letter), mod=0, unicode="", scancode=0))
