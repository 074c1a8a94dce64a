"""Quick match on the server: the ``queue`` and ``unqueue`` messages, and the rooms quick match makes.

- ``queue`` (``preset``, ``options``, ``players``, ``computers``, ``wait``): wait for a table
  of these rules and this many players (`matchmaking`, which seats a table as soon as it can);
- ``unqueue``: leave the queue, at once.

Every field is checked before anything changes, and quick-match requests are counted per
address and per player key (`quotas.Quotas.spend`). A quick-match room counts for each of
its people as a room they created (rooms an hour, rooms held, computer seats:
`quotas.Quotas.check_room`).

On a server on its own the queue is in memory (`matchmaking.Queues`); servers sharing a
database keep one queue there (`shared_queues.SharedQueues`, given a `ticket_store.TicketStore`),
and the room of a table whose players wait on several instances is made by the one that decides
it (`QuickMatch.quick_table`).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from game.engine import Rules

from .fair_seats import FairSeats
from .matchmaking import FILL_LEVEL, Queues, QuickQueues, Ticket
from .meeting import identities, needs_profile
from .messages import Error, Queue, Unqueue, Unqueued
from .protocol import Client, Refusal
from .room_codes import new_code
from .rooms import Room, Seat
from .roomservice import Handler, RoomService, handles
from .roomstore import StoreFailure
from .shared_queues import SharedQueues, Table
from .ticket_store import TicketRow, TicketStore
from .wire import rules_from_json

log = logging.getLogger("huit.server")

NOT_STARTED: Final = "the server could not start that game; ask again"
"""What a player hears when their quick-match room could not be made."""


@dataclass(frozen=True)
class Person:
    """Who takes a seat of a quick-match room: their player, address, name, avatar and tag."""

    player: str
    address: str
    name: str
    avatar: int
    tag: str


class QuickMatch:
    """The handlers of queue and unqueue, the quick-match queues (`matchmaking.Queues`, or with
    ``tickets`` the queue shared with other instances: `shared_queues.SharedQueues`), and the rooms
    they make in the rooms ``service`` (at most ``max_rooms`` rooms; seeds drawn from ``rng``)."""

    def __init__(self, service: RoomService, rng: random.Random, max_rooms: int,
                 tickets: TicketStore | None = None) -> None:
        self.service = service
        self.rng = rng
        self.max_rooms = max_rooms
        self.tickets = tickets
        self.queues: QuickQueues = (Queues(service.clock, service.send, self.quick_room) if tickets is None
                                    else SharedQueues(service, tickets, self.quick_table))
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
        if len(service.rooms) + len(service.creating) >= self.max_rooms:
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
        people = []
        for ticket in group:
            profile = ticket.client.profile
            assert profile is not None
            people.append(Person(ticket.player, ticket.address, profile.name, profile.avatar, profile.tag))
        made = self._new_room(group[0].rules, people, computers)
        if made is None:
            for ticket in group:
                self._unqueue(ticket, "server_error", NOT_STARTED)
            return []
        room, keys = made
        with service.locks.claimed(room.room_id):  # new: nobody else holds it
            places = [(t.client, i, key) for i, (t, key) in enumerate(zip(group, keys, strict=True))]
            # (a connection in a queue is never gone nor seating: kept for safety)
            for seat in service.seat_all_now(room, places):
                if room.match is not None and not room.finished:
                    try:
                        service.abandon(room, seat)
                    except Refusal:
                        log.exception("room %s: seat %d could not be given to a computer", room.room_id, seat)
        return []

    def quick_table(self, group: list[TicketRow], computers: int) -> Table:
        """Make a quick-match room of ``group``'s tickets (oldest first; on any instance) and
        ``computers`` computers, its game dealt, for `shared_queues.SharedQueues` to seat its
        people (`shared_queues.MakeTable`). The same rules as `quick_room`: a full server
        refuses all of them, a player over a quota is refused (the others wait on)."""
        if len(self.service.rooms) + len(self.service.creating) >= self.max_rooms:
            return Table(refused={r.player: ("server_full", "this server has as many rooms as it can keep; "
                                                            "try later") for r in group})
        refused = {}
        for row in group:
            try:
                self.service.quotas.check_room(self._owners([row]), computers)
            except Refusal as exc:
                refused[row.player] = (exc.code, f"no quick match now: {exc}")
        if refused:
            return Table(refused=refused)
        try:
            rules = rules_from_json(json.loads(group[0].rules))
        except ValueError:
            log.exception("a quick-match ticket's rules cannot be read")
            return Table(refused={r.player: ("server_error", NOT_STARTED) for r in group})
        made = self._new_room(rules, [Person(r.player, r.address, r.name, r.avatar, r.tag) for r in group],
                              computers)
        if made is None:
            return Table(refused={r.player: ("server_error", NOT_STARTED) for r in group})
        room, keys = made
        try:
            with self.service.locks.claimed(room.room_id):  # new: nobody else holds it
                self.service.seat_all_now(room, [])  # dealt now: whoever is seated first finds it under way
        except Refusal:
            log.exception("room %s: a quick-match game could not be dealt", room.room_id)
        return Table(room=room, keys=keys)

    def stop(self) -> None:
        """The server stops: its queues (and, shared, its tickets) go."""
        self.queues.stop()
        if self.tickets is not None:
            self.tickets.close()

    def _new_room(self, rules: Rules, people: list[Person], computers: int) -> tuple[Room, list[str]] | None:
        """A new stored quick-match room of ``people`` (every seat claimed, their keys returned in
        order) and ``computers`` computers, counted for each of them; None: it could not be stored."""
        service = self.service
        now = service.clock.now()
        seats = [Seat("human") for _ in people] + [Seat("computer", FILL_LEVEL) for _ in range(computers)]
        first = 0 if rules.first_player == "seat0" else None
        # Alone with computers, a player's room expires like any room nobody else joined.
        room = Room(new_code(), rules, seats, self.rng.randrange(1 << 62), first,
                    owner=people[0].address, joined=len(people) > 1, kind="quick", created=now)
        keys = []
        for i, person in enumerate(people):
            keys.append(room.claim(i, person.name)[1])
            room.claimed_by(i, person.player, person.address, person.avatar, person.tag)
        try:
            service.store.add(room, now)
        except StoreFailure:
            log.exception("a quick-match room could not be stored")
            return None
        service.rooms[room.room_id] = room
        service.quotas.created_room(room.room_id, self._owners(people), computers)
        log.info("room %s made by quick match (%s, %d people, %d computers)", room.room_id, rules.name,
                 len(people), computers)
        return room, keys

    @staticmethod
    def _owners(group: Sequence[Ticket | TicketRow | Person]) -> list[str]:
        """Whom a quick-match room counts against: each of its people's address and player."""
        return list(dict.fromkeys(o for t in group for o in (t.address, "player:" + t.player)))

    def _unqueue(self, ticket: Ticket, code: str, message: str) -> None:
        """Tell a player taken out of the queue without a seat why, and that they wait no more."""
        self.service.send(ticket.client, Error(code=code, message=message))
        self.service.send(ticket.client, Unqueued())
