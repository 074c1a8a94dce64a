"""Room links and server addresses, in every form a player may type, paste or click.

A room is reached by its server's host and port, whether the connection is encrypted
(TLS: ``wss://``), and its id. Four link forms say so:

- ``huit://HOST:PORT/ROOM`` and ``huits://HOST:PORT/ROOM`` (TLS): the game's own links;
- ``https://HOST[:PORT]/r/ROOM`` (TLS, port 443 by default) and ``http://HOST[:PORT]/r/ROOM``
  (port 80 by default): the room's web page on the same server, the link a chat app
  makes clickable; the game reads it as the same room.

HOST is a name of at most 253 characters, an IPv4 address or a bracketed IPv6 address;
PORT 1 to 65535; ROOM 1 to 64 letters, digits, ``-`` or ``_``: a room code
(`room_codes`, read in any case, with or without its dashes) or the id of a room made
before codes, kept exactly. A text longer than
`MAX_LINK` is refused before it is read, and no message quotes more than a few dozen
characters of it (the lobby lays messages out in time that grows with the square of an
unbroken word's length).

A server address (the lobby's Server field, the settings' list of servers) is
``HOST:PORT``, or one of the forms above without the room (``huits://HOST:PORT``,
``https://HOST``), which says TLS.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Final, NamedTuple

from game.cli import shown

from .room_codes import canonical

SCHEME: Final = "huit://"
TLS_SCHEME: Final = "huits://"
ROOM_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_HOST_NAME: Final = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$")
_PORT: Final = re.compile(r"[0-9]{1,5}", re.ASCII)
MAX_LINK: Final = 512
"""Characters of the longest link read: the longest real one (``https://``, a 253-character
host name, a 5-digit port, ``/r/`` and a 64-character room id) has 334."""

# scheme -> (TLS, default port or None when the port must be given, the room's path prefix)
_FORMS: Final = {"huit://": (False, None, "/"), "huits://": (True, None, "/"),
                 "https://": (True, 443, "/r/"), "http://": (False, 80, "/r/")}
_SERVER_FORMS: Final = {**_FORMS, "wss://": (True, 443, "/"), "ws://": (False, 80, "/")}


class RoomLink(NamedTuple):
    """A room's address: where its server is, whether it speaks TLS, and its id."""

    host: str
    port: int
    room: str
    tls: bool = False


class Server(NamedTuple):
    """A room server's address and whether it speaks TLS."""

    host: str
    port: int
    tls: bool = False


def check_link_length(text: str) -> None:
    """Refuse a text too long to be a room link (`MAX_LINK`), whatever else it holds.

    Raises:
        ValueError: saying how long a link may be and how long this text is.
    """
    if len(text) > MAX_LINK:
        raise ValueError(f"a room link has at most {MAX_LINK} characters; this text has {len(text):,}")


def read_link(text: str) -> RoomLink:
    """A room link in any of its forms (see the module; spaces around are ignored).

    Raises:
        ValueError: not such a link; the message says which part is wrong.
    """
    link = text.strip()
    check_link_length(link)
    scheme = next((s for s in _FORMS if link.lower().startswith(s)), None)
    if scheme is None:
        raise ValueError(f"a room link starts with {SCHEME} or {TLS_SCHEME}, or is a room's web page "
                         f"(https://HOST/r/ROOM), not {shown(link, 16)}")
    tls, default_port, prefix = _FORMS[scheme]
    rest = link[len(scheme):]
    address, slash, path = rest.partition("/")
    path = "/" + path if slash else ""
    if prefix == "/r/":
        if not path.startswith("/r/"):
            raise ValueError(f"a room link starts with {SCHEME} or {TLS_SCHEME}, or is a room's web page "
                             f"({scheme}HOST/r/ROOM), not {shown(link, 40)}")
        room = path[3:]
    else:
        room = path[1:]
    room = room.rstrip("/")
    if not room:
        raise ValueError("the link has no room: it should end with /ROOM")
    if not ROOM_ID.match(room):
        raise ValueError(f"a room id is 1 to 64 letters, digits, - or _, not {shown(room, 70)}")
    host, port = _host_port(address, scheme, default_port)
    return RoomLink(host, port, canonical(room), tls)  # a code typed in lower case is the same room


