"""What the server keeps: the `RoomStore` protocol, the one seam between the server and its database.

The server talks to its storage only through `RoomStore`: rooms (their seats and change
logs), players' profiles, and the ranking's lines and points. Its one implementation
today is `sqlitestore.SQLiteRoomStore` (every SQL statement of the server is there);
another database goes behind the same protocol and the server does not change.

What every implementation promises:

- **A change is committed before anyone hears of it.** Every method that writes returns
  only once its change is durable (it survives the server process being killed); the
  server tells the players afterwards, so a client never sees what a restart forgets.
- **All or nothing.** A method that writes several things (a vote's log entry with the
  penalty it decides, a match's points for each of its players) commits them together
  or not at all.
- **Failure is a `StoreFailure`**, whatever the database: nothing of the change was
  stored, the server refuses the change (``server_error``) and the room stays as it
  was. A store that cannot be opened at all is a `StoreError` naming it, and nothing
  was written to it.
- **One writer at a time, and never a stale one.** Several servers may share one database
  (PostgreSQL: docs/deploy.md), each keeping its own copy of the rooms it serves. A room's
  stored revision (``rooms.rev``) counts its writes, and the copy knows the revision it was
  read or last written at (`Room.rev`). `append` and `save_seats` check, under the room's lock
  in the database, that nobody wrote the room since: if someone did, they raise `Behind` and
  store nothing; the server catches its copy up (`since`) and decides again on the room as it
  now stands. Every write to a room then bumps its revision.
- **Written once.** A ranked line (`RankedLine`) is keyed by room, deal and player: writing
  it again (a restart that finds a finished room whose points it already wrote) changes
  nothing. So is a token line (`TokenLine`, the stakes a game moved), written in the same
  commit as the game's ranked lines.

Where it is called from, the store says (`RoomStore.worker_threads`): a store safe across threads
(PostgreSQL's pool) has its commits run on worker threads (`store_threads`), so that the commits
of different rooms overlap while the server's event loop goes on, each room's in order under its
lock (`room_locks`); the others (SQLite: one connection, commits in well under a millisecond) are
called on the event loop, one call at a time. Reads stay on the loop: they wait on no disk flush.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from .profiles import Profile
from .rooms import LogEntry, Room, Seat

SHOWN: Final = 160  # characters of a path quoted in a message


class StoreError(Exception):
    """The rooms' database cannot be used as it is; the message names the file and why.

    Nothing was written to the file."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        shown = self.path if len(self.path) <= SHOWN else self.path[:SHOWN] + "..."
        super().__init__(f"cannot use the rooms' database {shown}: {problem}")


class StoreFailure(Exception):
    """The database refused a read or a change (a full disk, a lock, a lost connection).

    Nothing of the change was stored: the server refuses it and tries nothing on its own."""


