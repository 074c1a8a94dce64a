"""The rooms service: the server's rooms, who sits in them, and the one way a room changes.

Everything that changes a room goes through `RoomService`, in one synchronous step (nothing
awaits between checking a change, committing it to the `roomstore.RoomStore`, applying it and
queueing each seat's message): so every client hears of every change, in order, and a change
is stored before anyone hears of it. Its public face is what the server's other parts use:

- `commit`: store a change before it is made (the disk refusing it refuses the change);
- `act`: a seat acts (a person's action, a computer's move): checked, committed, applied, told;
- `seat` and `seat_all`: attach connections to seats (a game whose seats are all taken starts);
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
from typing import TYPE_CHECKING, Any, Final, TypeVar

from game.engine import Action, IllegalAction, Status
from game.engine.events import Event

from .clock import Clock
from .cluster import Alone, Cluster
from .messages import ClientMessage, Error, Joined, Ref, RoomStatus, ServerMessage, Update
from .protocol import Client, Refusal, not_stored, plain_values
from .quotas import Quotas
from .replicas import Replicas
from .rooms import LogEntry, Room
from .roomstore import Behind, RankedLine, RoomStore, StoreFailure
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
        self.cluster: Cluster = cluster if cluster is not None else Alone()
        self.replicas = Replicas(self, self.cluster)
        self.cluster.listen("taken", self._taken_elsewhere)
        self.clock = clock
        self.quotas = quotas
        self.rooms: dict[str, Room] = {}
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

    @staticmethod
    def _timer(room: Room) -> float | None:
        """The ``timer`` field of updates: the seconds left on a running turn clock, else None."""
        driver = room.driver
        if driver is None or not driver.timer_running:
            return None
        left = driver.timer_left
        return None if left is None else max(0.0, round(left, 2))

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` on its own (a connection's close): a failure is logged."""
        task = asyncio.ensure_future(coro)
        task.add_done_callback(_report_failure)

    # ---- changing -----------------------------------------------------------------------------
    def commit(self, room: Room, entry: LogEntry, lines: Sequence[RankedLine] = ()) -> None:
        """Store a change before it is made: if the disk refuses, the change does not happen.
        ``lines``: ranked lines committed with it (a penalty with the vote that decides it).

        Raises:
            Refusal: ``server_error``: it could not be stored (nothing was).
            Outdated: another server wrote the room since this copy read it (it is caught up
                now; the change did not happen: decide it again).
        """
        try:
            self.store.append(room, entry, self.clock.now(), lines)
        except StoreFailure:
            log.exception("room %s: a change could not be stored; it did not happen", room.room_id)
            # A connection lost during the commit leaves its fate unknown: if it was stored after
            # all, this copy (and its players) learn it now rather than at the next change.
            self.replicas.refresh(room)
            raise not_stored() from None
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    def save_seats(self, room: Room) -> None:
        """Store the room's seats (a claim, a seat freed, a player's new name), active now.

        Raises:
            Outdated: another server wrote the room since (this copy is caught up; the seats as
                stored are back in it).
            StoreFailure: the disk refused it (nothing was stored).
        """
        try:
            self.store.save_seats(room, self.clock.now())
        except Behind:
            self.replicas.refresh(room)
            raise Outdated(room.room_id) from None

    def act(self, room: Room, seat: int, action: Action, sender: Client | None = None,
            ref: Ref | None = None) -> None:
        """``seat`` acts: checked, stored, applied, told to every seat (in one synchronous step).

        Raises:
            Refusal: ``not_started``, ``illegal`` (with the rules' reason), ``server_error``.
        """
        if room.match is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        try:
            room.match.check(action, seat)
        except IllegalAction as exc:
            raise Refusal("illegal", str(exc), reason=exc.key, values=plain_values(exc.values)) from None
        self.commit(room, LogEntry("action", seat, str(action)))  # stored first: then it happens
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
        """A person stayed away from a ranked game too long: a computer takes the seat.

        Raises:
            Refusal: ``server_error``: the disk refused it (the seat waits for the next change).
        """
        self.driving.catch_up(room)
        self.commit(room, LogEntry("abandon", seat))
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

    def seat(self, client: Client, room: Room, seat: int, key: str | None) -> None:
        """Attach ``client`` to ``seat`` (replacing a stale connection), start the game if ready;
        ``key``: the seat's new key, told to it (None: it came with its key)."""
        self._attach(client, room, seat, key)
        self._settle(room)

    def seat_all(self, room: Room, seats: list[tuple[Client, int, str]]) -> None:
        """Attach each connection to its seat (each with its new key), then start the game: every
        one of them is told the deal."""
        for client, seat, key in seats:
            self._attach(client, room, seat, key)
        self._settle(room)

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
        room_id, seat, instance, at = text.split()
        if instance == self.cluster.instance:
            return
        seated = self.seated.get(room_id, {})
        old = seated.get(int(seat))
        if old is not None and old.seated_at <= float(at):  # (one attached here since is the newer)
            del seated[int(seat)]
            self._replace(old)
            self.cluster.present(room_id, int(seat), False)

    def _settle(self, room: Room) -> None:
        """Start the game if every human seat is taken; tell everyone where the room stands."""
        if room.ready_to_start:
            self.commit(room, LogEntry("start"))
            events = room.start()
            self.driving.adopt(room)
            self.broadcast(room, events)
        self.status(room)
        self.replicas.tend_room(room)  # its computers and clocks run here if nobody runs them
        self.driving.kick(room)

    def detach(self, client: Client, gave_up: bool = False) -> None:
        """``client`` no longer holds its seat (it left, closed, or was let go): its seat waits
        (``gave_up``: it said ``leave``; a guest's seat in a public room waiting for players is freed)."""
        room, seat = client.room, client.seat
        client.room = client.seat = None
        if room is None or seat is None:
            return
        seated = self.seated.get(room.room_id, {})
        if seated.get(seat) is client:
            del seated[seat]
            self.cluster.present(room.room_id, seat, False)
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


def _report_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("task failed: %r", task.exception())
