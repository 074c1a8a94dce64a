"""The window, the fixed-timestep loop and input normalisation (started by `launch.main`).

Loop ("Fix your timestep"): real frame time is accumulated and the scenes update
in steps of ``STEP`` (1/60 s), at most ``MAX_STEPS`` per frame (a long frame is
clamped rather than replayed), then the visible scenes draw.

At rest the loop rests (`App.run`, `game.client.pacing`): after each frame it asks
when the next one is due (`App.due`: the top scene's `Scene.next_frame`, the kiosk
idle timeout, writes in flight). While something moves, frames come at the
display's rate (60 per second). Otherwise the loop sleeps until input comes, a
stop signal arrives or the next thing falls due, and the time it slept is handed
to the top scene as one long update before the input that woke it (so a
computer's 0.9 s think takes 0.9 s, however few frames are drawn, and a long rest
never replays a burst of steps). A frame is drawn only when something changed: a
scene marked itself `Scene.dirty` (an animation does at every update; the app marks
the top scene when it uses an input event), or the visible scenes or the window
changed. A scene just shown (or shown again) gets one update before any rest. So
whenever the loop rests, the frame on screen is a full redraw of the current state
(held by ``tests/test_screen_current.py``).

Stop signals (SIGTERM from a service manager, SIGINT from Ctrl-C, SIGHUP) end the
game in every mode, kiosk included: the loop saves the game and any settings being
edited, stops a hosted server, waits for the writes, and `launch.main` returns 0, which
service managers count as a clean stop (systemd would also accept death by the
signal; 128 + the signal's number would count as a failure).

Input: mouse and touch reach scenes as one kind of event. SDL is asked not to
turn touches into mouse events, and any it still sends (``event.touch``) are
dropped; ``FINGER*`` events become ``MOUSEBUTTON*``/``MOUSEMOTION`` events at pixel
positions. So pygame_gui screens and the table each see every tap exactly once.

Data: settings, saved games and statistics live in one folder (`game.saves`): the
``--data-dir`` flag, else ``HUIT_DATA_DIR``, else the platform's user data folder.
The game on the table is saved when leaving it, on quit and on window close (and
after every action: see `saving`).

Online: ``python main.py huit://HOST:PORT/ROOM`` (or ``huits://…``, or the room page's
``https://HOST/r/ROOM``) opens straight into that room; a room server started from the
lobby ("Host on this computer") runs until quit.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import warnings
from typing import TYPE_CHECKING, Any, Final

os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
# We draw into a software surface; SDL's texture "framebuffer acceleration" only adds a copy
# (measured under X11 without a GPU: p95 frame 13.5 ms with it, 3.3 ms without).
os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.saves import DataStore  # noqa: E402

from . import i18n, keymap, registry  # noqa: E402
from .attract import ATTRACT_AFTER, kiosk_due, kiosk_idle  # noqa: E402
from .attract import KIOSK_IDLE as KIOSK_IDLE  # noqa: E402  (re-exported: seconds idle before the menu)
from .pacing import FRAME, Pacer  # noqa: E402
from .scene import Scene, SceneStack  # noqa: E402
from .settings import Settings  # noqa: E402
from .sound import SoundBoard  # noqa: E402
from .window import (  # noqa: E402
    MIN_SIZE,
    before_fullscreen,
    desktop_sizes,
    place_window,
    window_position,
    windowed_place,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.net.hosting import ServerOptions, ServerThread

    from .table_control import TableControl

STEP: Final = 1 / 60
MAX_STEPS: Final = 5
SAVE_POLL: Final = 0.1  # while writes are in flight the loop looks again this often (a failed save is said)
REDRAW_EVENTS: Final = frozenset({pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN,
                                  pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED})
"""Window events after which the window's contents must be presented again."""


