"""Helpers for headless UI tests: a real App, real pygame events, frame stepping."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable  # noqa: E402

import pygame  # noqa: E402

from game.client.app import App  # noqa: E402
from game.client.settings import Settings  # noqa: E402

STEP = 1 / 60


def make_app(size=(1280, 800), *, speed="instant", kiosk=False, **settings) -> App:
    """A real App on the dummy video driver, silent, English, with instant animations."""
    app = App(size, settings=Settings(language="en", speed=speed, **settings), sound=False, kiosk=kiosk)
    pygame.event.clear()
    return app


def top_name(app: App) -> str:
    """The class name of the scene on top."""
    return type(app.stack.top).__name__


def run_until(app: App, done: Callable[[], bool], frames: int = 5000) -> bool:
    """Step frames until ``done()``; False if it never happened."""
    for _ in range(frames):
        if done():
            return True
        app.frame(STEP)
    return done()


def press(app: App, key: int, frames: int = 2) -> None:
    """Post a real key press and release, then run a few frames."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))
    for _ in range(frames):
        app.frame(STEP)


def click(app: App, pos: tuple[int, int], frames: int = 2) -> None:
    """Post a real left click at ``pos``."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    for _ in range(frames):
        app.frame(STEP)


def tap(app: App, pos: tuple[int, int], frames: int = 2) -> None:
    """Post a real touch (FINGERDOWN, FINGERUP) at pixel ``pos``."""
    w, h = app.size
    x, y = pos[0] / w, pos[1] / h
    common = {"touch_id": 1, "finger_id": 1, "x": x, "y": y, "dx": 0.0, "dy": 0.0, "pressure": 1.0}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, **common))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, **common))
    for _ in range(frames):
        app.frame(STEP)


def open_menu(app: App) -> None:
    """Show the main menu, as at start-up."""
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(STEP)


def labels(app: App) -> list[str]:
    """The labels of the buttons on the top scene, in focus order (what the player can tap)."""
    scene = app.stack.top
    controls = getattr(scene, "controls", None)
    if controls is not None:
        return [control.element.text for control in controls]
    return [button.label for button in getattr(scene, "buttons", [])]


def label_starting(app: App, start: str) -> str:
    """The one label on the top scene that starts with ``start`` ("Volume: " → "Volume: 80%")."""
    found = [text for text in labels(app) if text.startswith(start)]
    assert len(found) == 1, f"{len(found)} buttons start with {start!r} on {top_name(app)}: {labels(app)}"
    return found[0]


def rect_of(app: App, label: str) -> pygame.Rect:
    """Where the button labelled ``label`` is on the top scene."""
    scene = app.stack.top
    controls = getattr(scene, "controls", None)
    found = ([(c.element.text, c.element.rect) for c in controls] if controls is not None
             else [(b.label, b.rect) for b in getattr(scene, "buttons", [])])
    for text, rect in found:
        if text == label:
            return pygame.Rect(rect)
    raise AssertionError(f"no button {label!r} on {top_name(app)}: {[text for text, _ in found]}")


def tap_label(app: App, label: str, *, touch: bool = True, frames: int = 2) -> None:
    """Tap (or click, ``touch=False``) the button labelled ``label`` on the top scene."""
    center = rect_of(app, label).center
    if touch:
        tap(app, center, frames)
    else:
        click(app, center, frames)


def close_online_app(app: App) -> None:
    """End a test's app that went online: back to the menu (any room's connection closes), a
    server hosted in the game stopped, the writes done, the window closed."""
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(STEP)
    app.stop_hosting()
    app.store.flush()
    pygame.display.quit()
