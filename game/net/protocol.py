"""The protocol's limits, one connection's state, and reading a client's message.

See docs/protocol.md. A message is refused (`Refusal`, an error reply naming the
problem) when it is over `MAX_MESSAGE` bytes, binary, not a JSON object, of another
protocol version or of an unknown type; a connection may send `RATE` messages a
second, in bursts of `BURST` (by the server's clock, `game.net.clock`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .rooms import Room

PROTOCOL: Final = 1
MAX_MESSAGE: Final = 8 * 1024  # bytes of one message we read; bigger ones get an error
MAX_FRAME: Final = 1 << 20  # frames over this close the connection (websockets' own limit)
RATE: Final = 20.0  # messages a second a connection may send, sustained
BURST: Final = 40.0
TYPES: Final = ("create", "join", "action", "autopilot", "accept_round", "leave", "ping")



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
    warned: float = float("-inf")  # when it was last told it floods
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def __post_init__(self) -> None:
        self.stamp = self.now()

    def allow(self) -> bool:
        """Take one message from the token bucket; False when the sender is flooding."""
        now = self.now()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Refusal(Exception):
    """An error reply: the protocol's code and a sentence, plus extra fields."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra


def decode(message: str | bytes) -> dict[str, Any]:
    """Read one client message.

    Raises:
        Refusal: too large, binary, not JSON, not an object, the wrong version or type.
    """
    if len(message) > MAX_MESSAGE:
        raise Refusal("too_large",
                      f"messages are at most {MAX_MESSAGE} bytes; this one was {len(message)}")
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
    if data.get("v") != PROTOCOL:
        raise Refusal("version",
                      f"this server speaks protocol version {PROTOCOL}; send \"v\": {PROTOCOL}")
    if data.get("type") not in TYPES:
        raise Refusal("unknown_type", f"unknown message type {data.get('type')!r:.40}; "
                                      f"expected one of {', '.join(TYPES)}")
    return data


def plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """A refusal's values as JSON-ready scalars."""
    return {k: (v if isinstance(v, int | str | bool | None) else str(v)) for k, v in values.items()}


