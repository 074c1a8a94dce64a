"""Quick match across instances: one queue in the database, whichever server a player reached.

Servers sharing one PostgreSQL database (`cluster`) keep the quick-match queue there
(`ticket_store`): each waiting player is a row naming the instance their connection is on.
`SharedQueues` has the face of `matchmaking.Queues` (the queue of a server on its own) and
keeps the connections of this instance's tickets; the rows are the truth of who waits.

- **Queueing** (`add`) stores the player's row, replacing their ticket wherever it was (the
  instance that held it hears ``unqueue`` and tells its connection ``unqueued``: one ticket per
  player), then tries to seat a table of that queue.
- **Seating a table** happens under the queue's lock in the database (`ticket_store.TicketStore.forming`)
  by whichever instance added a ticket or whose wait for computers ran out: it reads the tickets
  of living instances only, oldest first (a dead instance's are deleted), decides a table as a
  server on its own does (enough people; or people whose wait for computers ran out, with
  computers), makes the room (`quickmatch.QuickMatch.quick_table`: its seats claimed with fresh
  keys, stored, the game dealt), and commits: the tickets taken are deleted and each remote
  player's seat is sent as the signal ``seat`` (``<player> <room> <seat> <key> <instance>``),
  both at once. Then it seats its own players (`roomservice.RoomService.seat_all`).
- **The seat reaches its player**: the instance named in the signal drops its ticket, finds the
  room (`replicas.Replicas.find`) and seats the connection with that key (``joined`` with the
  key, as on one server). Any other instance holding a ticket of that player drops it and tells
  its connection ``unqueued`` (one seat at a time).
- **A player who left as they were seated.** A ticket is taken only if its instance lives and,
  for this instance's own, its connection is open (it is dropped in the same step that closes
  it). The one race left: the player's connection closes on their instance while another
  decides their table. Their instance finds the ticket gone when it drops it, so it knows a seat
  is coming; when the signal comes, nobody can ever open that seat (nobody has its key), and the
  game must not wait for them: a computer takes the seat at once (`roomservice.RoomService.abandon`,
  as when a person is away too long). An instance that dies between the decision and the signal
  leaves the seat away: the turn clock and the abandon rules of any away seat apply.
- ``queued`` counts the queue's tickets on every living instance; a change of a queue is the
  signal ``queue`` (``<queue_hash> <instance>``: `ticket_store.queue_hash`, and who changed it):
  each other instance with people in it tells them.
- Refusals by the deciding instance (quotas, a full server) reach a remote player as the signal
  ``unqueue`` (``<player> <instance> <code> <message>``): its instance tells the error and
  ``unqueued``, as on one server.

Rate limits and quick-match requests an hour are counted by the instance a connection is on
(`quotas`: per instance, like every quota kept in memory).
"""

from __future__ import annotations

import logging
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
REMEMBERED: Final = 1000
"""Players whose ticket a table took as their connection closed, remembered until their seat's
signal comes (at most this many: the oldest are forgotten)."""


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


