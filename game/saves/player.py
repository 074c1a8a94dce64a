"""This device's player online: its secret, the player key each server knows, and what servers said.

A room server knows a player by a player key. The device keeps one random secret here
(``player.json`` in the data folder, readable by its owner only) and gives each server a
key of its own made from it (`server_key`: HMAC-SHA256 of the server's canonical
``host:port``), so no server, nor anyone listening on an unencrypted connection, learns a
key that would let them act as this player on another server: on each server the device
is a different player. The secret is made the first time it is needed and deleted by
Clear data, after which the device is a new player everywhere. Beside it, per server,
what that server last said of the player (their tag, their name there, their ranking
points per rule set), so the Statistics screen can show the online points without a
connection. The name and the avatar are the settings' (``player_name``, and the first
of ``people_avatars``).

The secret and the keys are never printed or logged (`Player.__repr__` leaves them out).
A file that cannot be used is read as no player; when a player is next needed (the next
online visit), it is kept aside as ``player.json.corrupt`` and a new secret made: a
damaged key file costs that device its ranking, never a crash.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .document import pack_json, unpack_json
from .errors import SaveError
from .paths import PLAYER
from .safefile import SEAT_KEY_CAP, read_file, set_aside
from .writer import SaveWriter

KIND: Final = "player"
FORMAT: Final = 1
KEY: Final = re.compile(r"[A-Za-z0-9_-]{32,128}", re.ASCII)
"""What the secret looks like (stored as ``key``: the file's field kept its first name)."""
KEY_BYTES: Final = 24  # of a server's key: 32 URL-safe characters, the form servers expect
MAX_SERVERS: Final = 20  # servers whose word on this player is kept
MAX_SERVER: Final = 300  # characters of a server's address
MAX_TAG: Final = 8
MAX_NAME: Final = 24
MAX_POINTS: Final = 10**9


@dataclass
class Standing:
    """What one server last said of this player."""

    tag: str = ""
    name: str = ""
    xp: dict[str, int] = field(default_factory=dict)  # ranking points per rule set
    tokens: int | None = None  # the balance of tokens (None: the server did not say; older files)

    def to_json(self) -> dict[str, Any]:
        """The stored form (``tokens`` only when known: older games read it as they did)."""
        out: dict[str, Any] = {"tag": self.tag, "name": self.name, "xp": dict(self.xp)}
        if self.tokens is not None:
            out["tokens"] = self.tokens
        return out


@dataclass
class Player:
    """This device's player: the secret, and each server's word on them."""

    secret: str
    servers: dict[str, Standing] = field(default_factory=dict)

    def __repr__(self) -> str:  # never the secret
        return f"Player(secret=…, servers={sorted(self.servers)})"

    def key_for(self, host: str, port: int) -> str:
        """The player key this device says ``hello`` with to the server at ``host``:``port``."""
        return server_key(self.secret, host, port)

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {"key": self.secret, "servers": {name: s.to_json() for name, s in self.servers.items()}}


def new_key() -> str:
    """A fresh secret (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def server_address(host: str, port: int) -> str:
    """A server's address as its key is made for: ``host:port`` with the host in lower case,
    an IP address in its normal form (IPv6 compressed, in brackets), the port always written;
    so ``LOCALHOST:8765`` and ``localhost:8765``, or ``[0:0::1]:80`` and ``[::1]:80``, are one
    server."""
    host = host.strip().strip("[]").lower()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return f"{host.rstrip('.')}:{int(port)}"
    text = address.compressed
    return f"[{text}]:{int(port)}" if address.version == 6 else f"{text}:{int(port)}"


def server_key(secret: str, host: str, port: int) -> str:
    """The player key for the server at ``host``:``port``: HMAC-SHA256 of its `server_address`
    under ``secret``, as 32 URL-safe characters (the form of a key made by `new_key`).

    Each server gets a different key, and none of them tells the secret or another
    server's key."""
    digest = hmac.new(secret.encode("utf-8"), server_address(host, port).encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:KEY_BYTES]).decode("ascii")


class PlayerFile:
    """``ROOT/player.json``."""

    def __init__(self, root: Path, writer: SaveWriter) -> None:
        self.path = root / PLAYER
        self.writer = writer
        self.problem: SaveError | None = None  # why the file could not be used, the last time it was read

    def __repr__(self) -> str:
        return f"PlayerFile({str(self.path)!r})"

    def read(self) -> Player | None:
        """The player this device is, or None when there is none yet (or the file cannot be
        used: see ``problem``)."""
        self.problem = None
        self.writer.flush()
        try:
            data = read_file(self.path, SEAT_KEY_CAP)
        except FileNotFoundError:
            return None
        except SaveError as exc:
            self.problem = exc
            return None
        try:
            return _player(unpack_json(data, KIND, FORMAT, {}))
        except SaveError as exc:
            self.problem = exc
            return None

    def player(self) -> Player:
        """The player this device is, made (and kept) the first time it is asked for."""
        player = self.read()
        if player is None:
            if self.problem is not None:
                self.writer.flush()
                set_aside(self.path)  # kept, never overwritten: someone may want to look at it
            player = Player(new_key())
            self.write(player)
        return player

    def write(self, player: Player) -> None:
        """Keep ``player`` (owner-only)."""
        self.writer.write(self.path, pack_json(KIND, FORMAT, player.to_json()), private=True)

    def remember(self, server: str, profile: dict[str, Any]) -> Standing | None:
        """Keep what ``server`` said of this player in a ``profile`` message (its tag, name and
        points); a message of the wrong shape is not kept (None)."""
        standing = _standing(profile)
        if standing is None or not 0 < len(server) <= MAX_SERVER:
            return None
        player = self.player()
        servers = {server: standing, **{k: v for k, v in player.servers.items() if k != server}}
        player.servers = dict(list(servers.items())[:MAX_SERVERS])
        self.write(player)
        return standing


def _standing(value: Any) -> Standing | None:
    if not isinstance(value, dict):
        return None
    tag, name, xp = value.get("tag"), value.get("name"), value.get("xp", {})
    if not isinstance(tag, str) or not 0 < len(tag) <= MAX_TAG or not isinstance(name, str):
        return None
    if not isinstance(xp, dict) or not all(isinstance(k, str) and len(k) <= 16 and type(v) is int
                                           and abs(v) <= MAX_POINTS for k, v in xp.items()):
        return None
    tokens = value.get("tokens")
    if type(tokens) is not int or abs(tokens) > MAX_POINTS:
        tokens = None  # not said (an older server or file), or no count: left out
    return Standing(tag, name[:MAX_NAME], dict(list(xp.items())[:16]), tokens)


def _player(value: Any) -> Player:
    """The player of a document, each field checked by type, then by value.

    Raises:
        SaveError: not an object (``wrong_shape``), or which fields are wrong (``bad_fields``).
    """
    if not isinstance(value, dict):
        raise SaveError("wrong_shape")
    key, servers = value.get("key"), value.get("servers", {})
    checks = {"key": isinstance(key, str) and KEY.fullmatch(key) is not None,
              "servers": isinstance(servers, dict)}
    wrong = [name for name, ok in checks.items() if not ok]
    if wrong:
        raise SaveError("bad_fields", names=", ".join(wrong))
    assert isinstance(key, str) and isinstance(servers, dict)
    kept = {}
    for server, raw in list(servers.items())[:MAX_SERVERS]:
        standing = _standing(raw)
        if isinstance(server, str) and 0 < len(server) <= MAX_SERVER and standing is not None:
            kept[server] = standing  # a server's word that cannot be read is left out: it comes again
    return Player(key, kept)
