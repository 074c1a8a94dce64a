"""A room of the online server: its seats and keys, its match, and the log that rebuilds it.

A `Room` is plain logic: no sockets, no clock, no database. The server asks it to
claim seats, check keys, apply actions and deal new rounds, and stores each change
it reports (`LogEntry`) before telling anyone. Once dealt, a room has a
`game.play.TurnDriver` for its computer seats, its turn clock (which runs only
while the player to act is connected) and the autopilot (a player who lost two turns
in a row to the clock has Medium play for them until they act again); the room tells
it every change. `Room.replay`
applies a stored log on a fresh `Match` with the room's seed, which gives back
exactly the same game (the engine is reproducible from its seed and actions);
computer players relearn the public events on the way.

A room is ``private`` (reachable by its link only), ``public`` (listed in the server's
lobby: `lobby`) or ``quick`` (made by quick match: `matchmaking`). Seats claimed by a
player who said hello carry the player's id (their key's digest) and address: never
sent, they decide whether the game is ranked (`Room.ranked`). A person away too long
from a ranked game under way (`Room.under_way`) loses the seat to a Medium computer
(`Room.abandon`, a ``abandon`` entry of the log), and the people left may vote to
penalise it (`Room.vote`, ``vote`` entries); a game dealt after an abandon earns nobody
points (`Room.earns`).

A game that is ranked when it is dealt is played on a turn clock whatever the room's
options (`Room.play_rules`: `RANKED_TURN_SECONDS` at most, a timed-out move being Medium's):
nobody can stall it. Who lost a turn to the clock in a game is read from its events
(`Room.timed_out`), so a rebuilt room knows it too; a person who lost turns enough in a row
for the clock's autopilot (`Room.stalled`) before a seat was abandoned votes on no abandon
of that game (`Room.barred`, `Room.electors`): a staller cannot judge the one who left,
and a turn lost while reading the vote costs nobody their vote.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from game.ai import ComputerPlayer, player_for
from game.engine import Action, Match, Rules, Status, parse_action
from game.engine.events import Event, TimedOut, TurnStarted
from game.play import Computer, TurnDriver
from game.play.turns import AUTOPILOT_AFTER

from .defaults import RANKED_TURN_SECONDS as RANKED_TURN_SECONDS  # the longest turn of a ranked game
from .fair_play import ranking_address

KINDS: Final = ("private", "public", "quick")
"""Room kinds: by link only, listed in the lobby, made by quick match."""
ABANDON_LEVEL: Final = "medium"
"""The level of the computer that takes an abandoned seat."""
MAX_NAME: Final = 24
KEY: Final = re.compile(r"[A-Za-z0-9_-]{1,128}", re.ASCII)
"""What a seat key looks like (`new_key` makes 32 of these characters): anything else opens
no seat, and is never hashed."""


class RoomError(ValueError):
    """A request the room refuses; ``code`` is the protocol's error code, ``extra`` the error's
    other fields (a refused name's ``reason``)."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra


def new_key() -> str:
    """A fresh secret seat key."""
    return secrets.token_urlsafe(24)


def digest(key: str) -> str:
    """What the server keeps of a key: its SHA-256, never the key (keys are ASCII: `KEY`)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    """A seat: a human (claimed or free) or a computer of some level."""

    kind: str
    level: str = "medium"
    name: str = ""
    key_hash: str | None = None  # set once a human claimed the seat
    connected: bool = False  # not stored: a restarted server starts with nobody connected
    accepted: bool = False  # ready for the next deal
    player: str | None = None  # the claiming player's id (their key's digest), if they said hello
    address: str = ""  # where the claim came from (its quota bucket): two of one address are not ranked
    avatar: int | None = None  # the claiming player's avatar
    abandoned: bool = False  # a person's seat a computer took when they stayed away
    player_tag: str | None = None  # the claiming player's tag (their profile's), if they said hello

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == "human"

    @property
    def is_person(self) -> bool:
        """Whether a person claimed this seat (even if they abandoned it since)."""
        return self.key_hash is not None

    def to_json(self) -> dict[str, Any]:
        """The stored form (with the key's digest and the player: for the database only)."""
        return {"kind": self.kind, "level": self.level, "name": self.name, "key_hash": self.key_hash,
                "player": self.player, "address": self.address, "avatar": self.avatar, "tag": self.player_tag}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Seat:
        """A stored seat (`to_json`; the players' fields are absent from older files, and the tag
        from files of version 2: the store fills it in from the player's profile)."""
        return cls(value["kind"], value["level"], value["name"], value["key_hash"],
                   player=value.get("player"), address=value.get("address", ""), avatar=value.get("avatar"),
                   player_tag=value.get("tag"))

    @property
    def tag(self) -> str | None:
        """The claiming player's tag, if they said hello (their profile's, given by the server)."""
        return None if self.player is None else self.player_tag

    def public(self) -> dict[str, Any]:
        """What every player may see of the seat (a player's tag and avatar, never their id)."""
        out: dict[str, Any] = {"kind": self.kind, "level": self.level, "name": self.name,
                               "connected": self.connected or not self.is_human, "accepted": self.accepted}
        if self.player is not None:
            out["tag"] = self.tag
            out["avatar"] = self.avatar
        if self.abandoned:
            out["abandoned"] = True
        return out


def _turns(events: Iterable[Event]) -> int:
    """The turns begun among ``events``."""
    return sum(isinstance(e, TurnStarted) for e in events)


@dataclass(frozen=True)
class LogEntry:
    """One stored change: ``start``, ``action`` (seat, notation; ``auto`` when the server moved for
    a person: their autopilot, their clock), ``accept`` (seat; text ``clock``
    when the server asked for the next deal for a person whose time ran out), ``deal`` (a
    new round), ``abandon`` (seat: a computer takes it), ``vote`` (the voter's seat; text:
    the abandoned seat and ``yes`` or ``no``) or ``autopilot`` (seat; text ``on`` or ``off``: the
    player handed their turns to the server's stand-in, or took them back)."""

    kind: str
    seat: int | None = None
    text: str = ""


@dataclass
class Room:
    """One online table."""

    room_id: str
    rules: Rules
    seats: list[Seat]
    seed: int
    first: int | None = None
    match: Match | None = None
    driver: TurnDriver | None = None  # once dealt: its computers and its turn clock
    log_length: int = 0
    rev: int = 0  # the stored revision this copy is at (`roomstore.Behind`): writes to the room so far
    owner: str = ""  # the address (its quota bucket) that created it: for the quotas of rooms held
    joined: bool = False  # whether anyone but its creator ever claimed a seat
    kind: str = "private"  # one of KINDS
    created: float = 0.0  # when (the server's clock): the lobby shows how long it has waited
    votes: dict[int, dict[int, bool]] = field(default_factory=dict)  # abandoned seat -> voter -> penalise
    penalised: set[int] = field(default_factory=set)  # abandoned seats the vote penalised
    abandoned_in: dict[int, int] = field(default_factory=dict)  # abandoned seat -> the deal it was lost in
    round_events: list[Event] = field(default_factory=list)  # this deal's, for a computer taking a seat
    turns: int = 0  # turns begun in the game being played (`fair_play.MIN_TURNS`); a replay counts them again
    timed_out: dict[int, int] = field(default_factory=dict)  # seat -> the last deal it lost a turn in
    lost_turns: dict[int, int] = field(default_factory=dict)  # seat -> turns timed out since it played
    clock_row: dict[int, int] = field(default_factory=dict)  # seat -> its turns in a row the clock played
    stalled: dict[int, int] = field(default_factory=dict)  # seat -> last deal the clock's autopilot took it
    barred: dict[int, int] = field(default_factory=dict)  # seat -> deal it stalled in, before an abandon

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.seats)

    @property
    def computers(self) -> dict[int, ComputerPlayer]:
        """The computer player at each computer seat (none before the deal)."""
        return {} if self.driver is None else self.driver.players

    @property
    def state(self) -> str:
        """``waiting`` (for players), ``playing``, ``round_over`` or ``match_over``."""
        return "waiting" if self.match is None else self.match.status

    @property
    def anyone_here(self) -> bool:
        """Whether a person of the room is connected: without one, its computers and clocks wait."""
        return any(s.connected for s in self.seats if s.is_human)

    @property
    def computer_seats(self) -> int:
        """How many seats the server plays."""
        return sum(not s.is_human for s in self.seats)

    @property
    def people(self) -> list[int]:
        """The seats people claimed, abandoned ones included."""
        return [i for i, s in enumerate(self.seats) if s.is_person]

    @property
    def ranked(self) -> bool:
        """Whether the game earns ranking points: a public or quick-match room of at least two
        people, each a player who said hello, no two the same player or from the same address."""
        if self.kind == "private":
            return False
        people = [self.seats[i] for i in self.people]
        players = {s.player for s in people}
        addresses = {ranking_address(s.address) for s in people}  # every family: `fair_play`
        return (len(people) >= 2 and None not in players and "" not in addresses
                and len(players) == len(addresses) == len(people))

    @property
    def game_deal(self) -> int:
        """The deal the game being played began with: a match with a target is one game from its
        first deal to the target; without a target, each deal is a game of its own."""
        if self.match is None or self.match.target:
            return 1
        return self.match.round.number

    @property
    def earns(self) -> bool:
        """Whether the game being played earns ranking points: the room is `ranked` and no seat
        was abandoned before this game began. The others finishing the game a person abandoned
        earn its points; a game dealt afterwards, with a computer in the abandoned seat, earns
        nobody anything."""
        start = self.game_deal
        return self.ranked and all(deal >= start for deal in self.abandoned_in.values())

    @property
    def under_way(self) -> bool:
        """Whether a game is being played: a deal is on, or a match with a target is between two
        of its deals (a match that is over is finished, whatever its target)."""
        return self.state in (Status.PLAYING, Status.ROUND_OVER)

    @property
    def voters(self) -> list[int]:
        """The seats whose people may vote on an abandon: people still playing their seat."""
        return [i for i in self.people if self.seats[i].is_human]

    @property
    def electors(self) -> list[int]:
        """The seats whose people may vote on an abandon of the game being played: people still
        playing their seat who were not the subject of a vote (an abandon) and had not stalled
        this game (turns lost to the clock enough in a row for its autopilot) when a seat of it
        was abandoned. A staller cannot judge the one who left; a turn lost while reading the
        vote, or a single one before it, costs nobody their vote."""
        start = self.game_deal
        return [i for i in self.voters if self.barred.get(i, 0) < start and i not in self.votes]

    @property
    def clocked(self) -> bool:
        """Whether the game is played on the ranked turn clock: it was ranked when dealt."""
        return self.match is not None and self.match.rules is not self.rules

    def play_rules(self) -> Rules:
        """The rules the match is played by: the room's, with a turn clock of at most
        `RANKED_TURN_SECONDS` when the game is ranked (a timed-out move then being Medium's
        where the room had no clock; a room's own shorter clock and its policy stay)."""
        rules = self.rules
        if not self.ranked or 0 < rules.turn_seconds <= RANKED_TURN_SECONDS:
            return rules
        policy = "autoplay" if not rules.turn_seconds else rules.timeout_policy
        return replace(rules, turn_seconds=RANKED_TURN_SECONDS, timeout_policy=policy)

    @property
    def resting(self) -> bool:
        """Whether the match is over: nothing is played and no deal runs (for good with a target:
        `finished`; without one, until its people ask for another deal). Its computers cost
        nothing, and nobody can abandon it."""
        return self.match is not None and self.match.status == Status.MATCH_OVER

    @property
    def finished(self) -> bool:
        """Whether the match is won for good (no further deal)."""
        return self.match is not None and self.match.status == Status.MATCH_OVER and bool(self.match.target)

    # ---- seats ---------------------------------------------------------------------------
    def claim(self, seat: int | None, name: str) -> tuple[int, str]:
        """Give a free human seat (the first, or ``seat``) to a newcomer; return it and its new key.

        Raises:
            RoomError: no such seat, a computer's or a taken seat, or none left.
        """
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.is_human and s.key_hash is None]
            if not free:
                raise RoomError("no_free_seat", "every human seat of this room is taken")
            seat = free[0]
        if type(seat) is not int or not 0 <= seat < self.players:
            raise RoomError("bad_message", f"seat must be 0 to {self.players - 1}")
        chosen = self.seats[seat]
        if not chosen.is_human:
            raise RoomError("seat_taken", f"seat {seat} is a computer's")
        if chosen.key_hash is not None:
            raise RoomError("seat_taken", f"seat {seat} is taken")
        key = new_key()
        chosen.key_hash = digest(key)
        if name:
            chosen.name = name[:MAX_NAME]
        return seat, key

    def claimed_by(self, seat: int, player: str | None, address: str, avatar: int | None,
                   tag: str | None = None) -> None:
        """Say who claimed ``seat``: the player (their id and tag) if they said hello, and their address."""
        chosen = self.seats[seat]
        chosen.player, chosen.address, chosen.avatar, chosen.player_tag = player, address, avatar, tag

    def opens(self, seat: int | None, key: str | None) -> bool:
        """Whether ``key`` opens ``seat`` (constant-time comparison of digests); no seat, a seat
        out of range, or a key this server never made opens nothing."""
        if type(seat) is not int or not 0 <= seat < self.players or not isinstance(key, str):
            return False
        if not KEY.fullmatch(key):  # not a key this server made (a lone surrogate, a space...)
            return False
        stored = self.seats[seat].key_hash
        return stored is not None and hmac.compare_digest(stored, digest(key))

    @property
    def ready_to_start(self) -> bool:
        """Every human seat is claimed and the game has not started."""
        return self.match is None and all(s.key_hash is not None for s in self.seats if s.is_human)

    def waiting_for(self) -> list[int]:
        """The human seats the game waits for: unclaimed, or disconnected while it matters."""
        if self.match is None:
            return [i for i, s in enumerate(self.seats) if s.is_human and s.key_hash is None]
        if self.finished:
            return []
        return [i for i, s in enumerate(self.seats) if s.is_human and not s.connected]

    # ---- the game ------------------------------------------------------------------------
    def start(self) -> list[Event]:
        """Deal the match (all human seats are claimed); return its opening events."""
        self.match = Match(self.play_rules(), self.players, self.seed, first=self.first)
        # No helper processes on the server: its cores serve every room at once.
        computers = {i: Computer(s.level, player_for(s.level))
                     for i, s in enumerate(self.seats) if not s.is_human}
        # A player's clock runs only while they are here; away, it keeps the time left.
        self.driver = TurnDriver(self.match, computers, may_time=lambda seat: self.seats[seat].connected)
        self.driver.observe(self.match.start_events)
        self.round_events = list(self.match.start_events)
        self.turns = _turns(self.match.start_events)
        return list(self.match.start_events)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """``seat`` acts (the server checked it first with `Match.check`).

        Raises:
            RoomError: the game has not started.
            IllegalAction: the engine refuses it (nothing changed).
        """
        if self.match is None or self.driver is None:
            raise RoomError("not_started", "the game starts when every human seat is taken")
        events = self.match.apply(action, seat)
        self.driver.observe(events)
        self.round_events.extend(events)
        self.turns += _turns(events)
        timed_out = [event.seat for event in events if type(event) is TimedOut]
        if not timed_out:
            self.clock_row.pop(seat, None)  # the seat's own move (theirs, or their autopilot's)
        for lost in timed_out:
            self._lost_turn(lost)
        return events

    def _lost_turn(self, seat: int) -> None:
        """The clock played a turn of ``seat``'s (or asked for the next deal for it)."""
        deal = self.match.round.number if self.match is not None else 0
        self.timed_out[seat] = deal
        self.lost_turns[seat] = self.lost_turns.get(seat, 0) + 1
        self.clock_row[seat] = self.clock_row.get(seat, 0) + 1
        if self.clock_row[seat] >= AUTOPILOT_AFTER:  # the clock's autopilot: a stall
            self.stalled[seat] = deal

    def played(self, seat: int) -> None:
        """The person at ``seat`` played themselves (an action the rules accepted, or asking for the
        next deal): the turns they lost to the clock since they last played start again from none."""
        self.lost_turns.pop(seat, None)

    def person_acted(self, seat: int) -> None:
        """The player at ``seat`` acted themselves (not the server for them): the autopilot, if it
        played for them, gives them control back."""
        if self.driver is not None and self.seats[seat].is_human:
            self.driver.person_acted(seat)

    def accept(self, seat: int) -> None:
        """``seat`` is ready for the next deal (their own asking: the clock's is `accept_for`)."""
        self.seats[seat].accepted = True
        self.clock_row.pop(seat, None)

    def accept_for(self, seat: int) -> None:
        """The server asks for the next deal for the person at ``seat``, whose time between two deals
        of a ranked match ran out: a turn they lost to the clock (an ``accept`` entry whose text is
        ``clock``)."""
        self.seats[seat].accepted = True
        self._lost_turn(seat)

    @property
    def deal_ready(self) -> bool:
        """A finished deal may be followed by another, and every human is here and agrees."""
        match = self.match
        if match is None or match.status == Status.PLAYING or self.finished:
            return False
        return all(s.accepted and s.connected for s in self.seats if s.is_human)

    def next_round(self) -> list[Event]:
        """Deal again (call only when `deal_ready`)."""
        assert self.match is not None and self.driver is not None
        events = self.match.next_round()
        for s in self.seats:
            s.accepted = False
        self.driver.observe(events)
        self.round_events = list(events)
        # A match with a target is one game over its deals; without one, each deal is a game.
        self.turns = (self.turns if self.match.target else 0) + _turns(events)
        return events

    # ---- leaving a ranked game -------------------------------------------------------------
    def abandon(self, seat: int) -> None:
        """A Medium computer takes the seat of a person who stayed away (it learns the deal so far)."""
        chosen = self.seats[seat]
        chosen.kind, chosen.level, chosen.abandoned = "computer", ABANDON_LEVEL, True
        chosen.connected = chosen.accepted = False
        self.abandoned_in[seat] = self.match.round.number if self.match is not None else 0
        start = self.game_deal
        for staller, deal in self.stalled.items():  # who stalled this game so far votes on none of it
            if deal >= start:
                self.barred[staller] = max(deal, self.barred.get(staller, 0))
        if self.driver is not None:
            self.driver.seat_computer(seat, Computer(ABANDON_LEVEL, player_for(ABANDON_LEVEL)),
                                      self.round_events)

    def vote(self, voter: int, seat: int, penalise: bool) -> bool:
        """``voter`` votes on penalising the abandon of ``seat``; True when this vote decides the
        penalty (more than half of the people still playing said yes)."""
        ballots = self.votes.setdefault(seat, {})
        ballots[voter] = penalise
        if seat in self.penalised:
            return False
        if 2 * sum(ballots.values()) > len(self.electors):
            self.penalised.add(seat)
            return True
        return False

    # ---- rebuilding ----------------------------------------------------------------------
    def replay(self, entries: Iterable[LogEntry]) -> None:
        """Apply stored changes in order (on a room rebuilt from the database).

        Raises:
            ValueError: an entry the game refuses (the stored log does not fit the room).
        """
        for entry in entries:
            self.redo(entry)
            self.log_length += 1
            if self.own_move(entry) and entry.seat is not None:
                self.person_acted(entry.seat)
        # The log says who moved for a person (``auto``) and when they asked for the autopilot, so a
        # rebuilt room has it as it was (a log written before it said so: off once the person
        # played). Nobody is counted absent for turns lost before.
        self.lost_turns.clear()

    def own_move(self, entry: LogEntry) -> bool:
        """Whether ``entry`` is a person's own move at their seat: an ``action`` (not the server's
        ``auto`` move for them, nor a time-out) of a seat a person plays."""
        if entry.kind != "action" or entry.seat is None or not self.seats[entry.seat].is_human:
            return False
        return not entry.text.startswith("timeout")

    def redo(self, entry: LogEntry) -> list[Event]:
        """Apply one stored change (another server's, or a rebuilt room's); return the events it
        made (a deal's, a move's; none for the others). ``log_length`` is the caller's to count.

        Raises:
            ValueError: an entry the game refuses (the stored log does not fit the room).
        """
        if entry.kind == "start":
            return self.start()
        if entry.kind in ("action", "auto"):
            assert entry.seat is not None
            return self.apply(entry.seat, parse_action(entry.text))
        if entry.kind == "accept":
            assert entry.seat is not None
            if entry.text == "clock":
                self.accept_for(entry.seat)
            else:
                self.accept(entry.seat)
        elif entry.kind == "deal":
            return self.next_round()
        elif entry.kind == "abandon":
            assert entry.seat is not None
            self.abandon(entry.seat)
        elif entry.kind == "vote":
            assert entry.seat is not None
            seat, answer = entry.text.split()
            self.vote(entry.seat, int(seat), answer == "yes")
        elif entry.kind == "autopilot":
            assert entry.seat is not None
            if self.driver is not None and self.seats[entry.seat].is_human:
                self.driver.set_autopilot(entry.seat, entry.text == "on")
        else:
            raise ValueError(f"unknown log entry {entry.kind!r}")
        return []