def row_of(ticket: Ticket, instance: str) -> TicketRow:
    """``ticket`` (of a connection that said hello) as the database keeps it."""
    profile = ticket.client.profile
    assert profile is not None  # (quick match asks for a profile first)
    rules, players = ticket.queue
    return TicketRow(ticket.player, instance, rules, players, ticket.computers, ticket.wait, ticket.since,
                     ticket.address, profile.name, profile.avatar, profile.tag)


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
        self.taken: dict[str, None] = {}  # players whose ticket a table took as they left (in order)
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
                self._forget(old)
                if old.client is not ticket.client:
                    self.service.send(old.client, Unqueued())
                if old.player != ticket.player:
                    self._drop(old.player)
        try:
            replaced = self.tickets.put(row_of(ticket, self.instance))
        except StoreFailure:
            log.exception("a quick-match ticket could not be stored")
            raise not_stored() from None
        self.by_client[ticket.client] = ticket
        self.by_player[ticket.player] = ticket
        if replaced is not None and replaced.instance != self.instance:
            self._signal("unqueue", f"{ticket.player} {replaced.instance} - -")
        if replaced is not None and replaced.queue != ticket.queue:
            self._signal("queue", f"{queue_hash(replaced.queue)} {self.instance}")
        self._match(ticket.queue)
        self.alarm.replan()

    def remove(self, client: Client, *, tell: bool = False) -> Ticket | None:
        """``client`` leaves its queue (at once); with ``tell``, it hears ``unqueued``."""
        ticket = self.by_client.get(client)
        if ticket is None:
            return None
        self._forget(ticket)
        if not self._drop(ticket.player):
            self._remember_taken(ticket.player)  # a table took it meanwhile: its seat is on its way
        self._signal("queue", f"{queue_hash(ticket.queue)} {self.instance}")
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

    def _forget(self, ticket: Ticket) -> None:
        """Forget ``ticket`` here (its row is someone else's business)."""
        if self.by_client.get(ticket.client) is ticket:
            del self.by_client[ticket.client]
        if self.by_player.get(ticket.player) is ticket:
            del self.by_player[ticket.player]

    def _drop(self, player: str) -> bool:
        """Delete this instance's ticket of ``player``; whether there was one (a failure counts as
        one: the next table's decision deletes it as it finds no connection for it)."""
        try:
            return self.tickets.drop(player, self.instance)
        except StoreFailure:
            log.exception("a quick-match ticket could not be deleted")
            return True

    def _remember_taken(self, player: str) -> None:
        self.taken[player] = None
        while len(self.taken) > REMEMBERED:
            del self.taken[next(iter(self.taken))]

    def _signal(self, kind: str, text: str) -> None:
        try:
            self.cluster.signal(kind, text)
        except StoreFailure:
            log.exception("the quick-match signal %s could not be sent", kind)

    # ---- deciding tables ---------------------------------------------------------------------------
    def _match(self, key: QueueKey) -> None:
        """Seat tables of queue ``key`` while it can (see the module), then tell its people here
        where they stand."""
        seated: list[tuple[Room, list[tuple[Client, int, str]]]] = []
        refused: list[tuple[Ticket, str, str]] = []
        try:
            living = self.cluster.living()
            with self.tickets.forming(key, living) as forming:
                rows = forming.rows
                stale = [r.player for r in rows
                         if r.instance == self.instance and r.player not in self.by_player]
                forming.take(stale)  # rows of connections this instance no longer has
                rows = [r for r in rows if r.player not in stale]
                changed = bool(stale)
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
                    for row in group:
                        if row.player in table.refused:
                            code, message = table.refused[row.player]
                            if row.instance == self.instance:
                                refused.append((self.by_player[row.player], code, message))
                            else:
                                forming.signal("unqueue", f"{row.player} {row.instance} {code} {message}")
                    if table.room is not None:
                        mine = []
                        for seat, (row, seat_key) in enumerate(zip(group, table.keys, strict=True)):
                            if row.instance == self.instance:
                                mine.append((self.by_player[row.player].client, seat, seat_key))
                            else:
                                forming.signal("seat", f"{row.player} {table.room.room_id} {seat} {seat_key} "
                                                       f"{row.instance}")
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
        for room, mine in seated:
            for client, _, _ in mine:
                left = self.by_client.get(client)
                if left is not None:
                    self._forget(left)
            try:
                self.service.seat_all(room, mine)
            except Refusal:
                log.exception("room %s: quick match could not seat its players here", room.room_id)
        self._tell(key)

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

    def _tell(self, key: QueueKey) -> None:
        """Tell this instance's people of queue ``key`` how many wait in it (on every instance)."""
        mine = [t for t in self.by_client.values() if t.queue == key]
        if not mine:
            return
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
        player, instance, code, message = (text.split(" ", 3) + ["", "", ""])[:4]
        ticket = self.by_player.get(player)
        if instance != self.instance or ticket is None:
            return
        self._forget(ticket)
        if code != "-":
            self.service.send(ticket.client, Error(code=code, message=message))
        self.service.send(ticket.client, Unqueued())
        self.alarm.replan()

    def _heard_seat(self, text: str) -> None:
        try:
            player, room_id, seat_text, key, instance = text.split(" ")
            seat = int(seat_text)
        except ValueError:
            log.error("a quick-match seat signal that means nothing: %r", text)
            return
        ticket = self.by_player.get(player)
        if instance != self.instance:
            if ticket is not None:  # seated through another instance: one seat at a time
                self._forget(ticket)
                self._drop(player)
                self.service.send(ticket.client, Unqueued())
                self.alarm.replan()
            return
        if ticket is None:
            if player in self.taken:
                del self.taken[player]
                self._give_up(room_id, seat)
            return
        self._forget(ticket)
        self.alarm.replan()
        room = self.service.replicas.find(room_id)
        if room is None:
            log.error("quick match seated %s in room %s, which cannot be found", player, room_id)
            self.service.send(ticket.client, Error(code="server_error", message="the server failed to start "
                                                   "your quick match; ask again"))
            self.service.send(ticket.client, Unqueued())
            return
        try:
            self.service.seat(ticket.client, room, seat, key)
        except Refusal:
            log.exception("room %s: a quick-match player could not be seated", room_id)

    def _give_up(self, room_id: str, seat: int) -> None:
        """The player of ``seat`` left as their table was decided: nobody will ever have its key,
        so a computer takes it at once (see the module)."""
        room = self.service.replicas.find(room_id)
        if room is None or room.match is None or not room.seats[seat].is_human:
            return
        for _ in range(3):  # another instance may write the room meanwhile (then it is caught up)
            try:
                self.service.abandon(room, seat)
                return
            except Refusal as exc:
                if exc.code != "server_error":
                    raise
                current = self.service.replicas.find(room_id)
                if current is None or current.match is None or not current.seats[seat].is_human:
                    return
                room = current
        log.error("room %s: seat %d of a player who left could not be given to a computer", room_id, seat)
