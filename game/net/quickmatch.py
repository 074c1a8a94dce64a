"""Quick match on the server: the ``queue`` and ``unqueue`` messages, and the rooms quick match makes.

- ``queue`` (``preset``, ``options``, ``players``, ``computers``, ``wait``): wait for a table
  of these rules and this many players (`matchmaking`, which seats a table as soon as it can);
- ``unqueue``: leave the queue, at once.

Every field is checked before anything changes, and quick-match requests are counted per
address and per player key (`quotas.Quotas.spend`). A quick-match room counts for each of
its people as a room they created (rooms an hour, rooms held, computer seats:
`quotas.Quotas.check_room`).
"""

from __future__ import annotations

import logging
import random

from .fair_seats import FairSeats
from .matchmaking import FILL_LEVEL, Queues, Ticket
from .meeting import identities, needs_profile
from .messages import Error, Queue, Unqueue, Unqueued
from .protocol import Client, Refusal
from .room_codes import new_code
from .rooms import Room, Seat
from .roomservice import Handler, RoomService, handles
from .roomstore import StoreFailure

log = logging.getLogger("huit.server")


class QuickMatch:
    """The handlers of queue and unqueue, the quick-match `matchmaking.Queues`, and the rooms
    they make in the rooms ``service`` (at most ``max_rooms`` rooms; seeds drawn from ``rng``)."""

    def __init__(self, service: RoomService, rng: random.Random, max_rooms: int) -> None:
        self.service = service
        self.rng = rng
        self.max_rooms = max_rooms
        self.queues = Queues(service.clock, service.send, self.quick_room)
        self.fair: FairSeats | None = None  # the one-seat rule (`fair_seats`), plugged in by the server

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(Queue, self.on_queue), handles(Unqueue, self.on_unqueue)])

    async def on_queue(self, client: Client, message: Queue) -> None:
        """Wait for a table of these rules and this many players."""
        service = self.service
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        profile = needs_profile(client, "asking for a quick match")
        message.check("rules", "players", "computers", "wait")
        rules = message.rules
        assert rules is not None  # (they were checked)
        service.competition.check_tokens(profile)  # a quick match is competitive: it needs the stake
        service.quotas.check_room(identities(client), 0)  # at its limit of rooms: told now, not at seating
        if self.fair is not None:
            self.fair.check(client, queueing=True)  # not while holding a seat in a public room
        limit = service.quotas.limits.queue_per_hour
        service.quotas.spend("queue", identities(client), limit,
                             Refusal("too_many_requests", f"at most {limit} quick-match requests an hour"))
        self.queues.add(Ticket(client, profile.player, client.address, rules, message.players,
                               bool(message.computers), message.seconds, service.clock.now()))

    async def on_unqueue(self, client: Client, message: Unqueue) -> None:
        """Leave the queue (answered ``unqueued`` whether or not it was in one)."""
        self.queues.remove(client)
        self.service.send(client, Unqueued(ref=message.ref))

    def quick_room(self, group: list[Ticket], computers: int) -> list[Ticket]:
        """Seat ``group`` (and ``computers`` computers) in a new quick-match room: every seat is
        taken, so the game starts at once. The room counts for each of its people (their address
        and their player) as a room they created (`quotas.Quotas.check_room`): a player it would
        take over a quota hears the error and ``unqueued``, and the others are returned to wait
        on (`matchmaking.MakeRoom`)."""
        service = self.service
        if len(service.rooms) >= self.max_rooms:
            for ticket in group:
                self._unqueue(ticket, "server_full",
                              "this server has as many rooms as it can keep; try later")
            return []
        refused = []
        for ticket in group:
            try:
                service.quotas.check_room(self._owners([ticket]), computers)
            except Refusal as exc:
                refused.append(ticket)
                self._unqueue(ticket, exc.code, f"no quick match now: {exc}")
        if refused:
            return [t for t in group if t not in refused]
        rules = group[0].rules
        now = service.clock.now()
        seats = [Seat("human") for _ in group] + [Seat("computer", FILL_LEVEL) for _ in range(computers)]
        first = 0 if rules.first_player == "seat0" else None
        # Alone with computers, a player's room expires like any room nobody else joined.
        room = Room(new_code(), rules, seats, self.rng.randrange(1 << 62), first,
                    owner=group[0].address, joined=len(group) > 1, kind="quick", created=now)
        keys = []
        for i, ticket in enumerate(group):
            profile = ticket.client.profile
            assert profile is not None
            keys.append(room.claim(i, profile.name)[1])
            room.claimed_by(i, ticket.player, ticket.address, profile.avatar, profile.tag)
        try:
            service.store.add(room, now)
        except StoreFailure:
            log.exception("a quick-match room could not be stored")
            for ticket in group:
                self._unqueue(ticket, "server_error", "the server could not start that game; ask again")
            return []
        service.rooms[room.room_id] = room
        service.quotas.created_room(room.room_id, self._owners(group), computers)
        log.info("room %s made by quick match (%s, %d people, %d computers)", room.room_id, rules.name,
                 len(group), computers)
        service.seat_all(room, [(t.client, i, key)
                                 for i, (t, key) in enumerate(zip(group, keys, strict=True))])
        return []

    @staticmethod
    def _owners(group: list[Ticket]) -> list[str]:
        """Whom a quick-match room counts against: each of its people's address and player."""
        return list(dict.fromkeys(o for t in group for o in (t.address, "player:" + t.player)))

    def _unqueue(self, ticket: Ticket, code: str, message: str) -> None:
        """Tell a player taken out of the queue without a seat why, and that they wait no more."""
        self.service.send(ticket.client, Error(code=code, message=message))
        self.service.send(ticket.client, Unqueued())
