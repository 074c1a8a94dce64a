"""A kiosk's attract mode: idle at the menu, the kiosk plays a computers-only game to draw people in.

In kiosk mode (`App.kiosk`), after `App.attract_after` seconds without input at the main menu
(`ATTRACT_AFTER` unless ``--attract-after`` says otherwise; 0 turns it off), the kiosk deals a
game whose every seat is a computer (`game.client.exhibition`): the computers play from their
views with their usual think delays, on the real table, under a "Touch to play" banner (the
``Attract`` scene). The first touch, click or key goes back to the menu at once and reaches nothing
underneath. After a deal's result, another attract game is dealt, with other rules.

Nothing of it is kept: the ``Attract`` scene holds its table itself, so the App finds no
game to save in its stack (`Scene.table_control` is None): it is never saved, never counted in
the statistics, and the player's saved games stay as they were. While it plays, the kiosk is
at rest for the idle return to the menu (`kiosk_idle`); the menu at rest still rests: the
loop wakes once, when the attract game is due (`kiosk_due`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import registry

if TYPE_CHECKING:
    from .app import App

ATTRACT_AFTER: Final = 180.0
"""Seconds without input at a kiosk's menu before the attract game starts (``--attract-after``)."""
KIOSK_IDLE: Final = 180.0
"""Seconds without input before a kiosk goes back to the menu from anywhere else (`App`'s)."""


def _is(scene: object, name: str) -> bool:
    """Whether ``scene`` is the one registered as ``name`` (by its class's name: this runs every
    frame of a kiosk, and imports nothing)."""
    return type(scene).__name__ == registry.SCENES[name][1]


def at_menu(app: App) -> bool:
    """Whether the main menu is the only scene (nothing open over it)."""
    scenes = app.stack.scenes
    return len(scenes) == 1 and _is(scenes[0], "Menu")


def showing(app: App) -> bool:
    """Whether the attract game is on screen."""
    return _is(app.stack.top, "Attract")


def start(app: App) -> None:
    """Queue the attract game in place of the menu."""
    app.replace("Attract")


def kiosk_idle(app: App) -> None:
    """A kiosk's idleness after a frame (`App.idle`, seconds without input): at the menu, the attract
    game once `App.attract_after` is reached; elsewhere, back to the menu after `KIOSK_IDLE`. The
    attract game is the kiosk at rest: it never counts as idle."""
    if showing(app):
        app.idle = 0.0
    elif at_menu(app) and app.attract_after > 0:
        if app.idle >= app.attract_after:
            app.idle = 0.0
            start(app)
            app.stack.apply_requests()
    elif app.idle >= KIOSK_IDLE:
        app.idle = 0.0
        app.go_to_menu()
        app.stack.apply_requests()


def kiosk_due(app: App) -> float:
    """Seconds until `kiosk_idle` has something to do if no input comes."""
    if at_menu(app) and app.attract_after > 0:
        return max(0.0, app.attract_after - app.idle)
    return max(0.0, KIOSK_IDLE - app.idle)
