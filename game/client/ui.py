"""Shared look: the shipped fonts, the pygame_gui theme scaled to the window, colours.

Fonts and theme are the game's shipped files (`game.client.assets`); the theme's font paths are made
real file names here, so the game runs from any working directory and any installation.
Text scales with the window: a `scale` of 1 is a 1280×800 window.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core.surface_cache import SurfaceCache

from . import assets, widget_pictures

FONT_REGULAR: Final = assets.path("fonts", "DejaVuSans.ttf")
FONT_BOLD: Final = assets.path("fonts", "DejaVuSans-Bold.ttf")

GOLD: Final = (240, 208, 96)
CREAM: Final = (244, 241, 230)
INK: Final = (20, 24, 22)
SHADOW: Final = (0, 0, 0, 110)
RED: Final = (200, 40, 40)
PANEL: Final = (12, 44, 33)  # an overlay's panel over the dimmed table: the felt, darker
MIN_PX: Final = 11  # the smallest text the game draws: a fitted text shrinks no further
ELLIPSIS: Final = "…"


def scale_for(size: tuple[int, int]) -> float:
    """How much bigger than a 1280×800 window text and controls should be."""
    w, h = size
    return max(0.7, min(w / 1280, h / 800, 3.0))


def panel(surface: pygame.Surface, rect: pygame.Rect, scale: float) -> None:
    """An overlay's panel (the suit picker's, the vote's): dark felt in a gold frame, so that what
    it holds reads clearly over the cards of the dimmed table."""
    radius = int(16 * scale)
    pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
    pygame.draw.rect(surface, GOLD, rect, width=max(1, int(2 * scale)), border_radius=radius)


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> pygame.font.Font:
    """The shipped DejaVu font (it has ♠♥♦♣) at ``px`` pixels."""
    return pygame.font.Font(str(FONT_BOLD if bold else FONT_REGULAR), max(8, px))


@lru_cache(maxsize=1)
def _theme() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(assets.read_text("theme.json"))
    return data


def theme(scale: float) -> dict[str, Any]:
    """The pygame_gui theme with absolute font paths and font sizes times ``scale``."""
    data = copy.deepcopy(_theme())
    for block in data.values():
        spec = block.get("font")
        if spec:
            for key in ("regular_path", "bold_path", "italic_path", "bold_italic_path"):
                if key in spec:
                    spec[key] = str(assets.path(*spec[key].split("/")))
            spec["size"] = str(max(10, round(int(spec.get("size", 20)) * scale)))
    return data


class ThemedManager(pygame_gui.UIManager):
    """A manager whose theme is the one already loaded for the same theme data (`THEMES`).

    pygame_gui parses a theme anew for each manager (its default theme, then ours: some 25 ms),
    and each screen has its own manager. What a loaded theme holds is only read by the managers
    that use it (its fonts, colours and shadows), so the screens of one scale share one: a screen
    opens that much sooner, and finds the fonts of the screens before it loaded. Only the theme's
    pictures of widgets' shapes are each manager's own, as before."""

    theme_is_new = True  # whether its theme was loaded for it (False: shared, its fonts loaded)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        once_each(translation_paths())

    def create_new_theme(self, theme_path: Any = None) -> Any:
        """The theme loaded for ``theme_path`` (a dictionary of theme data) before, or a new one."""
        if not isinstance(theme_path, dict):
            return super().create_new_theme(theme_path)
        key = json.dumps(theme_path, sort_keys=True)
        found = THEMES.pop(key, None)
        self.theme_is_new = found is None
        if found is None:
            found = super().create_new_theme(theme_path)
        else:
            # Its pictures of widgets' shapes start afresh, as with a theme of its own: kept across
            # screens they would grow with each screen built between two updates of a manager
            # (each widget's shapes wait in the cache until an update files one away).
            found.shape_cache = SurfaceCache()  # type: ignore[no-untyped-call]
        THEMES[key] = found  # the most recently used last
        while len(THEMES) > MAX_THEMES:
            THEMES.pop(next(iter(THEMES)))
        return found


def translation_paths() -> list[str]:
    """The folders python-i18n searches for a text pygame_gui shows (its ``load_path``, one list
    for the whole process)."""
    paths: list[str] = pygame_gui.ui_manager.i18n.load_path  # type: ignore[attr-defined]
    return paths


def once_each(paths: list[str]) -> None:
    """Leave each folder in ``paths`` once, in its first place (the list itself changed).

    Each pygame_gui manager adds its translations' folder to python-i18n's search path again, and
    each screen has its own manager. Every text a widget shows is looked up as a translation key,
    which none of the game's texts is: a text with a full stop in it (a sentence, an address) is
    searched for in every folder of the path (a directory listing each), each time it is drawn, in
    the language and again in English. So each screen built made every later one slower: after a
    few hundred screens, building one took several times as long."""
    unique = list(dict.fromkeys(paths))
    if len(unique) != len(paths):
        paths[:] = unique


# The themes loaded, by their data (one per scale of window: a resize makes another), the least
# recently used first: the window's and the one before (a window resized back and forth).
THEMES: dict[str, Any] = {}
MAX_THEMES: Final = 2


class PointerlessManager(ThemedManager):
    """A manager for a screen without a pointer (the kiosk hides the cursor): nothing is ever
    hovered. pygame_gui finds the hovered widget from where the mouse is, and a touchscreen leaves
    SDL's emulated mouse where the last finger was: its button would stay lit, hovered by nobody.
    Taps and presses still find their widget from each event's own position."""

    def _update_mouse_position(self) -> None:
        self.mouse_position = (-1, -1)  # off the window: over no widget


