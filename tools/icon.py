"""The game's icon, an 8 on a card: ``python -m tools.icon [OUTDIR]``.

Drawn with pygame primitives, the shipped DejaVu font and the game's own card back
(`game.client.art.CardArt`), at four times the size and smoothly scaled down, once per
size in `game.client.assets.ICON_SIZES`; written as ``huit-N.png`` into OUTDIR (by
default the checkout's ``assets/icons``, which the wheel ships as ``game/assets`` and
``huit --install-desktop`` copies into the hicolor theme). From 48 px up, the red back
of a second card shows behind the face; at 16 and 32 px the face stands alone, its 8 as
large as the card allows.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.client import assets  # noqa: E402
from game.client.art import CardArt  # noqa: E402

SOURCE_ICONS = Path(__file__).resolve().parents[1] / "assets" / "icons"
"""Where the committed icons live in a checkout: what the wheel ships."""

_SS = 4  # supersampling
PAPER = (252, 251, 246)
EDGE = (96, 96, 104)
RED = (200, 30, 45)


def _glyph(text: str, height: float, color: tuple[int, int, int]) -> pygame.Surface:
    """``text`` in DejaVu Sans Bold whose ink is ``height`` px tall, cropped to its ink."""
    font_file = str(assets.path("fonts", "DejaVuSans-Bold.ttf"))
    probe = pygame.font.Font(font_file, 400).render(text, True, color)
    ink = probe.get_bounding_rect().height / 400
    surface = pygame.font.Font(font_file, max(4, round(height / ink))).render(text, True, color)
    return surface.subsurface(surface.get_bounding_rect()).copy()


def _face(width: int, height: int, small: bool) -> pygame.Surface:
    """The front card: paper, a thin edge, a big red 8 and (when there is room) a heart."""
    card = pygame.Surface((width, height), pygame.SRCALPHA)
    radius = round(width * (0.14 if small else 0.1))
    pygame.draw.rect(card, EDGE, card.get_rect(), border_radius=radius)
    edge = max(_SS, round(width * (0.05 if small else 0.025)))
    pygame.draw.rect(card, PAPER, card.get_rect().inflate(-2 * edge, -2 * edge),
                     border_radius=max(1, radius - edge))
    eight = _glyph("8", height * (0.74 if small else 0.56), RED)
    if eight.get_width() > width * 0.8:
        eight = pygame.transform.smoothscale(
            eight, (round(width * 0.8), round(eight.get_height() * width * 0.8 / eight.get_width())))
    centre_y = height * (0.5 if small else 0.47)
    card.blit(eight, eight.get_rect(center=(width / 2, centre_y)))
    if not small:
        heart = _glyph("♥", height * 0.12, RED)
        card.blit(heart, heart.get_rect(topleft=(width * 0.1, height * 0.07)))
        card.blit(pygame.transform.rotate(heart, 180),
                  heart.get_rect(bottomright=(width * 0.9, height * 0.93)))
    return card


def draw_icon(size: int) -> pygame.Surface:
    """The icon at ``size`` px square, with transparency."""
    big = size * _SS
    canvas = pygame.Surface((big, big), pygame.SRCALPHA)
    small = size < 48
    if small:
        height = round(big * 0.96)
        width = round(height * 0.74)
        face = _face(width, height, small=True)
        canvas.blit(face, face.get_rect(center=(big / 2, big / 2)))
    else:
        height = round(big * 0.84)
        width = round(height / 1.4)
        back = CardArt(max(16, width // 2)).back()  # the game's own back, scaled up: it is simple art
        back = pygame.transform.smoothscale(back, (width, height))
        back = pygame.transform.rotozoom(back, -14, 1.0)
        canvas.blit(back, back.get_rect(center=(big * 0.6, big * 0.5)))
        face = pygame.transform.rotozoom(_face(width, height, small=False), 8, 1.0)
        canvas.blit(face, face.get_rect(center=(big * 0.42, big * 0.52)))
    return pygame.transform.smoothscale(canvas, (size, size))


def write_icons(outdir: Path, sizes: Sequence[int] = assets.ICON_SIZES) -> list[Path]:
    """Write ``huit-N.png`` for each size into ``outdir``; the paths written."""
    pygame.font.init()
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for size in sizes:
        path = outdir / assets.icon_name(size)
        pygame.image.save(draw_icon(size), str(path))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the icons and print their paths."""
    parser = argparse.ArgumentParser(prog="python -m tools.icon", description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path, default=SOURCE_ICONS,
                        help=f"where to write them (default: {SOURCE_ICONS})")
    args = parser.parse_args(argv)
    for path in write_icons(args.outdir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
