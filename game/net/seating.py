"""Making rooms and taking seats: the server's ``create`` and ``join``.

``create`` makes a room (private, or ``public``: listed in the lobby, which needs a
player who said hello) with the seats asked for, and seats its creator; ``join`` takes
a seat back with its key (not one a computer took when its person stayed away from a
ranked game: `ranking`), or claims a free one (in a public room, as a player). A
create or claim may carry a ``request`` id: if its answer was lost and it comes again
within `REQUEST_MEMORY` seconds from the same sender (`sender`: the player who said hello,
else the address), it gets the same seat and key back instead of a second room or seat.
The same id from anyone else is a request of its own: it never hands over another's seat.
Rooms created count against the quotas of the address and the player (`quotas`); a
claimed seat knows its player and address, which decide the ranking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Final

from .fair_seats import FairSeats
from .matchmaking import Ticket
from .meeting import identities, needs_profile
from .messages import Create, Join, Unqueued
from .protocol import Client, Refusal, not_stored
from .room_codes import canonical, new_code
from .rooms import KINDS, Room, RoomError, Seat, digest, new_key
from .roomservice import Handler, Outdated, RoomService, handles
from .roomstore import StoreFailure

log = logging.getLogger("huit.server")

REQUEST_MEMORY: Final = 900.0  # seconds a create or claim can be retried with its request id


@dataclass
class _InFlight:
    """A request id being handled: its retries wait on ``lock``; ``users``: how many hold or wait."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class Seating:
    """The handlers of create and join, and the memory of their request ids: rooms made in the
    rooms ``service``, at most ``max_rooms`` of them, their seeds drawn from ``rng``; ``fair``: the
    one-seat rule of public rooms (`fair_seats`)."""

    def __init__(self, service: RoomService, rng: random.Random, max_rooms: int,
                 fair: FairSeats | None = None) -> None:
        self.service = service
        self.fair = fair
        self.rng = rng
        self.max_rooms = max_rooms
        # A create or claim whose answer was lost comes again with the same request id: it gets
        # the same seat and key back (kept in memory only, for REQUEST_MEMORY seconds). An id is
        # remembered with its sender: replayed by anyone else (an id seen on the wire, in a log),
        # it must not hand over the seat's key nor displace its holder.
        self.requests: dict[tuple[str, str], tuple[float, str, int, str]] = {}
        self.in_flight: dict[tuple[str, str], _InFlight] = {}  # requests being handled: `_taking_seat`

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(Create, self.on_create), handles(Join, self.on_join)])

    async def on_create(self, client: Client, message: Create) -> None:
        """Make a room (private, or public with ``public``) and seat its creator."""
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        message.check("request")
        async with self._taking_seat(client, message.request):
            await self._create(client, message)

    async def _create(self, client: Client, message: Create) -> None:
        """`on_create`, its request id held (`_taking_seat`)."""
        service = self.service
        request = message.request
        if await self._repeat(client, request):
            return
        if len(service.rooms) + len(service.creating) >= self.max_rooms:
            raise Refusal("server_full", "this server has as many rooms as it can keep; try later")
        message.check("rules")  # the preset, its options, the seats and whether the rules seat them
        rules = message.rules
        assert rules is not None
        seats = [Seat(s.kind, s.computer_level, s.seat_name) for s in message.seats]
        name = self._name(client, message)
        message.check("public")
        public = bool(message.public)
        if public:
            profile = needs_profile(client, "creating a public room")
            if self.fair is not None:
                self.fair.check(client)  # one seat at a time: a public room of one's own is one
            service.competition.check_tokens(profile)
        owners = identities(client)  # its address, and its player
        computers = sum(not s.is_human for s in seats)
        service.quotas.check_room(owners, computers)
        first = None
        if rules.first_player == "seat0":  # "the human always starts": the first human seat
            first = next(i for i, s in enumerate(seats) if s.is_human)
        room = Room(new_code(), rules, seats, self.rng.randrange(1 << 62), first,
                    owner=client.address, kind=KINDS[1] if public else KINDS[0], created=service.clock.now())
        seat, key = room.claim(None, name)
        self._claimed(client, room, seat)
        # Counted before the commit is awaited (limits checked above, with nothing in between), and
        # undone if it fails: creates sent together cannot all pass the same limits.
        service.creating[room.room_id] = room
        service.quotas.created_room(room.room_id, owners, computers)
        left = self._leave_queue(client)
        # Its seat counts for the one-seat rule until its connection is attached (`creating` ends
        # once the room is stored, and keeping its request id awaits again).
        with self._claiming(room, seat):
            try:
                # Its lock from the start: its own news (``<room> 0``) waits until it is kept here.
                async with service.locks.hold(room.room_id):
                    if client.room is not None:  # (nothing seats a connection taking a seat: kept for safety)
                        raise Refusal("already_joined", "this connection already holds a seat")
                    try:
                        await service.writes.call(service.store.add, room, service.clock.now())
                    except StoreFailure:
                        log.exception("a new room could not be stored")
                        raise Refusal("server_error", "the server could not store the room; please try "
                                                      "again") from None
                    service.rooms[room.room_id] = room
                    del service.creating[room.room_id]
                    log.info("room %s created (%s, %d seats)", room.room_id, rules.name, room.players)
                    await self._remember_request(client, request, room, seat, key)
                    await service.seat(client, room, seat, key)
            finally:
                if service.creating.pop(room.room_id, None) is not None:  # never stored: it counts for nobody
                    service.quotas.unmade_room(room.room_id, owners)
                    self._left_queue(client, left)

    async def on_join(self, client: Client, message: Join) -> None:
        """Take back a seat with its key, or claim a free one."""
        service = self.service
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        # This server's copy as the database has it now: the room may be another server's doing.
        room = service.replicas.find(canonical(message.room)) if message.room is not None else None
        if room is None:
            raise Refusal("unknown_room", "there is no such room (it may have expired)")
        request = None
        if message.key is None:
            message.check("request")
            request = message.request
        async with self._taking_seat(client, request):
            await self._find_and_join(client, message, room)

    async def _find_and_join(self, client: Client, message: Join, room: Room) -> None:
        """`on_join` in ``room`` (as first found), its request id held (`_taking_seat`)."""
        service = self.service
        if message.key is None and await self._repeat(client, message.request):
            return
        async with service.locks.hold(room.room_id):
            # As the room stands once its lock is held (a change in flight may have changed it).
            current = service.replicas.find(room.room_id)
            if current is None:
                raise Refusal("unknown_room", "there is no such room (it may have expired)")
            if client.room is not None:  # (nothing seats a connection taking a seat: kept for safety)
                raise Refusal("already_joined", "this connection already holds a seat")
            await self._join(client, message, current)

    @contextlib.asynccontextmanager
    async def _taking_seat(self, client: Client, request: str | None) -> AsyncIterator[None]:
        """While ``client``'s create or join is handled (it may await commits on worker threads):
        it is seated by no quick-match table meanwhile (`Client.seating`; it leaves its queue once
        its seat is certain, before the commit: `_leave_queue`), and a retry of the same ``request``
        id by its sender waits for this one's answer, then gets the same seat (`_repeat`), not a
        second seat or room."""
        client.seating = True
        held = None
        if request is not None:
            key = sender(client), request
            held = self.in_flight.setdefault(key, _InFlight())
            held.users += 1
        try:
            if held is None:
                yield
            else:
                async with held.lock:
                    yield
        finally:
            client.seating = False
            if held is not None:
                held.users -= 1
                if not held.users:
                    self.in_flight.pop(key, None)

    async def _join(self, client: Client, message: Join, room: Room) -> None:
        """`on_join` under the room's lock."""
        service = self.service
        seat, key = message.seat, message.key
        if key is not None:
            if not room.opens(seat, key):  # a key this server never made (not text, a surrogate...) too
                if self.fair is not None:
                    self.fair.refuse_freed(room, seat, key)  # seat_freed: told why rather than bad_key
                raise Refusal("bad_key", "that key does not open that seat")
            assert seat is not None  # `opens` took it for a seat
            if room.seats[seat].abandoned:
                raise Refusal("abandoned", "you were away from this ranked game too long: a computer plays "
                                           "your seat now")
            await service.seat(client, room, seat, None)
            return
        request = message.request
        message.check("seat")
        name = self._name(client, message)
        if room.kind != "private":
            profile = needs_profile(client, "taking a seat in a public room")
            if self.fair is not None:
                self.fair.check(client, room=room)  # one seat at a time in public rooms and quick match
            service.competition.check_tokens(profile, room)
        before = [(s.key_hash, s.name, s.player, s.address, s.avatar) for s in room.seats], room.joined
        try:
            seat, new = room.claim(seat, name)
        except RoomError as exc:
            raise Refusal(exc.code, str(exc), **exc.extra) from None
        self._claimed(client, room, seat)
        room.joined = True  # someone besides its creator: the room keeps its full seven days
        left = self._leave_queue(client)
        # Checked above with nothing awaited since: the seat counts for the one-seat rule from now
        # until its connection is attached, or the claim undone (joins sent together cannot all pass).
        with self._claiming(room, seat):
            try:
                await service.save_seats(room)
            except Outdated:  # another server wrote the room: its copy (and the seats as stored) is current
                raise  # the join is handled again on the room as it stands
            except StoreFailure:  # the claim is undone: a seat must never belong to a key nobody got
                for s, (key_hash, old_name, player, address, avatar) in zip(room.seats, before[0],
                                                                            strict=True):
                    s.key_hash, s.name, s.player, s.address = key_hash, old_name, player, address
                    s.avatar = avatar
                room.joined = before[1]
                log.exception("room %s: a claim could not be stored", room.room_id)
                self._left_queue(client, left)
                raise not_stored() from None
            await self._remember_request(client, request, room, seat, new)
            await service.seat(client, room, seat, new)

    @staticmethod
    def _name(client: Client, message: Create | Join) -> str:
        """The name of the seat ``client`` claims: its player's (with their tag) after ``hello``,
        the ``name`` it sent is then checked as text and ignored; else that ``name``, held to the
        rules of players' names (`messages.seat_name`).

        Raises:
            Refusal: ``bad_message`` (not text, a surrogate, a control character) or ``bad_name``.
        """
        if client.profile is not None:
            message.check("name_text")
            return client.profile.name
        message.check("name")
        return message.seat_name

    async def _remember_request(self, client: Client, request: str | None, room: Room, seat: int,
                                key: str) -> None:
        if request is not None:
            now = self.service.clock.now()
            self.requests = {r: v for r, v in self.requests.items() if now - v[0] < REQUEST_MEMORY}
            self.requests[sender(client), request] = (now, room.room_id, seat, key)
            try:  # a retry may reach another server on the database: it finds the seat there
                await self.service.writes.call(self.service.store.remember_request, sender(client), request,
                                               room.room_id, seat, now, now - REQUEST_MEMORY)
            except StoreFailure:  # the seat is taken all the same; a retry elsewhere would be a new request
                log.exception("room %s: a request id could not be kept", room.room_id)

    async def _repeat_elsewhere(self, client: Client, request: str) -> bool:
        """A create or claim whose answer was lost, made through another server on the database (its
        memory is there; the key it made is not kept anywhere): the sender gets the same seat back
        with a new key (the lost one opens nothing any more)."""
        service = self.service
        now = service.clock.now()
        try:
            known = service.store.recalled_request(sender(client), request, now - REQUEST_MEMORY)
        except StoreFailure:
            log.exception("a request id could not be looked up")
            return False
        if known is None:
            return False
        async with service.locks.hold(known[0]):
            return await self._repeat_in(client, request, known[0], known[1])

    async def _repeat_in(self, client: Client, request: str, room_id: str, seat: int) -> bool:
        """`_repeat_elsewhere` under the room's lock."""
        service = self.service
        room = service.replicas.find(room_id)
        if room is None or not 0 <= seat < room.players or room.seats[seat].abandoned:
            return False
        held = room.seats[seat]
        profile = client.profile
        mine = (held.player == profile.player) if profile is not None else (
            held.player is None and held.address == client.address)
        if held.key_hash is None or not mine:
            return False  # freed since, or someone else's: the request is a fresh one
        key = new_key()
        previous = held.key_hash
        held.key_hash = digest(key)
        left = self._leave_queue(client)
        try:
            await service.save_seats(room)
        except StoreFailure:
            held.key_hash = previous
            self._left_queue(client, left)
            raise not_stored() from None
        await self._remember_request(client, request, room, seat, key)
        await service.seat(client, room, seat, key)
        return True

    async def _repeat(self, client: Client, request: str | None) -> bool:
        """A create or claim ``client``'s sender made before (its answer was lost): the same seat
        and key again. Another sender's id is unknown here: its request is a fresh one."""
        service = self.service
        if request is None:
            return False
        known = self.requests.get((sender(client), request))
        if known is None or service.clock.now() - known[0] >= REQUEST_MEMORY:
            return await self._repeat_elsewhere(client, request)
        _, room_id, seat, key = known
        async with service.locks.hold(room_id):
            room = service.rooms.get(room_id)
            if room is None or not room.opens(seat, key):
                return False
            await service.seat(client, room, seat, key)
            return True

    def _leave_queue(self, client: Client) -> Ticket | None:
        """``client``'s seat is certain once its commit is stored: it leaves its quick-match queue now,
        before the commit is awaited, as `roomservice.RoomService.seat` would have it leave (no
        table formed meanwhile may seat it). Its ticket, if it had one."""
        return self.service.queues.remove(client)

    def _left_queue(self, client: Client, ticket: Ticket | None) -> None:
        """The commit `_leave_queue` made way for failed: the connection, left waiting in no queue
        after all, hears it."""
        if ticket is not None:
            self.service.send(client, Unqueued())

    def _claiming(self, room: Room, seat: int) -> contextlib.AbstractContextManager[None]:
        """The seat just claimed counts as held for the one-seat rule while it is stored and its
        connection attached (`fair_seats.FairSeats.claiming`; nothing without the rule)."""
        return self.fair.claiming(room, seat) if self.fair is not None else contextlib.nullcontext()

    @staticmethod
    def _claimed(client: Client, room: Room, seat: int) -> None:
        """``client`` just claimed ``seat``: the seat knows its player (if it said hello) and address."""
        profile = client.profile
        room.claimed_by(seat, profile.player if profile else None, client.address,
                        profile.avatar if profile else None, profile.tag if profile else None)


def sender(client: Client) -> str:
    """Who a request id belongs to: the player the connection speaks for (said hello), else the
    address it comes from (through a trusted proxy, the client's). A game retrying after a lost
    answer reconnects as the same player, or from the same address."""
    if client.profile is not None:
        return "player:" + client.profile.player
    return "address:" + client.address
