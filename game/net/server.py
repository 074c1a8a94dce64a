"""The authoritative room server: ``python main.py serve [--host --port --db …]``.

An asyncio WebSocket server (the ``websockets`` library) that owns every room's
engine. A change and the messages it causes happen in one synchronous step (nothing
awaits between checking an action, applying it, committing it to SQLite
(`roomstore`) and queueing each seat's message), so every client hears of every
change, in order, and a change is stored before anyone hears of it. Each
connection has its own outgoing queue and writer task; a client that falls too far
behind is disconnected (its seat waits, and reconnecting gives a fresh view). Each
seat is sent only its own view and the events redacted for it.

What a room does by itself (its computer seats' turns, Hard searching on a worker
thread; a computer catching a missed "Card" call; the turn clock of timed rules, whose
time-out plays what Medium would; the autopilot of a player who asked for it or lost
two turns in a row to the clock, until they act again) is its `game.play.TurnDriver`'s.
The server brings a room's driver up to the present before anything changes in the
room, and one task per room sleeps until the driver is due (re-planned after every
change), then makes its move like a player's: checked, committed, applied, told
(`driving`, a base class of the server). Everything the server times reads one
injectable clock (`clock`: turn clocks and delays, rate limits, request memory, the
rooms-per-hour quota, stored timestamps and expiry). The protocol is in docs/protocol.md;
`protocol` holds its limits, `messages` its messages (a client's frame is decoded once,
in `_receive`, and each handler takes its typed message), `hosting` runs a server on a
thread or from the command line.

What one player may cost the server is bounded: per connection, messages a second
(`protocol.Client`) and messages queued for it; per address (through a trusted proxy,
the client's: `addresses`), connections, rooms created an hour, rooms held and
computer seats (`quotas`); for the whole server, rooms kept and the searching
computers' work (`search.SearchPool`: bounded workers and queue, a think budget).
A room's computers and clocks stand still while none of its people is connected;
a room nobody but its creator joined expires after `LONELY_EXPIRY` without
activity rather than seven days, and a room whose match is over (`Room.resting`)
`FINISHED_EXPIRY` after the last of its people left it (`expiry`). A resting room's computers
do not count against the computer-seat quota; before it deals again, they must fit
it again (``too_many_computers`` otherwise: the room stays as it is). The same port
answers plain HTTP GETs (`web`: a room's page, ``/health``), over TLS when the server
has a certificate.

Protocol version 2 adds players (a connection says ``hello`` with its player key:
`profiles`), the public rooms' lobby (`lobby`), quick match (`matchmaking`) and the
ranking (`ranking`). Their messages are handled in `meeting` (hello, profile, lobby,
queue) and `competition` (votes, leaderboards, histories, and the points, abandons and
votes of ranked rooms); rooms are made and seats taken in `seating` (create, join),
and played here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import sqlite3
import ssl
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request

from game.engine import Action, IllegalAction, Status, TimeOut
from game.engine.events import Event
from game.play import Pace

from . import web
from .addresses import FORWARDING_HEADERS, AddressPolicy, Network, canonical, quota_key
from .clock import Clock, SystemClock
from .competition import Competition
from .driving import RoomDriving
from .expiry import EXPIRY as EXPIRY
from .expiry import FINISHED_EXPIRY, LONELY_EXPIRY, RoomExpiry
from .expiry import SWEEP as SWEEP
from .lobby import Lobby
from .matchmaking import Queues
from .meeting import Meeting
from .messages import (
    AcceptRound,
    ActionMessage,
    Autopilot,
    Error,
    Joined,
    Leave,
    Left,
    Ping,
    Pong,
    RoomStatus,
    ServerMessage,
    Update,
    decode,
)
from .profiles import ProfileStore
from .protocol import BURST, MAX_FRAME, RATE, Client, Refusal, plain_values, read_ref
from .quotas import Limits, Quotas
from .ranking import Ranking
from .rooms import LogEntry, Room
from .roomstore import RoomStore, Statement
from .search import SearchPool
from .seating import Seating
from .wire import event_to_json, result_to_json, view_to_json

MAX_BACKLOG: Final = 500  # messages queued for one slow client before it is disconnected
MAX_ROOMS: Final = 10_000  # rooms one server keeps
ROOMS_PER_HOUR: Final = 60  # rooms one address may create in an hour
ROOMS_HELD: Final = 50  # rooms one address may hold at once (created by it, still kept)
COMPUTER_SEATS: Final = 12  # computer seats in the games under way in one address's rooms
CONNECTIONS_PER_ADDRESS: Final = 32  # open connections from one address (loopback excepted, without a proxy)
PAGES_PER_SECOND: Final = 5.0  # HTTP pages one address may ask for a second (bursts of four times that)
PROFILES_PER_HOUR: Final = 20  # new players one address may make in an hour
QUEUE_PER_HOUR: Final = 120  # quick-match requests an hour, per address and per player
RENAMES_PER_HOUR: Final = 10  # profile changes an hour, per address and per player
VOTES_PER_HOUR: Final = 30  # votes on abandons an hour, per address and per player

log = logging.getLogger("huit.server")
# websockets logs every frame at DEBUG (seat keys included): its logger here never goes below INFO.
_frames_log = logging.getLogger("huit.server.websockets")
_frames_log.setLevel(logging.INFO)


class RoomServer(RoomDriving, RoomExpiry):
    """Rooms, connections, computer turns, clocks and expiry.

    ``clock``: what everything the server times reads (default `SystemClock`; tests pass
    a `ManualClock` and advance it). ``think_scale`` multiplies the computers' think and
    reaction delays (0: at once). ``rng``: where deals and delays are drawn from.
    ``rate``/``burst``: messages a second per connection. ``max_rooms``: rooms kept;
    ``rooms_per_hour``, ``rooms_held``, ``computer_seats``, ``connections_per_address`` and
    ``pages_per_second``: the per-address quotas (`quotas.Limits`); ``trust_loopback``:
    loopback is exempt from the connection quota (only without a proxy).
    ``lonely_expiry``: seconds idle before a room nobody but its creator joined expires;
    ``finished_expiry``: seconds a room whose match is over stays once none of its people is
    connected.
    ``search``: where Hard computers search (default: a `SearchPool` for this machine).
    ``tls``: serve ``wss://`` and ``https://`` with this context. ``proxy_headers`` and
    ``trusted_proxies``: read ``X-Forwarded-For`` from these proxies (`addresses`).
    ``profiles_per_hour``, ``queue_per_hour``, ``renames_per_hour``, ``votes_per_hour``: what
    players may do an hour (`quotas.Limits`), per address and per player key.

    Raises:
        StoreError: ``db`` cannot be used as the rooms' database (nothing was written to it).
        ValueError: a trusted proxy that is not an address or network.
    """

    def __init__(self, db: str | Path, *, clock: Clock | None = None, think_scale: float = 1.0,
                 rng: random.Random | None = None, rate: float = RATE, burst: float = BURST,
                 max_rooms: int = MAX_ROOMS, rooms_per_hour: int = ROOMS_PER_HOUR,
                 rooms_held: int = ROOMS_HELD, computer_seats: int = COMPUTER_SEATS,
                 connections_per_address: int = CONNECTIONS_PER_ADDRESS,
                 pages_per_second: float = PAGES_PER_SECOND, trust_loopback: bool = True,
                 lonely_expiry: float = LONELY_EXPIRY, finished_expiry: float = FINISHED_EXPIRY,
                 search: SearchPool | None = None,
                 tls: ssl.SSLContext | None = None, proxy_headers: bool = False,
                 trusted_proxies: Iterable[str | Network] = (), profiles_per_hour: int = PROFILES_PER_HOUR,
                 queue_per_hour: int = QUEUE_PER_HOUR, renames_per_hour: int = RENAMES_PER_HOUR,
                 votes_per_hour: int = VOTES_PER_HOUR) -> None:
        self.store = RoomStore(db)  # raises StoreError: a file that cannot be the rooms' database
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.addresses = AddressPolicy.of(proxy_headers, trusted_proxies, trust_loopback)
        self.quotas = Quotas(Limits(connections_per_address, rooms_per_hour, rooms_held, computer_seats,
                                    pages_per_second, profiles_per_hour, queue_per_hour, renames_per_hour,
                                    votes_per_hour), self.clock.now)
        self.open_connections = 0  # WebSocket connections open now, exempt or not
        self.rate, self.burst = rate, burst  # messages a second per connection, and the burst allowed
        self.max_rooms = max_rooms
        self.lonely_expiry = lonely_expiry
        self.finished_expiry = finished_expiry
        self.quiet: dict[str, float] = {}  # resting room id -> since when none of its people is connected
        self.tls = tls
        self._warned_proxy = False  # the log said once that proxy headers come without a proxy
        # Deals must be unpredictable (a seed that can be guessed gives away every hand); tests
        # pass a seeded generator to make the deals reproducible.
        self.rng = rng if rng is not None else random.SystemRandom()
        self.pace = Pace(self.rng, think_scale, think_scale)  # every room's computers
        # Every room's Hard computers search here: bounded workers, queue and think budget.
        self.search = search if search is not None else SearchPool()
        self.rooms: dict[str, Room] = {}
        self.seated: dict[str, dict[int, Client]] = {}  # room id -> seat -> connection
        self.tasks: dict[str, asyncio.Task[None]] = {}  # room id -> its task sleeping until due
        self.ticked: dict[str, float] = {}  # room id -> the clock's time its driver was brought to
        # Players, the lobby, quick match and the ranking (protocol version 2).
        self.profiles = ProfileStore(self.store.db)
        self.ranking = Ranking(self.store.db)
        self.lobby = Lobby(self.clock, self._send)
        self.meeting = Meeting(self)
        self.queues = Queues(self.clock, self._send, self.meeting.quick_room)
        self.competition = Competition(self)
        self.seating = Seating(self)
        self.handlers: dict[str, Any] = {**self.seating.handlers(), **self.meeting.handlers(),
                                         **self.competition.handlers()}
        self.port = 0
        self._server: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def think_scale(self) -> float:
        """The computers' delay multiplier (0: they act at once)."""
        return self.pace.think_scale

    @think_scale.setter
    def think_scale(self, scale: float) -> None:
        self.pace.think_scale = self.pace.reaction_scale = scale

    # ---- life ------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Load the stored rooms, drop expired ones, and listen (``port`` 0: any free port)."""
        self._loop = asyncio.get_running_loop()
        rooms, broken = self.store.load()
        for room_id, why in broken:
            log.error("room %s could not be rebuilt (%s); it is left in the database", room_id, why)
        self.rooms = {room.room_id: room for room in rooms}
        for room in rooms:
            self._adopt(room)
            self.quotas.hold(room.room_id, self._holders(room), room.computer_seats, room.resting)
            self.lobby.changed(room)
            if room.state == Status.MATCH_OVER:
                self.competition.match_over(room)  # points a crash kept from being written
        self.expire()
        self._server = await serve(self._handle, host, port, max_size=MAX_FRAME, logger=_frames_log,
                                   ssl=self.tls, process_request=functools.partial(web.respond, self))
        self.port = self._server.sockets[0].getsockname()[1]
        for room in self.rooms.values():
            self._kick(room)
        self._sweeper = asyncio.create_task(self._sweep())
        log.info("listening on %s:%s%s with %d rooms", host, self.port, " (TLS)" if self.tls else "",
                 len(self.rooms))

    async def stop(self) -> None:
        """Close every connection and task, then the database."""
        for task in [*self.tasks.values(), *([self._sweeper] if self._sweeper else [])]:
            task.cancel()
        for alarm in (self.lobby.alarm, self.queues.alarm, self.competition.alarm):
            alarm.cancel()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self.search.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    # ---- connections -------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        address = self.client_address(ws, ws.request)
        bucket = quota_key(address)
        counted = not self.addresses.exempt(address, self._proxied(ws.request))
        if counted and not self.quotas.open(bucket):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(Error(code="too_many_connections", message=f"at most "
                                    f"{self.quotas.limits.connections} connections from one address")
                              .encode_closing())
                await ws.close(1008, "too many connections from this address")
            return
        self.open_connections += 1
        client = Client(ws, self.rate, self.burst, tokens=self.burst, now=self.clock.now, address=bucket)
        writer = asyncio.create_task(self._write(client))
        try:
            async for message in ws:
                await self._receive(client, message)
        except ConnectionClosed:
            pass
        finally:
            self._detach(client)
            self.queues.remove(client)
            self.lobby.leave(client)
            writer.cancel()
            self.open_connections -= 1
            if counted:
                self.quotas.close(bucket)

    def client_address(self, ws: ServerConnection, request: Request | None) -> str:
        """Where a connection (or a page request) comes from: its peer, or through a trusted
        proxy the client that proxy names (`addresses`)."""
        peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        if request is None or not self.addresses.proxy_headers:
            return canonical(peer)
        return self.addresses.client(peer, request.headers.get_all("X-Forwarded-For"))

    def _proxied(self, request: Request | None) -> bool:
        """Whether a request carries a proxy's header (`addresses.FORWARDING_HEADERS`); said
        once in the log when no proxy is configured (its clients then count as one)."""
        if request is None or not any(name in request.headers for name in FORWARDING_HEADERS):
            return False
        if not self.addresses.behind_proxy and not self._warned_proxy:
            self._warned_proxy = True
            log.warning("connections carry a proxy's headers (X-Forwarded-For...), but no proxy is "
                        "configured: they count as the proxy's address; run with --proxy-headers and "
                        "--trusted-proxy ADDRESS to count each client on its own")
        return True

    def quota_key(self, address: str) -> str:
        """What the quotas count ``address`` under (IPv6: its /64)."""
        return quota_key(address)

    def request_tls(self, ws: ServerConnection, request: Request) -> bool:
        """Whether the player reached the server over TLS: its own, or a trusted proxy's."""
        if self.tls is not None:
            return True
        peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        if self.addresses.proxy_headers and self.addresses.is_trusted(peer):
            return request.headers.get("X-Forwarded-Proto", "").strip().lower() == "https"
        return False

    async def _write(self, client: Client) -> None:
        """Send a connection's queued messages in order; ``None`` in the queue closes it."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await client.outbox.get()
                if text is None:
                    await client.ws.close(1000, "left")
                    return
                await client.ws.send(text)

    async def _receive(self, client: Client, message: str | bytes) -> None:
        if client.closing:
            return  # it is being closed: nothing it sends is read any more
        if not client.allow():
            if client.may_refuse():  # answered (with its ref) up to a second allowance; then dropped
                self._send(client, Error(code="rate_limited", ref=read_ref(message),
                                         message=f"more than {self.rate:g} messages a second: this one was "
                                                 "dropped; slow down"))
            return
        ref = None
        try:
            decoded = decode(message)  # the one place a client's frame is read
            ref = decoded.ref
            try:
                handler = self.handlers.get(decoded.TYPE) or getattr(self, "_on_" + decoded.TYPE)
                await handler(client, decoded)
            except (Refusal, asyncio.CancelledError):
                raise
            except Exception:  # a bug must cost one message, not the connection or the room
                log.exception("a %s message failed", decoded.TYPE)
                raise Refusal("server_error", "the server failed on that message; nothing changed") from None
        except Refusal as exc:
            self._send(client, Error.of(exc, ref))

    def _send(self, client: Client, message: ServerMessage) -> None:
        if client.closing:
            return
        if client.outbox.qsize() >= MAX_BACKLOG:  # it stopped reading: let it reconnect for a fresh view
            client.closing = True  # closed once, whatever it sends meanwhile
            self._detach(client)
            self._spawn(client.ws.close(1008, "too many unread messages"))
            return
        client.outbox.put_nowait(message.encode())

    def _detach(self, client: Client) -> None:
        room, seat = client.room, client.seat
        client.room = client.seat = None
        if room is None or seat is None:
            return
        seated = self.seated.get(room.room_id, {})
        if seated.get(seat) is client:
            del seated[seat]
            self._catch_up(room)  # their clock counted until now, and stops now
            room.seats[seat].connected = False
            if room.resting and not room.anyone_here:
                self.quiet[room.room_id] = self.clock.now()  # the room expires `finished_expiry` from now
            self.competition.left(room, seat)  # away from a ranked game: their seat may be lost
            self._room_status(room)
            self._kick(room)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        task.add_done_callback(_report_failure)

    # ---- requests -----------------------------------------------------------------------------
    async def _on_ping(self, client: Client, message: Ping) -> None:
        self._send(client, Pong(ref=message.ref))

    @staticmethod
    def _holders(room: Room) -> list[str]:
        """Whom a room counts against: its creator's address (a quick-match room: each of its
        people's), and its people's players."""
        addresses = [s.address for s in room.seats if s.address] if room.kind == "quick" else []
        return list(dict.fromkeys([room.owner, *addresses, *("player:" + s.player for s in room.seats
                                                              if s.player)]))

    def _seat(self, client: Client, room: Room, seat: int, key: str | None) -> None:
        """Attach ``client`` to ``seat`` (replacing a stale connection), start the game if ready."""
        self._attach(client, room, seat, key)
        self._settle(room)

    def _seat_all(self, room: Room, seats: list[tuple[Client, int, str]]) -> None:
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
            old.room = old.seat = None
            old.outbox.put_nowait(Error(code="replaced", message="this seat was taken over by a newer "
                                                                 "connection").encode_closing())
            self._spawn(old.ws.close(4000, "this seat was taken over by a newer connection"))
        seated[seat] = client
        client.room, client.seat = room, seat
        self.quiet.pop(room.room_id, None)
        self._catch_up(room)  # a player back on their turn: their clock goes on from where it was
        room.seats[seat].connected = True
        self._send(client, Joined(room=room.room_id, seat=seat, players=room.players, key=key))
        if room.match is not None:
            self._update(client, room, [])
        self.competition.back(room, seat)

    def _settle(self, room: Room) -> None:
        """Start the game if every human seat is taken; tell everyone where the room stands."""
        if room.ready_to_start:
            self._commit(room, LogEntry("start"))
            events = room.start()
            self._adopt(room)
            self._broadcast(room, events)
        self._room_status(room)
        self._kick(room)

    def _joined(self, client: Client) -> tuple[Room, int]:
        if client.room is None or client.seat is None:
            raise Refusal("not_joined", "join a room first")
        return client.room, client.seat

    async def _on_action(self, client: Client, message: ActionMessage) -> None:
        room, seat = self._joined(client)
        message.check("action")
        action = message.move
        assert action is not None  # (its text was checked)
        if isinstance(action, TimeOut):
            raise Refusal("illegal", "only the server's clock runs out a turn", reason="not_allowed",
                          values={"action": "timeout"})
        self._catch_up(room)  # the time until now counts for the turn as it was
        # The player is here and acts (even if the rules refuse it): the autopilot gives them control back.
        room.person_acted(seat)
        self._act(room, seat, action, client, message.ref)

    def _act(self, room: Room, seat: int, action: Action, sender: Client | None = None,
             ref: Any = None) -> None:
        """``seat`` acts: checked, stored, applied, told to every seat (in one synchronous step)."""
        if room.match is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        try:
            room.match.check(action, seat)
        except IllegalAction as exc:
            raise Refusal("illegal", str(exc), reason=exc.key, values=plain_values(exc.values)) from None
        self._commit(room, LogEntry("action", seat, str(action)))  # stored first: then it happens
        events = room.apply(seat, action)
        self._broadcast(room, events, sender, ref)
        if room.state != Status.PLAYING:
            if room.state == Status.MATCH_OVER:
                self.competition.match_over(room)  # a ranked game's points
            self._room_status(room)
            if room.resting:
                self.quotas.settled(room.room_id)  # its computers have nothing to do until another deal
                self._retry_deals(room)
        self._kick(room)

    def _retry_deals(self, room: Room) -> None:
        """``room``'s computers were freed: the finished rooms of its holders whose people all
        asked for a deal the quota refused (`driving.RoomDriving._may_deal`) try again."""
        for room_id in self.quotas.neighbours(room.room_id):
            other = self.rooms.get(room_id)
            if other is not None and other.resting and other.deal_ready:
                self._kick(other)

    async def _on_autopilot(self, client: Client, message: Autopilot) -> None:
        """The player hands their turns to the server's Medium stand-in (``on``), or takes them back."""
        room, seat = self._joined(client)
        message.check("on")
        if room.match is None or room.driver is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        self._catch_up(room)  # the time until now counts for the turn as it was
        room.driver.set_autopilot(seat, message.on)
        self._update(client, room, [], message.ref)
        self._kick(room)

    async def _on_accept_round(self, client: Client, message: AcceptRound) -> None:
        room, seat = self._joined(client)
        if room.match is None or room.state == Status.PLAYING or room.finished:
            raise Refusal("illegal", "there is no deal to accept now", reason="not_allowed",
                          values={"action": "accept_round"})
        if room.resting:  # its computers would play again: they must fit the quota again
            self.quotas.check_deal(room.room_id, room.computer_seats)
        if not room.seats[seat].accepted:
            self._commit(room, LogEntry("accept", seat))
            room.accept(seat)
        self._room_status(room)
        self._kick(room)

    async def _on_leave(self, client: Client, message: Leave) -> None:
        self._detach(client)
        self._send(client, Left())
        client.outbox.put_nowait(None)  # the writer closes the connection once "left" is out

    # ---- telling ------------------------------------------------------------------------------
    def _commit(self, room: Room, entry: LogEntry, also: list[Statement] | None = None) -> None:
        """Store a change before it is made: if the disk refuses, the change does not happen.
        ``also``: statements committed with it (a penalty with the vote that decides it)."""
        try:
            if also:
                self.store.append(room, entry, self.clock.now(), also)
            else:
                self.store.append(room, entry, self.clock.now())
        except sqlite3.Error:
            log.exception("room %s: a change could not be stored; it did not happen", room.room_id)
            raise Refusal("server_error", "the server could not store that; please try again") from None

    def _timer(self, room: Room) -> float | None:
        """The ``timer`` field of updates: the seconds left on a running turn clock, else None."""
        driver = room.driver
        if driver is None or not driver.timer_running:
            return None
        left = driver.timer_left
        return None if left is None else max(0.0, round(left, 2))

    def _update(self, client: Client, room: Room, events: list[Event], ref: Any = None) -> None:
        assert room.match is not None and client.seat is not None
        seat = client.seat
        self._send(client, Update(room=room.room_id, view=view_to_json(room.match.view(seat)),
                                  events=[event_to_json(e.for_seat(seat)) for e in events],
                                  timer=self._timer(room),
                                  autopilot=room.driver is not None and room.driver.on_autopilot(seat),
                                  ref=ref))

    def _broadcast(self, room: Room, events: list[Event], sender: Client | None = None,
                   ref: Any = None) -> None:
        for client in list(self.seated.get(room.room_id, {}).values()):
            self._update(client, room, events, ref if client is sender else None)

    def _room_status(self, room: Room) -> None:
        match = room.match
        status = RoomStatus(room=room.room_id, preset=room.rules.name, options=room.rules.options(),
                            players=room.players, state=room.state, seats=[s.public() for s in room.seats],
                            waiting_for=room.waiting_for(),
                            results=[] if match is None else [result_to_json(r) for r in match.results],
                            deal=0 if match is None else match.round.number, **self.competition.status(room))
        for client in list(self.seated.get(room.room_id, {}).values()):
            self._send(client, status)
        self.lobby.changed(room)

    def _abandon(self, room: Room, seat: int) -> None:
        """A person stayed away from a ranked game too long: a computer takes the seat."""
        self._catch_up(room)
        self._commit(room, LogEntry("abandon", seat))
        room.abandon(seat)
        log.info("room %s: seat %d abandoned; a computer plays it", room.room_id, seat)
        self._room_status(room)
        self._kick(room)


def _report_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("task failed: %r", task.exception())


if __name__ == "__main__":  # python -m game.net.server: the same as python main.py serve
    from .hosting import main

    raise SystemExit(main())
