"""Quick match across instances: one queue in the database, whichever server a player reached.

Servers sharing one PostgreSQL database (`cluster`) keep the quick-match queue there
(`ticket_store`): each request is a row (a ticket, with an id of its own) naming the player and
the instance their connection is on. `SharedQueues` has the face of `matchmaking.Queues` (the
queue of a server on its own) and keeps the connections of this instance's tickets; the rows
are the truth of who waits.

- **Queueing** (`add`) stores the player's ticket, replacing their earlier one wherever it was
  (the instance that held it hears ``unqueue`` naming that ticket and tells its connection
  ``unqueued``: one ticket per player), then tries to seat a table of that queue.
- **Seating a table** happens under the queue's lock in the database (`ticket_store.TicketStore.forming`)
  by whichever instance added a ticket or whose wait for computers ran out: it reads the tickets
  of living instances only, oldest first (a dead instance's are deleted, and so are its own
  whose connection it no longer has), decides a table as a server on its own does (enough
  people; or people whose wait for computers ran out, with computers), makes the room
  (`quickmatch.QuickMatch.quick_table`: its seats claimed with fresh keys, stored, the game
  dealt), and commits: the tickets taken are deleted and each remote player's seat is sent as
  the signal ``seat`` (``<player> <room> <seat> <key> <instance> <ticket>``), both at once or
  neither. Then it seats its own players (`roomservice.RoomService.seat_all`).
- **The seat reaches its player**: the instance named in the signal drops the player's ticket,
  finds the room (`replicas.Replicas.find`) and seats the connection with that key (``joined``
  with the key, as on one server). Any other instance holding a ticket of that player (a later
  request, made as the table was decided) drops it and tells its connection ``unqueued``: one
  seat at a time.
- **A player who left as they were seated.** A ticket is taken only if its instance lives and,
  for the deciding instance's own, its connection is open (a closing connection's ticket is
  deleted in the step that closes it). The one race left: the player's connection closes on
  their instance while another decides their table. When the seat's signal then finds no
  ticket of that player, nobody can ever open the seat (nobody else has its key), and the game
  must not wait for them: a computer takes the seat at once (`roomservice.RoomService.abandon`,
  as when a person stays away too long). An instance that dies between the decision and the
  signal leaves the seat away: the turn clock and the abandon rules of any away seat apply.
- ``queued`` counts the queue's tickets on every living instance; a change of a queue is the
  signal ``queue`` (``<queue_hash> <instance>``: `ticket_store.queue_hash`, and who changed it):
  each other instance with people in it tells them.
- Refusals by the deciding instance (quotas, a full server) reach a remote player as the signal
  ``unqueue`` (``<player> <instance> <ticket> <code> <message>``): its instance tells the error
  and ``unqueued``, as on one server.
- **Signals missed.** An instance that listens again (it stopped hearing its own news: a
  dropped connection, an overloaded machine) may have missed an ``unqueue`` or a ``seat``: its
  tickets that the database no longer holds are forgotten and their connections hear
  ``unqueued`` (`SharedQueues.missed`), rather than wait for a signal gone by.

Rate limits and quick-match requests an hour are counted by the instance a connection is on
(`quotas`: per instance, like every quota kept in memory).
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from .alarm import Alarm
from .cluster import Cluster
from .matchmaking import Ticket
from .messages import Error, Unqueued
from .protocol import Client, Refusal, not_stored
from .rooms import Room
from .roomstore import StoreFailure
from .ticket_store import QueueKey, TicketRow, TicketStore, queue_hash

if TYPE_CHECKING:
    from .roomservice import RoomService

log = logging.getLogger("huit.server")

RETRY: Final = 1.0
"""Seconds before a wait for computers that could not be decided (the database failed) is tried
again."""
ABANDON_TRIES: Final = 3
"""Times a seat nobody will take is given to a computer while other instances write its room."""


@dataclass
class Table:
    """What `MakeTable` made of a group: a room whose game is dealt and the group's seat keys (in
    the group's order), or the players it refused (their code and sentence); none refused and no
    room: nothing could be done (the group waits on)."""

    room: Room | None = None
    keys: list[str] = field(default_factory=list)
    refused: dict[str, tuple[str, str]] = field(default_factory=dict)


MakeTable = Callable[[list[TicketRow], int], Table]
"""Makes a room of the group's tickets (oldest first) and that many computers (see `Table`)."""