def parse_link(text: str) -> tuple[str, int, str]:
    """A room link in any of its forms as ``(host, port, room)``; `read_link` also says TLS.

    Raises:
        ValueError: not such a link; the message says which part is wrong.
    """
    host, port, room, _ = read_link(text)
    return host, port, room


def read_server(text: str) -> Server:
    """A server address: ``HOST:PORT``, or a link form without the room (see the module).

    Raises:
        ValueError: not a host and a port; the message says which part is wrong.
    """
    address = text.strip()
    check_link_length(address)
    scheme = next((s for s in _SERVER_FORMS if address.lower().startswith(s)), None)
    if scheme is None:
        return Server(*_host_port(address, SCHEME, None), False)
    tls, default_port, _ = _SERVER_FORMS[scheme]
    rest = address[len(scheme):].rstrip("/")
    if "/" in rest:
        raise ValueError(f"a server address has no path: {scheme}HOST:PORT, not {shown(address, 40)}")
    return Server(*_host_port(rest, scheme, default_port), tls)


def parse_address(text: str) -> tuple[str, int]:
    """A server address as ``(host, port)`` (see `read_server`, which also says TLS).

    Raises:
        ValueError: not a host and a port.
    """
    host, port, _ = read_server(text)
    return host, port


def _host_port(address: str, scheme: str, default_port: int | None) -> tuple[str, int]:
    if address.startswith("["):
        host, bracket, port_text = address[1:].partition("]")
        if not bracket or not (port_text.startswith(":") or (default_port and not port_text)):
            raise ValueError(f"the link's address should look like [::1]:PORT, not {shown(address)}")
        port_text = port_text[1:] if port_text else str(default_port)
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{shown(host)} is not an IPv6 address") from None
    else:
        host, colon, port_text = address.rpartition(":")
        if not colon:
            if default_port is None:
                raise ValueError(f"the link has no port: it should look like {scheme}HOST:PORT/ROOM")
            host, port_text = address, str(default_port)
        if not _HOST_NAME.match(host):
            raise ValueError(f"{shown(host)} is not a host name or address")
    if not _PORT.fullmatch(port_text) or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"the port must be a number from 1 to 65535, not {shown(port_text)}")
    return host, int(port_text)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def make_link(host: str, port: int, room: str, tls: bool = False) -> str:
    """The game's link to a room: ``huit://HOST:PORT/ROOM`` (``huits://`` with TLS; IPv6 hosts
    get brackets).

    Raises:
        ValueError: a bad host, port or room id (the same checks as `read_link`).
    """
    link = f"{TLS_SCHEME if tls else SCHEME}{_bracketed(host)}:{port}/{room}"
    read_link(link)
    return link


def page_link(host: str, port: int, room: str, tls: bool = False) -> str:
    """The room's web page on its server: ``https://HOST[:PORT]/r/ROOM`` (``http://`` without
    TLS; the port left out when it is the scheme's own, 443 or 80).

    Raises:
        ValueError: a bad host, port or room id.
    """
    scheme = "https://" if tls else "http://"
    default = 443 if tls else 80
    link = f"{scheme}{_bracketed(host)}{'' if port == default else f':{port}'}/r/{room}"
    read_link(link)
    return link


def server_text(server: Server) -> str:
    """A server address as the lobby shows it and the settings keep it: ``HOST:PORT``, or
    ``huits://HOST:PORT`` with TLS."""
    text = f"{_bracketed(server.host)}:{server.port}"
    return TLS_SCHEME + text if server.tls else text


def websocket_url(host: str, port: int, tls: bool = False) -> str:
    """The server's WebSocket address for a link's host and port (``wss://`` with TLS)."""
    return f"{'wss' if tls else 'ws'}://{_bracketed(host)}:{port}/"
