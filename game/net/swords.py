"""The crossed swords that mark a competitive (ranked) room: one shape for every place it shows.

Seed 002 marks a competitive game "avec un gant de boxe ou des épées". The shape is plain
data, polygons in a unit square (x to the right, y down), so that the game draws it with
pygame (`game.client.competitive_art`) and the room's web page writes the very same
polygons as an inline SVG (`svg`): two swords crossed at their middle, each a silver blade
with a point, a gold cross-guard, a grip and a round pommel.
"""

from __future__ import annotations

import math
from typing import Final

Point = tuple[float, float]
Part = tuple[str, tuple[Point, ...]]
"""A polygon of the shape and its part: ``blade`` or ``hilt`` (their colours: `COLOURS`)."""

COLOURS: Final = {"blade": (214, 222, 230), "hilt": (226, 180, 60), "outline": (24, 32, 28)}
"""Fill of each part and the outline, as RGB."""

# One sword pointing up, in its own frame: u across the blade, t from the pommel (0) to the
# point (1). Fractions of the sword's length.
_BLADE: Final = ((-0.05, 0.30), (0.05, 0.30), (0.05, 0.86), (0.0, 0.98), (-0.05, 0.86))
_GUARD: Final = ((-0.17, 0.24), (0.17, 0.24), (0.17, 0.31), (-0.17, 0.31))
_GRIP: Final = ((-0.035, 0.09), (0.035, 0.09), (0.035, 0.24), (-0.035, 0.24))
_POMMEL: Final = tuple((0.065 * math.cos(a * math.pi / 4), 0.06 + 0.065 * math.sin(a * math.pi / 4))
                       for a in range(8))
_FROM: Final = (0.13, 0.87)  # the pommel, bottom left
_TO: Final = (0.91, 0.09)  # the point, top right


def _sword(mirror: bool) -> tuple[Part, ...]:
    dx, dy = _TO[0] - _FROM[0], _TO[1] - _FROM[1]
    length = math.hypot(dx, dy)
    ax, ay = dx / length, dy / length  # along the blade
    nx, ny = -ay, ax  # across it

    def place(u: float, t: float) -> Point:
        x = _FROM[0] + (t * ax + u * nx) * length
        y = _FROM[1] + (t * ay + u * ny) * length
        return (round(1.0 - x if mirror else x, 4), round(y, 4))

    parts = (("blade", _BLADE), ("hilt", _GUARD), ("hilt", _GRIP), ("hilt", _POMMEL))
    return tuple((part, tuple(place(u, t) for u, t in points)) for part, points in parts)


SHAPE: Final[tuple[Part, ...]] = _sword(False) + _sword(True)
"""The crossed swords: every polygon, back to front."""


def svg(size: int, title: str) -> str:
    """The shape as an inline SVG ``size`` pixels wide, titled ``title`` (already HTML-escaped)."""
    def rgb(colour: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*colour)

    polygons = "".join(
        f'<polygon points="{" ".join(f"{x * 100:g},{y * 100:g}" for x, y in points)}" '
        f'fill="{rgb(COLOURS[part])}"/>' for part, points in SHAPE)
    return (f'<svg class="swords" width="{size}" height="{size}" viewBox="0 0 100 100" role="img" '
            f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg"><title>{title}</title>'
            f'<g stroke="{rgb(COLOURS["outline"])}" stroke-width="3" stroke-linejoin="round">'
            f'{polygons}</g></svg>')
