"""Quick match: players ask for a rule set and a number of players, and are seated together.

A request (``queue``: a preset, its options, a number of players, and whether computers
may fill the table after a wait of the player's choosing, `messages.DEFAULT_WAIT` by default)
becomes a `Ticket` in the queue of exactly those rules and that number. As soon as a
queue holds enough tickets, the oldest ones are seated together in a new room (the
``make_room`` it is given: `quickmatch.QuickMatch.quick_room`). A ticket that allowed
computers and has waited its wait is seated with the other such tickets of its queue
(oldest first) and computers (`FILL_LEVEL`) in the seats left; a ticket that did not
allow computers keeps waiting for people.

The server may refuse to seat some of a table (a player over a quota of rooms or
computer seats, a full server): those hear an error and ``unqueued`` and leave their
queue, and the others of the table wait on in theirs, in their place. If seating a
table fails outright (a bug), each of its players hears ``server_error`` and
``unqueued`` instead of waiting for ever in a queue that forgot them.

Each player is in one queue at most (a second request replaces the first, also from
another connection with the same player key), and leaving is instant (``unqueue``,
joining a room, or closing the connection). While queued, a connection hears
``queued`` (the people in its queue, since when it waits, by the server's clock and
with the server's ``now``) whenever its queue changes. The waits run on the server's
injectable clock (`alarm`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from game.engine import Rules

from .alarm import Alarm
from .clock import Clock
from .messages import Error, Queued, ServerMessage, Unqueued
from .protocol import Client
from .wire import rules_to_json

log = logging.getLogger("huit.server")

FILL_LEVEL: Final = "medium"


@dataclass(eq=False)
class Ticket:
    """One player waiting in a queue."""

    client: Client
    player: str  # their id
    address: str
    rules: Rules
    players: int
    computers: bool  # whether computers may fill the table after `wait`
    wait: float
    since: float

    @property
    def queue(self) -> tuple[str, int]:
        """The queue it waits in: these exact rules, this many players."""
        return json.dumps(rules_to_json(self.rules), sort_keys=True), self.players

    @property
    def fills_at(self) -> float | None:
        """When computers may fill its table (None: never)."""
        return self.since + self.wait if self.computers else None

    def status(self, waiting: int, now: float) -> Queued:
        """The ``queued`` message for it (``waiting``: the people in its queue)."""
        return Queued(preset=self.rules.name, options=self.rules.options(), players=self.players,
                      waiting=waiting, since=round(self.since, 3), now=round(now, 3),
                      computers=self.computers, wait=self.wait)


MakeRoom = Callable[[list[Ticket], int], list[Ticket]]
"""Seats the tickets (oldest first) and that many computers in a new room. Returns the tickets
it did not seat that may wait on (the others of a table one of whose players it refused: it
told those it refused, which leave their queue)."""


class QuickQueues(Protocol):
    """What the server asks of quick match's queues: `Queues` on a server on its own, or
    `shared_queues.SharedQueues` on servers sharing a database."""

    by_player: dict[str, Ticket]  # this server's tickets, by their player
    alarm: Alarm  # the wait for computers

    def __len__(self) -> int:
        """This server's tickets."""
        ...

    def add(self, ticket: Ticket) -> None:
        """Queue ``ticket`` (its player's earlier request leaves its queue)."""
        ...

    def remove(self, client: Client, *, tell: bool = False) -> Ticket | None:
        """``client`` leaves its queue (at once); with ``tell``, it hears ``unqueued``."""
        ...

    def stop(self) -> None:
        """The server stops: nobody waits any more."""
        ...

    def missed(self) -> None:
        """Signals from the other servers may have been missed (see `shared_queues`)."""
        ...


