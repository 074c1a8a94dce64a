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

`Expiry` takes the rooms service (`roomservice.RoomService`) and tells each part that
keeps something of a room that it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from .competition import Competition
from .driving import Driving
from .lobby import Lobby
from .profiles import PROFILE_EXPIRY, Profiles
from .ranking import Ranking
from .roomservice import RoomService
from .roomstore import StoreFailure

log = logging.getLogger("huit.server")

EXPIRY: Final = 7 * 24 * 3600.0  # seconds without activity before a room is deleted
LONELY_EXPIRY: Final = 6 * 3600.0  # the same, for a room nobody but its creator ever joined
FINISHED_EXPIRY: Final = 3600.0  # a room whose match is over, once none of its people is connected
SWEEP: Final = 600.0  # how often expired rooms are looked for


class Expiry:
    """The server's sweeps (see the module): ``lonely_expiry`` and ``finished_expiry`` are the
    server's (`LONELY_EXPIRY`, `FINISHED_EXPIRY` by default)."""

    def __init__(self, service: RoomService, *, driving: Driving, competition: Competition, lobby: Lobby,
                 profiles: Profiles, ranking: Ranking, lonely_expiry: float, finished_expiry: float) -> None:
        self.service = service
        self.driving = driving
        self.competition = competition
        self.lobby = lobby
        self.profiles = profiles
        self.ranking = ranking
        self.lonely_expiry = lonely_expiry
        self.finished_expiry = finished_expiry
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep every `SWEEP` seconds from now on (on the running loop)."""
        self._sweeper = asyncio.create_task(self._sweep())

    def stop(self) -> None:
        """No more sweeps."""
        if self._sweeper is not None:
            self._sweeper.cancel()

    async def _sweep(self) -> None:
        while True:
            await self.service.clock.sleep(SWEEP)
            try:
                await self.expire()
            except Exception:  # the database refused (a lock held, a restart): the next sweep tries again
                log.exception("an expiry sweep failed; the next one tries again")

    async def expire(self) -> list[str]:
        """Delete rooms idle for seven days, rooms nobody but their creator joined idle for
        `LONELY_EXPIRY`, and rooms whose match is over with none of their people connected for
        `FINISHED_EXPIRY` (by the injectable clock); return their ids."""
        service = self.service
        now = service.clock.now()
        before, lonely_before = now - EXPIRY, now - self.lonely_expiry
        idle = service.store.expired(before, lonely_before)
        quiet = [r for r in self._quiet_rooms(now) if r not in idle]
        service.quotas.sweep()
        with contextlib.suppress(StoreFailure):  # tried again at the next sweep
            self.profiles.expire(now - PROFILE_EXPIRY)
        expired = []
        # Each room is judged again once its lock is held: the list was read before the awaits of
        # the deletes before it, and a room may have been joined or played meanwhile.
        for room_id in [*idle, *quiet]:
            if service.locks.busy(room_id):
                continue  # a change of it is under way: not idle after all (the next sweep sees)
            async with service.locks.hold(room_id):
                try:
                    if room_id in idle:  # stored as idle still? (the check and the delete in one transaction)
                        deleted = await service.writes.call(service.store.delete_expired, room_id, before,
                                                            lonely_before)
                    elif self._still_quiet(room_id, now):
                        await service.writes.call(service.store.delete, room_id)
                        deleted = True
                    else:
                        deleted = False
                except StoreFailure:
                    log.exception("room %s could not be deleted; the next sweep tries again", room_id)
                    continue
                if not deleted:
                    continue
                service.forget(room_id)
            expired.append(room_id)
            log.info("room %s expired", room_id)
        return expired

    def _still_quiet(self, room_id: str, now: float) -> bool:
        """Whether the quiet room ``room_id`` still is so (under its lock): resting, none of its
        people connected (here: nobody came back since `_quiet_rooms` judged it) for `finished_expiry`."""
        service = self.service
        room = service.rooms.get(room_id)
        since = service.quiet.get(room_id)
        return (room is not None and room.resting and not room.anyone_here and not service.seated.get(room_id)
                and since is not None and now - since >= self.finished_expiry)

    def _quiet_rooms(self, now: float) -> list[str]:
        """The resting rooms none of whose people has been connected for `FINISHED_EXPIRY` (a
        room found so for the first time, e.g. at start, counts from now). A ranked room's points
        are written before it goes (they live in the ranking's tables, not in the room): if the
        disk refuses, it stays until the next sweep."""
        quiet = []
        service = self.service
        for room_id, room in list(service.rooms.items()):
            if room.resting and not room.anyone_here:
                # This copy may be stale (the room played on through another instance), and its
                # people may be connected to another instance: judged on the room as it stands.
                current = service.replicas.refresh(room)
                if current is None:
                    continue
                room = current
                service.replicas.presence(room)
            if not room.resting or room.anyone_here:
                service.quiet.pop(room_id, None)
                continue
            if now - service.quiet.setdefault(room_id, now) < self.finished_expiry:
                continue
            try:
                self.ranking.award(room, now)  # written once: nothing new if the match's end wrote them
            except StoreFailure:
                log.exception("room %s: the ranking could not be stored; the room stays", room_id)
                continue
            quiet.append(room_id)
        return quiet
