"""The table felt: a green cloth with a soft vignette and fine seeded noise, any size.

Every screen and table lays the felt at the window's size: `felt` keeps the last two it drew (a
4K felt takes a tenth of a second or more to draw), so a screen opened or built again, or the
table after a menu, reuses it. The kept picture is shared: draw on a copy, never on it.
"""

from __future__ import annotations

import functools
import random

import pygame

RGB = tuple[int, int, int]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def felt(size: tuple[int, int], *, seed: int = 8) -> pygame.Surface:
    """A green table felt of ``size`` px (`draw_felt`), in the display's pixel format once there is
    a display; the same picture as last time for the same size (shared: never draw on it)."""
    display = pygame.display.get_surface()
    form = None if display is None else (display.get_bitsize(), display.get_masks())
    return _kept(max(1, size[0]), max(1, size[1]), seed, form)


@functools.lru_cache(maxsize=2)
def _kept(w: int, h: int, seed: int, form: object) -> pygame.Surface:
    surface = draw_felt((w, h), seed=seed)
    return surface.convert() if form is not None else surface


def draw_felt(size: tuple[int, int], *, seed: int = 8) -> pygame.Surface:
    """A green table felt of ``size`` px, drawn anew: a soft radial vignette and fine seeded noise."""
    w, h = max(1, size[0]), max(1, size[1])
    # The vignette is drawn small and scaled up, which keeps it smooth and fast.
    small = pygame.Surface((64, 64))
    centre, rim = (38, 122, 72), (12, 58, 34)
    small.fill(rim)
    for i in range(32, 0, -1):
        t = (i / 32) ** 1.6
        ring = pygame.Rect(32 - i * 1.25, 32 - i * 1.25, i * 2.5, i * 2.5)
        pygame.draw.ellipse(small, mix(centre, rim, t), ring)
    surface = pygame.transform.smoothscale(small, (w, h))
    rng = random.Random(seed)
    tile_size = 96
    grain = rng.randbytes(tile_size * tile_size)
    rgb = bytes(b % 10 for b in grain for _ in range(3))
    tile = pygame.image.frombytes(rgb, (tile_size, tile_size), "RGB")
    # Two offset grids of the tile, one lightening and one (flipped) darkening: no visible repeat.
    shift = rng.randrange(1, tile_size)
    dark = pygame.transform.flip(tile, True, False)
    for y in range(0, h, tile_size):
        for x in range(0, w, tile_size):
            surface.blit(tile, (x, y), special_flags=pygame.BLEND_RGB_ADD)
    for y in range(-shift, h, tile_size):
        for x in range(-shift, w, tile_size):
            surface.blit(dark, (x, y), special_flags=pygame.BLEND_RGB_SUB)
    return surface
