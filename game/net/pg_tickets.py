"""Quick-match tickets in PostgreSQL (`ticket_store.TicketStore`): one queue for every instance.

The ``tickets`` table (`pg_schema.TICKETS`, made by the server's schema migrations) holds one
row per waiting player. A table is decided
in one transaction (`PgTicketStore.forming`): ``pg_advisory_xact_lock`` on the queue (two
instances never decide the same queue at once; the lock goes with the transaction, so a
killed instance holds none), the tickets of instances that are not living deleted, the
queue's rows read ``FOR UPDATE`` oldest first (an instance is living when the caller says so
or the database does: `pgcluster.LIVING`), and at the commit the taken rows deleted and
the signals sent (``pg_notify`` on `pgcluster.CHANNEL`, in the same transaction: an instance
hears that its player was seated exactly when the ticket is gone, never before, never without;
signed with the database's key, `pg_signals`).

The calls are synchronous and short, made on the event loop like the rooms store's; a
failure raises `roomstore.StoreFailure` and changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final

from .pg_signals import signal_payload
from .pgcluster import CHANNEL, KEEPALIVES, LIVING, with_options
from .pgstore import CONNECT_TIMEOUT, LOCK_TIMEOUT, SESSION
from .roomstore import StoreFailure
from .ticket_store import Forming, FormingTable, QueueKey, TicketRow

LOCK_SPACE: Final = 0x48554954  # "HUIT": the first key of the two-key advisory locks of the queues
PLAYER_SPACE: Final = 0x48554955  # the first key of those of the players (one request at a time each)
COLUMNS: Final = ("player, ticket, instance, rules, players, computers, wait, since, address, name, avatar, "
                  "tag")


def queue_lock(queue: QueueKey) -> int:
    """The second key of the advisory lock of ``queue`` (32 bits, signed: two queues that share
    one merely take turns)."""
    rules, players = queue
    digest = hashlib.blake2b(f"{players} {rules}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


def player_lock(player: str) -> int:
    """The second key of the advisory lock of ``player``'s requests (32 bits, signed)."""
    digest = hashlib.blake2b(player.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgTicketStore:
    """The tickets in the PostgreSQL database ``url`` (see the module), whose schema the rooms'
    store prepared (`pg_schema.prepare`).

    Raises:
        StoreFailure: the database cannot be reached.
    """

    def __init__(self, url: str) -> None:
        import psycopg

        from .pg_schema import news_key

        self.url = url
        self._closed = False
        try:
            self._connection: Any = self._connect()
            self.key = news_key(self._connection)  # what signs its signals (`pg_signals`; None: unsigned)
        except psycopg.Error as exc:
            raise StoreFailure(f"cannot reach the database for the quick-match tickets: {exc}") from exc

    def _connect(self) -> Any:
        """A connection with the rooms store's timeouts: a queue's lock held too long by a stuck
        instance costs a refusal here, never a frozen server."""
        import psycopg

        # The cluster's keepalives and timeouts: a vanished database machine costs seconds here.
        connection = psycopg.connect(with_options(self.url, KEEPALIVES), autocommit=True,
                                     connect_timeout=CONNECT_TIMEOUT)
        for name, value in {**SESSION, "lock_timeout": f"{round(LOCK_TIMEOUT * 1000)}ms"}.items():
            connection.execute("SELECT set_config(%s, %s, false)", (name, value))
        return connection

    def _connected(self) -> Any:
        """The connection, made again if it was lost."""
        import psycopg

        if self._closed:
            raise psycopg.OperationalError("the quick-match tickets' store is closed")
        if self._connection.closed:
            self._connection = self._connect()
        return self._connection

    def put(self, row: TicketRow) -> TicketRow | None:
        """Store ``row``, replacing its player's ticket (see `ticket_store.TicketStore.put`)."""
        import psycopg

        try:
            connection = self._connected()
            with connection.transaction():
                # Two requests of one player at once, on two instances, take turns: the second reads
                # the first's ticket (which it replaces), never a row that is not there yet.
                connection.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                                   (PLAYER_SPACE, player_lock(row.player)))
                old = connection.execute(f"SELECT {COLUMNS} FROM tickets WHERE player = %s FOR UPDATE",
                                         (row.player,)).fetchone()
                connection.execute(
                    f"INSERT INTO tickets ({COLUMNS}) VALUES ({', '.join(['%s'] * 12)}) "
                    "ON CONFLICT (player) DO UPDATE SET ticket = EXCLUDED.ticket, "
                    "instance = EXCLUDED.instance, rules = EXCLUDED.rules, "
                    "players = EXCLUDED.players, computers = EXCLUDED.computers, wait = EXCLUDED.wait, "
                    "since = EXCLUDED.since, address = EXCLUDED.address, name = EXCLUDED.name, "
                    "avatar = EXCLUDED.avatar, tag = EXCLUDED.tag",
                    (row.player, row.ticket, row.instance, row.rules, row.players, row.computers, row.wait,
                     row.since, row.address, row.name, row.avatar, row.tag))
        except psycopg.Error as exc:
            raise StoreFailure(f"a quick-match ticket could not be stored: {exc}") from exc
        return None if old is None else _row(old)

    def drop(self, player: str, ticket: str) -> bool:
        """Delete ``player``'s ticket if still ``ticket`` (see `ticket_store.TicketStore.drop`)."""
        import psycopg

        try:
            cursor = self._connected().execute("DELETE FROM tickets WHERE player = %s AND ticket = %s",
                                               (player, ticket))
        except psycopg.Error as exc:
            raise StoreFailure(f"a quick-match ticket could not be deleted: {exc}") from exc
        return bool(cursor.rowcount)

    def drop_instance(self, instance: str) -> int:
        """Delete every ticket of ``instance``."""
        import psycopg

        try:
            cursor = self._connected().execute("DELETE FROM tickets WHERE instance = %s", (instance,))
        except psycopg.Error as exc:
            raise StoreFailure(f"the quick-match tickets could not be deleted: {exc}") from exc
        return int(cursor.rowcount)

    def count(self, queue: QueueKey, living: Collection[str]) -> int:
        """The tickets of ``queue`` held by ``living`` instances (or living as the database sees it)."""
        import psycopg

        rules, players = queue
        try:
            row = self._connected().execute(
                f"SELECT count(*) FROM tickets WHERE players = %s AND rules = %s "
                f"AND (instance = ANY(%s) OR instance IN ({LIVING}))",
                (players, rules, list(living))).fetchone()
        except psycopg.Error as exc:
            raise StoreFailure(f"the quick-match tickets could not be counted: {exc}") from exc
        return int(row[0])

    def waiting(self, queue: QueueKey, living: Collection[str]) -> list[TicketRow]:
        """The tickets of ``queue`` held by living instances, oldest first (no lock)."""
        import psycopg

        rules, players = queue
        try:
            found = self._connected().execute(
                f"SELECT {COLUMNS} FROM tickets WHERE players = %s AND rules = %s "
                f"AND (instance = ANY(%s) OR instance IN ({LIVING})) ORDER BY since, player",
                (players, rules, list(living))).fetchall()
        except psycopg.Error as exc:
            raise StoreFailure(f"the quick-match tickets could not be read: {exc}") from exc
        return [_row(r) for r in found]

    @contextmanager
    def _forming(self, queue: QueueKey, living: Collection[str]) -> Iterator[FormingTable]:
        import psycopg

        rules, players = queue
        try:
            connection = self._connected()
            with connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_SPACE, queue_lock(queue)))
                # Dead: neither named living by the caller nor living as the database sees it now (the
                # caller's view may be short of the others when its own connection just failed).
                connection.execute(f"DELETE FROM tickets WHERE NOT (instance = ANY(%s)) AND instance NOT IN "
                                   f"({LIVING})", (list(living),))
                rows = connection.execute(
                    f"SELECT {COLUMNS} FROM tickets WHERE players = %s AND rules = %s "
                    "ORDER BY since, player FOR UPDATE", (players, rules)).fetchall()
                forming = FormingTable([_row(r) for r in rows])
                yield forming  # an exception here rolls everything back
                if forming.taken:
                    connection.execute("DELETE FROM tickets WHERE player = ANY(%s)", (sorted(forming.taken),))
                for kind, text in forming.signals:
                    payload = signal_payload(kind, text, self.key)
                    connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        except psycopg.Error as exc:
            raise StoreFailure(f"a quick-match table could not be decided: {exc}") from exc

    def forming(self, queue: QueueKey, living: Collection[str]) -> AbstractContextManager[Forming]:
        """Decide a table of ``queue`` under its lock (see the module)."""
        return self._forming(queue, living)

    def close(self) -> None:
        """Close the connection (for good)."""
        self._closed = True
        self._connection.close()


def _row(values: tuple[Any, ...]) -> TicketRow:
    player, ticket, instance, rules, players, computers, wait, since, address, name, avatar, tag = values
    return TicketRow(player, ticket, instance, rules, int(players), bool(computers), float(wait),
                     float(since), address, name, int(avatar), tag)
