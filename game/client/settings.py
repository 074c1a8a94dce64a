"""Player settings: language, animation speed, sound, deck colours, layout, undo.

The values live here; saving them across runs belongs to the saves module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from . import i18n

SPEEDS: Final = {"slow": 0.6, "normal": 1.0, "fast": 2.0, "instant": 0.0}
"""Animation and think-delay multipliers by setting name (0: instant)."""


@dataclass
class Settings:
    """What a player can change in the Settings screen."""

    language: str = field(default_factory=i18n.system_language)
    speed: str = "normal"
    volume: float = 0.8
    muted: bool = False
    four_color: bool = False
    left_handed: bool = False
    undo_allowed: bool = True
    default_levels: dict[str, str] = field(default_factory=dict)
    last_preset: str = "classic"
    last_options: dict[str, dict[str, object]] = field(default_factory=dict)

    @property
    def speed_factor(self) -> float:
        """The multiplier for animations and think delays (0 means instant)."""
        return SPEEDS.get(self.speed, 1.0)