class Behind(Exception):
    """The room was written since this server's copy of it was read (by another server on the
    same database), or deleted: nothing was stored. Catch the copy up (`RoomStore.since`) and
    decide again."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id} changed in the database since this server read it")
        self.room_id = room_id


@dataclass(frozen=True)
class Since:
    """What changed in a room since a copy of it read its log up to ``log_length``
    (`RoomStore.since`): its stored revision and seats now, whether someone besides its creator
    joined, and the log's entries from ``log_length`` on (None when the store forgot some of
    them at a deal since: the copy is then rebuilt whole with `RoomStore.room`)."""

    rev: int
    seats: list[Seat]
    joined: bool
    entries: list[LogEntry] | None


@dataclass(frozen=True)
class RankedLine:
    """One player's line of a ranked game, or of a penalty: their history shows it, and its
    points (``xp``, negative for a penalty) and ``games`` (1 for a game, 0 for a penalty) are
    added to their rating of the rule set."""

    room: str
    deal: int  # the deal that ended the match (a penalty's: `ranking.PENALTY_DEAL`)
    player: str
    preset: str
    players: int
    xp: int
    outcome: str  # win, tie, loss, abandoned, penalty
    at: float  # the server's clock
    opponents: tuple[str, ...]  # the other people's names with their tags
    games: int = 1
    reason: str = ""  # why the line earned less than its points: "", "short", "pair_cap"


@dataclass(frozen=True)
class Encounter:
    """Two people met in a ranked game that counted (`fair_play`): one line per person and
    opponent, keyed by room, deal, player and opponent (written once, with the game's lines).
    The daily limit per pair counts them, and the distinct opponents of the leaderboard."""

    room: str
    deal: int
    preset: str
    player: str
    opponent: str  # the opponent's player id
    address: str  # the player's address (`fair_play.ranking_address`)
    opponent_address: str
    at: float  # the server's clock
    counts: bool = True  # both earned their points: the game counts towards the pair's daily limit


@dataclass(frozen=True)
class TokenLine:
    """What one player's tokens did in one competitive game (`tokens.settle`): keyed like the
    game's `RankedLine` (room, deal, player), and written with it."""

    room: str
    deal: int
    player: str
    amount: int  # gained (+) or lost (−): the share of the pot less the stake put in
    day: int  # the server's day (`tokens.day_of`): the wallet is topped up to it first
    at: float  # the server's clock
    counted: bool  # the game earned its player points: it counts towards being established
    opponents: tuple[str, ...]  # the other people's player ids


@dataclass(frozen=True)
class Wallet:
    """A player's tokens as stored, and how established they are (`tokens.established`)."""

    tokens: int | None  # None: nothing written yet (the player holds `tokens.GRANT`)
    day: int  # the server's day of the last change
    games: int  # ranked games that earned points (the ranking's lines)
    opponents: int  # different addresses met in them (the encounters, as the leaderboards count)


@dataclass(frozen=True)
class Rating:
    """A line of a rule set's leaderboard."""

    player: str
    name: str
    avatar: int
    xp: int
    games: int
    tag: str = ""  # the profile's tag


@dataclass(frozen=True)
class Standing:
    """Where one player stands in a rule set: 1 + the players shown with more points (None
    while they have fewer distinct opponents than the board asks for)."""

    rank: int | None
    xp: int
    games: int
    opponents: int = 0  # distinct opponents, told apart by address (`fair_play.MIN_OPPONENTS`)


@dataclass(frozen=True)
class Leaderboard:
    """A rule set's best players, the asker's own standing, and how many players it has."""

    top: list[Rating]  # most points first; equal points: fewer games, then the older profile
    you: Standing | None  # None: the asker played none of it ranked (or is nobody)
    players: int  # players shown (with enough distinct opponents)


class RoomStore(Protocol):
    """The server's storage (see the module for what every method promises)."""

    def worker_threads(self) -> int:
        """How many of its calls may run at once on worker threads, off the event loop (0: call
        it on the event loop only, one call at a time: it is not safe across threads, or gains
        nothing there)."""
        ...

    # ---- rooms ------------------------------------------------------------------------------
    def load(self) -> tuple[list[Room], list[tuple[str, str]]]:
        """Every stored room rebuilt from its seed and log, or from its last snapshot and the
        entries since (see `append`), oldest first, and the ids of the
        rooms that could not be, each with why (they stay stored, untouched)."""
        ...

    def room(self, room_id: str) -> Room | None:
        """One stored room rebuilt as `load` rebuilds them (with its revision), or None when it
        is not stored.

        Raises:
            StoreFailure: the database failed, or the stored room cannot be rebuilt (why).
        """
        ...

    def since(self, room_id: str, log_length: int) -> Since | None:
        """What changed in the room since a copy read ``log_length`` entries of its log (`Since`),
        or None when the room is no longer stored; read in one snapshot of the database."""
        ...

    def add(self, room: Room, now: float) -> None:
        """Store a new room (its rules, seats, seed, owner, kind) at revision 0, active ``now``;
        committed when this returns (``room.rev`` is 0)."""
        ...

    def save_seats(self, room: Room, now: float) -> None:
        """Store the room's seats and whether someone besides its creator joined (a claim), and
        mark it active ``now``; committed when this returns, and ``room.rev`` counts it.

        Raises:
            Behind: the room was written since ``room.rev`` (or deleted); nothing was stored.
        """
        ...

    def append(self, room: Room, entry: LogEntry, now: float, lines: Sequence[RankedLine] = ()) -> None:
        """Store one change of the room as the next entry of its log and mark it active ``now``,
        with ``lines`` (a penalty decided by the vote this entry is), all committed together
        when this returns; then count it in ``room.log_length`` and ``room.rev``. Raises
        `Behind` (nothing stored) when the room was written since ``room.rev``. A ``deal`` entry (the room's
        match dealt, called before the deal is made) also keeps the room as it stands
        (`room_snapshot.snapshot`), in the same commit, and the store may then forget the
        room's entries before it: `load` rebuilds the room from that snapshot and the entries
        from the deal on, exactly as it stands live (a room's log is bounded by its deal)."""
        ...

    def expired(self, before: float, lonely_before: float) -> list[str]:
        """The ids of rooms with no activity since ``before``, and of rooms nobody but their
        creator joined with none since ``lonely_before``."""
        ...

    def delete(self, room_id: str) -> None:
        """Forget a room, its log and its snapshot (committed when this returns)."""
        ...

    def delete_expired(self, room_id: str, before: float, lonely_before: float) -> bool:
        """Forget the room as `delete` does, but only if `expired` would still name it (checked
        and deleted in one transaction: a room joined or played since is kept); whether it was."""
        ...

    def exists(self, room_id: str) -> bool:
        """Whether the room is stored."""
        ...

    def remember_request(self, sender: str, request: str, room_id: str, seat: int, at: float,
                         forget_before: float) -> None:
        """Keep that ``sender``'s create or claim ``request`` took ``seat`` of ``room_id`` ``at``
        (a retry after a lost answer may reach another server on the database), and forget those
        made before ``forget_before``; committed when this returns."""
        ...

    def recalled_request(self, sender: str, request: str, since: float) -> tuple[str, int] | None:
        """The room and seat ``sender``'s ``request`` took (kept at or after ``since``), if any."""
        ...

    # ---- players ----------------------------------------------------------------------------
    def profile(self, player: str) -> Profile | None:
        """The profile kept under ``player`` (a player key's digest), if any."""
        ...

    def add_profile(self, profile: Profile, now: float) -> None:
        """Keep a new profile (its name, `profiles.skeleton`, tag and avatar), created and active
        ``now``; committed when this returns. Two profiles of one skeleton never share a tag:
        a profile whose tag a look-alike holds (stored meanwhile by another server on the same
        database) raises `profiles.TagTaken` and nothing is stored (`save_profile` too)."""
        ...

    def save_profile(self, profile: Profile, now: float) -> None:
        """Store a profile's changed name, avatar and tag, active ``now``; committed when this returns."""
        ...

    def look_alikes(self, skeleton: str) -> list[tuple[str, str, str]]:
        """The (player, name, tag) of every profile whose name has this `profiles.skeleton` (an
        indexed look-up: it runs on every new profile and name change)."""
        ...

    def visit(self, player: str, now: float) -> None:
        """Mark ``player``'s profile active ``now``; committed when this returns."""
        ...

    def expire_profiles(self, before: float) -> int:
        """Forget the profiles not active since ``before`` that never played a ranked game (no
        rating); return how many."""
        ...

    # ---- the ranking ------------------------------------------------------------------------
    def rank(self, lines: Sequence[RankedLine], tokens: Sequence[TokenLine] = (),
             encounters: Sequence[Encounter] = ()) -> list[RankedLine]:
        """Write each line not written before (the same room, deal and player), adding its
        points and games to its player's rating of its rule set, each token line not written
        before (the same key), topping its player's wallet up to its ``day``
        (`tokens.topped_up`, from `tokens.GRANT` for a wallet never written) and adding its
        ``amount``, and each encounter not written before (the same room, deal, player and
        opponent), all in one commit; return the ranked lines written now."""
        ...

    def games_together(self, player: str, opponent: str, address: str, opponent_address: str,
                       since: float, besides: tuple[str, int]) -> int:
        """The encounters that count (``counts``) written since ``since`` (at or after) of
        ``player`` with ``opponent``, or of ``address`` with ``opponent_address`` (one per game),
        leaving out the game ``besides`` (its room and deal: the game being judged)."""
        ...

    def wallet(self, player: str) -> Wallet:
        """The player's tokens as stored and how established they are (``tokens`` None and
        zeros for a player never written)."""
        ...

    def settlement(self, room: str, deal: int) -> dict[str, int]:
        """The tokens each player gained or lost by the game of ``room`` that ended at ``deal``
        ({} when none were written)."""
        ...

    def judged(self, room: str, deal: int) -> dict[str, tuple[int, str]]:
        """The points and fair play's reason of each player's line of the game of ``room`` that
        ended at ``deal``, as they were written ({} when none were): what a restarted server
        tells, not a judgement made again on another day."""
        ...

    def points(self, player: str) -> dict[str, int]:
        """The player's points per rule set they played ranked, by rule set name."""
        ...

    def leaderboard(self, preset: str, top: int, player: str | None, opponents: int = 0) -> Leaderboard:
        """The ``top`` best players of ``preset`` that have a profile and at least ``opponents``
        distinct opponents (by their encounters' opponent addresses), ``player``'s own standing
        (with their distinct opponents; ranked among those shown, no rank while they have
        fewer), and how many players it shows."""
        ...

    def history(self, player: str, preset: str | None, limit: int) -> list[RankedLine]:
        """The player's ``limit`` latest lines (of ``preset``, or of every rule set), newest first
        (and of two at the same time, the later deal first)."""
        ...

    def close(self) -> None:
        """Let the database go (nothing is written after this)."""
        ...
