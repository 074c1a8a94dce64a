"""What the server does by itself in its rooms: computer moves, turn clocks, the next deal.

Each dealt room has a `game.play.TurnDriver` (its computers, their think and reaction delays,
Hard's searches in the server's `search.SearchPool`, catching a missed "Card" call, the turn
clock of timed rules, and the ranked clock of every ranked game: `rooms.Room.play_rules`, run
for ``ranked_clock`` seconds a turn). The rooms service brings a room's driver up to the present
before anything changes in the room (`Driving.catch_up`), and one task per room sleeps on the
server's clock until the driver is due (re-planned by `Driving.kick` after every change), then
makes its move like a player's, through the service (`roomservice.RoomService.act`), under the
room's lock: checked, committed, applied, told. A move once its commit began is never cut short:
a re-plan cancels the room's task while it sleeps or waits for the lock, never while its step
holds the lock (`Driving.stepping`: it ends after the step), and the step runs in that task,
with no task of its own (nothing per step for a store whose commits stay on the loop). A room's
computers and clocks stand still while none of its people is connected. The next deal comes when
every person of the room asked for it; after a match that is over (rules without a target), only
if the room's computers fit the quota again. Between two deals of a ranked match with a target,
the ranked clock runs too: once it has run out, the server asks for the next deal for each
person here who has not (a turn they lost to the clock, `rooms.Room.accept_for`), so nobody can
hold the match by never asking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from game.engine import Status
from game.play import Move, Pace

from .messages import Error
from .protocol import Refusal
from .room_locks import running_task
from .rooms import RANKED_TURN_SECONDS, LogEntry, Room
from .roomservice import RoomService
from .search import SearchPool

log = logging.getLogger("huit.server")


class Driving:
    """The rooms' own moves (see the module), made through the rooms ``service``; ``pace``:
    every room's computers' delays; ``search``: where Hard computers search; ``ranked_clock``:
    the seconds of a turn of a ranked game (at most `rooms.RANKED_TURN_SECONDS`)."""

    def __init__(self, service: RoomService, pace: Pace, search: SearchPool,
                 ranked_clock: float = RANKED_TURN_SECONDS) -> None:
        self.service = service
        self.ranked_clock = ranked_clock
        self.pace = pace
        self.search = search
        self.tasks: dict[str, asyncio.Task[None]] = {}  # room id -> its task sleeping until due
        # The rooms' tasks whose step holds their room's lock now (a change under way, its commit
        # perhaps awaited off the loop): a re-plan lets them finish it (`_cancel`).
        self.stepping: set[object] = set()
        self.stopped = False  # the server stops: `kick` plans nothing any more (`stop`)
        self.ticked: dict[str, float] = {}  # room id -> the clock's time its driver was brought to
        self.between: dict[str, float] = {}  # ranked room id -> since when it waits between two deals
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it started

    def adopt(self, room: Room) -> None:
        """A room was dealt (or rebuilt): its driver paces its computers by the server's settings."""
        driver = room.driver
        if driver is None:
            return
        driver.pace = self.pace
        driver.executor = self.search
        driver.wake = lambda: self._wake(room)
        if room.clocked:
            driver.turn_seconds = self.ranked_clock
        self.ticked[room.room_id] = self.service.clock.now()

    def _wake(self, room: Room) -> None:
        """A search finished (on a worker thread): re-plan the room on the event loop."""
        if self.loop is not None:
            with contextlib.suppress(RuntimeError):  # the server has stopped
                self.loop.call_soon_threadsafe(self.kick, room)

    def catch_up(self, room: Room) -> Move | None:
        """Bring the room's driver to the present; return the move it wants made now, if any.

        Called before anything changes in the room, so the time until then counts for the
        position as it was (a turn's clock, a think delay)."""
        driver = room.driver
        if driver is None:
            return None
        now = self.service.clock.now()
        elapsed = now - self.ticked.get(room.room_id, now)
        self.ticked[room.room_id] = now
        if not self.service.cluster.drives(room.room_id):
            return None  # another instance runs its clocks: the time until now was spent there
        if not room.anyone_here:
            return None  # none of its people is connected: its computers and clocks stand still
        return driver.advance(elapsed)

    def _may_deal(self, room: Room) -> bool:
        """Whether a room whose match is over may deal again: its computers must fit the quota of
        its people again (`quotas.Quotas.check_deal`); if not, its people are told (each asked at
        ``accept_round``, which checked then: this is a quota taken since) and it stays as it is."""
        service = self.service
        try:
            service.quotas.check_deal(room.room_id, room.computer_seats)
        except Refusal as exc:
            for client in list(service.seated.get(room.room_id, {}).values()):
                service.send(client, Error(code=exc.code, message=str(exc)))
            return False
        return True

    def _deal_clock(self, room: Room) -> float | None:
        """Seconds left before the server asks for the next deal for the people of a ranked match
        between two deals who have not (None: the room is not waiting for one)."""
        if not room.clocked or room.state != Status.ROUND_OVER:
            self.between.pop(room.room_id, None)
            return None
        now = self.service.clock.now()
        since = self.between.setdefault(room.room_id, now)
        return max(0.0, since + self.ranked_clock - now)

    async def _accept_for_the_slow(self, room: Room) -> None:
        """The clock between two deals ran out: ask for the next deal for each person here who
        has not (those away have their time away run: `competition`)."""
        service = self.service
        self.between.pop(room.room_id, None)
        for seat, one in enumerate(room.seats):
            if one.is_human and one.connected and not one.accepted:
                await service.commit(room, LogEntry("accept", seat, "clock"))
                room.accept_for(seat)
        service.status(room)

    def kick(self, room: Room) -> None:
        """(Re)plan what the server itself must do next in ``room`` (if this server runs it:
        `cluster.Cluster.drives`)."""
        task = self.tasks.pop(room.room_id, None)
        if task is not None and not task.done():
            self._cancel(task)
        if self.stopped:
            return  # the server stops: connections closing now must not start steps nothing would cancel
        if room.room_id in self.service.rooms and self.service.cluster.drives(room.room_id):
            self.tasks[room.room_id] = asyncio.ensure_future(self._drive(room))

    def _cancel(self, task: asyncio.Task[None]) -> None:
        """End a room's task that is no longer its plan: at once while it sleeps or waits for the
        room's lock (nothing of its step began); one whose step holds the lock (`stepping`: a
        change under way, perhaps awaiting its commit) is not cut in two: it ends after its step
        (`_drive`), and whoever re-planned waits for the lock behind it. Nor is the one asking."""
        if task not in self.stepping and task is not running_task():
            task.cancel()

    def pause(self, room_id: str) -> None:
        """Another server runs the room's computers and clocks now (its lease): nothing is planned here."""
        task = self.tasks.pop(room_id, None)
        if task is not None:
            self._cancel(task)

    def forget(self, room_id: str) -> None:
        """The room is gone: nothing more is planned in it."""
        self.ticked.pop(room_id, None)
        self.between.pop(room_id, None)
        task = self.tasks.pop(room_id, None)
        if task is not None:
            self._cancel(task)

    def stop(self) -> None:
        """Cancel every room's plan (the server stops; a step under way finishes its change);
        nothing is planned from now on."""
        self.stopped = True
        for task in self.tasks.values():
            self._cancel(task)

    async def _drive(self, room: Room) -> None:
        """Sleep until the room's driver is due, then make its move (or deal the next round); end
        once nothing is due, or the room was planned again (by another task: `kick`)."""
        room_id, me = room.room_id, asyncio.current_task()
        while True:
            due = await self._step(room_id)
            if due is None or self.stopped or self.tasks.get(room_id) is not me:
                return
            await self.service.clock.sleep(due)

    async def _step(self, room_id: str) -> float | None:
        """Under the room's lock, make what is due now (a move, a deal, the clock between two
        deals); return the seconds until the next thing is due (None: nothing is, or a change
        made now planned the room again). Run by the room's own task, not one of its own: while
        it holds the lock, its task is in `stepping`, which no re-plan cancels (`_cancel`)."""
        service = self.service
        try:
            async with service.locks.hold(room_id):
                me = asyncio.current_task()
                self.stepping.add(me)
                try:
                    return await self._due_now(room_id)
                finally:
                    self.stepping.discard(me)
        except asyncio.CancelledError:
            raise
        except Refusal as exc:  # e.g. the disk refused a computer's move: tried again at the next change
            log.error("room %s: %s", room_id, exc)
        except Exception:
            log.exception("room %s: the server's own move failed", room_id)
        return None

    async def _due_now(self, room_id: str) -> float | None:
        """`_step`'s work, under the room's lock."""
        service = self.service
        room = service.rooms.get(room_id)
        while room is not None:
            if not room.anyone_here:
                return None  # until one of its people comes back (`RoomService.seat` plans it again)
            if not service.cluster.drives(room_id):
                return None  # its lease was lost: another instance runs it now
            move = self.catch_up(room)
            if move is not None:
                # (`act` plans what comes next)
                await service.act(room, move.seat, move.action, by_server=True)
                return None
            if room.deal_ready:
                if not self._may_deal(room):
                    return None  # until one of its people asks again
                # Its computers count from before the commit is awaited (checked just above):
                # another room of its people cannot pass the same check meanwhile.
                service.quotas.dealing(room_id, room.computer_seats)
                try:
                    await service.commit(room, LogEntry("deal"))
                except Refusal:  # nothing stored (Outdated: caught up, perhaps dealt elsewhere)
                    now = service.rooms.get(room_id)  # (caught up, or a copy rebuilt whole, or gone)
                    if now is None or now.resting:  # not dealt: its computers are free again
                        service.quotas.settled(room_id)
                    raise
                service.broadcast(room, room.next_round())
                service.status(room)
                self.kick(room)
                return None
            left = self._deal_clock(room)
            if left is not None and left <= 0:
                await self._accept_for_the_slow(room)
                continue
            due = None if room.driver is None else room.driver.due()
            if left is not None:
                due = left if due is None else min(due, left)
            return due  # None: nothing until someone acts (or a search finishes: `_wake`)
        return None  # the room is gone
