"""The messages a client sends (protocol 2), and `decode`: a client's frame read once, at the server's edge.

What makes a whole frame unreadable (too large, binary, not a JSON object, another
version, an unknown type: `protocol.decode`; a ``ref`` that cannot be carried back)
raises a `Refusal` at once. A field the message's type refuses does not: the refusal
is kept with the message (`ClientMessage.problems`) and raised by `ClientMessage.check`
when the handler comes to that field, so the server answers exactly as protocol 2
always did when a message is wrong in several ways at once (a connection that holds no
seat hears ``not_joined`` for an ``action`` whose action is not text). A ``create`` is
checked whole here: its rules, its seats (`SeatRequest`) and whether the rules seat them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from game.ai import LEVELS
from game.engine import Action, Rules, parse_action

from .message_fields import Message, Ref, derived, wire
from .profiles import (
    DEFAULT_AVATAR,
    DEFAULT_NAME,
    MAX_NAME,
    check_avatar,
    check_name,
    name_problem,
    player_id,
)
from .protocol import LATER_TYPES, TYPES, Refusal, checked_text, text_problem
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
REACTIONS: Final = ("hello", "well_played", "thanks", "oops", "hurry", "wow", "sorry", "good_game")
"""The quick reactions a seated player may send (`React`): ids, never text; each game says them in
its own language. New ids go at the end (an old game shows an id it does not know as nothing)."""


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
    return check_name(name)  # NFC, as a profile's


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


@dataclass(frozen=True, kw_only=True)
class React(ClientMessage):
    """A quick reaction to the sender's room: an id of `REACTIONS`, nothing else (any other field,
    a text or another room, is never read)."""

    TYPE: ClassVar[str] = "react"
    reaction: str = wire(omit=False, enum=list(REACTIONS))

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> React:
        reaction = data.get("reaction")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            problem = Refusal("bad_message", f"reaction must be one of {', '.join(REACTIONS)}")
            return cls(ref=ref, problems=(("reaction", problem),))
        return cls(ref=ref, reaction=reaction)


@dataclass(frozen=True, kw_only=True)
class FreeSeat(ClientMessage):
    """The owner of a public room waiting for players gives ``seat`` back (its range is the room's:
    the handler checks it)."""

    TYPE: ClassVar[str] = "free_seat"
    seat: int | None = wire(omit=False, minimum=0)

    @classmethod
    def read(cls, data: dict[str, Any], ref: Ref | None) -> FreeSeat:
        seat = data.get("seat")
        if type(seat) is not int:
            return cls(ref=ref, problems=(("seat", Refusal("bad_message", "seat must be a number")),))
        return cls(ref=ref, seat=seat)


CLIENT_MESSAGES: Final[dict[str, type[ClientMessage]]] = {
    cls.TYPE: cls for cls in (Create, Join, ActionMessage, Autopilot, AcceptRound, Leave, Ping, Hello,
                              ChangeProfile, Lobby, Queue, Unqueue, Leaderboard, History, Vote, React,
                              FreeSeat)}
assert tuple(CLIENT_MESSAGES) == TYPES + LATER_TYPES  # the unknown_type refusal lists TYPES in this order


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
