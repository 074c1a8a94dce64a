"""The messages a server sends (protocol 2): built by the server, read leniently by the game.

The server builds one and `ServerMessage.encode` writes exactly the frame it always
sent. The game reads them with `from_server`, as leniently as it always did (a server
is not trusted): a field of the wrong kind is read as None and named in
`ServerMessage.strays`, for each reader to show as a neutral value; the frame is never
a crash. Nested values (a view, events, a room's seats and results, listings) stay
JSON built and read by `game.net.wire` and the modules that own them; the rows the
screens show (a room's seats, a listing's rooms, a leaderboard's rows, a history's games)
are read here too, as leniently (`SeatRow`, `ListedRoom`, `RankRow`, `RankedGame`), so no
screen checks a server's fields itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from .links import ROOM_ID
from .message_fields import Message, Ref, derived, field_types, fits, wire
from .profiles import MAX_NAME
from .protocol import PROTOCOL, Refusal
from .requests import MAX_PLAYERS, REACTIONS


@dataclass(frozen=True, kw_only=True)
class ServerMessage(Message):
    """A message the server sends; the game reads one with `from_server`."""

    DIRECTION: ClassVar[str] = "server"
    strays: frozenset[str] = derived(frozenset())  # fields a server sent of the wrong kind (read as None)
    source: dict[str, Any] | None = derived()  # the JSON object it was read from (None: built here)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerMessage:
        """The message a server's JSON object holds, read leniently: a field of the wrong kind is
        None and named in ``strays`` (its readers decide what that shows), the frame is kept."""
        declared = field_types(cls)
        values: dict[str, Any] = {}
        strays = set()
        for f in cls.wire_fields():
            value = data.get(f.name)
            if fits(value, declared[f.name]):
                values[f.name] = value
            else:
                values[f.name] = None
                if f.name in data:
                    strays.add(f.name)
        return cls(**values, strays=frozenset(strays), source=data)


# ---- the rows nested in a server's messages, read as leniently -------------------------------------
# A room's seats, a listing's rooms, a leaderboard's rows and a history's games stay the JSON the
# server sent (the messages keep them so, and write them back so); the game reads each row through
# these, once: a field of the wrong kind reads as None, a row that is no object as no row.
MAX_SECONDS: Final = 1e12
"""A time a server says (seconds since the epoch, or a wait) past which it is no time."""


def text(value: Any) -> str | None:
    """A server's text, or None when the value is none."""
    return value if isinstance(value, str) else None


def whole(value: Any) -> int | None:
    """A server's whole number, or None (a bool is no number)."""
    return value if type(value) is int else None


def seconds(value: Any) -> float | None:
    """A time a server sent, in seconds, or None when it is not a finite number within reason."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) < MAX_SECONDS:
        return None  # (NaN and the infinities are not under MAX_SECONDS; nor is a huge integer)
    return float(value)


@dataclass(frozen=True)
class SeatRow:
    """A seat of a room status: who sits there (``kind``: human, computer…), as the server said."""

    kind: str | None
    level: str | None
    name: str | None
    tag: str | None
    connected: bool
    accepted: bool
    avatar: int | None

    @classmethod
    def read(cls, raw: Any) -> SeatRow | None:
        """The seat a server's JSON value holds, or None when it is no object."""
        if not isinstance(raw, dict):
            return None
        return cls(kind=text(raw.get("kind")), level=text(raw.get("level")), name=text(raw.get("name")),
                   tag=text(raw.get("tag")), connected=bool(raw.get("connected")),
                   accepted=bool(raw.get("accepted")), avatar=whole(raw.get("avatar")))

    @property
    def human(self) -> bool:
        """Whether a person sits (or is awaited) there."""
        return self.kind == "human"