class Queues:
    """Every quick-match queue.

    ``send(client, message)``: how a message reaches a connection; ``make_room``: how a
    table is seated, see `MakeRoom` (quick match's, on the server).
    """

    def __init__(self, clock: Clock, send: Callable[[Client, ServerMessage], None],
                 make_room: MakeRoom) -> None:
        self.clock = clock
        self.send = send
        self.make_room = make_room
        self.queues: dict[tuple[str, int], list[Ticket]] = {}
        self.by_client: dict[Client, Ticket] = {}
        self.by_player: dict[str, Ticket] = {}
        self.alarm = Alarm(clock, self.due, self._ring)

    def __len__(self) -> int:
        return len(self.by_client)

    def add(self, ticket: Ticket) -> None:
        """Queue ``ticket`` (its player's earlier request leaves its queue); seat a table if
        its queue now holds enough people."""
        for old in (self.by_client.get(ticket.client), self.by_player.get(ticket.player)):
            if old is not None:
                self.remove(old.client, tell=old.client is not ticket.client)
        self.queues.setdefault(ticket.queue, []).append(ticket)
        self.by_client[ticket.client] = ticket
        self.by_player[ticket.player] = ticket
        self._match(ticket.queue)
        self.alarm.replan()

    def remove(self, client: Client, *, tell: bool = False) -> Ticket | None:
        """``client`` leaves its queue (at once); with ``tell``, it hears ``unqueued``."""
        ticket = self.by_client.pop(client, None)
        if ticket is None:
            return None
        if self.by_player.get(ticket.player) is ticket:
            del self.by_player[ticket.player]
        queue = self.queues.get(ticket.queue, [])
        if ticket in queue:
            queue.remove(ticket)
        if not queue:
            self.queues.pop(ticket.queue, None)
        else:
            self._tell(ticket.queue)
        if tell:
            self.send(client, Unqueued())
        self.alarm.replan()
        return ticket

    def stop(self) -> None:
        """The server stops: the wait for computers too."""
        self.alarm.cancel()

    def missed(self) -> None:
        """A server on its own hears no other: there is nothing it could have missed."""

    def due(self) -> float | None:
        """When the next wait for computers runs out, if any ticket allowed them."""
        times = [t.fills_at for t in self.by_client.values() if t.fills_at is not None]
        return min(times) if times else None

    def _ring(self) -> None:
        for key in list(self.queues):
            self._match(key)
        self.alarm.replan()

    def _match(self, key: tuple[str, int]) -> None:
        """Seat tables from queue ``key`` while it can (enough people, or people whose wait for
        computers ran out), then tell the ones left where they stand."""
        players = key[1]
        while True:
            queue = self.queues.get(key, [])
            if len(queue) >= players:
                group, computers = queue[:players], 0
            else:
                now = self.clock.now()
                fills = [t for t in queue if t.computers]
                if not any(t.fills_at is not None and t.fills_at <= now for t in fills):
                    break
                group, computers = fills[:players], players - len(fills[:players])
            if not self._seat(key, group, computers):
                break
        self._tell(key)

    def _seat(self, key: tuple[str, int], group: list[Ticket], computers: int) -> bool:
        """Take ``group`` out of its queue and seat it; put back those the server let wait on.
        False when nobody left the queue (nothing more can be done now)."""
        for ticket in group:
            self.by_client.pop(ticket.client, None)
            if self.by_player.get(ticket.player) is ticket:
                del self.by_player[ticket.player]
        queue = [t for t in self.queues.get(key, []) if t not in group]
        try:
            back = self.make_room(group, computers)
        except Exception:  # a bug must not lose the table's players without a word
            log.exception("quick match could not seat a table")
            back = []
            for ticket in group:
                if ticket.client.room is None:  # not seated before it failed
                    self.send(ticket.client, Error(code="server_error",
                                                   message="the server failed to start your quick match; "
                                                           "ask again"))
                    self.send(ticket.client, Unqueued())
        back = [t for t in group if t in back and t.client not in self.by_client
                and t.player not in self.by_player]
        for ticket in back:
            self.by_client[ticket.client] = ticket
            self.by_player[ticket.player] = ticket
        queue = sorted(back + queue, key=lambda t: t.since)  # in their place: the oldest first
        if queue:
            self.queues[key] = queue
        else:
            self.queues.pop(key, None)
        return len(back) < len(group)

    def _tell(self, key: tuple[str, int]) -> None:
        queue = self.queues.get(key, [])
        now = self.clock.now()
        for ticket in queue:
            self.send(ticket.client, ticket.status(len(queue), now))
