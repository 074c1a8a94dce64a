"""Computer players. Each sees only its seat's `PlayerView` (never the game state).

One interface: ``choose(view, rng) -> Action``. `player_for(level)` returns the
player of a level (``easy``, ``medium``, ``hard``). Players that learn from the
public events also have ``observe(seat, event, rules, players)``; the table feeds
them the events redacted for their seat. ``Hard`` searches (``slow``): the table runs
it on a worker thread, and under a time budget it may use helper processes on the
machine's other cores (`default_helpers`, `use_cores`, `game.ai.parallel`).
"""

from __future__ import annotations

from .pace import reaction_delay, think_delay, will_denounce
from .parallel import default_helpers, use_cores
from .players import LEVELS, ComputerPlayer, Easy, Medium, player_for

__all__ = ["LEVELS", "ComputerPlayer", "Easy", "Medium", "default_helpers", "player_for", "reaction_delay",
           "think_delay", "use_cores", "will_denounce"]
