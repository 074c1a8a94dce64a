"""The servers sharing one PostgreSQL database: news, presence and leases (`cluster.Cluster`).

Everything here is PostgreSQL's own, with no broker besides it:

- **News.** The store sends ``pg_notify('huit_rooms', '<room> <rev>')`` in the transaction that
  writes a room (`pgstore`), so it goes out only once committed; a move's news carries its log
  entry too, signed, while every living instance reads it (`pg_news`), so that a copy one move
  behind takes it without reading the database; this instance hears them on a
  connection of its own that LISTENs (a task of the event loop, reconnecting after a loss:
  then every copy it serves is checked, since news may have been missed). Presence changes
  are told the same way (``'<room> p'``).
- **Who lives.** Each instance holds a connection named ``huit:<instance>``
  (``application_name``; a name ending with `pg_news.MARK` reads carried entries); an instance
  lives while that connection does (PostgreSQL's ``pg_stat_activity``), so a process killed
  with SIGKILL is dead for the others at once (a dead machine: once TCP keepalives give up on
  it, which the connection asks for).
- **Presence** is a row per connected seat and instance (``presence``); rows of dead instances
  count for nothing, and are swept (the rooms are told) by the next beat of any instance.
- **Leases** are session advisory locks of that same connection, one per room (a 64-bit key
  from the room's id): exclusive, and free the moment the instance dies. `beat` runs every
  `BEAT` seconds: it checks the connection (a lost one gives up every lease at once, and is
  made again), sweeps the dead instances' presence, and lets the replicas tend their leases.

All the calls but the listening are synchronous and short, made on the event loop like the
store's; a failure is logged and costs the answer (a lease not taken, a presence not told),
never the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Collection
from typing import Any, Final

from .cluster import Heard, Lost, Moved, Signal
from .pg_news import MARK, read_news
from .pg_signals import SIGNED_NAME_END, read_signal, signal_payload

log = logging.getLogger("huit.server")

CHANNEL: Final = "huit_rooms"
"""The channel of the rooms' news (`pgstore` sends on it when a room is written)."""
BEAT: Final = 1.0
"""Seconds between two beats: how soon a lease of a dead instance is taken, a dead
instance's people are seen gone, a lost connection is made again."""
NAME_PREFIX: Final = "huit:"
"""The start of the ``application_name`` of every instance's lease connection."""
KEEPALIVES: Final = ("keepalives=1 keepalives_idle=5 keepalives_interval=2 keepalives_count=3 "
                     "tcp_user_timeout=10000 connect_timeout=5 options='"
                     "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3'")
"""TCP keepalives and timeouts of the cluster's connections, both ways: this instance sees a dead
database machine (a call waits 10 s at most, never TCP's minutes), and the database frees a dead
instance machine's leases and presence, in about 11 s (any role may set the server's side for its
own connection)."""
DEAF_AFTER: Final = 5
"""Beats without hearing its own ping after which this instance listens again on a new connection
(a connection dropped silently, by a NAT or a failover, never errs by itself)."""

LIVING: Final = (f"SELECT substr(application_name, {len(NAME_PREFIX) + 1}) FROM pg_stat_activity "
                 f"WHERE application_name LIKE '{NAME_PREFIX}%%'")
"""The living instances' names (``pg_stat_activity`` shows every role the ``application_name`` of
the others' sessions)."""


def living_without(end: str) -> str:
    """The query counting the living instances whose name does not end with ``end`` (a mark an
    instance of a release before lacks)."""
    return f"SELECT count(*) FROM ({LIVING}) AS living(name) WHERE right(name, {len(end)}) <> '{end}'"


UNMARKED: Final = living_without(MARK)
"""How many living instances cannot read a news that carries its entry (`pg_news.MARK`: a release
before; its name does not end with the mark)."""
UNSIGNED: Final = living_without(SIGNED_NAME_END)
"""How many living instances do not sign their signals (`pg_signals`: a release before)."""
UNSIGNED_WARNING: Final = 60.0
"""Seconds between two warnings of signals dropped unsigned (a forger must not flood the log)."""


