"""What Huit's commands share: one-line refusals, and flag values checked by kind, then by range.

``python main.py``, ``python main.py serve`` and ``python -m game.replay`` refuse a bad
argument with ONE line on standard error, ``PROG: error: WHAT``, and exit code 2:
argparse's own error line, without the usage block before it (``--help`` shows that).
A value quoted in a message is cut (`shown`), so a 100,000-character argument still
gives a short line. What a command prints for other programs goes through `print_out`, so a
reader that stops early (``| head``) ends it quietly. Standard library only: the commands that
use this never load pygame.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from typing import Final, NoReturn

SHOWN: Final = 40
"""Characters of a refused value quoted in a message; the rest is counted, not shown."""

_WHOLE: Final = re.compile(r"[+-]?[0-9]{1,30}", re.ASCII)
"""A whole number as a flag gives it: ASCII digits, at most 30 of them (no ``1_000``, no
Arabic-Indic digits, nothing that `int` would spend time on)."""


class CommandParser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose refusals are one line: ``PROG: error: WHAT``, exit 2."""

    def error(self, message: str) -> NoReturn:
        """Print the one line and exit with code 2 (argparse prints the usage block first)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def shown(value: object, limit: int = SHOWN, write: Callable[[object], str] = repr) -> str:
    """``write(value)`` (``repr``) for a message, cut to about ``limit`` characters (a long text
    is counted)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{write(value[:limit])}... ({len(value):,} characters)"
    try:
        text = write(value)
    except (ValueError, RecursionError):  # an int past Python's digit limit; a deeply nested list
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[:limit] + "..."


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number from ``low`` to ``high``.

    The function it returns raises `argparse.ArgumentTypeError` naming the range.
    """
    wanted = f"a whole number from {low} to {high}"

    def read(text: str) -> int:
        value = int(text) if _WHOLE.fullmatch(text.strip()) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {shown(text)}")
        return value

    read.__name__ = "whole_number"
    return read


def number(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type=``: a finite number from ``low`` to ``high``.

    ``nan`` and ``inf`` are refused: each would turn a limit off. The function it returns
    raises `argparse.ArgumentTypeError` naming the range.
    """
    wanted = f"a number from {low:g} to {high:g}"

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {shown(text)}")
        return value

    read.__name__ = "number"
    return read


def print_out(text: str) -> bool:
    """Print ``text`` on standard output; False if the reader has gone (``| head`` closed the pipe).

    Then standard output is pointed at the null device, so that Python's own flush at exit does not
    fail again with a traceback; the command should stop and exit 1 (as the Python docs advise
    for SIGPIPE)."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return False
    return True
