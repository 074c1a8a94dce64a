"""The rooms service: the server's rooms, who sits in them, and the one way a room changes.

Everything that changes a room goes through `RoomService`, under the room's lock
(`room_locks`), held from checking a change to queueing each seat's message: the change is
checked, committed to the `roomstore.RoomStore` (awaited: on a worker thread for a store safe
across threads, `store_threads`), applied and told, and nothing else changes the room
meanwhile. So every client hears of every change, in order, and a change is stored before
anyone hears of it, while other rooms go on during the commit. Its public face is what the
server's other parts use:

- `commit`: store a change before it is made (the disk refusing it refuses the change);
  `commit_now`: the same on the event loop, for the rare changes a timer or another
  instance's news makes synchronously (`when_free`);
- `act`: a seat acts (a person's action, a computer's move): checked, committed, applied, told;
- `seat` and `seat_all_now`: attach connections to seats (a game whose seats are all taken starts);
- `locks`, `holding` and `when_free`: who holds a room's lock (see `room_locks`);
- `send`, `update`, `broadcast`: what reaches a connection (its seat's view and events only);
- `status`: where a room stands, told to its seats and the lobby;
- `joined`, `detach`, `abandon`: who sits where, a connection going, a seat a computer takes.

The parts that take it (composition: each is given the service and uses only this face):
`seating` (create, join), `quickmatch` (quick match's rooms), `playing` (a seated player's
messages), `competition` (the ranking's side), `driving` (what a room does by itself) and
`expiry` (when rooms go). The rooms tell `driving`, `competition`, the `lobby` and the
quick-match `Queues` of their changes: the server plugs them in with `connect`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeVar

from game.engine import Action, IllegalAction, Status
from game.engine.events import Event

from .clock import Clock
from .cluster import Alone, Cluster
from .messages import ClientMessage, Error, Joined, Ref, RoomStatus, ServerMessage, Update
from .protocol import Client, Refusal, not_stored, plain_values
from .quotas import Quotas
from .replicas import Replicas
from .room_locks import RoomLocks
from .rooms import LogEntry, Room
from .roomstore import Behind, RankedLine, RoomStore, StoreFailure
from .store_threads import StoreThreads
from .wire import event_to_json, result_to_json, view_to_json

if TYPE_CHECKING:
    from .competition import Competition
    from .driving import Driving
    from .fair_seats import FairSeats
    from .lobby import Lobby
    from .matchmaking import QuickQueues

MAX_BACKLOG: Final = 500  # messages queued for one slow client before it is disconnected

log = logging.getLogger("huit.server")

Handler = Callable[[Client, ClientMessage], Awaitable[None]]
"""What handles one type of message: the connection and its message, decoded once by the server
(`messages.decode`); made from a handler of that type by `handles`."""

M = TypeVar("M", bound=ClientMessage)


def handles(kind: type[M], handle: Callable[[Client, M], Awaitable[None]]) -> tuple[str, Handler]:
    """``handle``, which takes ``kind``'s messages, as the `Handler` of its message type (with the
    type's name: a part's ``handlers()`` is a ``dict`` of these)."""

    def handler(client: Client, message: ClientMessage) -> Awaitable[None]:
        if not isinstance(message, kind):  # the server looks the handler up by the message's own type
            raise TypeError(f"a {kind.TYPE} handler was given a {message.TYPE} message")
        return handle(client, message)

    return kind.TYPE, handler


class Outdated(Refusal):
    """Another server wrote the room since this one read it: nothing was stored, this server's copy
    is caught up, and the message that wanted the change is handled again (`server.RoomServer`)."""

    def __init__(self, room_id: str) -> None:
        super().__init__("server_error", "the room changed meanwhile; please try again")
        self.room_id = room_id


class RoomService:
    """The rooms and their seats' connections, and the one way a room changes (see the module).

    ``store``: where changes are committed; ``clock``: the server's; ``quotas``: the rooms'
    share of the per-address quotas.
    """

    def __init__(self, store: RoomStore, clock: Clock, quotas: Quotas,
                 cluster: Cluster | None = None) -> None:
        self.store = store
        self.locks = RoomLocks()  # each room's, held from the check of a change to its broadcast
        self.writes = StoreThreads(store)  # where the commits run (worker threads, or the loop)
        self.cluster: Cluster = cluster if cluster is not None else Alone()
        self.replicas = Replicas(self, self.cluster)
        self.cluster.listen("taken", self._taken_elsewhere)
        self.clock = clock
        self.quotas = quotas
        self.rooms: dict[str, Room] = {}
        # Rooms being created: counted against `max_rooms` and the one-seat rule while their first
        # commit is in flight (on a worker thread), so that creates sent together cannot all pass.
        self.creating: dict[str, Room] = {}
        self.seated: dict[str, dict[int, Client]] = {}  # room id -> seat -> connection
        self.quiet: dict[str, float] = {}  # resting room id -> since when none of its people is connected
        self.fair: FairSeats | None = None  # who holds which seat in public rooms and quick match

    def connect(self, *, driving: Driving, competition: Competition, lobby: Lobby,
                queues: QuickQueues) -> None:
        """Plug in what the rooms tell of their changes (the server does it once, at its making)."""
        self.driving = driving
        self.competition = competition
        self.lobby = lobby
        self.queues = queues

    def keep_seats(self, fair: FairSeats) -> None:
        """Plug in the one-seat rule and the freeing of away seats (`fair_seats`): told of every
        person coming and going."""
        self.fair = fair

    # ---- telling ------------------------------------------------------------------------------
    def send(self, client: Client, message: ServerMessage) -> None:
        """Queue ``message`` for ``client`` (encoded, with the protocol's version); a client that
        stopped reading (`MAX_BACKLOG` unread) is let go: it reconnects for a fresh view."""
        self.send_frame(client, message.encode())

    def send_frame(self, client: Client, frame: str) -> None:
        """Queue a message already encoded (one the same for several clients is encoded once)."""
        if client.closing:
            return
        if client.outbox.qsize() >= MAX_BACKLOG:  # it stopped reading: let it reconnect for a fresh view
            client.closing = True  # closed once, whatever it sends meanwhile
            self.detach(client)
            self.spawn(client.ws.close(1008, "too many unread messages"))
            return
        client.outbox.put_nowait(frame)

    def update(self, client: Client, room: Room, events: list[Event], ref: Ref | None = None, *,
               earlier: list[Event] | None = None) -> None:
        """Send ``client`` its seat's view of ``room`` and ``events`` as its seat may see them
        (``earlier``: the deal so far, for a seat that (re)joins it: its move log is rebuilt)."""
        assert room.match is not None and client.seat is not None
        seat = client.seat
        self.send(client, Update(room=room.room_id, view=view_to_json(room.match.view(seat)),
                                 events=[event_to_json(e.for_seat(seat)) for e in events],
                                 timer=self._timer(room),
                                 autopilot=room.driver is not None and room.driver.on_autopilot(seat),
                                 earlier=None if earlier is None else
                                 [event_to_json(e.for_seat(seat)) for e in earlier],
                                 ref=ref))

    def broadcast(self, room: Room, events: list[Event], sender: Client | None = None,
                  ref: Ref | None = None) -> None:
        """`update` every connection seated in ``room`` (``ref``: only in the ``sender``'s)."""
        for client in list(self.seated.get(room.room_id, {}).values()):
            self.update(client, room, events, ref if client is sender else None)

    def status(self, room: Room) -> None:
        """Tell the room's seats where it stands (its ``room`` message), and the lobby."""
        match = room.match
        status = RoomStatus(room=room.room_id, preset=room.rules.name, options=room.rules.options(),
                            players=room.players, state=room.state, seats=[s.public() for s in room.seats],
                            waiting_for=room.waiting_for(),
                            results=[] if match is None else [result_to_json(r) for r in match.results],
                            deal=0 if match is None else match.round.number, **self.competition.status(room))
        frame = status.encode()  # the same for every seat
        for client in list(self.seated.get(room.room_id, {}).values()):
            self.send_frame(client, frame)
        self.lobby.changed(room)

    def _timer(self, room: Room) -> float | None:
        """The ``timer`` field of updates: the seconds left on a running turn clock, else None (on
        an instance that does not run the room's clocks: counted from when it heard the turn begin)."""
        driver = room.driver
        if driver is None or not driver.timer_running:
            return None
        left = driver.timer_left
        if left is not None and not self.cluster.drives(room.room_id):
            left -= self.replicas.turn_time(room.room_id)
        return None if left is None else max(0.0, round(left, 2))

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` on its own (a connection's close): a failure is logged."""
        task = asyncio.ensure_future(coro)
        task.add_done_callback(_report_failure)

    # ---- the rooms' locks ----------------------------------------------------------------------
    def holding(self, client: Client) -> Holding:
        """Hold the lock of the room ``client`` is seated in (after those who asked first), for
        an ``async with`` that gets the room and seat as they stand once it is held (a copy
        rebuilt meanwhile is the new one).

        Raises:
            Refusal: ``not_joined``: it holds no seat (or lost it while waiting).
        """
        return Holding(self, client)

    def when_free(self, room_id: str, change: Callable[[], None]) -> None:
        """Run ``change`` (synchronous) under ``room_id``'s lock: now if nobody else holds it (or
        the one asking does), else once those who asked first are done (on the room as it then
        stands: ``change`` looks the room up again)."""
        # Judged before, not by catching `Taken` around ``change``: a `Taken` raised inside the
        # change itself (a nested `claimed` of another room) must not make it run twice.
        if self.locks.held(room_id) or not self.locks.busy(room_id):
            with self.locks.claimed(room_id):  # (free, or ours: nothing ran since it was judged)
                change()
            return
        self.spawn(self._when_free(room_id, change))

    async def _when_free(self, room_id: str, change: Callable[[], None]) -> None:
        async with self.locks.hold(room_id):
            change()

    # ---- changing -----------------------------------------------------------------------------
    async def commit(self, room: Room, entry: LogEntry, lines: Sequence[RankedLine] = ()) -> None:
        """Store a change before it is made: if the disk refuses, the change does not happen.
        ``lines``: ranked lines committed with it (a penalty with the vote that decides it).
        The caller holds the room's lock (until the change is told); the commit runs off the
        event loop for a store safe across threads.

        Raises:
            Refusal: ``server_error``: it could not be stored (nothing was).
            Outdated: another server wrote the room since this copy read it (it is caught up
                now; the change did not happen: decide it again).
        """
        self._check_held(room)
        try:
            await self.writes.call(self.store.append, room, entry, self.clock.now(), lines)
        except StoreFailure:
            self._not_stored(room)
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    def commit_now(self, room: Room, entry: LogEntry, lines: Sequence[RankedLine] = ()) -> None:
        """`commit`, on the event loop: for a change made synchronously under the room's lock
        (`when_free`: a timer's, another instance's news), rare enough to wait for the disk there.

        Raises:
            Refusal: ``server_error``: it could not be stored (nothing was).
            Outdated: as `commit`.
        """
        self._check_held(room)
        try:
            self.store.append(room, entry, self.clock.now(), lines)
        except StoreFailure:
            self._not_stored(room)
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    def _check_held(self, room: Room) -> None:
        """A change of ``room`` is made under its lock, or another change could cut it in two."""
        if not self.locks.held(room.room_id):
            raise RuntimeError(f"room {room.room_id} changed without its lock held")

    def _not_stored(self, room: Room) -> NoReturn:
        """The store refused a change of ``room``.

        Raises:
            Refusal: ``server_error``, always.
        """
        log.exception("room %s: a change could not be stored; it did not happen", room.room_id)
        # A connection lost during the commit leaves its fate unknown: if it was stored after
        # all, this copy (and its players) learn it now rather than at the next change.
        self.replicas.refresh(room)
        raise not_stored() from None

    async def save_seats(self, room: Room) -> None:
        """Store the room's seats (a claim, a seat freed, a player's new name), active now; the
        caller holds the room's lock (the commit runs as `commit`'s).

        Raises:
            Outdated: another server wrote the room since (this copy is caught up; the seats as
                stored are back in it).
            StoreFailure: the disk refused it (nothing was stored).
        """
        self._check_held(room)
        try:
            await self.writes.call(self.store.save_seats, room, self.clock.now())
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    def save_seats_now(self, room: Room) -> None:
        """`save_seats` on the event loop, for a synchronous change under the room's lock (`commit_now`).

        Raises:
            Outdated, StoreFailure: as `save_seats`.
        """
        self._check_held(room)
        try:
            self.store.save_seats(room, self.clock.now())
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    async def act(self, room: Room, seat: int, action: Action, sender: Client | None = None,
                  ref: Ref | None = None, *, by_server: bool = False) -> None:
        """``seat`` acts: checked, stored, applied, told to every seat (under the room's lock, which
        the caller holds).
        ``by_server``: the server moves for the seat (a computer, or for a person: the autopilot,
        the clock), which the log says (an ``auto`` entry for a person's seat: another instance
        must not take it for the person's own move).

        Raises:
            Refusal: ``not_started``, ``illegal`` (with the rules' reason), ``server_error``.
        """
        if room.match is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        try:
            room.match.check(action, seat)
        except IllegalAction as exc:
            raise Refusal("illegal", str(exc), reason=exc.key, values=plain_values(exc.values)) from None
        kind = "auto" if by_server and room.seats[seat].is_human else "action"
        await self.commit(room, LogEntry(kind, seat, str(action)))  # stored first: then it happens
        events = room.apply(seat, action)
        self.broadcast(room, events, sender, ref)
        if room.state == Status.PLAYING:
            self.competition.check_absent(room)  # a turn lost to the clock may make someone absent
        else:
            if room.state == Status.MATCH_OVER:
                self.competition.match_over(room)  # a ranked game's points
            self.status(room)
            if room.resting:
                self.quotas.settled(room.room_id)  # its computers have nothing to do until another deal
                self._retry_deals(room)
        self.driving.kick(room)

    def _retry_deals(self, room: Room) -> None:
        """``room``'s computers were freed: the finished rooms of its holders whose people all
        asked for a deal the quota refused (`driving.Driving`) try again."""
        for room_id in self.quotas.neighbours(room.room_id):
            other = self.rooms.get(room_id)
            if other is not None and other.resting and other.deal_ready:
                self.driving.kick(other)

    def abandon(self, room: Room, seat: int) -> None:
        """A person stayed away from a ranked game too long: a computer takes the seat (a
        synchronous change, under the room's lock: `when_free`).

        Raises:
            Refusal: ``server_error``: the disk refused it (the seat waits for the next change).
        """
        self.driving.catch_up(room)
        self.commit_now(room, LogEntry("abandon", seat))
        room.abandon(seat)
        log.info("room %s: seat %d abandoned; a computer plays it", room.room_id, seat)
        self.status(room)
        self.driving.kick(room)

    # ---- seats --------------------------------------------------------------------------------
    def joined(self, client: Client) -> tuple[Room, int]:
        """The room and seat ``client`` holds.

        Raises:
            Refusal: ``not_joined``: it holds none.
        """
        if client.room is None or client.seat is None:
            raise Refusal("not_joined", "join a room first")
        return client.room, client.seat

    async def seat(self, client: Client, room: Room, seat: int, key: str | None) -> None:
        """Attach ``client`` to ``seat`` (replacing a stale connection), start the game if ready;
        ``key``: the seat's new key, told to it (None: it came with its key). The caller holds
        the room's lock."""
        self._check_held(room)
        if client.gone or (client.room is not None and client.room.room_id != room.room_id):
            raise Refusal("already_joined", "this connection already holds a seat")
        self._attach(client, room, seat, key)
        if room.ready_to_start:
            await self.commit(room, LogEntry("start"))
            self._start(room)
        self._settle(room)

    def seat_all_now(self, room: Room, seats: list[tuple[Client, int, str]]) -> list[int]:
        """Attach each connection to its seat (each with its new key), then start the game: every
        one of them is told the deal (synchronously, under the room's lock: `when_free`; quick
        match's rooms, new). Return the seats whose connection may not be seated (`may_seat`):
        nobody will ever have their key, the caller gives them to computers."""
        self._check_held(room)
        refused = []
        for client, seat, key in seats:
            if self.may_seat(client, room):
                self._attach(client, room, seat, key)
            else:
                refused.append(seat)
        if room.ready_to_start:
            self.commit_now(room, LogEntry("start"))
            self._start(room)
        self._settle(room)
        return refused

    def seat_now(self, client: Client, room: Room, seat: int, key: str) -> list[int]:
        """`seat`, synchronously under the room's lock (`when_free`: quick match's news); the
        seat refused, as `seat_all_now` says."""
        return self.seat_all_now(room, [(client, seat, key)])

    @staticmethod
    def may_seat(client: Client, room: Room) -> bool:
        """Whether quick match may attach ``client`` to a seat of ``room`` decided for it while it
        waited: not when its connection ended or is closing, nor when it holds a seat elsewhere or
        is taking one by a create or join of its own (which may span a commit, off the loop)."""
        if client.gone or client.closing or client.seating:
            return False
        return client.room is None or client.room.room_id == room.room_id

    def _attach(self, client: Client, room: Room, seat: int, key: str | None) -> None:
        """Attach ``client`` to ``seat`` (replacing a stale connection) and tell it so."""
        self.queues.remove(client)  # a connection in a room waits in no queue
        seated = self.seated.setdefault(room.room_id, {})
        old = seated.get(seat)
        if old is not None and old is not client:
            self._replace(old)
        seated[seat] = client
        client.room, client.seat = room, seat
        client.seated_at = time.time()  # wall clock: compared with other instances' (`_taken_elsewhere`)
        self.quiet.pop(room.room_id, None)
        self.driving.catch_up(room)  # a player back on their turn: their clock goes on from where it was
        room.seats[seat].connected = True
        self.cluster.present(room.room_id, seat, True)
        try:  # a connection to this seat on another instance is the stale one now
            self.cluster.signal("taken", f"{room.room_id} {seat} {self.cluster.instance} "
                                         f"{client.seated_at:.6f}")
        except StoreFailure:
            log.exception("room %s: the others could not be told seat %d was taken", room.room_id, seat)
        self.send(client, Joined(room=room.room_id, seat=seat, players=room.players, key=key))
        if room.match is not None:  # back in a game under way: with the deal so far, for its move log
            self.update(client, room, [], earlier=room.round_events)
        self.competition.back(room, seat)
        if self.fair is not None:
            self.fair.back(room, seat)

    def _replace(self, old: Client) -> None:
        """A newer connection took ``old``'s seat (here or on another instance): it is told, and closed."""
        old.room = old.seat = None
        old.outbox.put_nowait(Error(code="replaced", message="this seat was taken over by a newer "
                                                             "connection").encode_closing())
        self.spawn(old.ws.close(4000, "this seat was taken over by a newer connection"))

    def _taken_elsewhere(self, text: str) -> None:
        """Another instance attached a connection to a seat (``room seat instance time``): the one
        here, if any and attached before it, is the stale one (machines' clocks agree to well
        under the time a person takes to reconnect)."""
        # Fields are only ever added at the end (instances of two releases run side by side during
        # a roll): an older instance's signal has no time, and what comes after ours is ignored.
        room_id, seat, instance, *more = text.split()
        if instance == self.cluster.instance:
            return
        at = float(more[0]) if more else float("inf")
        seated = self.seated.get(room_id, {})
        old = seated.get(int(seat))
        if old is not None and old.seated_at <= at:  # (one attached here since is the newer)
            del seated[int(seat)]
            self._replace(old)
            self.cluster.present(room_id, int(seat), False)

    def _start(self, room: Room) -> None:
        """Every human seat is taken and the start stored: deal, and tell everyone."""
        events = room.start()
        self.driving.adopt(room)
        self.broadcast(room, events)

    def _settle(self, room: Room) -> None:
        """Tell everyone where the room stands; plan it."""
        self.status(room)
        self.replicas.tend_room(room)  # its computers and clocks run here if nobody runs them
        self.driving.kick(room)

    def detach(self, client: Client, gave_up: bool = False) -> None:
        """``client`` no longer holds its seat (it left, closed, or was let go): its seat waits
        (``gave_up``: it said ``leave``; a guest's seat in a public room waiting for players is
        freed). The room hears of it under its lock (`when_free`)."""
        room, seat = client.room, client.seat
        client.room = client.seat = None
        if room is None or seat is None:
            return
        seated = self.seated.get(room.room_id, {})
        if seated.get(seat) is client:
            del seated[seat]
            self.cluster.present(room.room_id, seat, False)
            room_id = room.room_id
            self.when_free(room_id, lambda: self._left(room_id, seat, gave_up))

    def _left(self, room_id: str, seat: int, gave_up: bool) -> None:
        """The person of ``seat`` went (`detach`): unless back meanwhile, their seat waits."""
        room = self.rooms.get(room_id)
        if room is None or seat in self.seated.get(room_id, {}):
            return  # gone, or back already (on a connection attached since)
        self.driving.catch_up(room)  # their clock counted until now, and stops now
        room.seats[seat].connected = seat in self.cluster.elsewhere(room.room_id)
        if room.resting and not room.anyone_here:
            self.quiet[room.room_id] = self.clock.now()  # the room expires `finished_expiry` from now
        self.competition.left(room, seat)  # away from a ranked game: their seat may be lost
        if self.fair is not None:
            self.fair.left(room, seat, gave_up)  # away from a public room: their seat may be freed
        self.status(room)
        self.driving.kick(room)

    def forget(self, room_id: str) -> None:
        """The room is gone (expired, here or on another server): nothing of it is kept or planned,
        and nobody is seated in it any more."""
        self.quotas.forget(room_id)
        self.lobby.gone(room_id)
        self.competition.gone(room_id)
        self.driving.forget(room_id)
        self.rooms.pop(room_id, None)
        self.quiet.pop(room_id, None)
        if self.fair is not None:
            self.fair.gone(room_id)
        for client in self.seated.pop(room_id, {}).values():
            client.room = client.seat = None


class Holding:
    """`RoomService.holding`'s ``async with``: the lock of the sender's room, then its room and seat."""

    __slots__ = ("_service", "_client", "_room_id")

    def __init__(self, service: RoomService, client: Client) -> None:
        self._service = service
        self._client = client
        self._room_id: str | None = None  # the room whose lock is held, once it is

    async def __aenter__(self) -> tuple[Room, int]:
        # (A class, not a generator-based context manager, and the lock taken as `RoomLocks.hold`
        # does: it runs for every player's message, and a free lock must cost next to nothing.)
        service, locks = self._service, self._service.locks
        room, _ = service.joined(self._client)
        room_id = room.room_id
        if not locks.take(room_id):
            await locks.acquire(room_id)
        self._room_id = room_id
        try:
            now_room, now_seat = service.joined(self._client)
            if now_room.room_id != room_id:
                raise Refusal("not_joined", "join a room first")
        except BaseException:
            self._room_id = None
            locks.release(room_id)
            raise
        return now_room, now_seat

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        room_id, self._room_id = self._room_id, None
        if room_id is not None:
            self._service.locks.release(room_id)


def _report_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("task failed: %r", task.exception())
