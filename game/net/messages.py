"""Every message of protocol 2, in both directions, as one frozen dataclass each.

A message's fields, their types and limits are declared once, here; docs/protocol.md
describes them for people and ``python -m tools.protocol_schema`` derives
docs/protocol.schema.json from these classes for other clients.

**Client → server** (`ClientMessage`): `decode` reads a frame once, at the server's
edge. What makes the whole frame unreadable (too large, binary, not a JSON object,
another version, an unknown type: `protocol.decode`; a bad ``ref``) raises a
`Refusal` at once. A field the message's type refuses does not: the refusal is kept
with the message (`ClientMessage.problems`) and raised by `ClientMessage.check` when
the handler comes to that field, so that the server answers exactly as protocol 2
always did when a message is wrong in several ways at once (a connection that holds
no seat hears ``not_joined`` for an ``action`` whose action is not text, as before).
`ClientMessage.encode` writes the frame the game sends (the same keys in the same
order, ``"v": 2`` last).

**Server → client** (`ServerMessage`): the server builds one and `ServerMessage.encode`
writes exactly the frame it always sent. The game reads them with `read_server`, as
leniently as it always did (a server is not trusted: a frame of the wrong shape is
dropped, a field of the wrong kind is read as a neutral value, never a crash).

Nested values (a view, events, rules' options, a room's seats and results, listings)
stay JSON built and read by `game.net.wire` and the modules that own them; their
shapes are in docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, TypeVar

from game.ai import LEVELS
from game.engine import Action, Rules, parse_action

from .profiles import (
    DEFAULT_AVATAR,
    DEFAULT_NAME,
    MAX_NAME,
    check_avatar,
    check_name,
    name_problem,
    player_id,
)
from .protocol import PROTOCOL, TYPES, Refusal, checked_text, text_problem
from .protocol import decode as read_frame
from .ranking import known_preset
from .wire import WireError, rules_from_json

MAX_REF: Final = 64
"""The longest ``ref`` (its text, or its number's digits)."""
REQUEST_ID: Final = re.compile(r"[!-~]{8,64}", re.ASCII)
"""A create's or claim's ``request`` id: 8 to 64 printable ASCII characters."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
MIN_WAIT: Final = 5.0  # seconds a quick match may wait for people before computers fill it
MAX_WAIT: Final = 900.0
DEFAULT_WAIT: Final = 60.0
MAX_ACTION: Final = 64
"""The part of an action's text looked through for a control character (notation is short)."""
SEAT_KINDS: Final = ("human", "computer")

Ref = int | str | bool
"""A message's ``ref``: a string or a number (``true`` and ``false`` pass too, as they always did:
JSON's booleans are numbers to the server's check)."""

_M = TypeVar("_M", bound="Message")


def wire(*, omit: bool = True, **limits: Any) -> Any:
    """A field on the wire. ``omit``: left out of the frame when None (else written as null);
    ``limits``: its JSON Schema bounds (``minimum``, ``maxLength``, ``enum``, ``pattern``…)."""
    return field(default=None, metadata={"omit": omit, "limits": limits})


def derived(default: Any = None) -> Any:
    """A value the server works with, read from the wire fields (never written)."""
    return field(default=default, compare=False, repr=False, metadata={"derived": True})


def _plain(value: Any) -> Any:
    """A value as JSON sees it (a tuple is a list; a nested message its object)."""
    if isinstance(value, Message):
        return value.to_json(version=False)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, kw_only=True)
class Message:
    """One protocol message: ``TYPE`` and its fields, ``ref`` (if it has one) last."""

    TYPE: ClassVar[str] = ""
    DIRECTION: ClassVar[str] = ""

    @classmethod
    def wire_fields(cls) -> list[dataclasses.Field[Any]]:
        """The fields written on the wire, in their order (``ref`` last)."""
        fields = [f for f in dataclasses.fields(cls) if not f.metadata.get("derived")]
        return [f for f in fields if f.name != "ref"] + [f for f in fields if f.name == "ref"]

    def to_json(self, *, version: bool = True) -> dict[str, Any]:
        """The message as a JSON object (``"v": 2`` last unless ``version`` is false)."""
        out: dict[str, Any] = {"type": self.TYPE} if self.TYPE else {}
        for f in self.wire_fields():
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omit", True):
                continue
            out[f.name] = _plain(value)
        if version:
            out["v"] = PROTOCOL
        return out

    def encode(self) -> str:
        """The frame's text: the same JSON, keys and separators the game and the server always sent."""
        return json.dumps(self.to_json())


