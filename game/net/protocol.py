"""The protocol's limits, one connection's state, and reading a client's message.

See docs/protocol.md. A message is refused (`Refusal`, an error reply naming the
problem) when it is over `MAX_MESSAGE` bytes (of UTF-8, not characters), binary, not
a JSON object, of another protocol version (``"v"`` is the whole number `PROTOCOL`,
2: not ``true``, not ``2.0``; a version-1 game is told to update) or of an unknown
type; a connection may send `RATE` messages a second, in bursts of `BURST` (by the
server's clock, `game.net.clock`). Past that, a
second allowance of the same size answers each message with ``rate_limited`` (its
``ref`` carried back); the first message past both closes the connection (`Client.flooding`:
an error ``flooding``, then close code `FLOOD_CLOSE`), and nothing it sends after is read,
so a flood costs the server a bounded amount of work: at most twice the allowance, then a
new connection's handshake.

Text a client sends that the server keeps, shows to others or encodes (names, keys)
is read with `checked_text`: a lone surrogate (``"\ud800"``, which JSON allows and
UTF-8 cannot encode) or a control character is a refusal naming the field, never an
exception further in.
"""

from __future__ import annotations

import asyncio
import json
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .defaults import RATE as RATE  # messages a second a connection may send, sustained

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .profiles import Profile
    from .rooms import Room

PROTOCOL: Final = 2
MAX_MESSAGE: Final = 8 * 1024  # bytes of one message we read; bigger ones get an error
MAX_FRAME: Final = 1 << 20  # frames over this close the connection (websockets' own limit)
BURST: Final = 40.0
FLOOD_CLOSE: Final = 1008  # the close code of a flooding connection (WebSocket's "policy violation")
COSTLY_RATE: Final = 1.0  # answers that cost the server more (a lobby, a leaderboard, a history) a second
COSTLY_BURST: Final = 5.0
TYPES: Final = ("create", "join", "action", "autopilot", "accept_round", "leave", "ping",
                 # version 2: players, the lobby, quick match, the ranking
                 "hello", "profile", "lobby", "queue", "unqueue", "leaderboard", "history", "vote")
LATER_TYPES: Final = ("react", "free_seat")
"""Types protocol 2 gained later (quick reactions, an owner freeing a seat). They are read like
the others; the ``unknown_type`` sentence keeps listing `TYPES` alone, word for word as the recorded sessions
(tests/data/protocol) have it, since games already out there may show it."""



@dataclass(eq=False)
class Client:
    """One connection, the seat it holds, and its message allowance.

    ``now`` is the clock the allowance refills by (the server passes its own clock's).
    """

    ws: ServerConnection
    rate: float = RATE
    burst: float = BURST
    room: Room | None = None
    seat: int | None = None
    tokens: float = BURST
    now: Callable[[], float] = time.monotonic
    stamp: float = field(init=False)  # when the bucket was last filled
    refusals: float = BURST  # the second allowance: floods answered with rate_limited
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    closing: bool = False  # the server is closing it: what it sends is no longer read
    flooding: bool = False  # closed for sending past both allowances (`FLOOD_CLOSE`)
    counted: bool = True  # held to the per-address connection cap and flood cool-down (not loopback)
    address: str = "?"  # where it comes from (through a trusted proxy: the client's address)
    profile: Profile | None = None  # the player it speaks for, once it said hello
    costly: float = COSTLY_BURST  # the allowance of costly answers (`allow_costly`)
    costly_stamp: float | None = None
    seated_at: float = 0.0  # when (wall clock) it was attached to its seat: the newer of two connections wins
    # Its own create or join is under way (it may span a commit on a worker thread): quick match
    # seats it nowhere meanwhile (`roomservice.RoomService.may_seat`).
    seating: bool = False
    gone: bool = False  # its connection ended: it is attached to no seat any more

    def __post_init__(self) -> None:
        self.stamp = self.now()
        self.refusals = self.burst

    def allow(self) -> bool:
        """Take one message from the token bucket; False when the sender is flooding."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def may_refuse(self) -> bool:
        """Whether a message past the limit is still answered (``rate_limited``) rather than
        dropped: a second bucket, of the same rate and burst as the first."""
        self._refill()
        if self.refusals < 1:
            return False
        self.refusals -= 1
        return True

    def allow_costly(self) -> bool:
        """Take one costly answer (a listing, a leaderboard, a history: up to 100 lines read and
        sent) from its own allowance, `COSTLY_RATE` a second in bursts of `COSTLY_BURST`."""
        now = self.now()
        if self.costly_stamp is not None:
            self.costly = min(COSTLY_BURST, self.costly + (now - self.costly_stamp) * COSTLY_RATE)
        self.costly_stamp = now
        if self.costly < 1:
            return False
        self.costly -= 1
        return True

    def _refill(self) -> None:
        now = self.now()
        gained = (now - self.stamp) * self.rate
        self.stamp = now
        self.tokens = min(self.burst, self.tokens + gained)
        self.refusals = min(self.burst, self.refusals + gained)


class Refusal(Exception):
    """An error reply: the protocol's code and a sentence, plus extra fields."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra


