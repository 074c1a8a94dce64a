"""Quick-match tickets where every server sharing a database sees them (`shared_queues`).

A server on its own keeps its quick-match queue in memory (`matchmaking.Queues`: the whole
truth). Servers sharing one PostgreSQL database (`cluster`) keep one queue in the database
instead: each ticket is a row (`TicketRow`: the player, the instance whose connection waits,
the queue, and what seating it needs: name, avatar, tag, address), so two players waiting on
different instances are seated together. `TicketStore` is what the queue asks of that table:

- `put` and `drop`: a player's one ticket (a second request replaces the first, wherever it
  was made), and leaving the queue;
- `count` and `waiting`: the people waiting in a queue, on living instances;
- `forming`: a table is decided under the queue's lock (a transaction-scoped lock in
  PostgreSQL): the queue's tickets of living instances, oldest first (the dead instances'
  are deleted); the tickets `Forming.take` names are deleted and the signals
  `Forming.signal` names are sent, both when it commits, together or not at all.

`MemoryTicketStore` keeps them in this process (one server; the shared store tests), and
`pg_tickets.PgTicketStore` in PostgreSQL.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Protocol

QueueKey = tuple[str, int]
"""A queue: its rules as sorted JSON, and its number of players (`matchmaking.Ticket.queue`)."""


def queue_hash(queue: QueueKey) -> str:
    """A short name of ``queue`` for signals (rules can be long): 16 hexadecimal digits."""
    rules, players = queue
    return hashlib.blake2b(f"{players} {rules}".encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class TicketRow:
    """One player's ticket as the database keeps it (see the module)."""

    player: str  # their id
    ticket: str  # this request's own id (a random token): a player's later request is another ticket
    instance: str  # the instance whose connection waits (`cluster.Cluster.instance`)
    rules: str  # the rules as sorted JSON
    players: int
    computers: bool  # whether computers may fill the table after ``wait``
    wait: float
    since: float  # when it was queued (the server's clock: seconds since the epoch)
    address: str  # what the player's rooms count against (`quotas`)
    name: str
    avatar: int
    tag: str

    @property
    def queue(self) -> QueueKey:
        """The queue it waits in."""
        return self.rules, self.players

    @property
    def fills_at(self) -> float | None:
        """When computers may fill its table (None: never)."""
        return self.since + self.wait if self.computers else None


class Forming(Protocol):
    """A table being decided under its queue's lock (`TicketStore.forming`)."""

    rows: list[TicketRow]  # the queue's tickets of living instances, oldest first

    def take(self, players: Iterable[str]) -> None:
        """Delete these players' tickets when the decision commits."""
        ...

    def signal(self, kind: str, text: str) -> None:
        """Send this signal (`cluster.Cluster.signal`) when the decision commits (never before)."""
        ...


class TicketStore(Protocol):
    """The quick-match tickets every instance sees (see the module). A database failure raises
    `roomstore.StoreFailure` (nothing was changed)."""

    def put(self, row: TicketRow) -> TicketRow | None:
        """Store ``row``, replacing its player's ticket wherever it was; return the one replaced."""
        ...

    def drop(self, player: str, ticket: str) -> bool:
        """Delete ``player``'s ticket if it is still ``ticket``; whether it was (False: a table took
        it, or a later request replaced it)."""
        ...

    def drop_instance(self, instance: str) -> int:
        """Delete every ticket of ``instance`` (it stops); return how many."""
        ...

    def count(self, queue: QueueKey, living: Collection[str]) -> int:
        """The tickets of ``queue`` held by ``living`` instances (a store that sees who lives
        itself, as PostgreSQL does, counts those too: a caller's view may fall short)."""
        ...

    def waiting(self, queue: QueueKey, living: Collection[str]) -> list[TicketRow]:
        """The tickets of ``queue`` held by living instances (as in `count`), oldest first, as they
        stand now (no lock: a table is decided in `forming`)."""
        ...

    def forming(self, queue: QueueKey, living: Collection[str]) -> AbstractContextManager[Forming]:
        """Decide a table of ``queue`` under its lock (see the module); an exception inside
        changes nothing and sends nothing. ``living`` as in `count`: the tickets of instances that
        are neither are deleted."""
        ...

    def close(self) -> None:
        """Let the database go."""
        ...


@dataclass
class FormingTable:
    """A `Forming` as both stores keep it: the queue's rows, then what the decision took and the
    signals it sends (the store commits them together)."""

    rows: list[TicketRow]
    taken: set[str] = field(default_factory=set)
    signals: list[tuple[str, str]] = field(default_factory=list)

    def take(self, players: Iterable[str]) -> None:
        self.taken.update(players)

    def signal(self, kind: str, text: str) -> None:
        self.signals.append((kind, text))


class MemoryTicketStore:
    """Tickets in this process (see the module); ``signal``: how a committed decision's signals
    are sent (`cluster.Cluster.signal`)."""

    def __init__(self, signal: Callable[[str, str], None]) -> None:
        self.signal = signal
        self.rows: dict[str, TicketRow] = {}

    def put(self, row: TicketRow) -> TicketRow | None:
        """Store ``row`` (see `TicketStore.put`)."""
        old = self.rows.get(row.player)
        self.rows[row.player] = row
        return old

    def drop(self, player: str, ticket: str) -> bool:
        """Delete ``player``'s ticket if still ``ticket`` (see `TicketStore.drop`)."""
        row = self.rows.get(player)
        if row is None or row.ticket != ticket:
            return False
        del self.rows[player]
        return True

    def drop_instance(self, instance: str) -> int:
        """Delete ``instance``'s tickets."""
        gone = [p for p, r in self.rows.items() if r.instance == instance]
        for player in gone:
            del self.rows[player]
        return len(gone)

    def count(self, queue: QueueKey, living: Collection[str]) -> int:
        """The tickets of ``queue`` on ``living`` instances."""
        return sum(r.queue == queue and r.instance in living for r in self.rows.values())

    def waiting(self, queue: QueueKey, living: Collection[str]) -> list[TicketRow]:
        """The tickets of ``queue`` on ``living`` instances, oldest first."""
        return sorted((r for r in self.rows.values() if r.queue == queue and r.instance in living),
                      key=lambda r: (r.since, r.player))

    @contextmanager
    def _forming(self, queue: QueueKey, living: Collection[str]) -> Iterator[FormingTable]:
        for player in [p for p, r in self.rows.items() if r.instance not in living]:
            del self.rows[player]  # a dead instance's: nobody waits behind them any more
        rows = sorted((r for r in self.rows.values() if r.queue == queue), key=lambda r: (r.since, r.player))
        forming = FormingTable(rows)
        yield forming  # (an exception leaves everything as it was)
        for player in forming.taken:
            self.rows.pop(player, None)
        for kind, text in forming.signals:
            self.signal(kind, text)

    def forming(self, queue: QueueKey, living: Collection[str]) -> AbstractContextManager[Forming]:
        """Decide a table of ``queue`` (see `TicketStore.forming`)."""
        return self._forming(queue, living)

    def close(self) -> None:
        """Nothing to let go."""