# ---- client → server -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ClientMessage(Message):
    """A message a client sends; `decode` reads one."""

    DIRECTION: ClassVar[str] = "client"
    ref: Ref | None = wire(maxLength=MAX_REF)
    problems: tuple[tuple[str, Refusal], ...] = derived(())

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> ClientMessage:
        """The message a decoded JSON object holds (its problems kept for `check`)."""
        return cls(ref=ref)

    def check(self, *names: str) -> None:
        """Raise the refusal of the first of these fields that was refused (in the protocol's order).

        Raises:
            Refusal: that field's.
        """
        for name, refusal in self.problems:
            if name in names:
                raise refusal

    @property
    def valid(self) -> bool:
        """Whether every field was accepted (what the server's room may still refuse aside)."""
        return not self.problems


class _Problems(list[tuple[str, Refusal]]):
    """The refusals found while reading a message, in the order the protocol reports them."""

    def run(self, name: str, read: Any, *args: Any) -> Any:
        """``read(*args)``, or None with its refusal kept under ``name``."""
        try:
            return read(*args)
        except Refusal as exc:
            self.append((name, exc))
            return None


def seat_name(value: Any, where: str) -> str:
    """A name a client gives a seat without a profile: trimmed, ``""`` for none, else held to the rules
    of players' names (`profiles.name_problem`).

    Raises:
        Refusal: ``bad_message`` (not text, a lone surrogate, a control character) or ``bad_name``.
    """
    if not isinstance(value, str):
        raise Refusal("bad_message", f"{where} must be text")
    problem = text_problem(value)
    if problem is not None:
        raise Refusal("bad_message", f"{where} holds {problem}; send plain text")
    name = value.strip()
    if not name:
        return ""
    refused = name_problem(name)
    if refused is not None:
        raise Refusal("bad_name", f"{where}: {refused[1]}", reason=refused[0])
    return name


def _request(data: dict[str, Any]) -> str | None:
    request = data.get("request")
    if request is None:
        return None
    if not isinstance(request, str) or not REQUEST_ID.fullmatch(request):
        raise Refusal("bad_message", "request must be 8 to 64 printable ASCII characters (a random id)")
    return request


def _names(data: dict[str, Any], problems: _Problems) -> tuple[str | None, str]:
    """A create's or claim's ``name``: as sent (text, or None), and as a seat's name without a
    profile; refused as a seat's name (``name``) and as text after hello (``name_text``)."""
    value = data.get("name", "")
    given = value if isinstance(value, str) and "name" in data else None
    problems.run("name_text", checked_text, value, "name", MAX_NAME)
    return given, problems.run("name", seat_name, value, "name") or ""


@dataclass(frozen=True, kw_only=True)
class SeatRequest(Message):
    """A seat of a ``create``: ``{"kind": "human", "name"?}`` or ``{"kind": "computer", "level"}``."""

    kind: str = wire(omit=False, enum=list(SEAT_KINDS))
    level: str | None = wire(enum=list(LEVELS))
    name: str | None = wire(maxLength=MAX_NAME)
    seat_name: str = derived("")  # the name trimmed ("" for none)

    @classmethod
    def read_all(cls, value: Any) -> tuple[SeatRequest, ...]:
        """The seats of a ``create``.

        Raises:
            Refusal: not a non-empty list of human and computer seats of known levels (``bad_message``),
                a name the rules of names refuse (``bad_name``), or no human seat (``bad_rules``).
        """
        if not isinstance(value, list) or not value:
            raise Refusal("bad_message", "seats must be a non-empty list")
        seats = []
        for i, raw in enumerate(value):
            if not isinstance(raw, dict) or raw.get("kind") not in SEAT_KINDS:
                raise Refusal("bad_message", f"seat {i} must be {{\"kind\": \"human\"}} or a computer")
            level = raw.get("level", "medium")
            if raw["kind"] == "computer" and level not in LEVELS:
                raise Refusal("bad_message", f"seat {i}: level must be one of {', '.join(LEVELS)}")
            name = seat_name(raw.get("name", ""), f"seat {i}: name")
            seats.append(cls(kind=raw["kind"], level=raw.get("level") if isinstance(raw.get("level"), str)
                             else None, name=raw.get("name") if isinstance(raw.get("name"), str) else None,
                             seat_name=name))
        if not any(s.kind == "human" for s in seats):
            raise Refusal("bad_rules", "a room needs at least one human seat")
        return tuple(seats)

    @property
    def computer_level(self) -> str:
        """The level the seat plays at (a human seat's is ``medium``, as it is stored)."""
        return self.level if self.kind == "computer" and self.level is not None else "medium"