def make_manager(size: tuple[int, int], *, pointer: bool = True) -> pygame_gui.UIManager:
    """A pygame_gui manager for a window of ``size`` with the Huit theme (``pointer``: False for a
    screen with no visible pointer, whose widgets are then never drawn hovered).

    The text box's bold and italic faces are loaded up front (the how-to-play texts use them). Big
    widgets' backgrounds are drawn once per look (`widget_pictures`).
    """
    widget_pictures.install()
    data = theme(scale_for(size))
    kind = ThemedManager if pointer else PointerlessManager
    manager = kind(size, data, enable_live_theme_updates=False)
    if not manager.theme_is_new:
        return manager  # its fonts were loaded with it
    text_size = int(data["text_box"]["font"]["size"])
    manager.preload_fonts([{"name": "dejavu", "point_size": text_size, "style": style}
                           for style in ("bold", "italic", "bold_italic")])
    return manager


@dataclass(frozen=True)
class DrawnText:
    """One text the game drew: what was asked, the lines shown, its box and where the ink went."""

    text: str
    lines: tuple[str, ...]
    box: pygame.Rect | None  # None: drawn without a box (nothing says how much room it had)
    rect: pygame.Rect
    px: int
    asked_px: int

    @property
    def elided(self) -> bool:
        """Whether part of the text was cut off (replaced by an ellipsis)."""
        return " ".join(" ".join(self.lines).split()) != " ".join(self.text.split())

    @property
    def fits(self) -> bool:
        """Drawn whole, inside its box."""
        return self.box is not None and self.box.contains(self.rect) and not self.elided


