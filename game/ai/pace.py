"""How long computers take, and how quickly they catch a missed "Card" call.

Used by the turn driver (`game.play.turns`), which the table and the room server
share, so a computer behaves the same at home and online.
"""

from __future__ import annotations

import random
from typing import Final

THINK_SECONDS: Final = 0.9
"""A computer's think delay at normal speed, drawn between 0.6× and 1.4× of it."""

REACTION_SECONDS: Final = 1.2
"""How long before a computer denounces a missed "Card" call, drawn between 0.7× and 1.5× of it."""


def think_delay(rng: random.Random, scale: float = 1.0) -> float:
    """One think delay, times ``scale`` (0: at once)."""
    return THINK_SECONDS * rng.uniform(0.6, 1.4) * scale


def reaction_delay(rng: random.Random, scale: float = 1.0) -> float:
    """One reaction delay before a denounce, times ``scale``."""
    return REACTION_SECONDS * rng.uniform(0.7, 1.5) * scale


def will_denounce(level: str, rng: random.Random) -> bool:
    """Whether a computer of ``level`` catches a missed call: Easy only half the time."""
    return level != "easy" or rng.random() < 0.5
