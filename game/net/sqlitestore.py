"""The server's SQLite file: the one implementation of `roomstore.RoomStore`, and all the server's SQL.

Rooms, their seats (keys as digests) and their change logs; players' profiles; the
ranking's tables, the tokens and who met whom. Every change is committed before the
server tells anyone about it. The database runs in WAL mode with ``synchronous=NORMAL``:
a commit survives the server process being killed at any moment (it is in the log file
the next start reads), at the cost of the last commits on a power cut, and commits are
fast enough to make on the server's event loop. Whatever SQLite refuses once open is a
`roomstore.StoreFailure` (nothing of the change was stored).

The tables, how a file is checked when opened and how an older one is brought to this
version are `sqlite_schema`'s. A room's log stays bounded: storing a ``deal`` entry also
stores the room as it stood just before it (``snapshots``: `room_snapshot.snapshot`) and
forgets the room's entries before that deal, all in one commit. A room is rebuilt from
its snapshot (if it has one) and the entries after it.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from game.engine.snapshot import stored_rules

from .profiles import Profile, TagTaken, skeleton
from .room_snapshot import restore, snapshot
from .rooms import LogEntry, Room, Seat
from .roomstore import (
    Behind,
    Encounter,
    Leaderboard,
    RankedLine,
    Rating,
    Since,
    Standing,
    StoreError,
    StoreFailure,
    TokenLine,
    Wallet,
)
from .sqlite_schema import create_owner_only, inspect, owner_only, prepare
from .tokens import GRANT, topped_up
from .wire import rules_from_json, rules_to_json

ROOM_COLUMNS: Final = "id, rules, seats, seed, first, owner, joined, kind, created, rev"
"""What rebuilding a room reads of its row (`SQLiteRoomStore._rebuild`'s arguments)."""


@contextlib.contextmanager
def _tag_free() -> Iterator[None]:
    """A profile refused by the unique index of `sqlite_schema.NAMES_SCHEMA` as `profiles.TagTaken`."""
    try:
        yield
    except StoreFailure as exc:
        if isinstance(exc.__cause__, sqlite3.IntegrityError) and "profiles.tag" in str(exc):
            raise TagTaken(str(exc)) from exc.__cause__
        raise


@contextlib.contextmanager
def refused() -> Iterator[None]:
    """What SQLite refuses (a full disk, a lock...) as the protocol's `StoreFailure`."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreFailure(str(exc)) from exc


class SQLiteRoomStore:
    """The rooms and players in an SQLite file (`roomstore.RoomStore`; see the module).

    Raises:
        StoreError: the file cannot be used as the rooms' database (see the module).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        memory = str(path) == ":memory:"
        if not memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(path, f"its folder cannot be made ({exc.strerror or exc})") from None
            new = inspect(self.path)
            try:
                if new:
                    create_owner_only(self.path)
                owner_only(self.path)
            except OSError as exc:
                raise StoreError(path, exc.strerror or str(exc)) from None
        try:
            # mode=rw: an existing file is opened, never made anew (it was made above if new).
            target = ":memory:" if memory else f"{self.path.resolve().as_uri()}?mode=rw"
            self.db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, uri=not memory)
        except sqlite3.Error as exc:
            raise StoreError(path, f"SQLite cannot open it ({exc})") from None
        try:
            prepare(self.db, self.path)
        except StoreError:
            self.db.close()
            raise
        except sqlite3.Error as exc:
            self.db.close()
            raise StoreError(path, f"it is damaged ({exc})") from None

    def worker_threads(self) -> int:
        """0: called on the event loop only (one connection, commits in well under a millisecond:
        nothing changes for a single server)."""
        return 0

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    # ---- rooms ------------------------------------------------------------------------------
    def _seats(self, room: Room) -> str:
        return json.dumps([s.to_json() for s in room.seats])

    def add(self, room: Room, now: float) -> None:
        """Store a new room (at revision 0)."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                            (room.room_id, json.dumps(rules_to_json(room.rules)), self._seats(room),
                             room.seed, room.first, now, now, room.owner, int(room.joined), room.kind))
        room.rev = 0

    def _claim(self, room: Room) -> None:
        """Inside the caller's write transaction (``BEGIN IMMEDIATE``: no other writer until it
        ends), check that nobody wrote the room since ``room.rev``, and count this write.

        Raises:
            Behind: somebody did (another server on the file), or it was deleted.
        """
        row = self.db.execute("SELECT rev FROM rooms WHERE id = ?", (room.room_id,)).fetchone()
        if row is None or row[0] != room.rev:
            raise Behind(room.room_id)
        self.db.execute("UPDATE rooms SET rev = rev + 1 WHERE id = ?", (room.room_id,))

    def save_seats(self, room: Room, now: float) -> None:
        """Store the room's seats (a claim) and mark it active (`roomstore.Behind`: nothing stored)."""
        with refused(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._claim(room)
            self.db.execute("UPDATE rooms SET seats = ?, active = ?, joined = ? WHERE id = ?",
                            (self._seats(room), now, int(room.joined), room.room_id))
        room.rev += 1

    def append(self, room: Room, entry: LogEntry, now: float, lines: Sequence[RankedLine] = ()) -> None:
        """Store one change of the room, committed when this returns; ``lines``: ranked lines
        committed with it (a penalty voted with the vote that decides it), all or nothing. A
        ``deal`` entry replaces the room's snapshot with the room as it stands (before the deal)
        and forgets the entries before it (see the module)."""
        seq = room.log_length
        state = json.dumps(snapshot(room), separators=(",", ":")) if entry.kind == "deal" else None
        with refused(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._claim(room)
            if state is not None:
                self.db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                                (room.room_id, seq, state))
                self.db.execute("DELETE FROM log WHERE room = ? AND seq < ?", (room.room_id, seq))
            self.db.execute("INSERT INTO log VALUES (?, ?, ?, ?, ?)",
                            (room.room_id, seq, entry.kind, entry.seat, entry.text))
            self.db.execute("UPDATE rooms SET active = ? WHERE id = ?", (now, room.room_id))
            for line in lines:
                self._rank(line)
        room.log_length += 1
        room.rev += 1

    def load(self) -> tuple[list[Room], list[tuple[str, str]]]:
        """Every stored room rebuilt, and the ids of rooms that could not be (with why)."""
        rooms, broken = [], []
        with refused():
            for row in self.db.execute(f"SELECT {ROOM_COLUMNS} FROM rooms ORDER BY created").fetchall():
                try:
                    rooms.append(self._rebuild(*row))
                except Exception as exc:  # one damaged room must not keep the others from starting
                    broken.append((row[0], f"{type(exc).__name__}: {exc}"))
        return rooms, broken

    def room(self, room_id: str) -> Room | None:
        """One stored room rebuilt, or None (`roomstore.RoomStore.room`)."""
        with refused(), self.db:
            self.db.execute("BEGIN")  # one snapshot of the file for the room and its log
            row = self.db.execute(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return None
            try:
                return self._rebuild(*row)
            except Exception as exc:
                raise StoreFailure(f"room {room_id} cannot be rebuilt: {type(exc).__name__}: {exc}") from exc

    def since(self, room_id: str, log_length: int) -> Since | None:
        """What changed in the room since ``log_length`` entries (`roomstore.RoomStore.since`)."""
        with refused(), self.db:
            self.db.execute("BEGIN")  # one snapshot of the file for the room and its log
            row = self.db.execute("SELECT rev, seats, joined FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return None
            base = self.db.execute("SELECT seq FROM snapshots WHERE room = ?", (room_id,)).fetchone()
            entries = None
            if base is None or base[0] <= log_length:
                entries = [LogEntry(kind, seat, text) for kind, seat, text in self.db.execute(
                    "SELECT kind, seat, text FROM log WHERE room = ? AND seq >= ? ORDER BY seq",
                    (room_id, log_length))]
            return Since(row[0], self._stored_seats(row[1]), bool(row[2]), entries)

    def _stored_seats(self, seats: str) -> list[Seat]:
        """The stored seats, each with its player's tag (from the profile, for a version 2 room)."""
        stored: list[dict[str, Any]] = json.loads(seats)
        seats_ = [Seat.from_json(s) for s in stored]
        for seat in seats_:
            if seat.player is not None and seat.player_tag is None:  # stored by version 2: the profile's
                row = self.db.execute("SELECT tag FROM profiles WHERE id = ?", (seat.player,)).fetchone()
                seat.player_tag = row[0] if row is not None else None
        return seats_

    def _rebuild(self, room_id: str, rules: str, seats: str, seed: int, first: int | None, owner: str,
                 joined: int, kind: str, created: float, rev: int) -> Room:
        # A room stored before an option existed replays with the value it was played with.
        played = rules_from_json(stored_rules(json.loads(rules)))
        room = Room(room_id, played, self._stored_seats(seats), seed, first,
                    owner=owner, joined=bool(joined), kind=kind, created=created, rev=rev)
        base = self.db.execute("SELECT seq, state FROM snapshots WHERE room = ?", (room_id,)).fetchone()
        start = 0
        if base is not None:
            start = base[0]
            restore(room, json.loads(base[1]))
            room.log_length = start
        entries = [LogEntry(kind, seat, text) for kind, seat, text in self.db.execute(
            "SELECT kind, seat, text FROM log WHERE room = ? AND seq >= ? ORDER BY seq", (room_id, start))]
        room.replay(entries)
        return room

    def expired(self, before: float, lonely_before: float) -> list[str]:
        """Ids of rooms with no activity since ``before``, and of rooms nobody but their creator
        joined with none since ``lonely_before``."""
        with refused():
            return [r[0] for r in self.db.execute(
                "SELECT id FROM rooms WHERE active < ? OR (joined = 0 AND active < ?)",
                (before, lonely_before))]

    def delete(self, room_id: str) -> None:
        """Forget a room and its log."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM log WHERE room = ?", (room_id,))
            self.db.execute("DELETE FROM snapshots WHERE room = ?", (room_id,))
            self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

    def delete_expired(self, room_id: str, before: float, lonely_before: float) -> bool:
        """Forget the room as `delete` does if `expired` would still name it; whether it did."""
        with refused(), self.db:
            self.db.execute("BEGIN IMMEDIATE")  # the check and the delete in one write transaction
            if self.db.execute("SELECT 1 FROM rooms WHERE id = ? AND (active < ? OR (joined = 0 AND "
                               "active < ?))", (room_id, before, lonely_before)).fetchone() is None:
                return False
            self.db.execute("DELETE FROM log WHERE room = ?", (room_id,))
            self.db.execute("DELETE FROM snapshots WHERE room = ?", (room_id,))
            self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            return True

    def remember_request(self, sender: str, request: str, room_id: str, seat: int, at: float,
                         forget_before: float) -> None:
        """Keep a create or claim request's seat; forget the old ones."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM requests WHERE at < ?", (forget_before,))
            self.db.execute("INSERT OR REPLACE INTO requests VALUES (?, ?, ?, ?, ?)",
                            (sender, request, room_id, seat, at))

    def recalled_request(self, sender: str, request: str, since: float) -> tuple[str, int] | None:
        """The room and seat a create or claim request took, kept at or after ``since``."""
        with refused():
            row = self.db.execute("SELECT room, seat FROM requests WHERE sender = ? AND request = ? "
                                  "AND at >= ?", (sender, request, since)).fetchone()
        return None if row is None else (row[0], row[1])

    def exists(self, room_id: str) -> bool:
        """Whether the room is stored."""
        with refused():
            return self.db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone() is not None

    # ---- players ----------------------------------------------------------------------------
    def profile(self, player: str) -> Profile | None:
        """The profile of ``player``, if the server keeps it."""
        with refused():
            row = self.db.execute("SELECT name, avatar, active, tag FROM profiles WHERE id = ?",
                                  (player,)).fetchone()
        return None if row is None else Profile(player, row[0], row[1], row[2], row[3])

    def add_profile(self, profile: Profile, now: float) -> None:
        """Keep a new profile (`profiles.TagTaken`: a look-alike holds its tag; nothing stored)."""
        with _tag_free(), refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO profiles (id, name, avatar, created, active, tag, skeleton) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (profile.player, profile.name, profile.avatar, now, now, profile.tag,
                             skeleton(profile.name)))

    def save_profile(self, profile: Profile, now: float) -> None:
        """Store a changed name, avatar or tag (`profiles.TagTaken`: a look-alike holds its tag)."""
        with _tag_free(), refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE profiles SET name = ?, avatar = ?, active = ?, tag = ?, skeleton = ? "
                            "WHERE id = ?", (profile.name, profile.avatar, now, profile.tag,
                                             skeleton(profile.name), profile.player))

    def look_alikes(self, skeleton: str) -> list[tuple[str, str, str]]:
        """The (player, name, tag) of the profiles whose names have this skeleton."""
        with refused():
            return [(who, name, tag) for who, name, tag in self.db.execute(
                "SELECT id, name, tag FROM profiles WHERE skeleton = ?", (skeleton,))]

    def visit(self, player: str, now: float) -> None:
        """The player's profile is in use."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE profiles SET active = ? WHERE id = ?", (now, player))

    def expire_profiles(self, before: float) -> int:
        """Forget profiles unvisited since ``before`` that never played a ranked game; how many."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            cursor = self.db.execute(
                "DELETE FROM profiles WHERE active < ? AND id NOT IN (SELECT player FROM ratings)", (before,))
        return cursor.rowcount

    # ---- the ranking ------------------------------------------------------------------------
    def _rank(self, line: RankedLine) -> bool:
        """Write ``line`` (inside the caller's transaction) unless it was; whether it was now."""
        row = self.db.execute("INSERT OR IGNORE INTO ranked VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              (line.room, line.deal, line.player, line.preset, line.players, line.xp,
                               line.outcome, line.at, json.dumps(list(line.opponents)), line.reason))
        if row.rowcount != 1:
            return False
        self.db.execute("INSERT INTO ratings VALUES (?, ?, ?, ?) ON CONFLICT (player, preset) "
                        "DO UPDATE SET xp = xp + excluded.xp, games = games + excluded.games",
                        (line.player, line.preset, line.xp, line.games))
        return True

    def rank(self, lines: Sequence[RankedLine], tokens: Sequence[TokenLine] = (),
             encounters: Sequence[Encounter] = ()) -> list[RankedLine]:
        """Write the lines not written before, with their points, the token lines not written
        before, with their wallets, and the encounters not written before, in one commit; the
        ranked lines written."""
        with refused(), self.db:
            self.db.execute("BEGIN")
            written = [line for line in lines if self._rank(line)]
            for line in tokens:
                self._stake(line)
            self.db.executemany("INSERT OR IGNORE INTO encounters VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                [(e.room, e.deal, e.preset, e.player, e.opponent, e.address,
                                  e.opponent_address, e.at, int(e.counts)) for e in encounters])
            return written

    def games_together(self, player: str, opponent: str, address: str, opponent_address: str,
                       since: float, besides: tuple[str, int]) -> int:
        """The games that count since ``since`` of the two players, or of the two addresses, but
        ``besides``."""
        with refused():
            return int(self.db.execute(
                "SELECT COUNT(*) FROM encounters WHERE counts = 1 AND at >= ? "
                "AND NOT (room = ? AND deal = ?) "
                "AND ((player = ? AND opponent = ?) OR (address = ? AND opponent_address = ?))",
                (since, *besides, player, opponent, address, opponent_address)).fetchone()[0])

    def _stake(self, line: TokenLine) -> None:
        """Write ``line`` and change its player's wallet (inside the caller's transaction) unless it was."""
        row = self.db.execute("INSERT OR IGNORE INTO stakes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                              (line.room, line.deal, line.player, line.amount, line.day, line.at,
                               int(line.counted), json.dumps(list(line.opponents))))
        if row.rowcount != 1:
            return
        found = self.db.execute("SELECT tokens, day FROM wallets WHERE player = ?", (line.player,)).fetchone()
        before = GRANT if found is None else topped_up(found[0], found[1], line.day)
        self.db.execute("INSERT INTO wallets VALUES (?, ?, ?) ON CONFLICT (player) DO UPDATE SET "
                        "tokens = excluded.tokens, day = excluded.day",
                        (line.player, before + line.amount, max(line.day, found[1] if found else line.day)))

    def wallet(self, player: str) -> Wallet:
        """The player's tokens as stored, and, as the ranking counts them, their games that earned
        points and their different opponents (by address, as the leaderboards count them)."""
        with refused():
            found = self.db.execute("SELECT tokens, day FROM wallets WHERE player = ?", (player,)).fetchone()
            games = self.db.execute("SELECT COUNT(*) FROM ranked WHERE player = ? AND xp > 0 "
                                    "AND outcome IN ('win', 'tie', 'loss')", (player,)).fetchone()[0]
            opponents = self.db.execute("SELECT COUNT(DISTINCT opponent_address) FROM encounters "
                                        "WHERE player = ?", (player,)).fetchone()[0]
        if found is None:
            return Wallet(None, 0, games, opponents)
        return Wallet(found[0], found[1], games, opponents)

    def settlement(self, room: str, deal: int) -> dict[str, int]:
        """The tokens each player gained or lost by the game of ``room`` that ended at ``deal``."""
        with refused():
            return dict(self.db.execute("SELECT player, amount FROM stakes WHERE room = ? AND deal = ?",
                                        (room, deal)).fetchall())

    def judged(self, room: str, deal: int) -> dict[str, tuple[int, str]]:
        """Each player's points and reason as written for the game of ``room`` ended at ``deal``."""
        with refused():
            return {player: (xp, reason) for player, xp, reason in self.db.execute(
                "SELECT player, xp, reason FROM ranked WHERE room = ? AND deal = ? AND outcome != 'penalty'",
                (room, deal))}

    def points(self, player: str) -> dict[str, int]:
        """The player's points per rule set (those they played ranked)."""
        with refused():
            return {preset: xp for preset, xp in self.db.execute(
                "SELECT preset, xp FROM ratings WHERE player = ? ORDER BY preset", (player,))}

    def leaderboard(self, preset: str, top: int, player: str | None, opponents: int = 0) -> Leaderboard:
        """The ``top`` players of ``preset`` with ``opponents`` distinct opponents, ``player``'s
        standing, and how many players it shows."""
        # The players shown: every rated one, or those with enough distinct opponents' addresses.
        shown = ""
        values: tuple[str | int, ...] = (preset,)
        if opponents > 0:
            shown = (" AND r.player IN (SELECT player FROM encounters WHERE preset = ? GROUP BY player "
                     "HAVING COUNT(DISTINCT opponent_address) >= ?)")
            values = (preset, preset, opponents)
        with refused():
            rows = self.db.execute(
                "SELECT r.player, p.name, p.avatar, r.xp, r.games, p.tag FROM ratings r "
                f"JOIN profiles p ON p.id = r.player WHERE r.preset = ?{shown} "
                "ORDER BY r.xp DESC, r.games ASC, p.created ASC LIMIT ?", (*values, top)).fetchall()
            you = None
            if player is not None:
                mine = self.db.execute("SELECT xp, games FROM ratings WHERE player = ? AND preset = ?",
                                       (player, preset)).fetchone()
                if mine is not None:
                    met = self.db.execute("SELECT COUNT(DISTINCT opponent_address) FROM encounters "
                                          "WHERE preset = ? AND player = ?", (preset, player)).fetchone()[0]
                    rank = None
                    if met >= opponents:
                        above = self.db.execute(f"SELECT COUNT(*) FROM ratings r WHERE r.preset = ?{shown} "
                                                "AND r.xp > ?", (*values, mine[0])).fetchone()[0]
                        rank = above + 1
                    you = Standing(rank, mine[0], mine[1], met)
            players = self.db.execute(f"SELECT COUNT(*) FROM ratings r WHERE r.preset = ?{shown}",
                                      values).fetchone()[0]
        return Leaderboard([Rating(*row) for row in rows], you, players)

    def history(self, player: str, preset: str | None, limit: int) -> list[RankedLine]:
        """The player's latest ``limit`` ranked lines (of ``preset``, or all), newest first."""
        where, values = ("AND preset = ?", (player, preset)) if preset is not None else ("", (player,))
        with refused():
            rows = self.db.execute(f"SELECT room, deal, player, preset, players, xp, outcome, at, opponents, "
                                   f"reason FROM ranked WHERE player = ? {where} ORDER BY at DESC, deal DESC "
                                   "LIMIT ?", (*values, limit)).fetchall()
        return [RankedLine(room, deal, who, p, n, xp, result, at, tuple(json.loads(opponents)),
                           0 if result == "penalty" else 1, reason)
                for room, deal, who, p, n, xp, result, at, opponents, reason in rows]
