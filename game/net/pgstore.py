"""The rooms and players in PostgreSQL: `roomstore.RoomStore` for several server instances on one
database.

The same promises as `sqlitestore` (every write committed before the server tells
anyone, all or nothing, a refusal is a `roomstore.StoreFailure`, ranked and token lines
written once), on a database that several identical ``serve`` instances share
(docs/deploy.md). The tables and their migrations are `pg_schema`'s, applied when the
store opens.

**psycopg 3, synchronous, with its connection pool.** The store is synchronous; the server runs
the calls that wait on a commit on worker threads (`store_threads`: as many as `worker_threads`
says, the pool's connections less `LOOP_CONNECTIONS` kept for the reads the event loop makes
itself), each room's in order under its lock (`room_locks`), so that the commits of different
rooms overlap and PostgreSQL's group commit shares one disk flush among them. The pool is safe
across threads; it is also there for what a long-running server meets: a connection that was
lost (the database restarted, a backend terminated) is replaced. A call whose connection broke
before its commit was sent is tried again on a fresh one (nothing of it was committed:
PostgreSQL rolls back a transaction whose connection is gone); a failure at or after the commit
is a `StoreFailure`, never tried twice. Every session runs with a ``lock_timeout`` and a
``statement_timeout``, so a stuck lock costs a refusal, not a frozen server.

**Several instances.** A room's row is its lock: every write to a room reads its stored
revision ``rev`` under ``SELECT ... FOR UPDATE``, and refuses (`roomstore.Behind`) when it
is not the replica's; otherwise it writes, bumps ``rev`` and sends
``pg_notify('huit_rooms', '<room> <rev>')`` in the same transaction (`CHANNEL`: PostgreSQL
delivers it only once committed), ``'<room> 0'`` for a room added and ``'<room> -1'`` for
one deleted; a move's carries its log entry as well, signed, while every living instance reads
it (`pg_news`). The ranking's
SQL is `pg_ranking`'s (run in this store's transactions): its lines,
tokens and encounters are keyed as in SQLite and written
with ``INSERT ... ON CONFLICT DO NOTHING RETURNING``: when two instances write one game's
lines at once, only the rows one of them actually inserted add to ratings and wallets (a
wallet row is locked before it changes), so points and tokens are counted once.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from game.engine.snapshot import stored_rules

from . import pg_ranking
from .cluster import Written
from .pg_news import news_payload
from .pg_schema import news_key, prepare
from .pgcluster import BEAT, CHANNEL, UNMARKED
from .profiles import Profile, TagTaken, skeleton
from .room_snapshot import restore, snapshot
from .rooms import LogEntry, Room, Seat
from .roomstore import (
    Behind,
    Encounter,
    Leaderboard,
    RankedLine,
    Since,
    StoreError,
    StoreFailure,
    TokenLine,
    Wallet,
)
from .stores import redacted
from .wire import rules_from_json, rules_to_json

ADDED: Final = 0
"""The revision a room added is notified with."""
DELETED: Final = -1
"""The revision a room deleted is notified with."""
CONNECT_TIMEOUT: Final = 5  # seconds to reach the database when a connection is made
POOL_TIMEOUT: Final = 1.0  # seconds a call waits for a connection before it is refused (the loop waits too)
MAX_CONNECTIONS: Final = 10  # the commits of as many rooms at once (less the loop's), and spares
LOOP_CONNECTIONS: Final = 2
"""Connections of the pool the worker threads leave to the event loop's own calls (its reads, one
at a time, and one being replaced): the loop never waits for a thread's connection."""
TCP: Final = {"keepalives": "1", "keepalives_idle": "5", "keepalives_interval": "2", "keepalives_count": "3",
               "tcp_user_timeout": "10000"}