@dataclass(frozen=True)
class ListedRoom:
    """A public room of a lobby listing: its id, rules, seats taken, its people and since when."""

    room: str
    preset: str | None
    players: int | None
    taken: int | None
    since: float | None
    people: tuple[tuple[str, str], ...]  # (name, tag) of each person seated
    stake: int | None = None  # the tokens each person puts in (older servers: None)

    @classmethod
    def read(cls, raw: Any) -> ListedRoom | None:
        """The room a listing's row holds, or None when it names no room."""
        room = raw.get("room") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or not isinstance(room, str) or not ROOM_ID.match(room):
            return None
        given = raw.get("seats")
        seats = [SeatRow.read(s) for s in given] if isinstance(given, list) else []
        people = tuple((s.name, s.tag) for s in seats
                       if s is not None and s.human and s.name is not None and s.tag is not None)
        return cls(room=room, preset=text(raw.get("preset")), players=whole(raw.get("players")),
                   taken=whole(raw.get("taken")), since=seconds(raw.get("since")), people=people,
                   stake=whole(raw.get("stake")))


@dataclass(frozen=True)
class RankRow:
    """A leaderboard's row (or the asker's own rank): rank, who, points and games; the asker's
    own also how many more distinct opponents they need to be shown (`fair_play.MIN_OPPONENTS`)."""

    rank: int | None
    name: str | None
    tag: str | None
    xp: int | None
    games: int | None
    you: bool
    needs: int | None = None  # the asker's own: distinct opponents still to meet (0: shown)

    @classmethod
    def read(cls, raw: Any) -> RankRow | None:
        """The row a server's JSON value holds, or None when it is no object."""
        if not isinstance(raw, dict):
            return None
        return cls(rank=whole(raw.get("rank")), name=text(raw.get("name")), tag=text(raw.get("tag")),
                   xp=whole(raw.get("xp")), games=whole(raw.get("games")), you=raw.get("you") is True,
                   needs=whole(raw.get("needs")))


@dataclass(frozen=True)
class RankedGame:
    """A ranked game of a history: rules, outcome, points won or lost, opponents, when, and why it
    earned less than its result (``short``, ``pair_cap``: `fair_play`; None: it did not)."""

    preset: str | None
    outcome: str | None
    xp: int | None
    at: float | None
    opponents: tuple[str, ...]
    reason: str | None = None

    @classmethod
    def read(cls, raw: Any) -> RankedGame | None:
        """The game a server's JSON value holds, or None when it is no object."""
        if not isinstance(raw, dict):
            return None
        given = raw.get("opponents")
        opponents = tuple(o for o in given if isinstance(o, str)) if isinstance(given, list) else ()
        return cls(preset=text(raw.get("preset")), outcome=text(raw.get("outcome")), xp=whole(raw.get("xp")),
                   at=seconds(raw.get("at")), opponents=opponents, reason=text(raw.get("reason")) or None)


@dataclass(frozen=True, kw_only=True)
class Joined(ServerMessage):
    """The connection holds ``seat`` of ``room`` (``key``: only when just claimed)."""

    TYPE: ClassVar[str] = "joined"
    room: str = wire(omit=False)
    seat: int = wire(omit=False, minimum=0)
    players: int = wire(omit=False, minimum=2, maximum=MAX_PLAYERS)
    key: str | None = wire()


@dataclass(frozen=True, kw_only=True)
class RoomStatus(ServerMessage):
    """Where a room stands: its rules, seats, state, results and votes."""

    TYPE: ClassVar[str] = "room"
    room: str = wire(omit=False)
    preset: str = wire(omit=False)
    options: dict[str, Any] = wire(omit=False)
    players: int = wire(omit=False)
    state: str = wire(omit=False, enum=["waiting", "playing", "round_over", "match_over"])
    seats: list[dict[str, Any]] = wire(omit=False)
    waiting_for: list[int] = wire(omit=False)
    results: list[dict[str, Any] | None] = wire(omit=False)
    deal: int = wire(omit=False)
    kind: str = wire(omit=False, enum=["private", "public", "quick"])
    ranked: bool = wire(omit=False)
    votes: list[dict[str, Any]] = wire(omit=False)
    takeover: list[dict[str, Any]] | None = wire()
    earned: list[int | None] | None = wire()
    absent: list[int] | None = wire()
    electors: list[int] | None = wire()
    stake: int | None = wire(minimum=0)
    tokens: list[int | None] | None = wire()
    reasons: list[str | None] | None = wire()  # fair play took points: each seat's why (`fair_play`)

    def seat_rows(self) -> list[SeatRow | None]:
        """Each seat as read (None for one that is no object: the others keep their numbers)."""
        return [SeatRow.read(seat) for seat in self.seats or []]


