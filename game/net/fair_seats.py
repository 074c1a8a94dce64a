"""Fair seats: nobody can empty the lobby by taking seats and walking away.

A person takes at most one seat at a time in public rooms and in quick match, a seat
whose taker is away from a public room waiting for players is freed again, and a
public room's owner can free a seat (docs/server.md, "Fair play: nobody can empty the lobby"):

- **One seat a person** (`FairSeats.check`): a player who *holds* a seat (in a public room
  or a quick-match room whose match is not over: connected to it, or away from it for less
  than `RELEASE_AFTER`) or waits in a quick-match queue on another connection is refused
  a seat in a public room, a public room of their own, and a quick-match queue
  (``one_seat``). One address holds at most ``seats_per_address`` such seats
  (`SEATS_PER_ADDRESS`; ``too_many_seats``): one person with many profiles stays bounded,
  a family behind one address still plays; and in one public room, an address takes one
  seat besides its owner's (``too_many_seats``: one person's profiles cannot fill a
  stranger's room, deal its game and walk away; a household plays together in a private
  room). Loopback is exempt from both when no proxy is configured, as it is from the
  connection quota (`addresses.AddressPolicy.exempt`); the one-seat rule holds for it as
  for everyone. Public rooms and quick match need a player who said hello, so a
  connection without one takes no such seat at all.
- **Away seats are freed** (`RELEASE_AFTER`): in a public room waiting for players, a seat
  whose person's connection is gone is given back after `RELEASE_AFTER` seconds (at once
  when they said ``leave``), so the room is listed again with that seat free. The owner's
  own seat (the room's first human seat, the one its creator took) is never freed: the
  room is theirs, and while nobody is connected to it the lobby does not list it (their
  seat stops counting as held, like any other, `RELEASE_AFTER` after they left).
- **The owner frees a seat** (``free_seat``): the person connected to a waiting public
  room's first human seat may give any other taken seat back; its person is told
  (``seat_freed``) and their connection closed.

A room whose guests are all freed expires again like a room nobody but its creator joined
(`expiry.LONELY_EXPIRY`). A freed seat's key is remembered (in memory, for `FREED_MEMORY`):
coming back with it is answered ``seat_freed`` rather than ``bad_key``. Times run on the
server's clock; a restarted server finds everyone away, and counts their time from its start.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from typing import Final

from .alarm import Alarm
from .cluster import Alone
from .defaults import RELEASE_AFTER as RELEASE_AFTER  # seconds away before a public room's seat is freed
from .defaults import SEATS_PER_ADDRESS as SEATS_PER_ADDRESS  # seats one address may hold at once
from .matchmaking import QuickQueues
from .messages import Error, FreeSeat
from .protocol import Client, Refusal, not_stored
from .rooms import Room, digest
from .roomservice import Handler, Outdated, RoomService, handles
from .roomstore import StoreFailure

log = logging.getLogger("huit.server")

FREED_MEMORY: Final = 24 * 3600.0
"""Seconds a freed seat's key is remembered, to tell its person why it opens nothing now."""
GAVE_UP: Final = float("-inf")
"""The away time of a person who left on purpose: their seat counts as away long enough."""


def owner_seat(room: Room) -> int | None:
    """The seat of the room's owner: its first human seat, the one its creator took."""
    return next((i for i, s in enumerate(room.seats) if s.is_human or s.abandoned), None)


def waiting_public(room: Room) -> bool:
    """Whether ``room`` is a public room waiting for players (its game not dealt)."""
    return room.kind == "public" and room.match is None