class App:
    """The running game: window, scene stack, settings, sound, and the loop."""

    def __init__(
        self, size: tuple[int, int] = (1280, 800), *, fullscreen: bool = False,
        kiosk: bool = False, settings: Settings | None = None, sound: bool = True,
        store: DataStore | None = None,
    ) -> None:
        pygame.init()
        pygame.display.set_caption("Huit")
        self.store = store if store is not None else DataStore()
        self.notice = ""  # a message for the menu (a settings file that could not be read...)
        self.settings = settings or Settings()
        i18n.set_language(self.settings.language)
        self.kiosk = kiosk
        self.fullscreen = fullscreen or kiosk
        self.windowed_size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        self.windowed_position: tuple[int, int] | None = None  # where the window was before fullscreen
        self.screen = self._open_window()
        if kiosk:
            pygame.mouse.set_visible(False)
        self.stack = SceneStack()
        self.sound = SoundBoard(volume=self.settings.volume, muted=self.settings.muted or not sound)
        self.hosting: ServerThread | None = None  # the room server "Host on this computer" started
        self.host_options: ServerOptions = {}  # RoomServer options for it (tests: think_scale=0)
        self.last_server = ""  # the lobby's server address field, kept while the game runs
        self.running = True
        self.accumulator = 0.0
        self.idle = 0.0
        self.attract_after = ATTRACT_AFTER  # a kiosk's attract game after this idle at the menu (0: never)
        self.frames = 0  # frames run
        self.draws = 0  # frames drawn (at rest, a frame that changed nothing is not drawn)
        self.stop_signal: int | None = None  # the signal that ended the game, if one did
        self.pacer: Pacer | None = None  # while `run` runs: its waits (`wake` reaches it)
        self.on_run: list[Callable[[], None]] = []
        """Called by `run` once stop signals are caught, before the first frame (`main` starts
        listening for links then: a game a kiosk's stop finds listening is one that saves)."""
        self._drawn: list[Scene] = []  # the scenes the last drawing showed, bottom first
        self._updated: Scene | None = None  # the scene the last update went to (see `due`)
        self._redraw = True  # the window needs presenting again (resized, exposed...)

    # ---- window ------------------------------------------------------------------------------
    def _open_window(self) -> pygame.Surface:
        if self.fullscreen:
            before_fullscreen()  # back from a window too: over the screen, not where the window was
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        # Ask the window manager to refuse smaller sizes (App.size clamps anyway).
        with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = MIN_SIZE
        return screen

    @property
    def size(self) -> tuple[int, int]:
        """The size scenes lay out for: the window's, but never under `MIN_SIZE` (a smaller
        window, if the system allows one, shows the top-left part instead of breaking)."""
        w, h = self.screen.get_size()
        return max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1])

    def toggle_fullscreen(self) -> None:
        """Switch between fullscreen and a resizable window (not in kiosk mode).

        The window comes back with the size and position it had, made to fit the
        desktop (`windowed_place`): never larger than the screen, never partly off it.
        """
        if self.kiosk:
            return
        if not self.fullscreen:
            self.windowed_size = self.screen.get_size()
            self.windowed_position = window_position()
        self.fullscreen = not self.fullscreen
        place = self.windowed_position
        screens = desktop_sizes()
        if not self.fullscreen and len(screens) == 1:
            self.windowed_size, place = windowed_place(self.windowed_size, place, screens[0])
        elif not self.fullscreen and screens:  # where each screen lies is unknown: only the size
            largest = max(screens, key=lambda s: s[0] * s[1])
            self.windowed_size = windowed_place(self.windowed_size, None, largest)[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "forcibly resized": put right below
            self.screen = self._open_window()
        if not self.fullscreen:
            place_window(self.windowed_size, place)
        self._resized()

    def _resized(self) -> None:
        self._redraw = True
        for scene in self.stack.scenes:
            scene.resize(self.size)

    # ---- scenes ------------------------------------------------------------------------------
    def start(self, scene: Scene) -> None:
        """Show ``scene`` as the only scene, now."""
        self.stack.replace(scene)
        self.stack.apply_requests()

    @property
    def top(self) -> Scene | None:
        """The scene that receives input."""
        return self.stack.top

    def push(self, name: str, /, **arguments: Any) -> None:
        """Queue: open the scene registered as ``name`` (`registry.SCENES`) on top."""
        self.stack.push(registry.make(self, name, arguments))

    def replace(self, name: str, /, **arguments: Any) -> None:
        """Queue: close every scene and show the one registered as ``name``."""
        self.stack.replace(registry.make(self, name, arguments))

    def pop(self) -> None:
        """Queue: close the top scene."""
        self.stack.pop()

    def go_to_menu(self) -> None:
        """Back to the main menu (the kiosk idle timeout does this too); the game is saved."""
        self.save_game()
        self.replace("Menu")

    def quit(self) -> None:
        """End the loop (refused in kiosk mode)."""
        if not self.kiosk:
            self.running = False

    # ---- data --------------------------------------------------------------------------------
    def table_controller(self) -> TableControl | None:
        """What drives the table in the scene stack (local or online), if a game is on."""
        for scene in reversed(self.stack.scenes):
            controller = scene.table_control()
            if controller is not None:
                return controller
        return None

    def save_game(self) -> None:
        """Save the game on the table, if it is played on this device (an online room keeps its own)."""
        from .controller import MatchController
        from .saving import save_game

        controller = self.table_controller()
        if isinstance(controller, MatchController):
            save_game(self, controller)

    def save_settings(self) -> None:
        """Keep the settings for the next run."""
        self.store.settings.write(self.settings.to_json())

    def stop_hosting(self) -> None:
        """Stop the room server started by "Host on this computer", if any."""
        server, self.hosting = self.hosting, None
        if server is not None:
            server.stop()

    def shutdown(self) -> None:
        """Save everything, wait for the writes, stop a hosted server (quit, window close, a
        stop signal): the game on the table, and what the scenes hold unsaved (`Scene.closing`)."""
        self.save_game()
        for scene in reversed(self.stack.scenes):
            scene.closing()
        self.stop_hosting()
        if not self.store.flush():
            print("Huit: some data could not be written in time", file=sys.stderr)

    # ---- input -------------------------------------------------------------------------------
    def normalise(self, event: pygame.event.Event) -> pygame.event.Event | None:
        """Turn touches into mouse events; drop SDL's own touch-made mouse events."""
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(event, "touch", False):
                return None
            if kind != pygame.MOUSEMOTION and event.button != 1:
                return None  # no right-click or wheel actions: everything is reachable by touch
            return event
        if kind in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            w, h = self.size
            pos = (int(event.x * w), int(event.y * h))
            if kind == pygame.FINGERMOTION:
                return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0),
                                          touch=False, finger=True)
            mouse = pygame.MOUSEBUTTONDOWN if kind == pygame.FINGERDOWN else pygame.MOUSEBUTTONUP
            return pygame.event.Event(mouse, pos=pos, button=1, touch=False, finger=True)
        return event

    def dispatch(self, event: pygame.event.Event) -> None:
        """Route one raw pygame event to the app or the top scene."""
        if event.type == pygame.QUIT:  # window closed: save first (a kiosk refuses to quit)
            self.save_game()
            self.quit()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if not self.fullscreen and surface is not None:
                self.screen = surface
            self._resized()
            return
        if event.type in REDRAW_EVENTS:
            self._redraw = True
        if event.type == LINK_EVENT:  # handed over by a later launch (see `launch.main`)
            take_link(self, str(getattr(event, "link", "")))
            return
        normal = self.normalise(event)
        if normal is None:
            return
        if normal.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            self.idle = 0.0
        if normal.type == pygame.KEYDOWN and keymap.toggles_fullscreen(normal):
            self.toggle_fullscreen()
            return
        top = self.stack.top
        if top is not None and top.handle_event(normal):
            top.dirty = True

    # ---- loop --------------------------------------------------------------------------------
    def frame(self, elapsed: float, *, rested: float = 0.0, lazy: bool = False) -> None:
        """One frame: the ``rested`` part of ``elapsed`` as one update at rest (see the module
        docstring), then events, fixed-step updates for the rest of ``elapsed``, and drawing
        (always, or with ``lazy`` only when something changed: the loop's way)."""
        rested = min(max(0.0, rested), elapsed)
        if rested > 0:
            self._update_top(rested)
        for event in pygame.event.get():
            self.dispatch(event)
        self.stack.apply_requests()
        self.accumulator = min(self.accumulator + elapsed - rested, STEP * MAX_STEPS)
        while self.accumulator >= STEP:
            self.accumulator -= STEP
            self._update_top(STEP)
        if self.kiosk:
            self.idle += elapsed
            kiosk_idle(self)  # back to the menu, or the attract game (game.client.attract)
        if not lazy or self.needs_drawing():
            self.draw()
        self.frames += 1

    def _update_top(self, dt: float) -> None:
        top = self.stack.top
        if top is not None:
            top.update(dt)
            self._updated = top
        self.stack.apply_requests()

    @property
    def moving(self) -> bool:
        """Whether something moves now: the next frame is due within a frame's time."""
        due = self.due()
        return due is not None and due < FRAME

    def needs_drawing(self) -> bool:
        """Whether the window's contents changed since the last drawing."""
        visible = self.stack.visible()
        return self._redraw or visible != self._drawn or any(scene.dirty for scene in visible)

    def due(self) -> float | None:
        """Seconds until the loop must run a frame without input (0: something moves, run
        frames at the display's rate), or None: nothing until input comes."""
        times = []
        top = self.stack.top
        if top is not None and top is not self._updated:
            # A scene just shown (or shown again) is updated once before any rest: what it opens
            # or shows by itself in `update` (the table's hand-off cover) must not wait for input.
            times.append(0.0)
        if top is not None:
            then = top.next_frame()
            if then is not None:
                times.append(max(0.0, then))
        if self.kiosk:
            times.append(kiosk_due(self))
        if self.store.busy():  # writes in flight: a failure is shown soon
            times.append(SAVE_POLL)
        return min(times, default=None)

    def draw(self) -> None:
        """Draw the visible scenes and present the frame."""
        visible = self.stack.visible()
        for scene in visible:
            scene.draw(self.screen)
            scene.dirty = False
        pygame.display.flip()
        self._drawn = visible
        self._redraw = False
        self.draws += 1

    def wake(self) -> None:
        """Wake the loop if it rests (safe from any thread; nothing happens outside `run`)."""
        pacer = self.pacer
        if pacer is not None:
            pacer.wake()

    def run(self) -> None:
        """Run until quit or a stop signal, then save and close (see the module docstring).

        Frames come at the display's rate while something moves; otherwise the loop
        sleeps until input, a stop signal or the next thing due (`due`).
        """
        clock = time.perf_counter
        pacer = self.pacer = Pacer()
        try:
            for started in self.on_run:
                started()
            last = clock()
            rested = 0.0
            beat: float | None = None  # when the current frame was due, while frames follow each other
            while self.running and pacer.stop_signal is None:
                now = clock()
                self.frame(now - last, rested=rested, lazy=True)
                last = now
                due = self.due()
                if due is not None and due < FRAME:
                    # Frames on a fixed beat: a frame that starts late does not push the next ones
                    # back (one far behind starts the beat again rather than racing to catch up).
                    beat = now if beat is None or now - beat > FRAME else beat
                    beat += FRAME
                    pacer.sleep(beat - clock())
                    rested = 0.0
                else:
                    beat = None
                    rested = pacer.rest(due)
            if pacer.stop_signal is not None:
                self.stop_signal = pacer.stop_signal
                pacer.default_signals()  # a second signal while saving ends the process at once
            self.shutdown()
        finally:
            self.pacer = None
            pacer.release()
        # Close the window; the rest of pygame ends with the process (fonts the card art keeps
        # stay valid should a loop run again in this process: the benchmarks, the tests).
        pygame.display.quit()


def open_link(app: App, link: str) -> None:
    """Join the room of a link in any of its forms; a bad link opens the lobby with the reason."""
    from .joining import join_link

    problem = join_link(app, link)
    if problem is not None:
        app.replace("Lobby", message=problem)
    app.stack.apply_requests()


LINK_EVENT: Final = pygame.event.custom_type()
"""A link handed over by a later launch (`single_instance`): ``event.link``, already checked."""


def take_link(app: App, link: str) -> None:
    """Open a link a later launch handed over: the game on the table is saved, then the room
    opens as a typed link's would (a link the room refuses shows the lobby with the reason)."""
    print(f"Huit: joining {link} (a link from another launch)", flush=True)
    app.save_game()
    open_link(app, link)
    with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
        warnings.simplefilter("ignore", DeprecationWarning)
        pygame.Window.from_display_module().focus()  # bring the window forward where the desktop allows