@dataclass(frozen=True, kw_only=True)
class Update(ServerMessage):
    """A seat's view and the events since its last update (redacted for it); ``earlier``, only in
    the update a seat gets when it (re)joins a deal under way: the deal's events so far (redacted
    for it), from which its move log is rebuilt."""

    TYPE: ClassVar[str] = "update"
    room: str = wire(omit=False)
    view: dict[str, Any] = wire(omit=False)
    events: list[dict[str, Any]] = wire(omit=False)
    timer: float | None = wire(omit=False, minimum=0)
    autopilot: bool = wire(omit=False)
    earlier: list[dict[str, Any]] | None = wire()
    ref: Ref | None = wire()


@dataclass(frozen=True, kw_only=True)
class Error(ServerMessage):
    """A refusal: its ``code`` and a sentence (an illegal action's ``reason`` and ``values``)."""

    TYPE: ClassVar[str] = "error"
    code: str = wire(omit=False)
    message: str = wire(omit=False)
    reason: str | None = wire()
    values: dict[str, Any] | None = wire()
    server: int | None = wire()
    ref: Ref | None = wire()

    def encode_closing(self) -> str:
        """The frame of an error the connection is closed after (``too_many_connections``,
        ``replaced``): protocol 2 writes its ``"v"`` before its ``message`` there."""
        return json.dumps({"type": self.TYPE, "code": self.code, "v": PROTOCOL, "message": self.message})

    @classmethod
    def of(cls, refusal: Refusal, ref: Ref | None = None) -> Error:
        """The error message answering ``refusal`` (``ref``: the refused message's)."""
        extra = refusal.extra
        if not set(extra) <= {"reason", "values", "server"}:  # a field protocol 2 has no place for
            raise ValueError(f"an error has no field {sorted(set(extra) - {'reason', 'values', 'server'})}")
        return cls(code=refusal.code, message=str(refusal), reason=extra.get("reason"),
                   values=extra.get("values"), server=extra.get("server"), ref=ref)


@dataclass(frozen=True, kw_only=True)
class Pong(ServerMessage):
    """The answer to ``ping``."""

    TYPE: ClassVar[str] = "pong"
    ref: Ref | None = wire()


@dataclass(frozen=True, kw_only=True)
class Left(ServerMessage):
    """The answer to ``leave``; the server then closes the connection."""

    TYPE: ClassVar[str] = "left"


@dataclass(frozen=True, kw_only=True)
class PlayerProfile(ServerMessage):
    """The player a connection speaks for, as others see them, and their points."""

    TYPE: ClassVar[str] = "profile"
    name: str = wire(omit=False, maxLength=MAX_NAME)
    tag: str = wire(omit=False)
    avatar: int = wire(omit=False, minimum=0, maximum=15)
    xp: dict[str, int] = wire(omit=False)
    created: bool = wire(omit=False)
    tokens: int | None = wire()


