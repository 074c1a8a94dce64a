"""The play at a table around the engine: what happens by itself between the players' actions.

`TurnDriver` (in `turns`) runs the computer seats (their think delay, a searching
player on a worker thread, the reaction before catching a missed "Card" call), the
turn timer of a human seat, and feeds the computers the events of the round. It is
tick-driven and knows nothing of pygame, asyncio or sockets: the local table
(`game.client.controller`) advances it every frame, the room server
(`game.net.server`) sleeps until it is due. Either applies the moves it returns its
own way.
"""

from __future__ import annotations

from game.engine.autopilot import TurnKey

from .turns import Computer, Move, Pace, TurnDriver

__all__ = ["Computer", "Move", "Pace", "TurnDriver", "TurnKey"]
