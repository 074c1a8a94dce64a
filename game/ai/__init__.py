"""Computer players. Each sees only its seat's `PlayerView` (never the game state).

One interface: ``choose(view, rng) -> Action``. `player_for(level)` returns the
player of a level (``easy``, ``medium``, ``hard``). The strong search player
arrives with the computer-opponents issue; until then ``medium`` and ``hard`` play
the rule-based `Medium` policy.
"""

from __future__ import annotations

from .players import LEVELS, ComputerPlayer, Easy, Medium, player_for

__all__ = ["LEVELS", "ComputerPlayer", "Easy", "Medium", "player_for"]
