"""The authoritative room server: ``python main.py serve [--host --port --db …]``.

An asyncio WebSocket server (the ``websockets`` library) that owns every room's
engine. A change and the messages it causes happen under the room's lock (`room_locks`: held
from checking an action to committing it to the store (`roomstore.RoomStore`, an SQLite file or
PostgreSQL: `stores`; PostgreSQL's commits awaited on worker threads, `store_threads`), applying
it and queueing each seat's message), so every client hears of every change, in order, and a
change is stored before anyone hears of it, while other rooms go on during a commit: the rooms
service (`roomservice.RoomService`) is the one way a room changes. Each
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
(`driving`). Everything the server times reads one
injectable clock (`clock`: turn clocks and delays, rate limits, request memory, the
rooms-per-hour quota, stored timestamps and expiry). The protocol is in docs/protocol.md;
`protocol` holds its limits, `messages` its messages (a client's frame is decoded once,
in `RoomServer._receive`, and each handler takes its typed message), `hosting` runs a
server on a thread or from the command line.

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
answers plain HTTP GETs (`web`: a room's page, ``/health``; every request's head is read
first by `http_front`; the browser client's pages and files: `browser_pages`), over TLS when the
server has a certificate.

Protocol version 2 adds players (a connection says ``hello`` with its player key:
`profiles`), the public rooms' lobby (`lobby`), quick match (`matchmaking`) and the
ranking (`ranking`).

`RoomServer` holds the connections and puts the server's parts together, each given the
rooms service (composition: none calls another's private names): `seating` (create,
join), `playing` (action, autopilot, accept_round, leave), `reacting` (react), `meeting`
(hello, profile, lobby), `quickmatch` (queue, unqueue, and its rooms), `competition` (votes, leaderboards,
histories, and the points, abandons and votes of ranked rooms), `driving` (what a room
does by itself) and `expiry` (when rooms go). Each message type has one handler
(`roomservice.Handler`), in `RoomServer.handlers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import ssl
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request

from game.play import Pace

from . import web
from .addresses import FORWARDING_HEADERS, AddressPolicy, Network, canonical, quota_key
from .browser_pages import BUILT, MISSING, BrowserFiles
from .clock import Clock, SystemClock
from .cluster import Alone, Cluster
from .competition import Competition
from .defaults import COMPUTER_SEATS as COMPUTER_SEATS  # computer seats under way in one address's rooms
from .defaults import MAX_ROOMS as MAX_ROOMS  # rooms one server keeps
from .defaults import PROFILES_PER_HOUR as PROFILES_PER_HOUR  # new players one address may make an hour
from .defaults import QUEUE_PER_HOUR as QUEUE_PER_HOUR  # quick-match requests an hour, per address, player
from .defaults import ROOMS_HELD as ROOMS_HELD  # rooms one address may hold at once
from .defaults import ROOMS_PER_HOUR as ROOMS_PER_HOUR  # rooms one address may create in an hour
from .driving import Driving
from .expiry import EXPIRY as EXPIRY
from .expiry import FINISHED_EXPIRY, LONELY_EXPIRY, Expiry
from .expiry import SWEEP as SWEEP
from .fair_play import MIN_OPPONENTS
from .fair_seats import RELEASE_AFTER, SEATS_PER_ADDRESS, FairSeats
from .http_front import SERVER_HEADER, front
from .lobby import Lobby
from .meeting import Meeting
from .messages import ClientMessage, Error, Ping, Pong, decode
from .playing import Playing
from .profiles import Profiles
from .protocol import BURST, FLOOD_CLOSE, MAX_FRAME, RATE, Client, Refusal, read_ref
from .quickmatch import QuickMatch
from .quotas import Limits, Quotas
from .ranking import Ranking
from .reacting import Reacting
from .rooms import RANKED_TURN_SECONDS, Room
from .roomservice import Handler, Outdated, RoomService, handles
from .roomstore import RoomStore
from .search import SearchPool
from .seating import Seating
from .stores import is_postgres, open_store
from .ticket_store import TicketStore

CONNECTIONS_PER_ADDRESS: Final = 32  # open connections from one address (loopback excepted, without a proxy)
PAGES_PER_SECOND: Final = 5.0  # HTTP pages one address may ask for a second (bursts of four times that)
RENAMES_PER_HOUR: Final = 10  # profile changes an hour, per address and per player
VOTES_PER_HOUR: Final = 30  # votes on abandons an hour, per address and per player
OUTDATED_TRIES: Final = 3  # times a message is handled when other servers keep writing its room meanwhile
FLOOD_LINGER: Final = 1.0  # seconds a flooding connection has to answer its close (nothing it sends is read)

log = logging.getLogger("huit.server")
# websockets logs every frame at DEBUG (seat keys included): its logger here never goes below INFO.
_frames_log = logging.getLogger("huit.server.websockets")
_frames_log.setLevel(logging.INFO)


def _not_a_page(record: logging.LogRecord) -> bool:
    """Keep websockets' "connection closed" only for connections that were WebSockets.

    A page request (``/health``, ``/r/ROOM``) is answered by the HTTP front before websockets
    reads it, yet websockets logs its close at INFO: with a load balancer checking ``/health``
    every two seconds those lines were nearly all of an instance's log."""
    connection = getattr(record, "websocket", None)
    if connection is None or record.getMessage() != "connection closed":
        return True
    try:
        return getattr(connection, "request", None) is not None
    except ReferenceError:  # the connection is gone (websockets holds it by a weak proxy)
        return True


