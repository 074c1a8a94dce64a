"""`Autopilot`: whose turns the computer plays at a table, as one typed value.

The play layer's `TurnDriver` keeps the autopilot and gives it as an `Autopilot`; the
table's save holds it and reads it back as one, checked once there (`game.saves.games`),
and the driver takes it again. It lives in the engine because the engine is what
both of those layers import, and it is a plain value: seats and turns, no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass

TurnKey = tuple[int, int, int]
"""One player's turn: (deal number, turn number, seat to act)."""


@dataclass(frozen=True)
class Autopilot:
    """Who the computer plays for: the people's seats it plays (``on``), each seat's turns in a
    row lost to the turn timer (``lost_in_a_row``, one number per seat; a save from before
    may hold fewer) and the turn lost to the clock whose rest the computer is playing
    (``lost_turn``), if any. ``Autopilot()`` is the autopilot off for everyone."""

    on: tuple[int, ...] = ()
    lost_in_a_row: tuple[int, ...] = ()
    lost_turn: TurnKey | None = None
