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
