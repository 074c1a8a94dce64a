"""Contact sheets of the card art (``python -m tools.art_sheets OUTDIR``), to look at it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import pygame

from game.client.art import CardArt
from game.client.felt import draw_felt
from game.engine.cards import COLOR_RANKS, COLOR_SUITS, JOKER, STANDARD_RANKS, STANDARD_SUITS, Card


def _sheet(items: Sequence[pygame.Surface | None], columns: int, art: CardArt) -> pygame.Surface:
    """Surfaces on felt, ``columns`` per row (``None`` leaves a gap)."""
    gap = max(6, art.width // 8)
    rows = (len(items) + columns - 1) // columns
    size = (columns * (art.width + gap) + gap, rows * (art.height + gap) + gap)
    sheet = draw_felt(size)  # drawn on: a felt of its own, not the one the screens share
    for i, item in enumerate(items):
        if item is not None:
            row, col = divmod(i, columns)
            sheet.blit(item, (gap + col * (art.width + gap), gap + row * (art.height + gap)))
    return sheet


def write_contact_sheets(outdir: Path, width: int = 120, four_color: bool = False) -> list[Path]:
    """Write ``standard.png``, ``action_markers.png`` and ``colors.png`` into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    art = CardArt(width, four_color=four_color)
    standard: list[pygame.Surface | None] = [
        art.face(Card(r + s)) for s in STANDARD_SUITS for r in STANDARD_RANKS]
    standard += [art.face(JOKER), art.back(), art.blank()]
    action: list[pygame.Surface | None] = []
    for s in STANDARD_SUITS:
        action += [art.face(Card(r + s), markers=True) for r in "JQK"]
        action.append(art.face(JOKER, markers=True) if s == "S" else None)
    colors: list[pygame.Surface | None] = [
        art.face(Card(c + r)) for c in COLOR_SUITS for r in COLOR_RANKS]
    colors += [art.face(Card("W")), art.face(Card("W+4")), art.back()]
    paths = []
    for name, items, columns in (("standard", standard, 13), ("action_markers", action, 4),
                                 ("colors", colors, 13)):
        path = outdir / f"{name}.png"
        pygame.image.save(_sheet(items, columns, art), str(path))
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the contact sheets and print their paths."""
    parser = argparse.ArgumentParser(prog="python -m tools.art_sheets",
                                     description="Write contact sheets of the card art.")
    parser.add_argument("outdir", type=Path, help="folder for the PNG contact sheets")
    parser.add_argument("--width", type=int, default=120, help="card width in px (default 120)")
    parser.add_argument("--four-color", action="store_true", help="blue diamonds, green clubs")
    args = parser.parse_args(argv)
    for path in write_contact_sheets(args.outdir, args.width, args.four_color):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
