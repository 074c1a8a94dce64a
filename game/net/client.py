"""The client side of the online protocol: room links and a self-healing connection.

The links (`links`: ``huit://``, ``huits://`` and the room pages' ``https://…/r/ROOM``)
are read and written there; this module re-exports their names. A `RoomConnection`
talks to a room server (``docs/protocol.md``) from a background thread with its own
asyncio loop, so the game's main thread never waits on the network: it calls
`RoomConnection.send` and collects what arrived with `RoomConnection.poll`. When an
established connection drops, it reconnects with exponential backoff and joins its
seat again with the stored room, seat and key.

Over TLS (a ``huits://`` or ``https://`` link) it connects with ``wss://`` and checks the
server's certificate against the system's certificate authorities, plus the one named
by the ``HUIT_CA_FILE`` environment variable if set (a club's own authority, or a
test's); `tls_context` makes that context.

Seat keys are secrets: they are kept here to rejoin, handed to the caller in the
``joined`` message, and never printed or logged (the websockets frame log is kept
off for this reason). So is the player key: given as ``player``, the connection says
``hello`` with it first on every session (protocol version 2: the server then knows
the player, their name, tag and avatar). A server that knew the player already keeps
the name and avatar it had: so before its own first message, the connection waits for
the server's ``profile`` and, when it says another name or avatar than the hello's (the
player changed them on this device since), sends a ``profile`` change (`profile_change`)
first, so a seat it claims next shows the player as they are now, whichever screen
opened the connection.

Messages are `game.net.messages` types both ways: the game sends only those
(`RoomConnection.send`) and reads the server's as types, read leniently
(`messages.from_server`) by `RoomConnection.poll_messages`. The raw side (a plain ``dict``
sent as it is, with the protocol version added; `RoomConnection.poll` handing back the
JSON objects as they came) is for tests and tools that speak the protocol by hand,
hostile frames included.
No pygame here: `game.client` draws, this module talks.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import os
import re
import secrets
import socket
import ssl
import threading
from collections import deque
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .links import (
    MAX_LINK,
    ROOM_ID,
    SCHEME,
    TLS_SCHEME,
    RoomLink,
    Server,
    check_link_length,
    make_link,
    page_link,
    parse_address,
    parse_link,
    read_link,
    read_server,
    server_text,
    websocket_url,
)
from .messages import (
    ChangeProfile,
    ClientMessage,
    Create,
    Error,
    Hello,
    Join,
    Joined,
    Leave,
    PlayerProfile,
    ServerMessage,
    from_server,
)

__all__ = ["CLOSED", "CONNECTED", "CONNECTING", "MAX_LINK", "RECONNECTING", "ROOM_ID", "SCHEME",
           "TLS_SCHEME", "RoomConnection", "RoomLink", "Server", "check_link_length", "lan_address",
           "make_link", "page_link", "parse_address", "parse_link", "profile_change", "read_link",
           "read_message", "read_server", "server_text", "tls_context", "websocket_url"]

PROTOCOL: Final = 2
CA_FILE_VARIABLE: Final = "HUIT_CA_FILE"

CONNECTING: Final = "connecting"
CONNECTED: Final = "connected"
RECONNECTING: Final = "reconnecting"
CLOSED: Final = "closed"

FIRST_DELAY: Final = 0.5  # seconds before the first reconnection attempt; doubles up to MAX_DELAY
MAX_DELAY: Final = 10.0
MAX_FRAME: Final = 1 << 20  # the server caps its frames too; a view is a few KiB
MAX_QUEUED: Final = 64  # messages kept while reconnecting; older ones are dropped
SYNC_REF: Final = "profile-sync"
"""The ``ref`` of the profile change a connection makes by itself: the server's refusal of it
(too many changes in an hour) is logged, not handed to the screens, which never asked."""

# websockets logs every frame at DEBUG, keys included: this logger never goes below INFO.
_LOG = logging.getLogger("huit.net.client")
_LOG.setLevel(logging.INFO)


def tls_context(cafile: str | None = None) -> ssl.SSLContext:
    """How the game checks a TLS server: the system's certificate authorities, plus
    ``cafile`` (default: the file named by ``HUIT_CA_FILE``, if any).

    Raises:
        OSError, ssl.SSLError: that file cannot be read as certificates.
    """
    context = ssl.create_default_context()
    extra = cafile if cafile is not None else os.environ.get(CA_FILE_VARIABLE)
    if extra:
        context.load_verify_locations(cafile=extra)
    return context


_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_BYTES: Final = re.compile(rb"\\u[dD][89a-fA-F]")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 reads as infinity
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


def read_message(raw: str | bytes) -> Any:
    """A server's frame as JSON, strictly: ``NaN``, ``Infinity`` and ``-Infinity`` (which Python's
    reader takes, though JSON has no such numbers) and numbers too large for a float are
    refused, so no screen ever meets an infinite wait or a NaN count; and so is a lone
    surrogate (``"\\ud800"``: JSON allows the escape, but no text can be drawn or encoded with it).

    Raises:
        ValueError: not such JSON (or an integer of more digits than Python converts).
    """
    message = json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    escapes = _SURROGATE_ESCAPE.search(raw) if isinstance(raw, str) else _SURROGATE_BYTES.search(raw)
    if escapes is not None:  # (rare: only then is the whole message looked through)
        try:
            json.dumps(message, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a lone surrogate is no text") from None
    return message


def profile_change(hello: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any] | None:
    """The ``profile`` message that brings a server's word on the player (``profile``) up to
    the name and avatar this device's ``hello`` carries, or None when it says them already.

    A field the hello leaves out (a name the servers would refuse, or none) is left alone."""
    change: dict[str, Any] = {field: hello[field] for field in ("name", "avatar")
                              if field in hello and profile.get(field) != hello[field]}
    return {"type": "profile", **change} if change else None


def lan_address() -> str:
    """This computer's address on the local network, for links friends nearby can open.

    Connecting a UDP socket sends nothing; it only makes the system pick the
    interface it would route through. Without a network: ``127.0.0.1``.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if address and not address.startswith("0.") else "127.0.0.1"