class FairSeats:
    """The seats people hold in public rooms and quick match (see the module), in the rooms
    ``service``; ``queues``: quick match's; ``seats_per_address``: `SEATS_PER_ADDRESS`; ``exempt``:
    whether an address is exempt from that cap; ``release_after``: `RELEASE_AFTER`."""

    def __init__(self, service: RoomService, queues: QuickQueues, seats_per_address: int = SEATS_PER_ADDRESS,
                 exempt: Callable[[str], bool] = lambda address: False,
                 release_after: float = RELEASE_AFTER) -> None:
        self.service = service
        self.release_after = release_after
        self.exempt = exempt
        self.queues = queues
        self.seats_per_address = seats_per_address
        self.away: dict[tuple[str, int], float] = {}  # (room id, seat) -> since when its person is away
        self.freed: dict[tuple[str, int, str], float] = {}  # (room id, seat, key digest) -> when freed
        self.releasing: set[tuple[str, int]] = set()  # to free once their room's change in flight is done
        self.claims: dict[tuple[str, int], int] = {}  # (room id, seat) -> claims in flight (`claiming`)
        self.alarm = Alarm(service.clock, self.due, self._ring)

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(FreeSeat, self.on_free_seat)])

    # ---- who holds what -------------------------------------------------------------------------
    def holds(self, room: Room, seat: int) -> bool:
        """Whether the person of ``seat`` holds it for the one-seat rule: a taken human seat of a
        public or quick-match room whose match is not over, its person connected or away for less
        than `self.release_after`."""
        chosen = room.seats[seat]
        if room.kind == "private" or room.resting or not chosen.is_human or chosen.key_hash is None:
            return False
        if chosen.connected or (room.room_id, seat) in self.claims or room.room_id in self.service.creating:
            return True  # (or its claim is being stored, its connection not attached yet: `claiming`)
        since = self.away.get((room.room_id, seat))
        return since is not None and self.service.clock.now() - since < self.release_after

    def _theirs(self, player: str, address: str) -> list[Room]:
        """The public and quick-match rooms with a seat of ``player`` or ``address``, each as the
        database has it now (another instance may have played it on: a stale copy must not refuse
        a seat for a game that is over)."""
        rooms = []
        creating = self.service.creating  # (being stored: not in the database yet, nothing to refresh)
        for room in [*self.service.rooms.values(), *creating.values()]:
            if room.kind == "private" or not any(s.player == player or s.address == address
                                                 for s in room.seats):
                continue
            alone = isinstance(self.service.cluster, Alone) or room.room_id in creating
            current = room if alone else self.service.replicas.refresh(room)
            if current is not None:
                rooms.append(current)
        return rooms

    def check(self, client: Client, queueing: bool = False, room: Room | None = None) -> None:
        """Refuse ``client`` a new seat in a public room or quick match while its player holds one
        (or waits in a queue on another connection: ``queueing``, a request that replaces that wait,
        is not refused for it), or its address holds `seats_per_address`, or (a seat of ``room``)
        its address already has a seat in that room besides the owner's.

        Raises:
            Refusal: ``one_seat`` or ``too_many_seats``.
        """
        profile = client.profile
        if profile is None:
            return  # public rooms and quick match ask for a profile first (`meeting.needs_profile`)
        ticket = self.queues.by_player.get(profile.player)
        if ticket is not None and ticket.client is not client and not queueing:
            raise Refusal("one_seat", "you are waiting for a quick match on another connection: one seat "
                                      "at a time")
        from_address = 0
        for other in self._theirs(profile.player, client.address):
            for i, seat in enumerate(other.seats):
                if seat.player != profile.player and seat.address != client.address:
                    continue
                if not self.holds(other, i):
                    continue
                if seat.player == profile.player:
                    raise Refusal("one_seat", "you already hold a seat in another game: one seat at "
                                              "a time (a seat you leave empty is freed after "
                                              f"{self.release_after:g} s)")
                if seat.address == client.address:
                    from_address += 1
        if self.exempt(client.address):
            return
        if room is not None:
            owner = owner_seat(room)
            if any(s.address == client.address and s.key_hash is not None and i != owner
                   for i, s in enumerate(room.seats)):
                raise Refusal("too_many_seats", "one seat of a public room from one address (the owner's "
                                                "household may take one more); play together in a private "
                                                "room")
        if from_address >= self.seats_per_address:
            raise Refusal("too_many_seats", f"at most {self.seats_per_address} seats at a time from one "
                                            "address in public rooms and quick match")

    @contextlib.contextmanager
    def claiming(self, room: Room, seat: int) -> Iterator[None]:
        """While a create or join stores the seat it just claimed (after `check`, nothing awaited
        in between) and attaches its connection: the seat counts as held (`holds`), so that the
        requests of the same player or address on other connections, handled during those awaits,
        see it and are refused; released whatever happens (stored, refused by the store, the
        join refused), as `roomservice.RoomService.creating` is for a new room."""
        key = room.room_id, seat
        self.claims[key] = self.claims.get(key, 0) + 1
        try:
            yield
        finally:
            left = self.claims.pop(key) - 1
            if left:
                self.claims[key] = left

    # ---- coming and going -------------------------------------------------------------------------
    def left(self, room: Room, seat: int, gave_up: bool = False) -> None:
        """The person of ``seat`` is no longer connected (``gave_up``: they said ``leave``)."""
        if room.kind == "private" or room.seats[seat].key_hash is None:
            return
        since = GAVE_UP if gave_up else self.service.clock.now()
        self.away[room.room_id, seat] = since
        if gave_up and waiting_public(room) and seat != owner_seat(room):
            self.free(room, seat)  # they gave it up: the lobby has it back at once
        self.alarm.replan()

    def back(self, room: Room, seat: int) -> None:
        """The person of ``seat`` is connected again."""
        if self.away.pop((room.room_id, seat), None) is not None:
            self.alarm.replan()

    def adopt(self, room: Room) -> None:
        """A room found at the server's start: its people are all away, from now."""
        now = self.service.clock.now()
        for i, seat in enumerate(room.seats):
            if room.kind != "private" and seat.is_human and seat.key_hash is not None:
                self.away.setdefault((room.room_id, i), now)
        self.alarm.replan()

    def gone(self, room_id: str) -> None:
        """The room expired."""
        self.away = {k: v for k, v in self.away.items() if k[0] != room_id}
        self.freed = {k: v for k, v in self.freed.items() if k[0] != room_id}
        self.alarm.replan()

    def was_freed(self, room: Room, seat: int | None, key: str | None) -> bool:
        """Whether ``key`` opened ``seat`` before it was freed (its person is told why it opens nothing)."""
        if type(seat) is not int or not isinstance(key, str) or not 0 <= seat < room.players:
            return False
        when = self.freed.get((room.room_id, seat, digest(key)))
        return when is not None and self.service.clock.now() - when < FREED_MEMORY

    # ---- freeing ------------------------------------------------------------------------------------
    def due(self) -> float | None:
        """When the next away seat of a waiting public room is to be freed."""
        times = [since + self.release_after for (room_id, seat), since in self.away.items()
                 if (room_id, seat) not in self.releasing and self._releasable(room_id, seat)]
        return min(times) if times else None

    def _releasable(self, room_id: str, seat: int) -> bool:
        room = self.service.rooms.get(room_id)
        return (room is not None and waiting_public(room) and seat != owner_seat(room)
                and room.seats[seat].key_hash is not None and not room.seats[seat].connected)

    def _ring(self) -> None:
        now = self.service.clock.now()
        for (room_id, seat), since in list(self.away.items()):
            if since + self.release_after <= now and self._releasable(room_id, seat):
                # Under the room's lock: after a change of it in flight (then judged again).
                self.releasing.add((room_id, seat))
                self.service.when_free(room_id, functools.partial(self._release, room_id, seat))
        self.alarm.replan()

    def _release(self, room_id: str, seat: int) -> None:
        """Free ``seat`` of ``room_id``, its person away too long (if it still is so)."""
        self.releasing.discard((room_id, seat))
        self.alarm.replan()  # (what is due counts it again, if it stays)
        since = self.away.get((room_id, seat))
        if since is None or since + self.release_after > self.service.clock.now():
            return
        if not self._releasable(room_id, seat):
            return
        self.free(self.service.rooms[room_id], seat)
        log.info("room %s: seat %d freed (its person was away %g s)", room_id, seat, self.release_after)

    def free(self, room: Room, seat: int, by_owner: bool = False) -> None:
        """Give ``seat`` of ``room`` back (stored first): listed free again; a connection on it is told
        ``seat_freed`` and closed. A disk that refuses leaves the seat as it was. A synchronous
        change: the caller holds the room's lock (`roomservice.RoomService.when_free`).

        Raises:
            Refusal: ``server_error`` (only when ``by_owner``: the alarm tries again later).
        """
        service = self.service
        chosen = room.seats[seat]
        before = (chosen.key_hash, chosen.name, chosen.player, chosen.address, chosen.avatar, chosen.accepted)
        joined = room.joined
        old_hash = chosen.key_hash
        chosen.key_hash, chosen.name, chosen.player, chosen.address, chosen.avatar = None, "", None, "", None
        chosen.accepted = False
        # Nobody but its owner left: the room expires again like one nobody else joined (a squatter's
        # claim must not earn it seven days).
        owner = owner_seat(room)
        room.joined = any(s.key_hash is not None for i, s in enumerate(room.seats) if i != owner)
        try:
            service.save_seats_now(room)
        except Outdated:  # another server wrote the room meanwhile: its copy (the seat too) is current
            if by_owner:
                raise  # the owner's message is handled again on the room as it stands
            return
        except StoreFailure:
            (chosen.key_hash, chosen.name, chosen.player, chosen.address, chosen.avatar,
             chosen.accepted) = before
            room.joined = joined
            log.exception("room %s: a freed seat could not be stored", room.room_id)
            self.away[room.room_id, seat] = service.clock.now()  # tried again later
            if by_owner:
                raise not_stored() from None
            return
        self.away.pop((room.room_id, seat), None)
        now = service.clock.now()
        self.freed = {k: v for k, v in self.freed.items() if now - v < FREED_MEMORY}
        if old_hash is not None:
            self.freed[room.room_id, seat, old_hash] = now
        client = service.seated.get(room.room_id, {}).pop(seat, None)
        chosen.connected = False
        if client is not None:
            client.room = client.seat = None
            why = ("the room's owner freed it" if by_owner
                   else f"you were away more than {self.release_after:g} s")
            service.send(client, Error(code="seat_freed", message=f"your seat is free again: {why}",
                                       reason="owner" if by_owner else "away"))
            client.outbox.put_nowait(None)  # the writer closes the connection once that is out
        service.status(room)

    def refuse_freed(self, room: Room, seat: int | None, key: str | None) -> None:
        """Answer a key that opened a seat since freed.

        Raises:
            Refusal: ``seat_freed``: it did.
        """
        if self.was_freed(room, seat, key):
            raise Refusal("seat_freed", "your seat is free again: you were away, or the room's owner "
                                        "freed it")

    # ---- messages -----------------------------------------------------------------------------------
    async def on_free_seat(self, client: Client, message: FreeSeat) -> None:
        """The owner of a waiting public room gives a taken seat back."""
        async with self.service.holding(client) as (room, own):
            self._free_seat(message, room, own)

    def _free_seat(self, message: FreeSeat, room: Room, own: int) -> None:
        message.check("seat")
        seat = message.seat
        if room.kind != "public" or own != owner_seat(room):
            raise Refusal("not_owner", "only the owner of a public room can free its seats")
        if room.match is not None:
            raise Refusal("game_started", "the game has started: its seats stay with their people")
        if seat is None or not 0 <= seat < room.players or seat == own:
            raise Refusal("bad_message", f"seat must be another seat of the room, 0 to {room.players - 1}")
        if not room.seats[seat].is_human or room.seats[seat].key_hash is None:
            raise Refusal("bad_message", f"seat {seat} is not taken by a person")
        self.free(room, seat, by_owner=True)
        log.info("room %s: seat %d freed by its owner", room.room_id, seat)
