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
writes exactly the frame it always sent. The game reads them with `from_server`, as
leniently as it always did (a server is not trusted: a frame of the wrong shape is
dropped, a field of the wrong kind is read as a neutral value, never a crash).

Nested values (a view, events, rules' options, a room's seats and results, listings)
stay JSON built and read by `game.net.wire` and the modules that own them; their
shapes are in docs/protocol.md.

This module is where the messages are imported from: the client's are defined in
`requests`, the server's in `replies`, the frame they share in `message_fields`.
"""

from __future__ import annotations

from .message_fields import Message, Ref, derived, field_types, wire
from .replies import (
    SERVER_MESSAGES,
    Error,
    HistoryAnswer,
    Joined,
    LeaderboardAnswer,
    Left,
    LobbyListing,
    PlayerProfile,
    Pong,
    Queued,
    Reaction,
    RoomStatus,
    ServerMessage,
    Unqueued,
    Update,
    from_server,
)
from .requests import (
    CLIENT_MESSAGES,
    DEFAULT_WAIT,
    MAX_ACTION,
    MAX_PLAYERS,
    MAX_REF,
    MAX_WAIT,
    MIN_PLAYERS,
    MIN_WAIT,
    REACTIONS,
    REQUEST_ID,
    SEAT_KINDS,
    AcceptRound,
    ActionMessage,
    Autopilot,
    ChangeProfile,
    ClientMessage,
    Create,
    FreeSeat,
    Hello,
    History,
    Join,
    Leaderboard,
    Leave,
    Lobby,
    Ping,
    Queue,
    React,
    SeatRequest,
    Unqueue,
    Vote,
    decode,
    seat_name,
    valid_ref,
)

__all__ = [
    "AcceptRound", "ActionMessage", "Autopilot", "CLIENT_MESSAGES", "ChangeProfile",
    "ClientMessage", "Create", "DEFAULT_WAIT", "Error", "FreeSeat", "Hello", "History", "HistoryAnswer",
    "Join",
    "Joined", "Leaderboard", "LeaderboardAnswer", "Leave", "Left", "Lobby", "LobbyListing",
    "MAX_ACTION", "MAX_PLAYERS", "MAX_REF", "MAX_WAIT", "MIN_PLAYERS", "MIN_WAIT",
    "Message", "Ping", "PlayerProfile", "Pong", "Queue", "Queued", "REACTIONS", "REQUEST_ID", "React",
    "Reaction", "Ref",
    "RoomStatus", "SEAT_KINDS", "SERVER_MESSAGES", "SeatRequest", "ServerMessage", "Unqueue",
    "Unqueued", "Update", "Vote", "decode", "derived", "field_types", "from_server", "seat_name",
    "valid_ref", "wire"]
