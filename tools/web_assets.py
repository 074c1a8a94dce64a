"""The game's pictures for the browser client: ``python -m tools.web_assets [--output DIR] [--size PX]``.

Writes, headless (SDL's dummy driver), into the browser client's built folder (by default
``game/net/browser/``, `game.net.browser_pages.BUILT`; ``make web`` runs this before the npm build):

- ``avatars/<name>.png``: every avatar of `game.play.avatars`, drawn by the game's own art
  (`game.client.avatar_art.avatar_image`) at ``--size`` pixels (128: sharp at 64 CSS pixels on
  a screen of twice the density), with a transparent corner outside the round badge;
- ``avatars/index.json``: the avatars' names in id order (``["curls", "glasses", …]``), the ids
  the protocol carries;
- ``icon.png``: the game's icon at 64 px (``assets/icons/huit-64.png``), the page's favicon.

It prints one line per file kind with the folder and the bytes written. Only these files are
replaced: the rest of the folder (the npm build's) is left as it is.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.client import assets  # noqa: E402
from game.client.avatar_art import avatar_image  # noqa: E402
from game.net.browser_pages import BUILT  # noqa: E402
from game.play.avatars import CATALOGUE  # noqa: E402

SIZE = 128
ICON = 64


def export(folder: Path, size: int = SIZE) -> list[Path]:
    """Write every avatar, their index and the icon into ``folder``; the files written."""
    pygame.display.init()  # smoothscale and SRCALPHA surfaces want the (dummy) video system
    try:
        out = folder / "avatars"
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for avatar in CATALOGUE:
            path = out / f"{avatar.name}.png"
            pygame.image.save(avatar_image(avatar.id, size), str(path))
            written.append(path)
        index = out / "index.json"
        index.write_text(json.dumps([avatar.name for avatar in CATALOGUE]) + "\n", encoding="utf-8")
        icon = folder / "icon.png"
        shutil.copyfile(assets.path("icons", f"huit-{ICON}.png"), icon)
        return [*written, index, icon]
    finally:
        pygame.display.quit()


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of pixels, not {text[:40]!r}") from None
    if not 16 <= value <= 512:
        raise argparse.ArgumentTypeError(f"expected 16 to 512 pixels, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.web_assets",
                                     description="export the game's avatars and icon for the browser client")
    parser.add_argument("--output", type=Path, default=BUILT,
                        help="the browser client's built folder (default: game/net/browser)")
    parser.add_argument("--size", type=_size, default=SIZE, help=f"avatar size in pixels, 16 to 512 ({SIZE})")
    args = parser.parse_args(argv)
    files = export(args.output, args.size)
    pictures = [path for path in files if path.suffix == ".png" and path.parent.name == "avatars"]
    print(f"{len(pictures)} avatars of {args.size} px, {sum(p.stat().st_size for p in pictures)} bytes, "
          f"and their index -> {args.output / 'avatars'}")
    print(f"the icon, {ICON} px -> {args.output / 'icon.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