def row_of(ticket: Ticket, ticket_id: str, instance: str) -> TicketRow:
    """``ticket`` (of a connection that said hello) as the database keeps it."""
    profile = ticket.client.profile
    assert profile is not None  # (quick match asks for a profile first)
    rules, players = ticket.queue
    return TicketRow(ticket.player, ticket_id, instance, rules, players, ticket.computers, ticket.wait,
                     ticket.since, ticket.address, profile.name, profile.avatar, profile.tag)


class SharedQueues:
    """Every quick-match queue, shared by the instances of one database (see the module).

    ``service``: the rooms service (its clock, its sends, its rooms); ``tickets``: the rows;
    ``make_table``: how a table is made (`quickmatch.QuickMatch.quick_table`).
    """

    def __init__(self, service: RoomService, tickets: TicketStore, make_table: MakeTable) -> None:
        self.service = service
        self.cluster: Cluster = service.cluster
        self.clock = service.clock
        self.tickets = tickets
        self.make_table = make_table
        self.by_client: dict[Client, Ticket] = {}
        self.by_player: dict[str, Ticket] = {}
        self.ids: dict[str, str] = {}  # player -> the id of their ticket here
        self.paused_until = 0.0  # a failed decision is tried again from then
        self.alarm = Alarm(self.clock, self.due, self._ring)
        self.cluster.listen("seat", self._heard_seat)
        self.cluster.listen("unqueue", self._heard_unqueue)
        self.cluster.listen("queue", self._heard_queue)

    @property
    def instance(self) -> str:
        """This instance's name among those of the database."""
        return self.cluster.instance

    def __len__(self) -> int:
        return len(self.by_client)

    # ---- this instance's players -----------------------------------------------------------------
    def add(self, ticket: Ticket) -> None:
        """Queue ``ticket`` (its player's earlier request leaves its queue, on any instance); seat a
        table of its queue if it can.

        Raises:
            Refusal: ``server_error``: the database refused it (the player waits nowhere).
        """
        for old in (self.by_client.get(ticket.client), self.by_player.get(ticket.player)):
            if old is not None:
                old_id = self._forget(old)
                if old.client is not ticket.client:
                    self.service.send(old.client, Unqueued())
                if old.player != ticket.player and old_id is not None:
                    self._drop(old.player, old_id)
        ticket_id = secrets.token_hex(8)
        try:
            replaced = self.tickets.put(row_of(ticket, ticket_id, self.instance))
        except StoreFailure:
            log.exception("a quick-match ticket could not be stored")
            raise not_stored() from None
        self.by_client[ticket.client] = ticket
        self.by_player[ticket.player] = ticket
        self.ids[ticket.player] = ticket_id
        if replaced is not None and replaced.instance != self.instance:
            self._signal("unqueue", f"{ticket.player} {replaced.instance} {replaced.ticket} - -")
        if replaced is not None and replaced.queue != ticket.queue:
            self._signal("queue", f"{queue_hash(replaced.queue)} {self.instance}")
        self._match(ticket.queue, changed=True)
        self.alarm.replan()

    def remove(self, client: Client, *, tell: bool = False) -> Ticket | None:
        """``client`` leaves its queue (at once); with ``tell``, it hears ``unqueued``."""
        ticket = self.by_client.get(client)
        if ticket is None:
            return None
        ticket_id = self._forget(ticket)
        if ticket_id is not None:
            self._drop(ticket.player, ticket_id)  # (a table that took it meanwhile: see the module)
        self._changed(ticket.queue)
        if tell:
            self.service.send(client, Unqueued())
        self.alarm.replan()
        return ticket

    def stop(self) -> None:
        """This instance stops: its tickets go (the others' tables no longer wait on them)."""
        self.alarm.cancel()
        try:
            self.tickets.drop_instance(self.instance)
        except StoreFailure:
            log.exception("the quick-match tickets of instance %s could not be deleted", self.instance)

    def missed(self) -> None:
        """Signals may have been missed (this instance listened again: `cluster.Cluster.start`'s
        ``lost``). A ticket here that the database no longer holds was replaced by a later request
        elsewhere, or taken for a table whose ``seat`` signal never came: its connection hears
        ``unqueued`` (it may queue again; a seat it was given waits away, and the abandon rules
        give it to a computer), rather than wait for ever for a signal gone by."""
        keys = {t.queue for t in self.by_client.values()}
        living = self.cluster.living() if keys else set()  # (asked once, not once a queue)
        for key in keys:
            try:
                held = {(row.player, row.ticket) for row in self.tickets.waiting(key, living)}
            except StoreFailure:
                log.exception("the quick-match tickets could not be checked after news were missed")
                continue
            for ticket in [t for t in self.by_client.values() if t.queue == key]:
                if (ticket.player, self.ids.get(ticket.player)) not in held:
                    self._forget(ticket)
                    self.service.send(ticket.client, Unqueued())
            self._tell(key, len(held))
        self.alarm.replan()

    def due(self) -> float | None:
        """When the next wait for computers of this instance's players runs out, if any."""
        times = [t.fills_at for t in self.by_client.values() if t.fills_at is not None]
        return max(min(times), self.paused_until) if times else None

    def _ring(self) -> None:
        now = self.clock.now()
        for key in {t.queue for t in self.by_client.values() if t.fills_at is not None and t.fills_at <= now}:
            self._match(key)
        if any(t.fills_at is not None and t.fills_at <= now for t in self.by_client.values()):
            self.paused_until = now + RETRY  # not decided (the database failed): not at once again
        self.alarm.replan()

    def _forget(self, ticket: Ticket) -> str | None:
        """Forget ``ticket`` here (its row is someone else's business); return its id."""
        if self.by_client.get(ticket.client) is ticket:
            del self.by_client[ticket.client]
        if self.by_player.get(ticket.player) is ticket:
            del self.by_player[ticket.player]
            return self.ids.pop(ticket.player, None)
        return None

    def _drop(self, player: str, ticket_id: str) -> None:
        """Delete the ticket ``ticket_id`` of ``player`` (gone already: a table took it, or a later
        request replaced it)."""
        try:
            self.tickets.drop(player, ticket_id)
        except StoreFailure:  # the next decision of its queue here deletes it (no connection has it)
            log.exception("a quick-match ticket could not be deleted")

    def _changed(self, key: QueueKey) -> None:
        """Someone left queue ``key`` here: its people, here and on the other instances, are told."""
        self._tell(key)
        self._signal("queue", f"{queue_hash(key)} {self.instance}")

    def _signal(self, kind: str, text: str) -> None:
        try:
            self.cluster.signal(kind, text)
        except StoreFailure:
            log.exception("the quick-match signal %s could not be sent", kind)

    # ---- deciding tables ---------------------------------------------------------------------------
    def _mine(self, row: TicketRow) -> Ticket | None:
        """This instance's ticket that ``row`` stands for (None: another instance's, or stale)."""
        if row.instance != self.instance or self.ids.get(row.player) != row.ticket:
            return None
        return self.by_player.get(row.player)

    def _stale(self, row: TicketRow) -> bool:
        """Whether ``row`` is this instance's but stands for no connection it has (to be deleted)."""
        return row.instance == self.instance and self._mine(row) is None

    def _match(self, key: QueueKey, *, changed: bool = False) -> None:
        """Seat tables of queue ``key`` while it can (see the module), then tell its people here
        where they stand (and, if the queue ``changed`` or a table was seated, the others theirs)."""
        seated: list[tuple[Room, list[tuple[Ticket, int, str]]]] = []
        refused: list[tuple[Ticket, str, str]] = []
        try:
            living = self.cluster.living()
            # Most requests seat nobody (the first of a pair): seen without the queue's lock, they
            # cost one read; a table, or a row to delete, is decided again under the lock.
            waiting = self.tickets.waiting(key, living)
            if not any(self._stale(r) for r in waiting) and not self._group(key, waiting)[0]:
                if changed:
                    self._signal("queue", f"{queue_hash(key)} {self.instance}")
                self._tell(key, len(waiting))
                return
            with self.tickets.forming(key, living) as forming:
                stale = [r.player for r in forming.rows if self._stale(r)]
                forming.take(stale)  # rows of connections this instance no longer has
                rows = [r for r in forming.rows if r.player not in stale]
                changed |= bool(stale)
                while rows:
                    group, computers = self._group(key, rows)
                    if not group:
                        break
                    table = self.make_table(group, computers)
                    if table.room is None and not table.refused:
                        break
                    changed = True
                    gone = list(table.refused) if table.room is None else [r.player for r in group]
                    forming.take(gone)
                    rows = [r for r in rows if r.player not in gone]
                    mine = []
                    for seat, row in enumerate(group):
                        here = self._mine(row)
                        if row.player in table.refused:
                            code, message = table.refused[row.player]
                            if here is not None:
                                refused.append((here, code, message))
                            else:
                                forming.signal("unqueue", f"{row.player} {row.instance} {row.ticket} {code} "
                                                          f"{message}")
                        elif table.room is not None:
                            if here is not None:
                                mine.append((here, seat, table.keys[seat]))
                            else:
                                forming.signal("seat", f"{row.player} {table.room.room_id} {seat} "
                                                       f"{table.keys[seat]} {row.instance} {row.ticket}")
                    if table.room is not None:
                        seated.append((table.room, mine))
                if changed:
                    forming.signal("queue", f"{queue_hash(key)} {self.instance}")
        except StoreFailure:
            log.exception("a quick-match table could not be decided")
            return
        for ticket, code, message in refused:
            self._forget(ticket)
            self.service.send(ticket.client, Error(code=code, message=message))
            self.service.send(ticket.client, Unqueued())
        for room, places in seated:
            for ticket, _, _ in places:
                self._forget(ticket)
            self.service.when_free(room.room_id, functools.partial(self._seat_all, room, places))
        self._tell(key)

    def _seat_all(self, room: Room, places: list[tuple[Ticket, int, str]]) -> None:
        """Seat this instance's people of a table just made (under its room's lock)."""
        try:
            refused = self.service.seat_all_now(room, [(t.client, seat, key) for t, seat, key in places])
        except Refusal:
            log.exception("room %s: quick match could not seat its players here", room.room_id)
            return
        for seat in refused:  # gone, or seated by a create or join of their own meanwhile: see the module
            self._give_up_now(room.room_id, seat)

    def _group(self, key: QueueKey, rows: list[TicketRow]) -> tuple[list[TicketRow], int]:
        """The next table of ``rows`` (oldest first) and its computers; none when it must wait."""
        players = key[1]
        if len(rows) >= players:
            return rows[:players], 0
        fills = [r for r in rows if r.computers]
        now = self.clock.now()
        if not any(r.fills_at is not None and r.fills_at <= now for r in fills):
            return [], 0
        return fills[:players], players - len(fills[:players])

    def _tell(self, key: QueueKey, waiting: int | None = None) -> None:
        """Tell this instance's people of queue ``key`` how many wait in it on every instance
        (``waiting``, when it was just read)."""
        mine = [t for t in self.by_client.values() if t.queue == key]
        if not mine:
            return
        if waiting is None:
            try:
                waiting = self.tickets.count(key, self.cluster.living())
            except StoreFailure:
                log.exception("a quick-match queue could not be counted")
                return
        now = self.clock.now()
        for ticket in sorted(mine, key=lambda t: t.since):
            self.service.send(ticket.client, ticket.status(max(waiting, 1), now))

    # ---- signals of the others ---------------------------------------------------------------------
    def _heard_queue(self, text: str) -> None:
        name, _, instance = text.partition(" ")
        if instance == self.instance:
            return  # this instance told its own people already
        for key in {t.queue for t in self.by_client.values()}:
            if queue_hash(key) == name:
                self._tell(key)

    def _heard_unqueue(self, text: str) -> None:
        player, instance, ticket_id, code, message = (text.split(" ", 4) + ["-", ""])[:5]
        ticket = self.by_player.get(player)
        if instance != self.instance or ticket is None or self.ids.get(player) != ticket_id:
            return  # not this instance's, or a ticket it no longer has (a later request stands)
        self._forget(ticket)
        if code != "-":
            self.service.send(ticket.client, Error(code=code, message=message))
        self.service.send(ticket.client, Unqueued())
        self.alarm.replan()

    def _heard_seat(self, text: str) -> None:
        try:
            # (a later release only adds fields at the end)
            player, room_id, seat_text, key, instance, ticket_id, *_ = text.split(" ")
            seat = int(seat_text)
        except ValueError:
            log.error("a quick-match seat signal that means nothing: %r", text)
            return
        ticket = self.by_player.get(player)
        later = ticket is not None and self.ids.get(player) != ticket_id  # a request made since
        if ticket is not None and (later or instance != self.instance):
            # The player's seat comes first: a later request, here or elsewhere, leaves its queue.
            later_id = self._forget(ticket)
            if later_id is not None:
                self._drop(player, later_id)
            self._changed(ticket.queue)
            if instance != self.instance:
                self.service.send(ticket.client, Unqueued())
        if instance != self.instance:
            return
        self.alarm.replan()
        if ticket is None:  # the player left as the table was decided: see the module
            self._give_up(room_id, seat)
            return
        self._forget(ticket)
        self.service.when_free(room_id, functools.partial(self._seat_here, ticket, room_id, seat, key))

    def _seat_here(self, ticket: Ticket, room_id: str, seat: int, key: str) -> None:
        """Seat a person of this instance at a table another instance made (under its room's lock)."""
        room = self.service.replicas.find(room_id)
        if room is None:
            log.error("quick match seated a player in room %s, which cannot be found", room_id)
            self.service.send(ticket.client, Error(code="server_error", message="the server failed to start "
                                                   "your quick match; ask again"))
            self.service.send(ticket.client, Unqueued())
            return
        try:
            refused = self.service.seat_now(ticket.client, room, seat, key)
        except Refusal:
            log.exception("room %s: a quick-match player could not be seated", room_id)
            return
        if refused:  # gone, or seated by a create or join of their own while the room was busy
            self._give_up_now(room_id, seat)

    def _give_up(self, room_id: str, seat: int) -> None:
        """The player of ``seat`` left as their table was decided: nobody will ever have its key,
        so a computer takes it at once (see the module)."""
        self.service.when_free(room_id, functools.partial(self._give_up_now, room_id, seat))

    def _give_up_now(self, room_id: str, seat: int) -> None:
        """`_give_up` under the room's lock."""
        for _ in range(ABANDON_TRIES):  # another instance may write the room meanwhile (then it is caught up)
            room = self.service.replicas.find(room_id)
            if room is None or room.match is None or not room.seats[seat].is_human or room.finished:
                return
            try:
                self.service.abandon(room, seat)
                log.info("room %s: seat %d's player left as quick match seated them; a computer plays it",
                         room_id, seat)
                return
            except Refusal:
                continue
        log.error("room %s: seat %d of a player who left could not be given to a computer", room_id, seat)