@dataclass(frozen=True, kw_only=True)
class Create(ClientMessage):
    """Make a room (private unless ``public``) and claim its first human seat."""

    TYPE: ClassVar[str] = "create"
    preset: str = wire(omit=False)
    options: dict[str, Any] | None = wire()
    name: str | None = wire(maxLength=MAX_NAME)
    seats: tuple[SeatRequest, ...] = wire(omit=False, minItems=1, maxItems=MAX_PLAYERS)
    public: bool | None = wire()
    request: str | None = wire(pattern=REQUEST_ID.pattern)
    rules: Rules | None = derived()  # the preset with its options, once accepted
    seat_name: str = derived("")  # the creator's name without a profile, trimmed

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Create:
        problems = _Problems()
        request = problems.run("request", _request, data)
        rules: Rules | None = None
        seats: tuple[SeatRequest, ...] = ()
        try:
            rules = rules_from_json({"preset": data.get("preset"), "options": data.get("options", {})})
            seats = SeatRequest.read_all(data.get("seats"))
            rules.check_players(len(seats))
        except WireError as exc:
            problems.append(("rules", Refusal("bad_rules", str(exc))))
        except Refusal as exc:
            problems.append(("rules", exc))
        except ValueError as exc:  # RulesError: the seating
            problems.append(("rules", Refusal("bad_rules", str(exc))))
        given, name = _names(data, problems)
        public = data.get("public", False)
        if type(public) is not bool:
            problems.append(("public", Refusal("bad_message", "public must be true or false")))
        preset, options = data.get("preset"), data.get("options")
        return cls(ref=ref, problems=tuple(problems), preset=preset if isinstance(preset, str) else "",
                   options=options if isinstance(options, dict) else None, name=given, seats=seats,
                   public=data["public"] if "public" in data and type(public) is bool else None,
                   request=request, rules=rules if seats else None, seat_name=name)


@dataclass(frozen=True, kw_only=True)
class Join(ClientMessage):
    """Take back a seat with its key, or claim a free one (``seat``: that one)."""

    TYPE: ClassVar[str] = "join"
    room: str | None = wire(omit=False)
    seat: int | None = wire(minimum=0)
    key: str | None = wire()
    name: str | None = wire(maxLength=MAX_NAME)
    request: str | None = wire(pattern=REQUEST_ID.pattern)
    seat_name: str = derived("")

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Join:
        problems = _Problems()
        request = problems.run("request", _request, data)
        room, seat, key = data.get("room"), data.get("seat"), data.get("key")
        if seat is not None and type(seat) is not int:
            problems.append(("seat", Refusal("bad_message", "seat must be a number")))
            seat = None
        given, name = _names(data, problems)
        return cls(ref=ref, problems=tuple(problems), room=room if isinstance(room, str) else None, seat=seat,
                   key=key if isinstance(key, str) or key is None else "",  # "" opens nothing: bad_key
                   name=given, request=request, seat_name=name)


@dataclass(frozen=True, kw_only=True)
class ActionMessage(ClientMessage):
    """The sender's seat acts (``action`` in the replay notation)."""

    TYPE: ClassVar[str] = "action"
    action: str = wire(omit=False)
    move: Action | None = derived()

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> ActionMessage:
        text, move, problem = data.get("action"), None, None
        if not isinstance(text, str):
            problem = Refusal("bad_message", "action must be text, e.g. \"play 7H\"")
        elif (found := text_problem(text[:MAX_ACTION])) is not None:
            problem = Refusal("bad_message", f"action holds {found}; send its notation, e.g. \"play 7H\"")
        else:
            try:
                move = parse_action(text)
            except ValueError as exc:
                problem = Refusal("bad_message", str(exc))
        return cls(ref=ref, problems=(("action", problem),) if problem else (),
                   action=text if isinstance(text, str) else "", move=move)