class RoomConnection:
    """One seat's connection to a room server, run on a background thread.

    ``hello`` is the first message (a ``create`` or a ``join``). Once the server
    answers ``joined``, the room, seat and key are kept, and after a dropped
    connection the seat is joined again with them. Messages sent while the
    connection is down wait (up to `MAX_QUEUED`) and go after that join.

    If the very first attempt fails (no server there, a refused handshake), the
    connection closes with `problem` set rather than retrying: the person who typed
    the link wants to hear about it now.
    """

    def __init__(self, host: str, port: int, hello: ClientMessage | dict[str, Any], *, tls: bool = False,
                 cafile: str | None = None, first_delay: float = FIRST_DELAY, max_delay: float = MAX_DELAY,
                 open_timeout: float = 5.0, ping_interval: float = 5.0,
                 player: Hello | dict[str, Any] | None = None) -> None:
        self.host = host
        self.port = port
        self.tls = tls
        self._cafile = cafile
        self.url = websocket_url(host, port, tls)
        self.status = CONNECTING
        self.problem: str | None = None  # why the last attempt failed or the connection closed
        self.attempts = 0  # connection attempts that failed in a row
        room = hello.room if isinstance(hello, Join) else (
            None if isinstance(hello, ClientMessage) else hello.get("room"))
        self.room: str | None = room if isinstance(room, str) else None  # the room asked for, then joined
        self.seat: int | None = None
        self._key: str | None = None
        # ``{"type": "hello", "player": KEY, ...}``: said first on every session (the key is a secret).
        self._player = player.to_json(version=False) if isinstance(player, Hello) else (
            dict(player) if player is not None else None)
        # If the answer is lost and the hello is sent again, the server recognises it by its request
        # id and gives back the same seat and key instead of a second room or a second seat.
        if isinstance(hello, Create) or (isinstance(hello, Join) and hello.key is None):
            hello = dataclasses.replace(hello, request=secrets.token_urlsafe(16))
        elif not isinstance(hello, ClientMessage) and (
                hello.get("type") == "create" or (hello.get("type") == "join" and "key" not in hello)):
            hello = {**hello, "request": secrets.token_urlsafe(16)}
        self._hello = _frame(hello)
        self._first_delay = first_delay
        self._max_delay = max_delay
        self._open_timeout = open_timeout
        self._ping_interval = ping_interval
        # What arrived: each object, and its message (None: of a type this game does not know).
        self._inbox: deque[tuple[dict[str, Any], ServerMessage | None]] = deque()  # (thread-safe ends)
        self._outbox: deque[str] = deque(maxlen=MAX_QUEUED)  # frames to send
        self._closing = False
        self._ever_connected = False
        self._loop = asyncio.new_event_loop()
        self._wake: asyncio.Event | None = None
        self._ws: ClientConnection | None = None
        self._thread = threading.Thread(target=self._main, name="huit-net-client", daemon=True)
        self._thread.start()

    @property
    def link(self) -> str | None:
        """The game's link to the room joined (or asked for), ``huit://`` or ``huits://``."""
        return make_link(self.host, self.port, self.room, self.tls) if self.room else None

    @property
    def page(self) -> str | None:
        """The room's web page, ``https://…/r/ROOM`` (``http://`` without TLS)."""
        return page_link(self.host, self.port, self.room, self.tls) if self.room else None

    @classmethod
    def rejoin(cls, host: str, port: int, room: str, seat: int, key: str, **kwargs: Any) -> RoomConnection:
        """A connection that takes back ``seat`` of ``room`` with its ``key``."""
        connection = cls(host, port, Join(room=room, seat=seat, key=key), **kwargs)
        connection.seat, connection._key = seat, key
        return connection

    def __repr__(self) -> str:  # never the key
        return f"RoomConnection({self.url!r}, room={self.room!r}, seat={self.seat}, status={self.status!r})"

    # ---- the main thread's side --------------------------------------------------------------
    def send(self, message: ClientMessage | dict[str, Any]) -> None:
        """Send ``message`` (a plain object gets the protocol version added); queued while disconnected."""
        if self._closing:
            return
        self._outbox.append(_frame(message))
        self._nudge()

    def poll(self) -> list[dict[str, Any]]:
        """Every message received since the last call, oldest first, as its JSON object (never blocks)."""
        out = []
        while self._inbox:
            out.append(self._inbox.popleft()[0])
        return out

    def poll_messages(self) -> list[ServerMessage]:
        """Every message received since the last call, oldest first, as its type (never blocks); one
        of a type this game does not know is left out."""
        out = []
        while self._inbox:
            message = self._inbox.popleft()[1]
            if message is not None:
                out.append(message)
        return out

    @property
    def connected(self) -> bool:
        """Whether messages go out now."""
        return self.status == CONNECTED

    def close(self, *, leave: bool = False) -> None:
        """Stop for good; with ``leave``, tell the server first (the seat waits for a rejoin)."""
        if self._closing:
            return
        if leave and self.status == CONNECTED:
            self._outbox.append(Leave().encode())
        self._closing = True
        self._nudge()

    def join_thread(self, timeout: float = 2.0) -> None:
        """Wait for the background thread to finish after `close` (tests use it)."""
        self._thread.join(timeout)

    def _nudge(self) -> None:
        wake = self._wake
        if wake is None:
            return  # the thread has not started its loop yet: it sends the queue once connected
        with contextlib.suppress(RuntimeError):  # the loop already stopped
            self._loop.call_soon_threadsafe(wake.set)

    # ---- the background thread ---------------------------------------------------------------
    def _main(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._run())
        finally:
            self._loop.close()
            self.status = CLOSED

    async def _run(self) -> None:
        self._wake = asyncio.Event()
        delay = self._first_delay
        try:
            context = tls_context(self._cafile) if self.tls else None
        except (OSError, ssl.SSLError) as exc:  # HUIT_CA_FILE names something that is not certificates
            self.problem = f"the certificate authority file cannot be used: {exc}"
            self.status = CLOSED
            return
        while not self._closing:
            try:
                ws = await connect(self.url, open_timeout=self._open_timeout, max_size=MAX_FRAME,
                                   ping_interval=self._ping_interval, ping_timeout=self._ping_interval,
                                   close_timeout=1.0, proxy=None, logger=_LOG, ssl=context)
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
                self.attempts += 1
                self.problem = str(exc) or type(exc).__name__
                if not self._ever_connected:
                    break  # nobody answered the first time: say so instead of trying forever
                await self._sleep(delay)
                delay = min(delay * 2, self._max_delay)
                continue
            self._ws = ws
            self._ever_connected = True
            self.attempts = 0
            self.problem = None
            try:
                await self._session(ws)
                delay = self._first_delay  # it worked for a while: start the backoff afresh
            finally:
                self._ws = None
                with contextlib.suppress(Exception):
                    await ws.close()
            if not self._closing:
                self.status = RECONNECTING
                await self._sleep(delay)
                delay = min(delay * 2, self._max_delay)
        self.status = CLOSED

    async def _sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less when `close` is called."""
        assert self._wake is not None
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def _session(self, ws: ClientConnection) -> None:
        """Join (or rejoin), then send the queue and receive until the connection drops."""
        if self._key is not None and self.room is not None and self.seat is not None:
            hello = Join(room=self.room, seat=self.seat, key=self._key).encode()
        else:
            hello = self._hello
        try:
            if self._player is not None:
                await self._greet(ws, self._player)
            await ws.send(hello)
        except ConnectionClosed as exc:
            self.problem = str(exc)
            return
        self.status = CONNECTED
        reader = asyncio.ensure_future(self._read(ws))
        try:
            while not reader.done():
                while self._outbox and not self._closing:
                    await ws.send(self._outbox.popleft())
                if self._closing:
                    while self._outbox:  # a last "leave"
                        await ws.send(self._outbox.popleft())
                    break
                assert self._wake is not None
                self._wake.clear()
                waker = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait({reader, waker}, return_when=asyncio.FIRST_COMPLETED)
                waker.cancel()
        except ConnectionClosed as exc:
            self.problem = str(exc)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await reader

    async def _greet(self, ws: ClientConnection, player: dict[str, Any]) -> None:
        """Say hello as the player; once the server answers with their profile, change the name
        or avatar it holds from before (`profile_change`), before anything else is sent.

        What arrives meanwhile is taken in as usual. An error (a refused hello) or no answer
        within the opening timeout ends the wait: the connection goes on, and the server
        answers its next message as it would without a profile. A new player's name the server
        refuses (``bad_name``: one that looks like another player's) is said again without it:
        the player plays under the server's default name, and the refusal stays in the messages
        for the screen to say why.
        """
        await ws.send(_frame(player))
        try:
            async with asyncio.timeout(self._open_timeout):
                while True:
                    message = self._take(await ws.recv())
                    if isinstance(message, Error) and message.code == "bad_name" and "name" in player:
                        player = {field: value for field, value in player.items() if field != "name"}
                        await ws.send(_frame(player))
                        continue
                    if isinstance(message, Error):
                        return
                    if isinstance(message, PlayerProfile):
                        change = profile_change(player, message.source or message.to_json())
                        if change is not None:
                            await ws.send(ChangeProfile(name=change.get("name"), avatar=change.get("avatar"),
                                                        ref=SYNC_REF).encode())
                        return
        except TimeoutError:
            return

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                self._take(raw)
        except ConnectionClosed as exc:
            self.problem = str(exc)

    def _take(self, raw: str | bytes) -> ServerMessage | None:
        """One frame from the server: kept for `poll` and `poll_messages` (and what rejoining
        needs remembered); None when it is no message this game knows (the server only sends
        JSON objects: a garbled frame, or one with a number JSON has not, is dropped, never a
        crash; an object of an unknown type is handed on to `poll` only)."""
        try:
            data = read_message(raw)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        message = from_server(data)
        if isinstance(message, Joined):
            self._remember(message)
        elif isinstance(message, Error) and message.code == "replaced":
            # The seat was taken over by a newer connection (another device with the key):
            # coming back would only take it away from that device in turn.
            self.problem = message.message or "replaced"
            self._closing = True
        elif isinstance(message, Error) and message.ref == SYNC_REF:
            _LOG.info("the server kept the player's former name or avatar (%s)", str(message.code)[:40])
            return message  # the screens never asked for that change: theirs is not to explain
        self._inbox.append((data, message))
        return message

    def _remember(self, message: Joined) -> None:
        """Keep what rejoining needs from a ``joined`` message."""
        if message.room is not None and message.seat is not None:
            if message.room != self.room or message.seat != self.seat:
                self._key = None  # a different seat: the old key does not open it
            self.room, self.seat = message.room, message.seat
        if message.key is not None:
            self._key = message.key


def _frame(message: ClientMessage | dict[str, Any]) -> str:
    """A message's frame: a type's own encoding, or a plain object with the protocol version last
    (as the game always wrote it)."""
    if isinstance(message, ClientMessage):
        return message.encode()
    return json.dumps({**message, "v": PROTOCOL})
