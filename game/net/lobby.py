"""The server's lobby: the public rooms waiting for players, for anyone to take a free seat.

A room created ``public`` is listed while its game has not started, a human seat is
free and one of its people is connected (its listing goes when the last of them
leaves, and comes back with the first of them): its rules, its seats (who has taken
which, by name and tag, and which are free or computers') and since when it waits (the
server's clock; the listing carries the server's ``now`` so a client counts the wait
by its own clock). Private rooms are never listed, nor are started or full rooms, nor
rooms whose people are all away, and a listing names no room but the listed ones.

A connection that asks (``lobby``) gets the listing, and while it watches, the listing
again whenever it changes: at most once a `PUSH_INTERVAL` (on the server's clock), so
a busy server sends each watcher a bounded stream, and never the same listing twice.
At most `SHOWN` rooms are listed, those waiting longest first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from .alarm import Alarm
from .clock import Clock
from .messages import LobbyListing
from .protocol import Client
from .rooms import Room
from .tokens import stake_of

SHOWN: Final = 100
PUSH_INTERVAL: Final = 1.0


def listed(room: Room) -> bool:
    """Whether ``room`` belongs in the lobby: public, not started, a human seat free, and one of
    its people connected (a stranger who took the last seat of a room whose people are all away
    would start a game they are not at)."""
    return room.kind == "public" and room.match is None and room.anyone_here and any(
        s.is_human and s.key_hash is None for s in room.seats)


def entry(room: Room) -> dict[str, Any]:
    """What the lobby shows of a listed room (nothing a stranger may not see)."""
    seats: list[dict[str, Any]] = []
    for seat in room.seats:
        if not seat.is_human:
            seats.append({"kind": "computer", "level": seat.level})
        elif seat.key_hash is None:
            seats.append({"kind": "free"})
        else:
            seats.append({"kind": "human", "name": seat.name, "tag": seat.tag, "avatar": seat.avatar})
    taken = sum(s["kind"] == "human" for s in seats)
    free = sum(s["kind"] == "free" for s in seats)
    return {"room": room.room_id, "preset": room.rules.name, "options": room.rules.options(),
            "players": room.players, "taken": taken, "free": free, "computers": room.computer_seats,
            "since": round(room.created, 3), "seats": seats, "stake": stake_of(room)}


class Lobby:
    """The listed rooms and the connections watching them.

    ``send(client, frame)``: how an encoded message reaches a connection (the server's queue; a
    listing the same for every watcher is encoded once).
    """

    def __init__(self, clock: Clock, send: Callable[[Client, str], None]) -> None:
        self.clock = clock
        self.send = send
        self.rooms: dict[str, Room] = {}  # listed, by id
        self.watchers: set[Client] = set()
        self._shown = ""  # the rooms of the last listing pushed (JSON), not to push it twice
        self._next = 0.0  # the clock's time the next push may go
        self._due: float | None = None  # a push waiting for its time
        self.alarm = Alarm(clock, lambda: self._due, self._push)

    def changed(self, room: Room) -> None:
        """Something changed in ``room`` (created, a seat claimed, started, expired)."""
        if listed(room):
            self.rooms[room.room_id] = room
        elif self.rooms.pop(room.room_id, None) is None:
            return  # neither listed before nor now: nothing the lobby shows changed
        self._soon()

    def gone(self, room_id: str) -> None:
        """The room expired."""
        if self.rooms.pop(room_id, None) is not None:
            self._soon()

    def listing(self) -> LobbyListing:
        """The ``lobby`` message: the listed rooms, waiting longest first, and the server's time."""
        rooms = sorted(self.rooms.values(), key=lambda r: (r.created, r.room_id))[:SHOWN]
        return LobbyListing(rooms=[entry(r) for r in rooms], listed=len(self.rooms),
                            now=round(self.clock.now(), 3))

    def watch(self, client: Client, on: bool) -> None:
        """``client`` asked for the lobby: send it, and keep it informed while ``on``."""
        if on:
            self.watchers.add(client)
        else:
            self.watchers.discard(client)
        self.send(client, self.listing().encode())

    def leave(self, client: Client) -> None:
        """The connection closed."""
        self.watchers.discard(client)

    def _soon(self) -> None:
        if not self.watchers:
            self._shown = ""  # whoever watches next is sent the listing as it is then
            return
        if self._due is not None:
            return
        self._due = max(self.clock.now(), self._next)
        self.alarm.replan()

    def _push(self) -> None:
        self._due = None
        message = self.listing()
        shown = json.dumps(message.rooms)
        if shown == self._shown:
            return
        self._shown = shown
        self._next = self.clock.now() + PUSH_INTERVAL
        frame = message.encode()  # the same listing for every watcher
        for client in list(self.watchers):
            self.send(client, frame)
