"""The window's size and place on the desktop: the sizes the layout is made for, a ``--size``
read from the command line, and where a window coming back from fullscreen goes.

Kept apart from the loop (`game.client.app`) because it is about the desktop, not the game:
what the platform says of its screens, and what is done when it says nothing.
"""

from __future__ import annotations

import contextlib
import warnings

import pygame

# The sizes and the size rule live in `sizes` (no pygame there); still read from here too.
from .sizes import MAX_SIZE as MAX_SIZE
from .sizes import MIN_SIZE as MIN_SIZE
from .sizes import SIZE_RULE as SIZE_RULE
from .sizes import parse_size as parse_size


def windowed_place(size: tuple[int, int], position: tuple[int, int] | None,
                   desktop: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The size and position of a window coming back from fullscreen on a ``desktop`` of that
    size: ``size``, no larger than the desktop; ``position`` (centred when unknown), moved as
    little as needed for the whole window to be on the desktop."""
    dw, dh = desktop
    w, h = max(1, min(size[0], dw)), max(1, min(size[1], dh))
    if position is None:
        return (w, h), ((dw - w) // 2, (dh - h) // 2)
    return (w, h), (min(max(0, position[0]), dw - w), min(max(0, position[1]), dh - h))


def desktop_sizes() -> list[tuple[int, int]]:
    """The size of each screen's desktop, as far as the platform says."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except (AttributeError, pygame.error):  # an older pygame, or no video
        return []
    return [(int(w), int(h)) for w, h in sizes if w > 0 and h > 0]


def window_position() -> tuple[int, int] | None:
    """Where the window is on the desktop, if the platform says."""
    try:
        x, y = pygame.display.get_window_position()
    except (AttributeError, pygame.error):
        return None
    return int(x), int(y)


def place_window(size: tuple[int, int], position: tuple[int, int] | None) -> None:
    """Give the window ``size`` and ``position`` where the platform allows. Leaving fullscreen,
    X11 keeps the fullscreen size for the window ``set_mode`` asked to be smaller (with SDL's
    software framebuffer); the display surface follows the window when SDL reports the change,
    and the app lays out again then (``WINDOWSIZECHANGED``)."""
    with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
        if tuple(window.size) != tuple(size):
            window.size = size
        if position is not None:
            window.position = position


def before_fullscreen() -> None:
    """Move the window to the desktop's corner before it goes fullscreen, where the platform leaves
    covering the screen to a window manager: X11 without one (a kiosk's bare X server, Xvfb) gives
    a fullscreen window the screen's size but keeps it where the window was, partly off the screen
    (and moving it once fullscreen does nothing). With one screen only: where each of several
    screens lies is not known. No window yet: nothing to move."""
    if len(desktop_sizes()) != 1:
        return
    with warnings.catch_warnings(), contextlib.suppress(AttributeError, pygame.error):
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
        window.position = (0, 0)


