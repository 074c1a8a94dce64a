"""Scenes, the scene stack (a pushdown automaton of screens), and the App as scenes see it.

A scene handles events (``handle_event`` returns whether it used the event),
updates at the fixed step, and draws. Overlays (suit picker, pause) are pushed on
top of the table and let it draw underneath (``opaque = False``). Scenes ask for
transitions during update or event handling; the stack applies them afterwards,
so a scene never disappears in the middle of its own call.

Scenes open each other by name (`game.client.registry`: ``app.push("Pause", table=self)``,
``app.replace("Menu")``), never by importing one another, and see the App only through
`SceneApp`: what a screen may ask of the running game (its window size, settings,
data, sound, the scene stack by name, going to the menu...). The concrete
`game.client.app.App` satisfies it; nothing in ``game/client/scenes`` imports it.

Resting (how the loop knows when to run and draw a frame, see `game.client.app`):

- `Scene.next_frame` says how soon the scene needs a frame with no input: ``0``
  while something moves on it (frames at the display's rate), a number of seconds
  until something is due (a think delay, a turn clock's next change, a message
  expiring), or None when only input can change it. Only the top scene is asked;
  an overlay that runs the scene below it (the suit picker) answers for both.
- At rest the loop may pass `Scene.update` the whole time it slept as one ``dt``
  (nothing moved meanwhile): updates treat ``dt`` as a duration, never as a count
  of frames.
- `Scene.dirty` says the scene looks different from its last drawing (an animation
  sets it at every update while it runs); the app draws the visible scenes when one
  of them is dirty and clears the flags. The app marks the top scene dirty itself
  when `Scene.handle_event` used an event, and draws anyway after a transition or a
  resize. ``next_frame() == 0`` only asks for updates at the display's rate.
- The invariant (``tests/test_screen_current.py``): whenever the loop rests, the frame
  on screen equals a full redraw of the current state. So every change of the look made
  outside `handle_event` (in `update`, on a message, a timer) sets `Scene.dirty`, and
  a look that will change by itself at a known time is announced by `next_frame`. A
  scene just shown, or shown again when the one above closes, is updated once before
  the loop rests (`App.due`): what it opens in `update` (an overlay) shows at once.
  pygame_gui screens (`game.client.gui`) mark themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame

if TYPE_CHECKING:
    from game.net.hosting import ServerOptions, ServerThread
    from game.saves import DataStore

    from .settings import Settings
    from .sound import SoundBoard
    from .table_control import TableControl


class SceneApp(Protocol):
    """What a scene may ask of the running game (`game.client.app.App` is one).

    Scenes are opened by their registered name (`game.client.registry.SCENES`) with
    keyword arguments for their constructor after the App: ``push`` puts one on top,
    ``replace`` shows it alone, ``pop`` closes the top one; all three are queued and
    carried out after the current event or update (see `SceneStack`).
    """

    settings: Settings
    store: DataStore
    sound: SoundBoard
    notice: str  # a message for the menu (a file that could not be read...); the menu clears it
    last_server: str  # the lobby's server address field, kept while the game runs
    hosting: ServerThread | None  # the room server "Host on this computer" started, if any
    host_options: ServerOptions  # the options it is started with (tests: think_scale=0)

    @property
    def size(self) -> tuple[int, int]:
        """The size to lay out for (the window's, never under its minimum)."""

    @property
    def kiosk(self) -> bool:
        """A kiosk: fullscreen, no quitting, idle return to the menu."""

    @property
    def fullscreen(self) -> bool:
        """Whether the window fills the screen."""

    @property
    def top(self) -> Scene | None:
        """The scene that receives input."""

    def push(self, name: str, /, **arguments: Any) -> None:
        """Queue: open the scene registered as ``name`` on top (``arguments``: its constructor's)."""

    def replace(self, name: str, /, **arguments: Any) -> None:
        """Queue: close every scene and show the one registered as ``name``."""

    def pop(self) -> None:
        """Queue: close the top scene (the one below resumes)."""

    def go_to_menu(self) -> None:
        """Back to the main menu; the game on the table is saved."""

    def quit(self) -> None:
        """End the game (refused in kiosk mode)."""

    def toggle_fullscreen(self) -> None:
        """Switch between fullscreen and a window (not in kiosk mode)."""

    def save_settings(self) -> None:
        """Keep the settings for the next run."""

    def stop_hosting(self) -> None:
        """Stop the room server "Host on this computer" started, if any."""

    def table_controller(self) -> TableControl | None:
        """What drives the table in the scene stack (local or online), if a game is on."""


class Scene:
    """One screen. Subclasses override what they need."""

    opaque = True  # False: the scene below is drawn first (an overlay)

    def __init__(self, app: SceneApp) -> None:
        self.app = app
        # Its look changed since it was last drawn: set it with every change `draw` would show
        # (see the module docstring), or the change waits on screen for the next input.
        self.dirty = True

    def table_control(self) -> TableControl | None:
        """What drives the game this scene is the table of (the table scene's controller), else
        None: how the App finds the game to save without knowing the table scene."""
        return None

    def enter(self) -> None:
        """Called when the scene is pushed."""

    def exit(self) -> None:
        """Called when the scene is popped or replaced."""

    def pause(self) -> None:
        """Called when another scene is pushed on top."""

    def resume(self) -> None:
        """Called when the scene above is popped."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute layout (and rescale art once)."""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one input event; return True when it was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds: one fixed step, or at rest the whole time slept at once."""

    def next_frame(self) -> float | None:
        """Seconds until this scene needs a frame without input: 0 while something moves on it,
        None when only input can change it (the default: a still screen)."""
        return None

    def closing(self) -> None:
        """The game is ending (quit, window closed, a stop signal): keep what is not saved yet."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; never changes game state."""


class SceneStack:
    """The scenes, bottom first; transitions are queued and applied by `apply_requests`."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        self._requests: list[Callable[[], None]] = []

    @property
    def top(self) -> Scene | None:
        """The scene that receives input."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        """Queue: put ``scene`` on top."""
        self._requests.append(lambda: self._push(scene))

    def pop(self) -> None:
        """Queue: remove the top scene."""
        self._requests.append(self._pop)

    def replace(self, scene: Scene) -> None:
        """Queue: remove every scene and show ``scene``."""
        self._requests.append(lambda: self._replace(scene))

    def apply_requests(self) -> None:
        """Carry out the queued transitions, in order."""
        while self._requests:
            self._requests.pop(0)()

    def _push(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes[-1].pause()
        self.scenes.append(scene)
        scene.enter()

    def _pop(self) -> None:
        if self.scenes:
            self.scenes.pop().exit()
        if self.scenes:
            self.scenes[-1].resume()

    def _replace(self, scene: Scene) -> None:
        while self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top one and any it lets show through."""
        out: list[Scene] = []
        for scene in reversed(self.scenes):
            out.append(scene)
            if scene.opaque:
                break
        return list(reversed(out))