def _flag(data: dict[str, Any], name: str, default: bool | None, problems: _Problems) -> bool | None:
    value = data.get(name, default)
    if type(value) is not bool:
        problems.append((name, Refusal("bad_message", f"{name} must be true or false")))
        return None
    return data.get(name)


@dataclass(frozen=True, kw_only=True)
class Autopilot(ClientMessage):
    """The server plays the sender's turns (``on``), or gives them back."""

    TYPE: ClassVar[str] = "autopilot"
    on: bool = wire(omit=False)

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Autopilot:
        problems = _Problems()
        on = _flag(data, "on", None, problems)
        return cls(ref=ref, problems=tuple(problems), on=bool(on))


@dataclass(frozen=True, kw_only=True)
class AcceptRound(ClientMessage):
    """The sender is ready for the next deal."""

    TYPE: ClassVar[str] = "accept_round"


@dataclass(frozen=True, kw_only=True)
class Leave(ClientMessage):
    """Detach from the seat (it waits for a reconnection); the server answers ``left`` and closes."""

    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, kw_only=True)
class Ping(ClientMessage):
    """Answered ``pong``."""

    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class Hello(ClientMessage):
    """The connection speaks for the player whose key this is (``name``, ``avatar``: a new profile's)."""

    TYPE: ClassVar[str] = "hello"
    player: str = wire(omit=False, pattern="^[A-Za-z0-9_-]{32,128}$")
    avatar: int | None = wire(minimum=0, maximum=15)
    name: str | None = wire(maxLength=MAX_NAME)
    player_id: str = derived("")  # the key's digest
    profile_name: str = derived(DEFAULT_NAME)  # the name trimmed, or the default
    profile_avatar: int = derived(DEFAULT_AVATAR)

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Hello:
        problems = _Problems()
        player = data.get("player")
        digest = problems.run("player", player_id, player)
        name = problems.run("name", check_name, data["name"]) if "name" in data else DEFAULT_NAME
        avatar = problems.run("avatar", check_avatar, data["avatar"]) if "avatar" in data else DEFAULT_AVATAR
        given_name, given_avatar = data.get("name"), data.get("avatar")
        return cls(ref=ref, problems=tuple(problems), player=player if isinstance(player, str) else "",
                   avatar=given_avatar if type(given_avatar) is int else None,
                   name=given_name if isinstance(given_name, str) else None, player_id=digest or "",
                   profile_name=name or DEFAULT_NAME,
                   profile_avatar=DEFAULT_AVATAR if avatar is None else avatar)


@dataclass(frozen=True, kw_only=True)
class ChangeProfile(ClientMessage):
    """Change the player's name or avatar (at least one)."""

    TYPE: ClassVar[str] = "profile"
    name: str | None = wire(maxLength=MAX_NAME)
    avatar: int | None = wire(minimum=0, maximum=15)
    new_name: str | None = derived()  # trimmed
    new_avatar: int | None = derived()

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> ChangeProfile:
        problems = _Problems()
        if "name" not in data and "avatar" not in data:
            problems.append(("fields", Refusal("bad_message", "profile changes name, avatar or both")))
        name = problems.run("name", check_name, data["name"]) if "name" in data else None
        avatar = problems.run("avatar", check_avatar, data["avatar"]) if "avatar" in data else None
        return cls(ref=ref, problems=tuple(problems),
                   name=data["name"] if isinstance(data.get("name"), str) else None,
                   avatar=data["avatar"] if type(data.get("avatar")) is int else None,
                   new_name=name, new_avatar=avatar)


@dataclass(frozen=True, kw_only=True)
class Lobby(ClientMessage):
    """The public rooms, and their changes while ``watch`` (true when left out)."""

    TYPE: ClassVar[str] = "lobby"
    watch: bool | None = wire()

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Lobby:
        problems = _Problems()
        watch = _flag(data, "watch", True, problems)
        return cls(ref=ref, problems=tuple(problems), watch=watch)

    @property
    def watching(self) -> bool:
        """Whether the sender watches the lobby from now on."""
        return self.watch is not False


