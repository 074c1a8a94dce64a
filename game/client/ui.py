"""Shared look: the shipped fonts, the pygame_gui theme scaled to the window, colours.

Fonts and theme live in ``assets/``; the theme's font paths are made absolute here
so the game runs from any working directory. Text scales with the window: a
`scale` of 1 is a 1280×800 window.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import pygame
import pygame_gui

ASSETS: Final = Path(__file__).resolve().parents[2] / "assets"
FONT_REGULAR: Final = ASSETS / "fonts" / "DejaVuSans.ttf"
FONT_BOLD: Final = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"

GOLD: Final = (240, 208, 96)
CREAM: Final = (244, 241, 230)
INK: Final = (20, 24, 22)
SHADOW: Final = (0, 0, 0, 110)
RED: Final = (200, 40, 40)


def scale_for(size: tuple[int, int]) -> float:
    """How much bigger than a 1280×800 window text and controls should be."""
    w, h = size
    return max(0.7, min(w / 1280, h / 800, 3.0))


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> pygame.font.Font:
    """The shipped DejaVu font (it has ♠♥♦♣) at ``px`` pixels."""
    return pygame.font.Font(str(FONT_BOLD if bold else FONT_REGULAR), max(8, px))


@lru_cache(maxsize=1)
def _theme() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ASSETS / "theme.json").read_text(encoding="utf-8"))
    return data


def theme(scale: float) -> dict[str, Any]:
    """The pygame_gui theme with absolute font paths and font sizes times ``scale``."""
    data = copy.deepcopy(_theme())
    for block in data.values():
        spec = block.get("font")
        if spec:
            for key in ("regular_path", "bold_path", "italic_path", "bold_italic_path"):
                if key in spec:
                    spec[key] = str(ASSETS / spec[key])
            spec["size"] = str(max(10, round(int(spec.get("size", 20)) * scale)))
    return data


def make_manager(size: tuple[int, int]) -> pygame_gui.UIManager:
    """A pygame_gui manager for a window of ``size`` with the Huit theme.

    The text box's bold and italic faces are loaded up front (the how-to-play texts use them).
    """
    data = theme(scale_for(size))
    manager = pygame_gui.UIManager(size, data, enable_live_theme_updates=False)
    text_size = int(data["text_box"]["font"]["size"])
    manager.preload_fonts([{"name": "dejavu", "point_size": text_size, "style": style}
                           for style in ("bold", "italic", "bold_italic")])
    return manager


def text(surface: pygame.Surface, message: str, pos: tuple[int, int], px: int, *,
         color: tuple[int, int, int] = CREAM, bold: bool = False, anchor: str = "topleft",
         shadow: bool = True) -> pygame.Rect:
    """Draw ``message`` at ``pos`` (``anchor`` names the rect point), with a soft shadow."""
    f = font(px, bold)
    image = f.render(message, True, color)
    rect = image.get_rect(**{anchor: pos})
    if shadow:
        under = f.render(message, True, (0, 0, 0))
        under.set_alpha(120)
        offset = max(1, px // 16)
        surface.blit(under, rect.move(offset, offset))
    surface.blit(image, rect)
    return rect
