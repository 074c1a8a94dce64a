"""``huit --check``: a smoke test for anyone packaging or deploying Huit.

It starts the real client on SDL's dummy video and audio drivers (no window, no sound
card needed), with a temporary data folder (the player's own is never read or written),
and goes where a player goes, by real taps and keys posted as pygame events: the menu,
Solo against the computer, every other seat made an Easy computer, Start, the autopilot
switched on (the O key: it plays the person's turns as Medium would), then the game
played at instant speed to the result screen. On the way it checks the shipped files
(the fonts draw the suit symbols, the theme loads, every sound effect loads into the
mixer, every icon size is there, every language's catalogue is there and read: the
compiled ``huit.mo`` in a wheel, the ``huit.po`` in a checkout) and that a helper
process of the Hard computers starts (they are spawned as fresh copies of the program,
which is what a frozen build most often gets wrong; not with ``--cores 1``, where the
game starts none). It prints one line per step and exits 0, or 1 with a line naming the
step that failed and why. It takes a few seconds.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from .app import App

STEP: Final = 1 / 60
MAX_FRAMES: Final = 30_000
"""Frames the computers get to finish the deal (a deal at instant speed takes a few hundred)."""
MAX_SECONDS: Final = 120.0
"""Wall-clock limit for the game itself, whatever the machine."""


HELPER_SECONDS: Final = 60.0
PROBE_ANSWER: Final = "huit helper ok"


def answer_probe(conn: Connection) -> None:
    """In a spawned process: prove it started and imported the game (`_Steps.helper`)."""
    from game.ai import parallel

    conn.send(PROBE_ANSWER if callable(parallel.serve) else "no helper code")
    conn.close()


class CheckFailed(Exception):
    """A step of the check went wrong (the message says what)."""


def run_check(size: tuple[int, int] = (1280, 800), language: str = "en", *, helpers: bool = True,
              out: TextIO | None = None) -> int:
    """Run the check (see the module docstring; ``helpers``: try a helper process); the exit code."""
    out = sys.stdout if out is None else out
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # before the display starts: set, not merely defaulted
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="huit-check-") as folder:
        steps = _Steps(Path(folder), size, language, out, helpers)
        try:
            steps.run()
        except CheckFailed as exc:
            print(f"Huit check failed: {exc}", file=sys.stderr)
            return 1
        finally:
            steps.close()
    print(f"Huit check passed in {time.perf_counter() - started:.1f} s", file=out)
    return 0


class _Steps:
    """The check's steps, in order, each named in what it prints."""

    def __init__(self, folder: Path, size: tuple[int, int], language: str, out: TextIO,
                 helpers: bool) -> None:
        self.folder = folder
        self.helpers = helpers
        self.size = size
        self.language = language
        self.out = out
        self.app: App | None = None

    def run(self) -> None:
        self.step("the shipped files", self.files)
        self.step("the window", self.window)
        self.step("the translations", self.translations)
        self.step("the menu", self.menu)
        self.step("the new-game form", self.new_game)
        self.step("a game on the autopilot", self.game)
        self.step("the result screen", self.result)
        if self.helpers:
            self.step("a helper process", self.helper)

    def step(self, name: str, body: Callable[[], str]) -> None:
        """Run one step; print its line, or raise `CheckFailed` naming it."""
        try:
            said = body()
        except CheckFailed as exc:
            raise CheckFailed(f"{name}: {exc}") from None
        except Exception as exc:  # anything at all: name the step and what broke, in one line
            where = traceback.extract_tb(exc.__traceback__)[-1]
            raise CheckFailed(f"{name}: {type(exc).__name__}: {exc} "
                              f"({Path(where.filename).name}:{where.lineno})") from None
        print(f"  {name}: {said}", file=self.out, flush=True)

    def close(self) -> None:
        """Wait for the writes into the temporary folder and close the display."""
        import pygame

        if self.app is not None:
            self.app.store.flush()
            self.app.stop_hosting()
        pygame.display.quit()

    # ---- the steps -------------------------------------------------------------------------------
    def files(self) -> str:
        import pygame

        from . import assets, ui

        pygame.font.init()
        ink = ui.font(24).render("♠♥♦♣ 8", True, (0, 0, 0)).get_bounding_rect()
        if ink.width < 40:
            raise CheckFailed("the font draws no suit symbols")
        ui.theme(1.0)
        for size in assets.ICON_SIZES:
            assets.path("icons", assets.icon_name(size))
        assets.path("fonts", "LICENSE-DejaVu.txt")
        return f"fonts, theme, {len(assets.ICON_SIZES)} icons"

    def window(self) -> str:
        from game.ai import use_cores
        from game.saves import DataStore

        from .app import App
        from .settings import Settings

        use_cores(1)  # Easy computers need no helper processes
        store = DataStore(self.folder)
        settings = Settings(language=self.language, speed="instant")
        self.app = app = App(self.size, settings=settings, sound=True, store=store)
        if not app.sound.available or app.sound.problem is not None:
            raise CheckFailed(f"the sounds: {app.sound.problem or 'none loaded'}")
        return f"{app.size[0]}x{app.size[1]}, sounds loaded"

    def translations(self) -> str:
        from . import catalogues
        from .i18n import LANGUAGES

        read = set()
        for lang in LANGUAGES:
            found = catalogues.source(lang)
            if found is None:
                raise CheckFailed(f"the {lang} catalogue is missing (locale/{lang}/LC_MESSAGES): "
                                  "reinstall Huit")
            if not catalogues.load(lang).get("menu.new"):
                raise CheckFailed(f"the {lang} catalogue ({found.name}) cannot be read")
            read.add(found.name)
        return f"{' '.join(LANGUAGES)}, read from {' and '.join(sorted(read))}"

    def menu(self) -> str:
        app = self._app()
        app.go_to_menu()
        app.stack.apply_requests()
        app.frame(STEP)
        self._expect("MenuScene")
        self._tap(self._label("menu.solo"))
        self._expect("NewGameScene")
        return "Solo against the computer tapped"

    def new_game(self) -> str:
        from .i18n import tr
        from .scenes.newgame import CYCLES, NewGameScene

        form = self._app().stack.top
        if not isinstance(form, NewGameScene):
            raise CheckFailed(f"expected the NewGameScene, found the {self._top()}")
        for seat in range(1, form.players):  # seat 1 is the person's; the others step to Easy
            for _ in range(4):
                kind = form.kinds[seat]
                if kind == "easy":
                    break
                self._tap(tr("fmt.pair", label=tr("new.seat", n=seat + 1), value=tr(f"new.{kind}")) + CYCLES)
        seats = form.seats()
        if not seats[0].is_human or any(s.is_human or s.level != "easy" for s in seats[1:]):
            raise CheckFailed(f"the seats are not you and Easy computers: {seats}")
        self._tap(self._label("new.start"))
        self._expect("TableScene")
        return f"you and {form.players - 1} Easy computers, Start tapped"

    def game(self) -> str:
        app = self._app()
        table = app.stack.top
        controller = getattr(table, "controller", None)
        if controller is None:
            raise CheckFailed("the table has no game")
        self._key("o")  # the autopilot plays the person's turns from now on
        if not controller.autopilot(0):
            raise CheckFailed("the O key did not switch the autopilot on")
        deadline = time.perf_counter() + MAX_SECONDS
        for frames in range(MAX_FRAMES):
            if self._top() == "ResultScene":
                break
            if time.perf_counter() > deadline:
                raise CheckFailed(f"no result after {MAX_SECONDS:.0f} s ({frames} frames); "
                                  f"the top screen is {self._top()}")
            app.frame(STEP)
        else:
            raise CheckFailed(f"no result after {MAX_FRAMES} frames; the top screen is {self._top()}")
        moves = len(getattr(controller, "history", ()))
        return f"played to the end of the deal in {frames} frames ({moves} events)"

    def result(self) -> str:
        from .scenes.result import ResultScene

        app = self._app()
        result = app.stack.top
        if not isinstance(result, ResultScene) or result.view.result is None:
            raise CheckFailed("the result screen shows no result")
        app.frame(STEP)
        app.draw()
        if app.sound.plays == 0:
            raise CheckFailed("no sound reached the mixer during the game")
        return f"{result.headline()} ({app.frames} frames, {app.draws} drawn, {app.sound.plays} sounds)"

    def helper(self) -> str:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # as the Hard computers' helpers start
        mine, theirs = context.Pipe()
        process = context.Process(target=answer_probe, args=(theirs,), name="huit-check-helper", daemon=True)
        process.start()
        try:
            if not mine.poll(HELPER_SECONDS):
                raise CheckFailed(f"a spawned helper did not answer within {HELPER_SECONDS:.0f} s")
            said = mine.recv()
        finally:
            process.join(HELPER_SECONDS)
            if process.is_alive():
                process.kill()
        if said != PROBE_ANSWER:
            raise CheckFailed(f"a spawned helper answered {said!r}")
        return "spawned, answered and ended"

    # ---- helpers ---------------------------------------------------------------------------------
    def _app(self) -> App:
        if self.app is None:
            raise CheckFailed("the client did not start")
        return self.app

    def _top(self) -> str:
        return type(self._app().stack.top).__name__

    def _expect(self, name: str) -> None:
        if self._top() != name:
            raise CheckFailed(f"expected the {name}, found the {self._top()}")

    @staticmethod
    def _label(key: str) -> str:
        from .i18n import tr

        return tr(key)

    def _key(self, name: str) -> None:
        """Press and release a key on the top screen (real KEYDOWN and KEYUP events)."""
        import pygame

        key = pygame.key.key_code(name)
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=name, scancode=0))
        self._app().frame(STEP)

    def _tap(self, label: str) -> None:
        """Tap the top screen's button labelled ``label`` (a real FINGERDOWN and FINGERUP)."""
        import pygame

        app = self._app()
        controls = getattr(app.stack.top, "controls", [])
        found = [c.element.rect.center for c in controls if c.element.text == label]
        if not found:
            shown = [c.element.text for c in controls]
            raise CheckFailed(f"no button {label!r} on the {self._top()} (it has {shown})")
        w, h = app.size
        x, y = found[0][0] / w, found[0][1] / h
        common = {"touch_id": 1, "finger_id": 1, "x": x, "y": y, "dx": 0.0, "dy": 0.0, "pressure": 1.0}
        pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, **common))
        pygame.event.post(pygame.event.Event(pygame.FINGERUP, **common))
        for _ in range(2):  # pygame_gui reports a press on the next frame
            app.frame(STEP)
