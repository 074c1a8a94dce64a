"""What the server does by itself in its rooms: computer moves, turn clocks, the next deal.

Each dealt room has a `game.play.TurnDriver` (its computers, their think and reaction
delays, Hard's searches in the server's `search.SearchPool`, catching a missed "Card"
call, the turn clock of timed rules). The server brings a room's driver up to the
present before anything changes in the room (`_catch_up`), and one task per room
sleeps on the server's clock until the driver is due (`_drive`, re-planned by `_kick`
after every change), then makes its move like a player's: checked, committed, applied,
told. A room's computers and clocks stand still while none of its people is connected.
The next deal comes when every person of the room asked for it; after a match that is
over (rules without a target), only if the room's computers fit the quota again.

`RoomDriving` is a part of `server.RoomServer` (a base class of it): the attributes
and methods it uses are the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

from game.engine import Action
from game.engine.events import Event
from game.play import Move, Pace

from .clock import Clock
from .messages import Error, ServerMessage
from .protocol import Client, Refusal
from .quotas import Quotas
from .rooms import LogEntry, Room
from .search import SearchPool

log = logging.getLogger("huit.server")


class RoomDriving:
    """The rooms' own moves (see the module); mixed into `server.RoomServer`."""

    clock: Clock
    pace: Pace
    search: SearchPool
    rng: random.Random
    rooms: dict[str, Room]
    seated: dict[str, dict[int, Client]]
    quotas: Quotas
    tasks: dict[str, asyncio.Task[None]]
    ticked: dict[str, float]
    _loop: asyncio.AbstractEventLoop | None

    if TYPE_CHECKING:  # the server's own, used here
        def _act(self, room: Room, seat: int, action: Action, sender: Client | None = None,
                 ref: Any = None) -> None: ...

        def _commit(self, room: Room, entry: LogEntry, also: Any = None) -> None: ...

        def _broadcast(self, room: Room, events: list[Event], sender: Client | None = None,
                       ref: Any = None) -> None: ...

        def _room_status(self, room: Room) -> None: ...

        def _send(self, client: Client, message: ServerMessage) -> None: ...

    def _adopt(self, room: Room) -> None:
        """A room was dealt (or rebuilt): its driver paces its computers by the server's settings."""
        driver = room.driver
        if driver is None:
            return
        driver.pace = self.pace
        driver.executor = self.search
        driver.wake = lambda: self._wake(room)
        self.ticked[room.room_id] = self.clock.now()

    def _wake(self, room: Room) -> None:
        """A search finished (on a worker thread): re-plan the room on the event loop."""
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the server has stopped
                self._loop.call_soon_threadsafe(self._kick, room)

    def _catch_up(self, room: Room) -> Move | None:
        """Bring the room's driver to the present; return the move it wants made now, if any.

        Called before anything changes in the room, so the time until then counts for the
        position as it was (a turn's clock, a think delay)."""
        driver = room.driver
        if driver is None:
            return None
        now = self.clock.now()
        elapsed = now - self.ticked.get(room.room_id, now)
        self.ticked[room.room_id] = now
        if not room.anyone_here:
            return None  # none of its people is connected: its computers and clocks stand still
        return driver.advance(elapsed)

    def _may_deal(self, room: Room) -> bool:
        """Whether a room whose match is over may deal again: its computers must fit the quota of
        its people again (`quotas.Quotas.check_deal`); if not, its people are told (each asked at
        ``accept_round``, which checked then: this is a quota taken since) and it stays as it is."""
        try:
            self.quotas.check_deal(room.room_id, room.computer_seats)
        except Refusal as exc:
            for client in list(self.seated.get(room.room_id, {}).values()):
                self._send(client, Error(code=exc.code, message=str(exc)))
            return False
        return True

    def _kick(self, room: Room) -> None:
        """(Re)plan what the server itself must do next in ``room``."""
        task = self.tasks.pop(room.room_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if room.room_id in self.rooms:
            self.tasks[room.room_id] = asyncio.ensure_future(self._drive(room))

    async def _drive(self, room: Room) -> None:
        """Sleep until the room's driver is due, then make its move (or deal the next round)."""
        try:
            while True:
                if not room.anyone_here:
                    return  # until one of its people comes back (`_seat` plans the room again)
                move = self._catch_up(room)
                if move is not None:
                    self._act(room, move.seat, move.action)  # which plans what comes next
                    return
                if room.deal_ready:
                    if not self._may_deal(room):
                        return  # until one of its people asks again
                    self._commit(room, LogEntry("deal"))
                    self._broadcast(room, room.next_round())
                    self.quotas.dealing(room.room_id, room.computer_seats)
                    self._room_status(room)
                    self._kick(room)
                    return
                due = None if room.driver is None else room.driver.due()
                if due is None:
                    return  # nothing until someone acts (or a search finishes: `_wake`)
                await self.clock.sleep(due)
        except asyncio.CancelledError:
            raise
        except Refusal as exc:  # e.g. the disk refused a computer's move: tried again at the next change
            log.error("room %s: %s", room.room_id, exc)
        except Exception:
            log.exception("room %s: the server's own move failed", room.room_id)