_drawn: list[list[DrawnText]] = []


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Collect every `text` and `fit` call made inside the block (tests measure them)."""
    found: list[DrawnText] = []
    _drawn.append(found)
    try:
        yield found
    finally:
        _drawn.remove(found)


def _record(item: DrawnText) -> None:
    for found in _drawn:
        found.append(item)


def _blit_line(surface: pygame.Surface, f: pygame.font.Font, line: str, rect: pygame.Rect,
               color: tuple[int, int, int], px: int, shadow: bool) -> None:
    image = f.render(line, True, color)
    if shadow:
        under = f.render(line, True, (0, 0, 0))
        under.set_alpha(120)
        offset = max(1, px // 16)
        surface.blit(under, rect.move(offset, offset))
    surface.blit(image, rect)


def text(surface: pygame.Surface, message: str, pos: tuple[int, int], px: int, *,
         color: tuple[int, int, int] = CREAM, bold: bool = False, anchor: str = "topleft",
         shadow: bool = True) -> pygame.Rect:
    """Draw ``message`` at ``pos`` (``anchor`` names the rect point), with a soft shadow.

    Nothing here says how much room the text has: prefer `fit`, which keeps it in a box.
    """
    f = font(px, bold)
    rect = pygame.Rect((0, 0), f.size(message))
    setattr(rect, anchor, pos)
    _blit_line(surface, f, message, rect, color, px, shadow)
    _record(DrawnText(message, (message,), None, rect.copy(), px, px))
    return rect


def wrap(message: str, f: pygame.font.Font, width: int) -> list[str]:
    """``message`` broken at spaces into lines no wider than ``width`` (a word too long stays whole)."""
    lines: list[str] = []
    line = ""
    for word in message.split():
        candidate = f"{line} {word}" if line else word
        if line and f.size(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line or not lines:
        lines.append(line)
    return lines


def elide(message: str, f: pygame.font.Font, width: int) -> str:
    """``message`` cut short with an ellipsis to fit ``width`` (a last resort, for names players type)."""
    if f.size(message)[0] <= width:
        return message
    while message and f.size(message + ELLIPSIS)[0] > width:
        message = message[:-1]
    return message.rstrip() + ELLIPSIS


def layout_text(message: str, box: pygame.Rect, px: int, *, bold: bool = False, lines: int = 1,
                min_px: int | None = None) -> tuple[int, list[str]]:
    """The size and lines that fit ``message`` in ``box``: the asked size on one line; else a little
    smaller; else wrapped into up to ``lines`` lines, shrinking to ``min_px``; else cut short."""
    floor = max(MIN_PX, min_px if min_px is not None else int(px * 0.7))
    floor = min(floor, px)
    single_floor = max(floor, int(px * 0.85))
    for size in range(px, single_floor - 1, -1):
        f = font(size, bold)
        if f.size(message)[0] <= box.width and f.get_linesize() <= box.height:
            return size, [message]
    for size in range(px, floor - 1, -1):
        f = font(size, bold)
        wrapped = wrap(message, f, box.width)
        if (len(wrapped) <= lines and all(f.size(line)[0] <= box.width for line in wrapped)
                and f.get_linesize() * len(wrapped) <= box.height):
            return size, wrapped
    f = font(floor, bold)
    rows = max(1, min(lines, box.height // max(1, f.get_linesize())))
    wrapped = wrap(message, f, box.width)
    if len(wrapped) > rows:
        wrapped = wrapped[: rows - 1] + [" ".join(wrapped[rows - 1:])]
    return floor, [elide(line, f, box.width) for line in wrapped]


def fit(surface: pygame.Surface, message: str, box: pygame.Rect | tuple[int, int, int, int], px: int, *,
        color: tuple[int, int, int] = CREAM, bold: bool = False, align: str = "center",
        valign: str = "center", lines: int = 1, min_px: int | None = None,
        shadow: bool = True) -> pygame.Rect:
    """Draw ``message`` inside ``box``: at ``px`` if it fits, else smaller or on up to ``lines`` lines
    (never under `MIN_PX`), cut short only as a last resort. ``align`` is left, center or right;
    ``valign`` top, center or bottom. Returns where the ink went."""
    box = pygame.Rect(box)
    size, shown = layout_text(message, box, px, bold=bold, lines=lines, min_px=min_px)
    f = font(size, bold)
    step = f.get_linesize()
    height = step * (len(shown) - 1) + max(f.get_height(), f.size(shown[-1])[1])
    top = {"top": box.top, "bottom": box.bottom - height}.get(valign, box.centery - height // 2)
    ink = pygame.Rect(box.centerx, top, 0, 0)
    for i, line in enumerate(shown):
        rect = pygame.Rect((0, 0), f.size(line))
        rect.top = top + i * step
        if align == "left":
            rect.left = box.left
        elif align == "right":
            rect.right = box.right
        else:
            rect.centerx = box.centerx
        _blit_line(surface, f, line, rect, color, size, shadow)
        ink = rect.copy() if i == 0 else ink.union(rect)
    _record(DrawnText(message, tuple(shown), box.copy(), ink, size, px))
    return ink
