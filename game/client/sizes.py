"""The window sizes the layout is made for, and the one rule of every window-size flag.

Kept apart from `game.client.window` (which needs pygame) so that a command reads and
refuses ``--size`` without loading pygame: standard library and `game.cli` only.
`game.client.window` still offers these names.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Final

from game.cli import shown

MIN_SIZE: Final = (1024, 600)  # the smallest window the layout is made for
MAX_SIZE: Final = (3840, 2160)  # the largest (a window of 65536x65536 would need 16 GiB)


SIZE_RULE: Final = (f"WIDTHxHEIGHT in pixels, e.g. 1600x900: whole numbers in ASCII digits, the sign "
                    f"x, X or \u00d7 between them (spaces around ignored), from {MIN_SIZE[0]}x{MIN_SIZE[1]} "
                    f"to {MAX_SIZE[0]}x{MAX_SIZE[1]}")
"""The one rule of every window-size flag (the game's ``--size``, ``tools.shots``, ``tools.client_bench``),
as their ``--help`` says it."""


def parse_size(text: str) -> tuple[int, int]:
    """Read a window size by `SIZE_RULE` (``1280x800``, ``1280X800`` and ``1280×800`` alike): a
    window from `MIN_SIZE` to `MAX_SIZE`. Every size flag uses this one function (argparse
    ``type=``).

    A size outside that range is refused rather than clamped, so that the window is never
    other than what was asked (a smaller window, dragged by hand, is still clamped: see
    `App.size`).

    Raises:
        argparse.ArgumentTypeError: not two numbers, or a size the game is not made for.
    """
    found = _SIZE.fullmatch(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"size must look like 1280x800 (x, X or \u00d7 between the "
                                         f"numbers), not {shown(text)}")
    # More digits than any screen has is out of range: never converted (a 5,000-digit int is slow).
    w, h = (int(d) if len(d) <= 6 else sys.maxsize for d in (found[1], found[2]))
    if not (MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]):
        raise argparse.ArgumentTypeError(
            f"the window must be from {MIN_SIZE[0]}x{MIN_SIZE[1]} to {MAX_SIZE[0]}x{MAX_SIZE[1]}, "
            f"not {shown(text)}")
    return w, h


_SIZE: Final = re.compile(r"\s*([0-9]+)\s*[x×]\s*([0-9]+)\s*", re.ASCII | re.IGNORECASE)