@dataclass(frozen=True, kw_only=True)
class LobbyListing(ServerMessage):
    """The public rooms, waiting longest first, and the server's time."""

    TYPE: ClassVar[str] = "lobby"
    rooms: list[dict[str, Any]] = wire(omit=False, maxItems=100)
    listed: int = wire(omit=False)
    now: float = wire(omit=False)

    def listed_rooms(self) -> list[ListedRoom]:
        """The rooms listed, as read (a row that names no room is left out)."""
        return [room for room in map(ListedRoom.read, self.rooms or []) if room is not None]

    @property
    def server_time(self) -> float | None:
        """The server's time (``now``), or None when it is no time."""
        return seconds(self.now)


@dataclass(frozen=True, kw_only=True)
class Queued(ServerMessage):
    """A quick match's wait: its rules, how many wait in its queue, since when."""

    TYPE: ClassVar[str] = "queued"
    preset: str = wire(omit=False)
    options: dict[str, Any] = wire(omit=False)
    players: int = wire(omit=False)
    waiting: int = wire(omit=False)
    since: float = wire(omit=False)
    now: float = wire(omit=False)
    computers: bool = wire(omit=False)
    wait: float = wire(omit=False)

    @property
    def waited(self) -> float | None:
        """Seconds the player has waited so far by the server's clock (None when it does not say)."""
        since, now = seconds(self.since), seconds(self.now)
        return None if since is None or now is None else max(0.0, now - since)


@dataclass(frozen=True, kw_only=True)
class Unqueued(ServerMessage):
    """The connection waits in no queue (any more)."""

    TYPE: ClassVar[str] = "unqueued"
    ref: Ref | None = wire()


@dataclass(frozen=True, kw_only=True)
class LeaderboardAnswer(ServerMessage):
    """The top 100 of a rule set, and the asker's own rank (``you``: null without one)."""

    TYPE: ClassVar[str] = "leaderboard"
    preset: str = wire(omit=False)
    top: list[dict[str, Any]] = wire(omit=False, maxItems=100)
    you: dict[str, Any] | None = wire(omit=False)
    players: int = wire(omit=False)
    ref: Ref | None = wire()

    def rows(self) -> list[RankRow]:
        """The top players, as read (a row that is no object is left out)."""
        return [row for row in map(RankRow.read, self.top or []) if row is not None]

    @property
    def own(self) -> RankRow | None:
        """The asker's own rank, or None without one."""
        return RankRow.read(self.you)


@dataclass(frozen=True, kw_only=True)
class HistoryAnswer(ServerMessage):
    """The asker's latest 50 ranked games, newest first."""

    TYPE: ClassVar[str] = "history"
    games: list[dict[str, Any]] = wire(omit=False, maxItems=50)
    ref: Ref | None = wire()

    def played(self) -> list[RankedGame]:
        """The games, as read (one that is no object is left out)."""
        return [game for game in map(RankedGame.read, self.games or []) if game is not None]


@dataclass(frozen=True, kw_only=True)
class Reaction(ServerMessage):
    """A seat of the room sent a quick reaction (an id of `requests.REACTIONS`, shown in each game's
    own language; one this game does not know is shown as nothing)."""

    TYPE: ClassVar[str] = "reaction"
    room: str = wire(omit=False)
    seat: int = wire(omit=False, minimum=0, maximum=MAX_PLAYERS - 1)
    reaction: str = wire(omit=False, enum=list(REACTIONS))


SERVER_MESSAGES: Final[dict[str, type[ServerMessage]]] = {
    cls.TYPE: cls for cls in (Joined, RoomStatus, Update, Error, Pong, Left, PlayerProfile, LobbyListing,
                              Queued, Unqueued, LeaderboardAnswer, HistoryAnswer, Reaction)}


def from_server(data: Any) -> ServerMessage | None:
    """A server's JSON value as its message, or None when it is none this game knows (not an object,
    an unknown type). Fields of the wrong kind read as None (`ServerMessage.from_json`)."""
    if not isinstance(data, dict):
        return None
    cls = SERVER_MESSAGES.get(data.get("type"))  # type: ignore[arg-type]
    return None if cls is None else cls.from_json(data)