def not_stored() -> Refusal:
    """The refusal of a change the server's store could not keep (nothing of it was kept)."""
    return Refusal("server_error", "the server could not store that; please try again")


def decode(message: str | bytes) -> dict[str, Any]:
    """Read one client message.

    Raises:
        Refusal: too large, binary, not JSON, not an object, the wrong version or type.
    """
    size = message_size(message)
    if size > MAX_MESSAGE:
        # A text of more characters than the limit is not encoded to count it: it has at least
        # as many bytes as characters.
        least = "at least " if isinstance(message, str) and len(message) > MAX_MESSAGE else ""
        raise Refusal("too_large", f"messages are at most {MAX_MESSAGE} bytes of UTF-8; this one has "
                                   f"{least}{size:,} bytes")
    if isinstance(message, bytes):
        raise Refusal("bad_json", "messages are JSON text, not binary frames")
    try:
        data = json.loads(message)
    except ValueError as exc:
        raise Refusal("bad_json", f"not JSON: {exc}") from None
    except RecursionError:
        raise Refusal("bad_json", "the JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise Refusal("bad_json", "a message is a JSON object")
    version = data.get("v")
    if type(version) is not int or version != PROTOCOL:  # not True, not 1.0: the whole number
        if type(version) is int and 0 < version < PROTOCOL:
            raise Refusal("version", f"this server speaks protocol version {PROTOCOL} and this game "
                                     f"version {version}: update Huit to play here", server=PROTOCOL)
        raise Refusal("version",
                      f"this server speaks protocol version {PROTOCOL}; send \"v\": {PROTOCOL}",
                      server=PROTOCOL)
    if data.get("type") not in TYPES and data.get("type") not in LATER_TYPES:
        raise Refusal("unknown_type", f"unknown message type {data.get('type')!r:.40}; "
                                      f"expected one of {', '.join(TYPES)}")
    return data


def read_ref(message: str | bytes) -> int | str | None:
    """The ``ref`` of a message the server will not act on (past the rate limit), so that its
    refusal can carry it; None when there is none that could be read."""
    if isinstance(message, bytes) or message_size(message) > MAX_MESSAGE:
        return None
    try:
        data = json.loads(message)
    except (ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, int | str) or len(str(ref)) > 64:
        return None
    if isinstance(ref, str) and text_problem(ref) is not None:
        return None
    return ref


def message_size(message: str | bytes) -> int:
    """A message's size in bytes as it came on the wire (UTF-8 for text); a text of more
    characters than `MAX_MESSAGE` is too large whatever it holds, and is not encoded to
    count it (its number of characters is returned: at most its bytes)."""
    if isinstance(message, bytes) or len(message) > MAX_MESSAGE:
        return len(message)
    return len(message.encode("utf-8", "surrogatepass"))


def text_problem(text: str) -> str | None:
    """What makes ``text`` unfit to keep, show or encode, or None: a lone surrogate (JSON
    allows ``"\\ud800"``, UTF-8 cannot encode it) or a control character."""
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cs", "Cc"):
            what = "a lone surrogate" if category == "Cs" else "a control character"
            return f"{what} (U+{ord(char):04X})"
    return None


def checked_text(value: Any, name: str, limit: int) -> str:
    """``value`` as a text field the server keeps or shows: a string, cut to ``limit``
    characters (as names always were), without a lone surrogate or a control character.

    Raises:
        Refusal: ``bad_message`` naming the field.
    """
    if not isinstance(value, str):
        raise Refusal("bad_message", f"{name} must be text")
    text = value[:limit]
    problem = text_problem(text)
    if problem is not None:
        raise Refusal("bad_message", f"{name} holds {problem}; send plain text")
    return text


def plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """A refusal's values as JSON-ready scalars."""
    return {k: (v if isinstance(v, int | str | bool | None) else str(v)) for k, v in values.items()}