_frames_log.addFilter(_not_a_page)


class RoomServer:
    """Rooms, connections, computer turns, clocks and expiry.

    ``db``: the rooms' SQLite file, a ``postgresql://`` URL (`stores.open_store`), or a
    `roomstore.RoomStore` to keep them in (the server closes it when it stops).
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
    ``download_url``: where the room pages send a visitor to get Huit (``--download-url``;
    default: the project's releases, `room_page.DOWNLOAD_URL`).
    ``ranked_clock``: seconds a turn of a ranked game (``--ranked-clock``; at most and by default
    `rooms.RANKED_TURN_SECONDS`).
    ``seats_per_address``: seats one address may hold at once in public rooms and quick match;
    ``seat_release``: seconds before the seat of a person away from a public room waiting for
    players is freed (`fair_seats`).
    ``min_opponents``: distinct opponents a player needs to be shown on a leaderboard (`fair_play`).
    ``cluster``: the other servers sharing the database (`cluster`; default `cluster.Alone`: none).
    ``tickets``: quick match's queue shared with them (`ticket_store`; default: none, the queue is
    this server's alone, in memory); the server closes it when it stops.
    ``browser``: serve the browser client (``/play/ROOM``, ``/web/...``: `browser_pages`; False is
    ``serve --no-web``); ``browser_root``: its built folder (default `browser_pages.BUILT`).

    Raises:
        StoreError: ``db`` cannot be used as the rooms' database (nothing was written to it).
        ValueError: a trusted proxy that is not an address or network.
    """

    def __init__(self, db: str | Path | RoomStore, *, clock: Clock | None = None, think_scale: float = 1.0,
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
                 votes_per_hour: int = VOTES_PER_HOUR, download_url: str | None = None,
                 seats_per_address: int = SEATS_PER_ADDRESS, seat_release: float = RELEASE_AFTER,
                 min_opponents: int = MIN_OPPONENTS, ranked_clock: float = RANKED_TURN_SECONDS,
                 cluster: Cluster | None = None, tickets: TicketStore | None = None,
                 browser: bool = True, browser_root: Path = BUILT) -> None:
        # StoreError: a file or a PostgreSQL database that cannot be the rooms' (`stores.open_store`)
        self.store: RoomStore = open_store(db) if isinstance(db, str | Path) else db
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.addresses = AddressPolicy.of(proxy_headers, trusted_proxies, trust_loopback)
        self.quotas = Quotas(Limits(connections_per_address, rooms_per_hour, rooms_held, computer_seats,
                                    pages_per_second, profiles_per_hour, queue_per_hour, renames_per_hour,
                                    votes_per_hour), self.clock.now)
        self.open_connections = 0  # WebSocket connections open now, exempt or not
        self.rate, self.burst = rate, burst  # messages a second per connection, and the burst allowed
        self.tls = tls
        self.download_url = download_url  # where the room pages say to get Huit (None: the project's)
        self.browser = BrowserFiles(browser_root) if browser else None  # None: serve --no-web
        self._warned_proxy = False  # the log said once that proxy headers come without a proxy
        # Deals must be unpredictable (a seed that can be guessed gives away every hand); tests
        # pass a seeded generator to make the deals reproducible.
        rng = rng if rng is not None else random.SystemRandom()
        self.pace = Pace(rng, think_scale, think_scale)  # every room's computers
        # Every room's Hard computers search here: bounded workers, queue and think budget.
        self.search = search if search is not None else SearchPool()
        # The rooms service, and the parts that take it.
        if cluster is None and isinstance(db, str) and is_postgres(db):  # one of several instances on it
            from .pgcluster import PgCluster

            cluster = PgCluster(db)
        if tickets is None and isinstance(db, str) and is_postgres(db):  # quick match's queue: theirs too
            from .pg_tickets import PgTicketStore

            tickets = PgTicketStore(db)
        self.cluster: Cluster = cluster if cluster is not None else Alone()
        self.service = RoomService(self.store, self.clock, self.quotas, self.cluster)
        self.profiles = Profiles(self.store)
        self.ranking = Ranking(self.store, min_opponents)  # fair play: `fair_play`
        self.lobby = Lobby(self.clock, self.service.send_frame)
        self.driving = Driving(self.service, self.pace, self.search, ranked_clock)
        self.competition = Competition(self.service, self.ranking)
        self.quick = QuickMatch(self.service, rng, max_rooms, tickets)
        self.queues = self.quick.queues
        self.service.connect(driving=self.driving, competition=self.competition, lobby=self.lobby,
                             queues=self.queues)
        self.fair = FairSeats(self.service, self.queues, seats_per_address, self.addresses.exempt,
                              seat_release)
        self.service.keep_seats(self.fair)
        self.seating = Seating(self.service, rng, max_rooms, self.fair)
        self.quick.fair = self.fair
        self.meeting = Meeting(self.service, self.profiles, self.ranking, self.lobby)
        self.playing = Playing(self.service, self.driving)
        self.reacting = Reacting(self.service)
        self.expiry = Expiry(self.service, driving=self.driving, competition=self.competition,
                             lobby=self.lobby, profiles=self.profiles, ranking=self.ranking,
                             lonely_expiry=lonely_expiry, finished_expiry=finished_expiry)
        self.handlers: dict[str, Handler] = {
            **self.seating.handlers(), **self.playing.handlers(), **self.meeting.handlers(),
            **self.quick.handlers(), **self.competition.handlers(), **self.reacting.handlers(),
            **self.fair.handlers()}
        self.handlers.update([handles(Ping, self._on_ping)])
        self.port = 0
        self._server: Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def rooms(self) -> dict[str, Room]:
        """Every room the server keeps, by id (the rooms service's)."""
        return self.service.rooms

    @property
    def think_scale(self) -> float:
        """The computers' delay multiplier (0: they act at once)."""
        return self.pace.think_scale

    @think_scale.setter
    def think_scale(self, scale: float) -> None:
        self.pace.think_scale = self.pace.reaction_scale = scale

    # ---- life ------------------------------------------------------------------------------
    def _missed(self) -> None:
        """News and signals from the other instances may have been missed (this one listened
        again): the rooms with people here are caught up, and the quick-match tickets checked."""
        self.service.replicas.lost()
        self.queues.missed()

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Load the stored rooms, drop expired ones, and listen (``port`` 0: any free port)."""
        self._loop = self.driving.loop = asyncio.get_running_loop()
        rooms, broken = self.store.load()
        for room_id, why in broken:
            log.error("room %s could not be rebuilt (%s); it is left in the database", room_id, why)
        replicas = self.service.replicas
        await self.cluster.start(replicas.heard, replicas.moved, self._missed, replicas.tend)
        for room in rooms:
            replicas.adopt(room)
        await self.expire()
        self._server = await serve(self._handle, host, port, max_size=MAX_FRAME, logger=_frames_log,
                                   ssl=self.tls, server_header=SERVER_HEADER,
                                   create_connection=front(functools.partial(web.respond, self),
                                                           functools.partial(web.admit, self)))
        self.port = self._server.sockets[0].getsockname()[1]
        for room in self.rooms.values():
            self.driving.kick(room)
        self.expiry.start()
        log.info("listening on %s:%s%s with %d rooms", host, self.port, " (TLS)" if self.tls else "",
                 len(self.rooms))
        if self.browser is not None and not self.browser.built():
            log.warning(MISSING)

    async def stop(self) -> None:
        """Close every connection and task, then the database."""
        self.driving.stop()
        self.expiry.stop()
        for alarm in (self.lobby.alarm, self.competition.alarm, self.fair.alarm):
            alarm.cancel()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self.quick.stop()
        self.search.shutdown(wait=False, cancel_futures=True)
        # The commits under way end (or fail) before the store closes: a change a client was told
        # is stored; one not yet told is stored or not, never half.
        await self.service.writes.close()
        await self.cluster.stop()
        self.store.close()

    async def expire(self) -> list[str]:
        """Forget the rooms whose time is up (`expiry.Expiry.expire`); return their ids."""
        return await self.expiry.expire()

    # ---- connections -------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        address = self.client_address(ws, ws.request)
        bucket = quota_key(address)
        counted = not self.exempt(address, ws.request)
        if counted and not self.quotas.open(bucket):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(Error(code="too_many_connections", message=f"at most "
                                    f"{self.quotas.limits.connections} connections from one address")
                              .encode_closing())
                await ws.close(1008, "too many connections from this address")
            return
        self.open_connections += 1
        client = Client(ws, self.rate, self.burst, tokens=self.burst, now=self.clock.now, address=bucket,
                        counted=counted)
        writer = asyncio.create_task(self._write(client))
        try:
            async for message in ws:
                await self._receive(client, message)
                if client.flooding:
                    break  # nothing more is read: websockets stops reading once its small queue is full
        except ConnectionClosed:
            pass
        finally:
            client.gone = True  # a table decided meanwhile (quick match) gives its seat to a computer
            try:  # a failure here (the database gone) must not keep the counters below from going down
                self.service.detach(client)
                self.queues.remove(client)
            except Exception:
                log.exception("a closed connection could not be taken from its seat or queue")
            self.lobby.leave(client)
            if client.flooding:  # its error and close frame go out first; then it is cut
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(writer), FLOOD_LINGER + 1.0)
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

    def exempt(self, address: str, request: Request | None) -> bool:
        """Whether a connection from ``address`` is exempt from the per-address connection cap and
        flood cool-down: loopback, without a proxy configured or a proxy's headers
        (`addresses.AddressPolicy.exempt`)."""
        return self.addresses.exempt(address, self._proxied(request))

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
        """Send a connection's queued messages in order; ``None`` in the queue closes it (a
        flooding connection's with `FLOOD_CLOSE`)."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await client.outbox.get()
                if text is None:
                    if client.flooding:
                        await client.ws.close(FLOOD_CLOSE, "flooding")
                    else:
                        await client.ws.close(1000, "left")
                    return
                await client.ws.send(text)

    async def _receive(self, client: Client, message: str | bytes) -> None:
        if client.closing:
            return  # it is being closed: nothing it sends is read any more
        if not client.allow():
            if client.may_refuse():  # answered (with its ref) up to a second allowance; then closed
                self.service.send(client, Error(code="rate_limited", ref=read_ref(message),
                                                message=f"more than {self.rate:g} messages a second: this "
                                                        "one was dropped; slow down"))
            else:
                self._flooding(client)
            return
        ref = None
        try:
            decoded = decode(message)  # the one place a client's frame is read
            ref = decoded.ref
            try:
                await self._handle_message(client, decoded)
            except (Refusal, asyncio.CancelledError):
                raise
            except Exception:  # a bug must cost one message, not the connection or the room
                log.exception("a %s message failed", decoded.TYPE)
                raise Refusal("server_error", "the server failed on that message; nothing changed") from None
        except Refusal as exc:
            self.service.send(client, Error.of(exc, ref))

    async def _handle_message(self, client: Client, message: ClientMessage) -> None:
        """Handle one decoded message; one another server's write to its room made outdated
        (`roomservice.Outdated`: this server's copy is caught up now) is handled again, on the
        room as it stands (a few times at most: then its refusal is the answer)."""
        handler = self.handlers[message.TYPE]
        for attempt in range(OUTDATED_TRIES):
            try:
                await handler(client, message)
                return
            except Outdated:
                if attempt == OUTDATED_TRIES - 1:
                    raise

    def _flooding(self, client: Client) -> None:
        """Close a connection that sent past both its allowances: told ``flooding``, then closed with
        `FLOOD_CLOSE`; nothing it sends is read any more (its seat waits for it, like any seat whose
        connection dropped). No log line: a flood must not fill the log either."""
        self.service.send(client, Error(code="flooding", message=f"more than {self.rate:g} messages a second "
                                        f"for too long: this connection is closed"))
        client.closing = client.flooding = True
        if client.counted:  # its address reconnects in a while, not at once (loopback is exempt)
            self.quotas.flooded(client.address)
        # Its close frame is never read (nothing is, any more): the close waits this long, then cuts it.
        client.ws.close_timeout = FLOOD_LINGER
        client.outbox.put_nowait(None)

    async def _on_ping(self, client: Client, message: Ping) -> None:
        self.service.send(client, Pong(ref=message.ref))


if __name__ == "__main__":  # python -m game.net.server: the same as python main.py serve
    from .hosting import main

    raise SystemExit(main())
