"""Computer players. Each sees only its seat's `PlayerView` (never the game state).

One interface, `ComputerPlayer`: ``choose(view, rng) -> Action``, ``observe(seat, event,
rules, players)`` (the public events, redacted for the player's seat; a no-op for Easy)
and ``searches`` (whether choosing is slow enough for a worker thread).
`player_for(level)` returns the player of a level (``easy``, ``medium``, ``hard``).
``Hard`` searches: the table and the server run it on a worker thread (through
`game.play.TurnDriver`), and under a time budget it may use helper processes on the
machine's other cores (`default_helpers`, `use_cores`, `game.ai.parallel`). `pace`
holds how long computers take to act and to catch a missed "Card" call.
"""

from __future__ import annotations

from .pace import reaction_delay, think_delay, will_denounce
from .parallel import default_helpers, use_cores
from .players import LEVELS, ComputerPlayer, Easy, Medium, player_for

__all__ = ["LEVELS", "ComputerPlayer", "Easy", "Medium", "default_helpers", "player_for", "reaction_delay",
           "think_delay", "use_cores", "will_denounce"]