@dataclass(frozen=True, kw_only=True)
class Queue(ClientMessage):
    """Quick match: wait for a table of these rules and players."""

    TYPE: ClassVar[str] = "queue"
    preset: str = wire(omit=False)
    options: dict[str, Any] | None = wire()
    players: int = wire(omit=False, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    computers: bool | None = wire()
    wait: float | None = wire(minimum=MIN_WAIT, maximum=MAX_WAIT)
    rules: Rules | None = derived()

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Queue:
        problems = _Problems()
        rules = None
        try:
            rules = rules_from_json({"preset": data.get("preset"), "options": data.get("options", {})})
        except WireError as exc:
            problems.append(("rules", Refusal("bad_rules", str(exc))))
        players = data.get("players")
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            problems.append(("players", Refusal("bad_message", f"players must be a whole number from 2 to "
                                                               f"{MAX_PLAYERS}")))
            players = 0
        elif rules is not None:
            try:
                rules.check_players(players)
            except ValueError as exc:
                problems.append(("rules", Refusal("bad_rules", str(exc))))
        computers = _flag(data, "computers", False, problems)
        wait = data.get("wait", DEFAULT_WAIT)
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not MIN_WAIT <= wait <= MAX_WAIT:
            problems.append(("wait", Refusal("bad_message", f"wait must be a number of seconds from "
                                                            f"{MIN_WAIT:g} to {MAX_WAIT:g}")))
            wait = None
        preset, options = data.get("preset"), data.get("options")
        return cls(ref=ref, problems=tuple(problems), preset=preset if isinstance(preset, str) else "",
                   options=options if isinstance(options, dict) else None, players=players,
                   computers=computers, wait=wait if "wait" in data else None,
                   rules=rules)

    @property
    def seconds(self) -> float:
        """How long the player waits for people before computers fill the table."""
        return float(self.wait) if self.wait is not None else DEFAULT_WAIT


@dataclass(frozen=True, kw_only=True)
class Unqueue(ClientMessage):
    """Leave the queue at once."""

    TYPE: ClassVar[str] = "unqueue"


@dataclass(frozen=True, kw_only=True)
class Leaderboard(ClientMessage):
    """The top players of a rule set."""

    TYPE: ClassVar[str] = "leaderboard"
    preset: str = wire(omit=False)

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Leaderboard:
        preset = known_preset(data.get("preset"))
        problem = Refusal("bad_rules", "preset must name a rule set: duel, classic, points, colors or action")
        return cls(ref=ref, problems=(("preset", problem),) if preset is None else (), preset=preset or "")


@dataclass(frozen=True, kw_only=True)
class History(ClientMessage):
    """The sender's ranked games (of one rule set, or all)."""

    TYPE: ClassVar[str] = "history"
    preset: str | None = wire()

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> History:
        given = data.get("preset")
        preset = known_preset(given)
        if given is not None and preset is None:
            problem = Refusal("bad_rules", "preset must name a rule set, or be left out for all of them")
            return cls(ref=ref, problems=(("preset", problem),))
        return cls(ref=ref, preset=preset)


@dataclass(frozen=True, kw_only=True)
class Vote(ClientMessage):
    """Vote on penalising the abandon of ``seat`` (its range is the room's: the handler checks it)."""

    TYPE: ClassVar[str] = "vote"
    seat: int | None = wire(omit=False, minimum=0)
    penalise: bool = wire(omit=False)

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> Vote:
        problems = _Problems()
        seat = data.get("seat")
        penalise = _flag(data, "penalise", None, problems)
        return cls(ref=ref, problems=tuple(problems), seat=seat if type(seat) is int else None,
                   penalise=bool(penalise))


CLIENT_MESSAGES: Final[dict[str, type[ClientMessage]]] = {
    cls.TYPE: cls for cls in (Create, Join, ActionMessage, Autopilot, AcceptRound, Leave, Ping, Hello,
                              ChangeProfile, Lobby, Queue, Unqueue, Leaderboard, History, Vote)}
assert tuple(CLIENT_MESSAGES) == TYPES  # the unknown_type refusal lists them in this order


def valid_ref(ref: Any) -> bool:
    """Whether ``ref`` may be carried back: a string (plain text) or a number, of at most 64 characters."""
    return (isinstance(ref, int | str) and len(str(ref)) <= MAX_REF
            and not (isinstance(ref, str) and text_problem(ref)))


def decode(frame: str | bytes) -> ClientMessage:
    """Read one client frame into its message.

    Raises:
        Refusal: the frame is too large, binary, not a JSON object, of another version or an unknown
            type, or its ``ref`` is not one to carry back (``bad_message``). A field the message's
            type refuses is kept with it (`ClientMessage.check`), never raised here.
    """
    data = read_frame(frame)
    ref = data.get("ref")
    if ref is not None and not valid_ref(ref):
        raise Refusal("bad_message", "ref must be a string (plain text) or number of at most 64 characters")
    return CLIENT_MESSAGES[data["type"]].read(data, ref)


# ---- server → client -----------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ServerMessage(Message):
    """A message the server sends; the game reads one with `read_server`."""

    DIRECTION: ClassVar[str] = "server"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerMessage:
        """The message a server's JSON object holds, read leniently: a field of the wrong kind is
        None (the readers of each field decide what that shows), the frame is kept."""
        declared = field_types(cls)
        values = {}
        for f in cls.wire_fields():
            value = data.get(f.name)
            values[f.name] = value if _fits(value, declared[f.name]) else None
        return cls(**values)


def field_types(cls: type[Message]) -> dict[str, Any]:
    """The declared type of each of a message's fields (its annotations, resolved)."""
    cached = _TYPES.get(cls)
    if cached is None:
        cached = _TYPES[cls] = typing.get_type_hints(cls)
    return cached


_TYPES: dict[type[Message], dict[str, Any]] = {}


def _fits(value: Any, annotation: Any) -> bool:
    """Whether a JSON value is of a declared type, by its outer kind (what a list or an object holds
    is for its readers to check); a bool is no number."""
    if annotation is Any:
        return True
    options = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
    for option in options:
        kind = typing.get_origin(option) or option
        if option is type(None):
            if value is None:
                return True
        elif kind is tuple or kind is list:
            if isinstance(value, list):
                return True
        elif kind is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return True
        elif kind is int:
            if isinstance(value, int) and (type(value) is int or option is not int):
                return True
        elif isinstance(kind, type) and isinstance(value, kind):
            return True
    return False


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


@dataclass(frozen=True, kw_only=True)
class Update(ServerMessage):
    """A seat's view and the events since its last update (redacted for it)."""

    TYPE: ClassVar[str] = "update"
    room: str = wire(omit=False)
    view: dict[str, Any] = wire(omit=False)
    events: list[dict[str, Any]] = wire(omit=False)
    timer: float | None = wire(omit=False, minimum=0)
    autopilot: bool = wire(omit=False)
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


@dataclass(frozen=True, kw_only=True)
class LobbyListing(ServerMessage):
    """The public rooms, waiting longest first, and the server's time."""

    TYPE: ClassVar[str] = "lobby"
    rooms: list[dict[str, Any]] = wire(omit=False, maxItems=100)
    listed: int = wire(omit=False)
    now: float = wire(omit=False)


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


@dataclass(frozen=True, kw_only=True)
class HistoryAnswer(ServerMessage):
    """The asker's latest 50 ranked games, newest first."""

    TYPE: ClassVar[str] = "history"
    games: list[dict[str, Any]] = wire(omit=False, maxItems=50)
    ref: Ref | None = wire()


SERVER_MESSAGES: Final[dict[str, type[ServerMessage]]] = {
    cls.TYPE: cls for cls in (Joined, RoomStatus, Update, Error, Pong, Left, PlayerProfile, LobbyListing,
                              Queued, Unqueued, LeaderboardAnswer, HistoryAnswer)}


def read_server(data: Any) -> ServerMessage | None:
    """A server's JSON value as its message, or None when it is none this game knows (not an object,
    an unknown type). Fields of the wrong kind read as None (`ServerMessage.from_json`)."""
    if not isinstance(data, dict):
        return None
    cls = SERVER_MESSAGES.get(data.get("type"))  # type: ignore[arg-type]
    return None if cls is None else cls.from_json(data)
