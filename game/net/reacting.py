"""Quick reactions: a seated player's ``react``, relayed to the room as a ``reaction``.

A reaction is an id from the fixed list `REACTIONS` (hello, well played, oops...), never
text: each game shows it in its own language, so nothing anyone sends needs moderating.
The server is the authority on who may send one and how often:

- only a person seated in a room whose game is under way (``playing`` or between deals:
  ``round_over``); a connection with no seat hears ``not_joined``, a room waiting for its
  people or whose match is over ``not_playing``; computers never send any;
- at most one every `MIN_GAP` seconds and `PER_MINUTE` a minute per seat (by the server's
  clock, `game.net.clock`); past that, ``too_many_reactions`` (with ``values.wait``, the
  seconds until the next one may go), and nothing is relayed;
- an id that is not in the list is ``bad_message``; whatever other field a ``react``
  carries (a room, a text) is never read: the reaction goes to the sender's own room with
  the sender's own seat, its id alone.

A refused reaction costs a dictionary look-up and a few numbers compared: a flood is
refused before anything is encoded or sent to anyone (the connection's own rate limit,
`protocol.RATE`, comes first).
"""

from __future__ import annotations

from collections import deque
from typing import Final

from game.engine import Status

from .messages import React, Reaction
from .protocol import Client, Refusal
from .roomservice import Handler, RoomService, handles
from .roomstore import StoreFailure

MIN_GAP: Final = 3.0
"""Seconds a seat waits between two reactions."""
PER_MINUTE: Final = 5
"""Reactions a seat may send in any 60 seconds."""
WINDOW: Final = 60.0
KEPT: Final = 4096
"""Seats whose recent reactions are remembered before the stale ones are swept (memory stays bounded)."""


class Reacting:
    """The handler of ``react``: checked, rate-limited per seat, relayed to the room's seats."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        self.sent: dict[tuple[str, int], deque[float]] = {}  # (room, seat) -> when its recent ones went
        service.cluster.listen("reaction", self._relay)

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(React, self.on_react)])

    async def on_react(self, client: Client, message: React) -> None:
        """Relay the sender's reaction to every seat of its room (the sender's too: its bubble)."""
        service = self.service
        room, seat = service.joined(client)
        message.check("reaction")
        if room.match is None or room.state not in (Status.PLAYING, Status.ROUND_OVER):
            raise Refusal("not_playing", "reactions are sent while the game is under way")
        if not room.seats[seat].is_human:  # (a seat a computer took over keeps no connection)
            raise Refusal("not_playing", "only the people at the table react")
        self.spend(room.room_id, seat)
        try:  # every instance relays it to the seats of the room connected to it (this one too)
            service.cluster.signal("reaction", f"{room.room_id} {seat} {message.reaction}")
        except StoreFailure:  # the others cannot be told: the seats here at least see it
            self._relay(f"{room.room_id} {seat} {message.reaction}")

    def _relay(self, text: str) -> None:
        """Send a reaction (``room seat reaction``) to the seats of its room connected here."""
        service = self.service
        room_id, seat, reaction = text.split()
        frame = Reaction(room=room_id, seat=int(seat), reaction=reaction).encode()
        for other in list(service.seated.get(room_id, {}).values()):
            service.send_frame(other, frame)

    def spend(self, room_id: str, seat: int) -> None:
        """Count one reaction of ``seat`` in ``room_id`` now.

        Raises:
            Refusal: ``too_many_reactions`` (nothing counted): within `MIN_GAP` of the last one,
                or `PER_MINUTE` in the last minute already.
        """
        now = self.service.clock.now()
        times = self.sent.get((room_id, seat))
        if times is None:
            if len(self.sent) >= KEPT:
                self._sweep(now)
            times = self.sent[(room_id, seat)] = deque()
        while times and now - times[0] >= WINDOW:
            times.popleft()
        wait = 0.0
        if times:
            wait = max(wait, MIN_GAP - (now - times[-1]))
        if len(times) >= PER_MINUTE:
            wait = max(wait, WINDOW - (now - times[0]))
        if wait > 0:
            raise Refusal("too_many_reactions", f"at most one reaction every {MIN_GAP:g} seconds and "
                                                f"{PER_MINUTE} a minute", values={"wait": round(wait, 1)})
        times.append(now)

    def _sweep(self, now: float) -> None:
        """Forget the seats that sent nothing in the last minute."""
        for key in [k for k, times in self.sent.items() if not times or now - times[-1] >= WINDOW]:
            del self.sent[key]
