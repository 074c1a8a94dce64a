"""When the server forgets a room: expiry, looked for every `SWEEP` seconds.

A room is deleted (with its log) once idle for `EXPIRY` (seven days without a change);
a room nobody but its creator ever joined once idle for the server's ``lonely_expiry``
(`LONELY_EXPIRY`); and a room whose match is over (`rooms.Room.resting`: nothing is
played, no deal runs) once none of its people has been connected to it for the server's
``finished_expiry`` (`FINISHED_EXPIRY`, an hour after the last of them left; a resting
room the server finds with nobody connected, e.g. at start, counts from then). What a
player earned in a ranked room lives in the ranking's tables, not in the room: its
points are written before it goes. A client that asks for a room gone is told
``unknown_room``. Players' profiles unused for `profiles.PROFILE_EXPIRY` go too.

`RoomExpiry` is a part of `server.RoomServer` (a base class of it): the attributes and
methods it uses are the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from typing import TYPE_CHECKING, Final

from .clock import Clock
from .profiles import PROFILE_EXPIRY

if TYPE_CHECKING:
    from .competition import Competition
    from .lobby import Lobby
    from .profiles import ProfileStore
    from .protocol import Client
    from .quotas import Quotas
    from .ranking import Ranking
    from .rooms import Room
    from .roomstore import RoomStore

log = logging.getLogger("huit.server")

EXPIRY: Final = 7 * 24 * 3600.0  # seconds without activity before a room is deleted
LONELY_EXPIRY: Final = 6 * 3600.0  # the same, for a room nobody but its creator ever joined
FINISHED_EXPIRY: Final = 3600.0  # a room whose match is over, once none of its people is connected
SWEEP: Final = 600.0  # how often expired rooms are looked for


class RoomExpiry:
    """The server's sweeps (see the module); mixed into `server.RoomServer`."""

    clock: Clock
    store: RoomStore
    quotas: Quotas
    lobby: Lobby
    competition: Competition
    profiles: ProfileStore
    ranking: Ranking
    rooms: dict[str, Room]
    seated: dict[str, dict[int, Client]]
    tasks: dict[str, asyncio.Task[None]]
    ticked: dict[str, float]
    quiet: dict[str, float]  # resting room id -> since when none of its people is connected
    lonely_expiry: float
    finished_expiry: float

    async def _sweep(self) -> None:
        while True:
            await self.clock.sleep(SWEEP)
            self.expire()

    def expire(self) -> list[str]:
        """Delete rooms idle for seven days, rooms nobody but their creator joined idle for
        `LONELY_EXPIRY`, and rooms whose match is over with none of their people connected for
        `FINISHED_EXPIRY` (by the injectable clock); return their ids."""
        now = self.clock.now()
        gone = self.store.expired(now - EXPIRY, now - self.lonely_expiry)
        gone += [r for r in self._quiet_rooms(now) if r not in gone]
        self.quotas.sweep()
        with contextlib.suppress(sqlite3.Error):  # tried again at the next sweep
            self.profiles.expire(now - PROFILE_EXPIRY)
        for room_id in gone:
            self.store.delete(room_id)
            self.quotas.forget(room_id)
            self.lobby.gone(room_id)
            self.competition.gone(room_id)
            self.rooms.pop(room_id, None)
            self.ticked.pop(room_id, None)
            self.quiet.pop(room_id, None)
            task = self.tasks.pop(room_id, None)
            if task is not None:
                task.cancel()
            for client in self.seated.pop(room_id, {}).values():
                client.room = client.seat = None
            log.info("room %s expired", room_id)
        return gone

    def _quiet_rooms(self, now: float) -> list[str]:
        """The resting rooms none of whose people has been connected for `FINISHED_EXPIRY` (a
        room found so for the first time, e.g. at start, counts from now). A ranked room's points
        are written before it goes (they live in the ranking's tables, not in the room): if the
        disk refuses, it stays until the next sweep."""
        quiet = []
        for room_id, room in self.rooms.items():
            if not room.resting or room.anyone_here:
                self.quiet.pop(room_id, None)
                continue
            if now - self.quiet.setdefault(room_id, now) < self.finished_expiry:
                continue
            try:
                self.ranking.award(room, now)  # written once: nothing new if the match's end wrote them
            except sqlite3.Error:
                log.exception("room %s: the ranking could not be stored; the room stays", room_id)
                continue
            quiet.append(room_id)
        return quiet