"""The pool's connections over TCP (ignored on a Unix socket; the URL's own values win): a
database machine that vanished mid-call costs about ten seconds and a `StoreFailure`, not the
minutes of TCP's own retries with the server's event loop waiting on them."""
LOCK_TIMEOUT: Final = 2.0
"""Seconds a statement waits for a lock (another instance's on the same room) before it is refused."""
SESSION: Final = {"statement_timeout": "10s", "idle_in_transaction_session_timeout": "30s"}
"""Every session's other settings: a statement or an open transaction left is refused after
this rather than holding the server."""

ROOM_COLUMNS: Final = "id, rules, seats, seed, first, owner, joined, kind, created, rev"
"""What rebuilding a room reads of its row (`PostgresRoomStore._rebuild`'s)."""

T = TypeVar("T")
Cursor = psycopg.Cursor[tuple[Any, ...]]
Connection = psycopg.Connection[tuple[Any, ...]]


class PostgresRoomStore:
    """The rooms and players in a PostgreSQL database (`roomstore.RoomStore`; see the module).

    ``url``: ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?...]`` (``postgres://`` too).
    ``lock_timeout``: seconds a write waits for a lock before it is refused (a `StoreFailure`).

    Raises:
        StoreError: the database cannot be reached or used (the message names it without its
            password), or its schema is one this server cannot use.
    """

    def __init__(self, url: str, *, max_connections: int = MAX_CONNECTIONS,
                 lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.url = url
        self.max_connections = max_connections
        self.session = {**SESSION, "lock_timeout": f"{round(lock_timeout * 1000)}ms"}
        self.shown = redacted(url)
        try:
            with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT, autocommit=True) as connection:
                self.schema = prepare(connection, self.shown)
                self.news_key = news_key(connection)
        except StoreError:
            raise
        except psycopg.Error as exc:
            raise StoreError(self.shown, f"PostgreSQL refused it ({self._said(exc)})") from None
        self._carry = False  # whether every living instance reads the entries news carry (`_carries`)
        self._carry_asked = -BEAT  # when that was last asked (time.monotonic)
        self.pool: ConnectionPool[Connection] = ConnectionPool(
            # Every connection opened up front and kept (`max_idle` never shrinks the pool below
            # `min_size`): the pool grows one connection at a time and serves its waiters in turn, so
            # with fewer open a burst of thread commits would queue ahead of the loop's own call and
            # block the loop in `getconn`. With all open, threads (at most max_connections less
            # LOOP_CONNECTIONS) always leave the loop one. Chosen over a second pool of the loop's
            # own: one pool, one set of settings, and the same count of connections either way.
            url, min_size=max_connections, max_size=max_connections, open=False, configure=self._configure,
            kwargs={**_unless_given(url, {"connect_timeout": str(CONNECT_TIMEOUT), **TCP}),
                    "application_name": "huit"},
            name="huit-store", timeout=POOL_TIMEOUT)
        try:
            self.pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        except PoolTimeout:
            self.pool.close()
            raise StoreError(self.shown, "no connection to it could be made") from None

    def _configure(self, connection: Connection) -> None:
        """A new connection's session settings (`SESSION`, the lock timeout)."""
        for name, value in self.session.items():
            connection.execute("SELECT set_config(%s, %s, false)", (name, value))
        connection.commit()

    def _said(self, exc: BaseException) -> str:
        """What the database said, in one line, never with the password."""
        text = " ".join(str(exc).split()) or type(exc).__name__
        try:
            password = psycopg.conninfo.conninfo_to_dict(self.url).get("password")
        except psycopg.Error:
            password = None
        if password:
            text = text.replace(str(password), "***")
        return text[:300]

    def _run(self, work: Callable[[Cursor], T], *, consistent: bool = False, single: bool = False) -> T:
        """Run ``work`` in one transaction and commit it; ``consistent``: every read of it sees one
        snapshot of the database (REPEATABLE READ); ``single``: ``work`` is one statement, run on its
        own (autocommit: one round trip rather than three with BEGIN and COMMIT). A psycopg error
        is a `StoreFailure` (a tag a look-alike holds, `TagTaken`); a connection that broke before
        the commit was sent is replaced and ``work`` runs again (nothing of it was committed; a
        single statement may have been: the writes that run so check the room's revision, and the
        second finds it taken)."""
        for attempt in range(MAX_CONNECTIONS + 1):
            try:
                connection = self.pool.getconn()
            except PoolTimeout as exc:
                raise StoreFailure(f"no connection to {self.shown}: {exc}") from exc
            committing = False
            try:
                if single:
                    connection.autocommit = True
                    try:
                        with connection.cursor() as cursor:
                            return work(cursor)
                    finally:
                        if not connection.broken:
                            connection.autocommit = False
                with connection.cursor() as cursor:
                    if consistent:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    result = work(cursor)
                committing = True
                connection.commit()
                return result
            except psycopg.Error as exc:
                _roll_back(connection)
                if isinstance(exc, errors.UniqueViolation) and exc.diag.constraint_name == "profiles_tag":
                    raise TagTaken(self._said(exc)) from exc
                if connection.broken and not committing and attempt < MAX_CONNECTIONS:
                    continue  # the connection was lost before the commit: nothing was stored
                raise StoreFailure(self._said(exc)) from exc
            except BaseException:
                _roll_back(connection)
                raise
            finally:
                self.pool.putconn(connection)
        raise StoreFailure(f"no working connection to {self.shown}")  # pragma: no cover - the loop returns

    def worker_threads(self) -> int:
        """The pool's connections less `LOOP_CONNECTIONS` (at least one): psycopg's pool is safe
        across threads, and a commit waits on the disk, not on the server's CPU."""
        return max(1, self.max_connections - LOOP_CONNECTIONS)

    def close(self) -> None:
        """Close the pool's connections."""
        self.pool.close()

    # ---- rooms ------------------------------------------------------------------------------
    @staticmethod
    def _seats(room: Room) -> str:
        return json.dumps([s.to_json() for s in room.seats])

    @staticmethod
    def _notify(cursor: Cursor, room_id: str, rev: int) -> None:
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, news_payload(room_id, rev)))

    @staticmethod
    def _claim(cursor: Cursor, room: Room) -> None:
        """Inside the caller's transaction, lock the room's row until it ends and check that nobody
        wrote the room since ``room.rev`` (the caller's write then bumps it).

        Raises:
            Behind: somebody did (another instance), or the room was deleted.
        """
        row = cursor.execute("SELECT rev FROM rooms WHERE id = %s FOR UPDATE", (room.room_id,)).fetchone()
        if row is None or row[0] != room.rev:
            raise Behind(room.room_id)

    def add(self, room: Room, now: float) -> None:
        """Store a new room at revision 0 (notified as ``'<room> 0'``)."""
        def work(cursor: Cursor) -> None:
            cursor.execute("INSERT INTO rooms (id, rules, seats, seed, first, created, active, owner, "
                           "joined, kind) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                           (room.room_id, json.dumps(rules_to_json(room.rules)), self._seats(room),
                            room.seed, room.first, now, now, room.owner, room.joined, room.kind))
            self._notify(cursor, room.room_id, ADDED)
        self._run(work)
        room.rev = 0

    def save_seats(self, room: Room, now: float) -> None:
        """Store the room's seats (a claim) and mark it active (`roomstore.Behind`: nothing stored)."""
        def work(cursor: Cursor) -> None:
            self._claim(cursor, room)
            cursor.execute("UPDATE rooms SET seats = %s, active = %s, joined = %s, rev = rev + 1 "
                           "WHERE id = %s",
                           (self._seats(room), now, room.joined, room.room_id))
            self._notify(cursor, room.room_id, room.rev + 1)
        self._run(work)
        room.rev += 1

    def append(self, room: Room, entry: LogEntry, now: float, lines: Sequence[RankedLine] = ()) -> None:
        """Store one change of the room with ``lines``, all or nothing; a ``deal`` entry also keeps
        the room as it stands (before the deal) and forgets the entries before it."""
        seq = room.log_length
        state = json.dumps(snapshot(room), separators=(",", ":")) if entry.kind == "deal" else None

        if state is None and not lines:  # a move, most of the time: one statement, one round trip
            key = self.news_key if self.news_key is not None and self._carries() else None
            self._run(lambda cursor: self._append_plain(cursor, room, entry, now, key), single=True)
            room.log_length += 1
            room.rev += 1
            return

        def work(cursor: Cursor) -> None:
            self._claim(cursor, room)
            if state is not None:
                cursor.execute("INSERT INTO snapshots (room, seq, state) VALUES (%s, %s, %s) ON CONFLICT "
                               "(room) DO UPDATE SET seq = excluded.seq, state = excluded.state",
                               (room.room_id, seq, state))
                cursor.execute("DELETE FROM log WHERE room = %s AND seq < %s", (room.room_id, seq))
            cursor.execute("INSERT INTO log (room, seq, kind, seat, text) VALUES (%s, %s, %s, %s, %s)",
                           (room.room_id, seq, entry.kind, entry.seat, entry.text))
            cursor.execute("UPDATE rooms SET active = %s, rev = rev + 1 WHERE id = %s", (now, room.room_id))
            pg_ranking.rank_lines(cursor, lines)
            self._notify(cursor, room.room_id, room.rev + 1)
        self._run(work)
        room.log_length += 1
        room.rev += 1

    def _carries(self) -> bool:
        """Whether a move's news may carry its entry: every living instance reads it (`pg_news`;
        asked once a beat at most, not once a move: an instance of the release before that starts
        meanwhile misses the carried news of a beat at most, and reads those rooms when next
        written). A failure to ask says no."""
        if time.monotonic() - self._carry_asked >= BEAT:
            self._carry_asked = time.monotonic()
            try:
                row = self._run(lambda cursor: cursor.execute(UNMARKED).fetchone(), single=True)
            except StoreFailure:
                row = None
            self._carry = row is not None and row[0] == 0
        return self._carry

    @staticmethod
    def _append_plain(cursor: Cursor, room: Room, entry: LogEntry, now: float, key: bytes | None) -> None:
        """`append`'s claim, log entry, revision and notification in one statement: the room's row
        is updated only at the revision this copy read (the update takes its lock; a writer who got
        there first makes it match nothing once committed), the entry is inserted only if it was,
        and the news is sent with them (delivered once committed), the entry in it, signed with
        ``key`` (None: not carried, `_carries`): the other instances' copies at this revision take
        it without a read.

        Raises:
            Behind: the room was written since ``room.rev``, or deleted (nothing was stored).
        """
        row = cursor.execute(
            "WITH claimed AS (UPDATE rooms SET rev = rev + 1, active = %(now)s "
            "WHERE id = %(room)s AND rev = %(rev)s RETURNING rev), "
            "entry AS (INSERT INTO log (room, seq, kind, seat, text) "
            "SELECT %(room)s, %(seq)s, %(kind)s, %(seat)s, %(text)s FROM claimed RETURNING seq) "
            "SELECT claimed.rev, pg_notify(%(channel)s, %(news)s) FROM claimed, entry",
            {"now": now, "room": room.room_id, "rev": room.rev, "seq": room.log_length, "kind": entry.kind,
             "seat": entry.seat, "text": entry.text, "channel": CHANNEL,
             "news": news_payload(room.room_id, room.rev + 1, Written(room.log_length, entry), key),
             }).fetchone()
        if row is None:
            raise Behind(room.room_id)

    def load(self) -> tuple[list[Room], list[tuple[str, str]]]:
        """Every stored room rebuilt, and the ids of rooms that could not be (with why)."""
        def work(cursor: Cursor) -> tuple[list[tuple[Any, ...]], dict[str, tuple[int, str]],
                                          dict[str, list[LogEntry]]]:
            rooms = cursor.execute(f"SELECT {ROOM_COLUMNS} FROM rooms ORDER BY created, id").fetchall()
            bases = {room: (seq, state) for room, seq, state in
                     cursor.execute("SELECT room, seq, state FROM snapshots")}
            logs: dict[str, list[LogEntry]] = {}
            for room, kind, seat, text in cursor.execute(
                    "SELECT l.room, l.kind, l.seat, l.text FROM log l LEFT JOIN snapshots s "
                    "ON s.room = l.room WHERE l.seq >= COALESCE(s.seq, 0) ORDER BY l.room, l.seq"):
                logs.setdefault(room, []).append(LogEntry(kind, seat, text))
            return rooms, bases, logs

        rows, bases, logs = self._run(work, consistent=True)
        rooms, broken = [], []
        for row in rows:
            try:
                rooms.append(self._rebuild(row, bases.get(row[0]), logs.get(row[0], [])))
            except Exception as exc:  # one damaged room must not keep the others from starting
                broken.append((row[0], f"{type(exc).__name__}: {exc}"))
        return rooms, broken

    @staticmethod
    def _rebuild(row: tuple[Any, ...], base: tuple[int, str] | None, entries: list[LogEntry]) -> Room:
        room_id, rules, seats, seed, first, owner, joined, kind, created, rev = row
        stored: list[dict[str, Any]] = json.loads(seats)
        # A room stored before an option existed replays with the value it was played with.
        played = rules_from_json(stored_rules(json.loads(rules)))
        room = Room(room_id, played, [Seat.from_json(s) for s in stored], seed, first, owner=owner,
                    joined=bool(joined), kind=kind, created=created, rev=rev)
        if base is not None:
            restore(room, json.loads(base[1]))
            room.log_length = base[0]
        room.replay(entries)
        return room

    def room(self, room_id: str) -> Room | None:
        """One stored room rebuilt, or None (`roomstore.RoomStore.room`; a room that cannot be
        rebuilt is a `StoreFailure` saying why)."""
        def work(cursor: Cursor) -> tuple[tuple[Any, ...], tuple[int, str] | None, list[LogEntry]] | None:
            row = cursor.execute(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE id = %s", (room_id,)).fetchone()
            if row is None:
                return None
            base = cursor.execute("SELECT seq, state FROM snapshots WHERE room = %s", (room_id,)).fetchone()
            entries = [LogEntry(kind, seat, text) for kind, seat, text in cursor.execute(
                "SELECT kind, seat, text FROM log WHERE room = %s AND seq >= %s ORDER BY seq",
                (room_id, base[0] if base is not None else 0))]
            return row, (base[0], base[1]) if base is not None else None, entries

        found = self._run(work, consistent=True)
        if found is None:
            return None
        try:
            return self._rebuild(*found)
        except Exception as exc:
            raise StoreFailure(f"room {room_id} cannot be rebuilt: {type(exc).__name__}: {exc}") from exc

    def since(self, room_id: str, log_length: int) -> Since | None:
        """What changed in the room since ``log_length`` entries (`roomstore.RoomStore.since`), read
        in one snapshot of the database."""
        def work(cursor: Cursor) -> Since | None:
            # One statement: one snapshot of the database, one round trip (the other instances
            # read every room they serve this way after each write to it).
            row = cursor.execute(
                "SELECT r.rev, r.seats, r.joined, s.seq, (SELECT json_agg(json_build_array(l.kind, l.seat, "
                "l.text) ORDER BY l.seq) FROM log l WHERE l.room = r.id AND l.seq >= %s) "
                "FROM rooms r LEFT JOIN snapshots s ON s.room = r.id WHERE r.id = %s",
                (log_length, room_id)).fetchone()
            if row is None:
                return None
            rev, seats, joined, base, log = row
            entries = None
            if base is None or base <= log_length:
                entries = [LogEntry(kind, seat, text) for kind, seat, text in log or []]
            return Since(int(rev), [Seat.from_json(s) for s in json.loads(seats)], bool(joined), entries)
        return self._run(work, single=True)

    def expired(self, before: float, lonely_before: float) -> list[str]:
        """Ids of rooms with no activity since ``before``, and of rooms nobody but their creator
        joined with none since ``lonely_before``."""
        return self._run(lambda cursor: [r[0] for r in cursor.execute(
            "SELECT id FROM rooms WHERE active < %s OR (NOT joined AND active < %s)",
            (before, lonely_before))])

    def delete(self, room_id: str) -> None:
        """Forget a room, its log and its snapshot (notified as ``'<room> -1'``)."""
        def work(cursor: Cursor) -> None:
            cursor.execute("DELETE FROM rooms WHERE id = %s", (room_id,))  # its log and snapshot cascade
            if cursor.rowcount:
                self._notify(cursor, room_id, DELETED)
        self._run(work)

    def delete_expired(self, room_id: str, before: float, lonely_before: float) -> bool:
        """Forget the room as `delete` does if `expired` would still name it (one conditional
        statement: a room another instance joined or played since is kept); whether it did."""
        def work(cursor: Cursor) -> bool:
            cursor.execute("DELETE FROM rooms WHERE id = %s AND (active < %s OR (NOT joined AND "
                           "active < %s))", (room_id, before, lonely_before))  # its log and snapshot cascade
            if not cursor.rowcount:
                return False
            self._notify(cursor, room_id, DELETED)
            return True
        return self._run(work)

    def remember_request(self, sender: str, request: str, room_id: str, seat: int, at: float,
                         forget_before: float) -> None:
        """Keep a create or claim request's seat; forget the old ones."""
        def work(cursor: Cursor) -> None:
            cursor.execute("DELETE FROM requests WHERE at < %s", (forget_before,))
            cursor.execute("INSERT INTO requests VALUES (%s, %s, %s, %s, %s) ON CONFLICT (sender, request) "
                           "DO UPDATE SET room = excluded.room, seat = excluded.seat, at = excluded.at",
                           (sender, request, room_id, seat, at))
        self._run(work)

    def recalled_request(self, sender: str, request: str, since: float) -> tuple[str, int] | None:
        """The room and seat a create or claim request took, kept at or after ``since``."""
        row = self._run(lambda cursor: cursor.execute(
            "SELECT room, seat FROM requests WHERE sender = %s AND request = %s AND at >= %s",
            (sender, request, since)).fetchone())
        return None if row is None else (str(row[0]), int(row[1]))

    def exists(self, room_id: str) -> bool:
        """Whether the room is stored."""
        return self._run(lambda cursor: cursor.execute(
            "SELECT 1 FROM rooms WHERE id = %s", (room_id,)).fetchone() is not None)

    # ---- players ----------------------------------------------------------------------------
    def profile(self, player: str) -> Profile | None:
        """The profile of ``player``, if the server keeps it."""
        row = self._run(lambda cursor: cursor.execute(
            "SELECT name, avatar, active, tag FROM profiles WHERE id = %s", (player,)).fetchone())
        return None if row is None else Profile(player, row[0], row[1], row[2], row[3])

    def add_profile(self, profile: Profile, now: float) -> None:
        """Keep a new profile (`profiles.TagTaken`: a look-alike holds its tag; nothing stored)."""
        self._run(lambda cursor: cursor.execute(
            "INSERT INTO profiles (id, name, avatar, created, active, tag, skeleton) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (profile.player, profile.name, profile.avatar, now, now, profile.tag, skeleton(profile.name))))

    def save_profile(self, profile: Profile, now: float) -> None:
        """Store a changed name, avatar or tag (`profiles.TagTaken`: a look-alike holds its tag)."""
        self._run(lambda cursor: cursor.execute(
            "UPDATE profiles SET name = %s, avatar = %s, active = %s, tag = %s, skeleton = %s WHERE id = %s",
            (profile.name, profile.avatar, now, profile.tag, skeleton(profile.name), profile.player)))

    def look_alikes(self, skeleton: str) -> list[tuple[str, str, str]]:
        """The (player, name, tag) of the profiles whose names have this skeleton."""
        return self._run(lambda cursor: [(who, name, tag) for who, name, tag in cursor.execute(
            "SELECT id, name, tag FROM profiles WHERE skeleton = %s", (skeleton,))])

    def visit(self, player: str, now: float) -> None:
        """The player's profile is in use."""
        self._run(lambda cursor: cursor.execute("UPDATE profiles SET active = %s WHERE id = %s",
                                                (now, player)))

    def expire_profiles(self, before: float) -> int:
        """Forget profiles unvisited since ``before`` that never played a ranked game; how many."""
        return self._run(lambda cursor: cursor.execute(
            "DELETE FROM profiles p WHERE active < %s AND NOT EXISTS "
            "(SELECT 1 FROM ratings r WHERE r.player = p.id)", (before,)).rowcount)

    # ---- the ranking (its SQL: `pg_ranking`) --------------------------------------------------
    def rank(self, lines: Sequence[RankedLine], tokens: Sequence[TokenLine] = (),
             encounters: Sequence[Encounter] = ()) -> list[RankedLine]:
        """Write the lines not written before, with their points, the token lines not written
        before, with their wallets, and the encounters not written before, in one commit; the
        ranked lines written."""
        return self._run(lambda cursor: pg_ranking.rank(cursor, lines, tokens, encounters))

    def games_together(self, player: str, opponent: str, address: str, opponent_address: str,
                       since: float, besides: tuple[str, int]) -> int:
        """The games that count since ``since`` of the two players, or of the two addresses, but
        ``besides``."""
        return self._run(lambda cursor: pg_ranking.games_together(cursor, player, opponent, address,
                                                                  opponent_address, since, besides))

    def wallet(self, player: str) -> Wallet:
        """The player's tokens as stored, and, as the ranking counts them, their games that earned
        points and their different opponents (by address, as the leaderboards count them)."""
        return self._run(lambda cursor: pg_ranking.wallet(cursor, player), consistent=True)

    def settlement(self, room: str, deal: int) -> dict[str, int]:
        """The tokens each player gained or lost by the game of ``room`` that ended at ``deal``."""
        return self._run(lambda cursor: pg_ranking.settlement(cursor, room, deal))

    def judged(self, room: str, deal: int) -> dict[str, tuple[int, str]]:
        """Each player's points and reason as written for the game of ``room`` ended at ``deal``."""
        return self._run(lambda cursor: pg_ranking.judged(cursor, room, deal))

    def points(self, player: str) -> dict[str, int]:
        """The player's points per rule set (those they played ranked)."""
        return self._run(lambda cursor: pg_ranking.points(cursor, player))

    def leaderboard(self, preset: str, top: int, player: str | None, opponents: int = 0) -> Leaderboard:
        """The ``top`` players of ``preset`` with ``opponents`` distinct opponents, ``player``'s
        standing, and how many players it shows."""
        return self._run(lambda cursor: pg_ranking.leaderboard(cursor, preset, top, player, opponents),
                         consistent=True)

    def history(self, player: str, preset: str | None, limit: int) -> list[RankedLine]:
        """The player's latest ``limit`` ranked lines (of ``preset``, or all), newest first."""
        return self._run(lambda cursor: pg_ranking.history(cursor, player, preset, limit))


def _unless_given(url: str, options: dict[str, str]) -> dict[str, str]:
    """``options`` but those the URL sets itself."""
    try:
        given = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        given = {}
    return {name: value for name, value in options.items() if name not in given}


def _roll_back(connection: Connection) -> None:
    """End a failed transaction (a broken connection has none left: the pool replaces it)."""
    if not connection.broken:
        with contextlib.suppress(psycopg.Error):
            connection.rollback()
