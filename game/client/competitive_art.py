"""The crossed swords of a competitive (ranked) room, drawn with pygame (no image file).

The shape is `game.net.swords.SHAPE` (the room's web page writes the same polygons as an
SVG). As the avatars are (`avatar_art`), it is drawn larger than asked and smoothed down,
once per size (`swords_image`). `Marks` is what a screen keeps of the swords it shows: the
boxes its `build` laid out, drawn by its `draw_extra` (under the widgets, so a box is left
free of them). `ranked_words` says in words whether a room counts, for the label beside
the mark or alone for a room that does not.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import pygame

from game.net.swords import COLOURS, SHAPE

from .i18n import tr

SUPERSAMPLE: Final = 4


@lru_cache(maxsize=32)
def swords_image(size: int) -> pygame.Surface:
    """The crossed swords, ``size`` pixels square, on a transparent background."""
    size = max(8, size)
    big = size * SUPERSAMPLE
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    outline = max(2, big // 28)
    for part, points in SHAPE:
        polygon = [(x * big, y * big) for x, y in points]
        pygame.draw.polygon(surface, COLOURS["outline"], polygon, 0)
        pygame.draw.polygon(surface, COLOURS["outline"], polygon, outline * 2)
        pygame.draw.polygon(surface, COLOURS[part], _shrunk(polygon, outline * 0.7), 0)
    return pygame.transform.smoothscale(surface, (size, size))


def _shrunk(polygon: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """``polygon`` moved ``by`` pixels towards its centre (the outline shows around the fill)."""
    cx = sum(x for x, _ in polygon) / len(polygon)
    cy = sum(y for _, y in polygon) / len(polygon)
    out = []
    for x, y in polygon:
        dx, dy = cx - x, cy - y
        d = max(1e-6, (dx * dx + dy * dy) ** 0.5)
        step = min(by, d * 0.5)
        out.append((x + dx / d * step, y + dy / d * step))
    return out


def ranked_words(ranked: bool | None) -> str:
    """``Ranked`` or ``Friendly: not ranked`` (nothing when the server does not say)."""
    if ranked is None:
        return ""
    return tr("competitive.ranked" if ranked else "competitive.friendly")


class Marks:
    """The swords a screen shows: the boxes laid out by its `build`, drawn by `draw`."""

    def __init__(self) -> None:
        self.boxes: list[pygame.Rect] = []

    def clear(self) -> None:
        """Forget the boxes (a new layout follows)."""
        self.boxes = []

    def add(self, box: pygame.Rect) -> pygame.Rect:
        """Show the swords in ``box`` (a square as tall as it, at its left); the box back."""
        self.boxes.append(pygame.Rect(box))
        return box

    def draw(self, surface: pygame.Surface) -> None:
        """Each mark, centred in its box."""
        for box in self.boxes:
            side = min(box.w, box.h)
            image = swords_image(side)
            surface.blit(image, image.get_rect(center=box.center))