def with_options(url: str, options: str) -> str:
    """``url`` (a URL or a libpq ``key=value`` string) with these ``key=value`` options added
    (those it names itself win)."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    given = conninfo_to_dict(url)
    extra = {k: v for k, v in conninfo_to_dict(options).items() if k not in given}
    return make_conninfo(url, **extra)


def lease_key(room_id: str) -> int:
    """The advisory lock standing for ``room_id``'s lease (64 bits: two rooms never share one)."""
    digest = hashlib.blake2b(("huit room " + room_id).encode("utf-8", "surrogatepass"), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


def instance_name() -> str:
    """A name for this instance: its host, process and a few random characters (a restarted
    instance is another one: what it held before is the dead one's), and `pg_signals.SIGNS` and
    `pg_news.MARK`: it signs its signals and reads the entries news carry."""
    return f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}{SIGNED_NAME_END}"


class PgCluster:
    """This instance among those on the PostgreSQL database ``url`` (see the module)."""

    def __init__(self, url: str, instance: str | None = None, beat: float = BEAT) -> None:
        self.url = url
        self.instance = instance or instance_name()
        self.beat_seconds = beat
        self.held: set[str] = set()  # the rooms whose lease this instance holds
        self.here: set[tuple[str, int]] = set()  # the seats whose person is connected to this instance
        self._connection: Any = None  # the lease connection (psycopg.Connection), once made
        self._tasks: list[asyncio.Task[None]] = []
        self._heard: Heard = lambda room, rev, written: None
        self._moved: Moved = lambda room: None
        self._lost: Lost = lambda: None
        self._tend: Callable[[], None] = lambda: None
        self._listeners: dict[str, Signal] = {}
        self._listener: asyncio.Task[None] | None = None
        self._heard_self = 0.0  # when this instance last heard its own ping (time.monotonic)
        self.news_key: bytes | None = None  # what signs the entries news carry (None: none taken)
        self._unsigned: tuple[float, bool] = (-BEAT, False)  # when asked, whether one living does not sign
        self._dropped = 0  # signals dropped unsigned since the last warning
        self._warned = -UNSIGNED_WARNING  # when (time.monotonic)

    # ---- life ------------------------------------------------------------------------------------
    async def start(self, heard: Heard, moved: Moved, lost: Lost, tend: Callable[[], None]) -> None:
        """Connect (as ``huit:<instance>``), listen, and beat (see the module).

        Raises:
            StoreFailure: the database cannot be reached.
        """
        import psycopg

        from .pg_schema import news_key
        from .roomstore import StoreFailure

        self._heard, self._moved, self._lost, self._tend = heard, moved, lost, tend
        try:
            self._connect()
        except psycopg.Error as exc:
            raise StoreFailure(f"cannot reach the database for this instance's leases: {exc}") from exc
        try:
            self.news_key = news_key(self._connection)  # (None: a schema before version 4)
        except psycopg.Error:
            log.exception("instance %s: no key to check news with: every copy reads what others write",
                        self.instance)
        self._heard_self = time.monotonic()
        await self._start_listening()
        self._tasks.append(asyncio.create_task(self._beat()))

    async def _start_listening(self) -> None:
        """(Re)start the task that listens, and wait until it does (news from then on reach this
        instance); a listener started again says news may have been missed (`lost`)."""
        listening = asyncio.Event()
        self._listener = asyncio.create_task(self._listen(listening))
        self._tasks.append(self._listener)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listening.wait(), 10.0)

    async def stop(self) -> None:
        """Stop listening and beating; closing the connection lets every lease and presence go."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.execute("DELETE FROM presence WHERE instance = %s", (self.instance,))
            with contextlib.suppress(Exception):
                self._connection.close()
        self._connection = None
        self.held.clear()

    def _connect(self) -> None:
        """(Re)make the lease connection; a remade one writes this instance's presence again (another
        instance may have swept it while the connection was down) and tells the rooms of it.

        Raises:
            psycopg.Error: the database cannot be reached.
        """
        import psycopg

        self._connection = psycopg.connect(with_options(self.url, KEEPALIVES), autocommit=True,
                                           application_name=NAME_PREFIX + self.instance)
        for room_id, seat in sorted(self.here):
            self._connection.execute("INSERT INTO presence VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                                     (room_id, seat, self.instance))
        for room_id in sorted({room for room, _ in self.here}):
            self._connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{room_id} p"))

    def _run(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """One statement on the lease connection; its rows ([] when it returns none).

        Raises:
            psycopg.Error: the database failed (the caller decides what that costs).
        """
        if self._connection is None or self._connection.closed:
            self._lose_connection()
            self._connect()
        cursor = self._connection.execute(query.encode(), params or None)
        return list(cursor.fetchall()) if cursor.description is not None else []

    def _lose_connection(self) -> None:
        """The lease connection is gone: so is every lease (another instance may hold them now)."""
        if self.held:
            log.warning("instance %s lost its database connection: its %d leases are given up",
                        self.instance, len(self.held))
        self.held.clear()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
        self._connection = None

    # ---- news ------------------------------------------------------------------------------------
    async def _listen(self, listening: asyncio.Event) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(with_options(self.url, KEEPALIVES),
                                                                 autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}".encode())
                    listening.set()
                    if not first:
                        self._lost()  # news may have come while nobody listened
                    first = False
                    async for note in connection.notifies():
                        self._hear(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("instance %s stopped hearing the others; listening again", self.instance)
                await asyncio.sleep(self.beat_seconds)

    def _hear(self, payload: str) -> None:
        room, _, what = payload.partition(" ")
        try:
            if room == "!ping":  # a beat's ping: this instance's own says its listener hears
                if what == self.instance:
                    self._heard_self = time.monotonic()
            elif room.startswith("!"):  # a signal: "!kind text ~mark"
                listener = self._listeners.get(room[1:])
                if listener is not None:
                    text, signed = read_signal(room[1:], what, self.news_key)
                    if signed or self._takes_unsigned():
                        listener(text)
                    else:
                        self._drop_unsigned(room[1:])
            elif what == "p":
                self._moved(room)
            else:
                self._heard(room, *read_news(room, what, self.news_key))
        except Exception:  # one room's news must not stop the others'
            log.exception("instance %s: news of room %s (%r) failed", self.instance, room, what)

    def _takes_unsigned(self) -> bool:
        """Whether a signal not signed with the key is heard: when there is no key (a schema before
        version 4), or while a living instance does not sign (a release before, during a roll),
        asked once a beat at most (a flood of forged signals costs one query a beat)."""
        if self.news_key is None:
            return True
        import psycopg

        asked, unsigned = self._unsigned
        if time.monotonic() - asked >= self.beat_seconds:
            try:
                row = self._run(UNSIGNED)[0]
                unsigned = bool(row[0])
            except psycopg.Error:
                log.exception("instance %s: who signs could not be read", self.instance)
                self._lose_connection()
                unsigned = False
            self._unsigned = (time.monotonic(), unsigned)
        return unsigned

    def _drop_unsigned(self, kind: str) -> None:
        """A signal not signed with the key, heard while every instance signs: forged by a role
        that may connect (see `pg_signals`). Said once a minute at most."""
        self._dropped += 1
        now = time.monotonic()
        if now - self._warned >= UNSIGNED_WARNING:
            log.warning("instance %s: %d signal(s) not signed with the database's key dropped (the last: "
                        "%s); a role that may connect sends them: let only Huit's roles connect",
                        self.instance, self._dropped, kind)
            self._dropped, self._warned = 0, now

    # ---- beats -----------------------------------------------------------------------------------
    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.beat_seconds)
            try:
                self.beat()
                if time.monotonic() - self._heard_self > DEAF_AFTER * self.beat_seconds:
                    log.warning("instance %s no longer hears its own news: listening again", self.instance)
                    self._heard_self = time.monotonic()
                    if self._listener is not None:
                        self._listener.cancel()
                        self._tasks.remove(self._listener)
                    await self._start_listening()
                    self._lost()  # what was said meanwhile was not heard
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("instance %s: a beat failed", self.instance)

    def beat(self) -> None:
        """Check the connection, sweep dead instances' presence, tend the leases (see the module)."""
        import psycopg

        try:
            self._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"!ping {self.instance}"))
            gone = self._run(f"DELETE FROM presence WHERE instance NOT IN ({LIVING}) RETURNING room")
        except psycopg.Error:
            log.exception("instance %s: its database connection failed", self.instance)
            self._lose_connection()
            self._lost()  # the leases it held are given up: the rooms are checked
            return
        for room in sorted({row[0] for row in gone}):
            with contextlib.suppress(psycopg.Error):
                self._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"{room} p"))
        self._tend()

    # ---- leases and presence -----------------------------------------------------------------------
    def drives(self, room_id: str) -> bool:
        """Whether this instance holds the room's lease."""
        return room_id in self.held

    def lease(self, room_id: str, wanted: bool) -> bool:
        """Take (without waiting) or let go the room's lease; return whether it is held now."""
        import psycopg

        try:
            if wanted and room_id not in self.held:
                if self._run("SELECT pg_try_advisory_lock(%s)", (lease_key(room_id),))[0][0]:
                    self.held.add(room_id)
                    log.info("instance %s runs room %s", self.instance, room_id)
            elif not wanted and room_id in self.held:
                self.held.discard(room_id)
                self._run("SELECT pg_advisory_unlock(%s)", (lease_key(room_id),))
        except psycopg.Error:
            log.exception("instance %s: the lease of room %s failed", self.instance, room_id)
            self._lose_connection()
        return room_id in self.held

    def take(self, room_ids: Collection[str]) -> set[str]:
        """Try to take the leases of these rooms in one statement (each without waiting); return
        those of them held now. A beat asks for every room this instance has people in and
        another runs: one round trip each would hold the event loop a while at every beat."""
        import psycopg

        keys = {lease_key(room_id): room_id for room_id in room_ids if room_id not in self.held}
        if keys:
            try:
                rows = self._run("SELECT key FROM unnest(%s::bigint[]) AS key "
                                 "WHERE pg_try_advisory_lock(key)", (list(keys),))
            except psycopg.Error:
                log.exception("instance %s: the leases of %d rooms failed", self.instance, len(keys))
                self._lose_connection()
                return set()
            for (key,) in rows:
                self.held.add(keys[key])
                log.info("instance %s runs room %s", self.instance, keys[key])
        return {room_id for room_id in room_ids if room_id in self.held}

    def present(self, room_id: str, seat: int, here: bool) -> None:
        """Say that ``seat``'s person is connected here (or no longer), and tell the others."""
        import psycopg

        if here:
            self.here.add((room_id, seat))
        else:
            self.here.discard((room_id, seat))
        try:
            if here:
                self._run("INSERT INTO presence VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                          (room_id, seat, self.instance))
            else:
                self._run("DELETE FROM presence WHERE room = %s AND seat = %s AND instance = %s",
                          (room_id, seat, self.instance))
            self._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"{room_id} p"))
        except psycopg.Error:
            log.exception("instance %s: the presence in room %s could not be told", self.instance, room_id)
            self._lose_connection()

    def living(self) -> set[str]:
        """The names of the living instances (this one included, even when its connection failed)."""
        import psycopg

        try:
            return {row[0] for row in self._run(LIVING)} | {self.instance}
        except psycopg.Error:
            log.exception("instance %s: the living instances could not be read", self.instance)
            self._lose_connection()
            return {self.instance}

    def signal(self, kind: str, text: str) -> None:
        """Tell every instance a signal (see `cluster.Cluster.signal`).

        Raises:
            StoreFailure: the database refused it (nobody heard it).
        """
        import psycopg

        from .roomstore import StoreFailure

        try:
            self._run("SELECT pg_notify(%s, %s)", (CHANNEL, signal_payload(kind, text, self.news_key)))
        except psycopg.Error as exc:
            self._lose_connection()
            raise StoreFailure(f"a signal could not be sent: {exc}") from exc

    def listen(self, kind: str, heard: Signal) -> None:
        """Hear the signals of ``kind``."""
        self._listeners[kind] = heard

    def elsewhere(self, room_id: str) -> set[int]:
        """The room's seats whose person is connected to another living instance."""
        import psycopg

        try:
            rows = self._run(f"SELECT seat FROM presence WHERE room = %s AND instance <> %s "
                             f"AND instance IN ({LIVING})", (room_id, self.instance))
        except psycopg.Error:
            log.exception("instance %s: the presence in room %s could not be read", self.instance, room_id)
            self._lose_connection()
            return set()
        return {row[0] for row in rows}
