"""Reaching a room from this device: hosting a server, creating a room, joining by link.

What the online screens share (the lobby, the server's lobby, the new-game form in its
online mode, and a link from the command line or another launch): starting the room
server "Host on this computer" runs (`start_hosting`), the `RemoteController` that keeps
each claimed seat's key on this device (`connect`), asking a server for a room
(`create_room`) or joining one by its link (`join_link`), both of which open the waiting
room, and the settings' recent servers (`remember_server`). The scenes reach each other
by name (`game.client.registry`); these are plain functions of the App as scenes see it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.engine import Rules
from game.net.client import ROOM_ID, RoomConnection, Server, make_link, parse_link, read_link, server_text
from game.net.messages import Create, Join, PlayerProfile, SeatRequest
from game.net.room_codes import ALPHABET, canonical, lookalike
from game.saves import SeatKey

from . import online_player
from .i18n import tr
from .remote import RemoteController
from .settings import MAX_SERVERS

if TYPE_CHECKING:
    from .controller import SeatConfig
    from .scene import SceneApp


def host_port() -> int:
    """The port "Host on this computer" tries first (the server's usual one)."""
    from game.net.hosting import DEFAULT_PORT

    return int(DEFAULT_PORT)


def start_hosting(app: SceneApp) -> str | None:
    """Start the room server in this process for the LAN; return a problem, or None.

    It listens on every interface, on the usual port when it is free, else on any
    free port. It runs until "Stop hosting" or the end of the game.
    """
    from game.net.hosting import ServerThread

    problem = ""
    for port in dict.fromkeys((host_port(), 0)):  # the usual port first, then any
        server = ServerThread(app.store.root / "rooms.sqlite3", host="0.0.0.0", port=port,
                              **app.host_options)
        server.start()
        if server.error is None and server.port:
            app.hosting = server
            return None
        problem = str(server.error or "no port")
    return problem


def connect(app: SceneApp, connection: RoomConnection, link_host: str, link_port: int) -> RemoteController:
    """A remote controller on ``connection`` that keeps each claimed seat's key on this device."""
    remote = RemoteController(connection, speed=app.settings.speed_factor)
    tls = connection.tls

    def remember(room: str, seat: int, key: str) -> None:
        app.store.keys.remember(SeatKey(make_link(link_host, link_port, room, tls), room, seat, key))

    def profile(message: PlayerProfile) -> None:
        online_player.remember(app, Server(link_host, link_port, tls), message)

    remote.on_key = remember
    remote.on_profile = profile
    return remote


def create_room(app: SceneApp, address: tuple[str, int] | tuple[str, int, bool], rules: Rules,
                seats: list[SeatConfig], *, public: bool = False) -> None:
    """Ask the server at ``address`` (host, port and TLS: a `Server`) for a room with these rules
    and seats (``public``: listed in the server's lobby), and wait in it."""
    host, port, tls = Server(*address)
    name = app.settings.player_name
    # Human seats are named by whoever claims them; the creator's name goes with "create".
    hello = Create(preset=rules.name, options=rules.options(), name=name,
                   seats=tuple(SeatRequest(kind="human") if s.is_human else
                               SeatRequest(kind="computer", level=s.level) for s in seats),
                   public=True if public else None)
    connection = RoomConnection(host, port, hello, tls=tls, player=online_player.hello(app, (host, port)))
    app.replace("WaitingRoom", remote=connect(app, connection, host, port))


def bare_code(text: str) -> bool:
    """Whether ``text`` is a room's code (or an older room's id) alone, without a link around it:
    the room is then on the lobby's server."""
    return "://" not in text and ROOM_ID.match(canonical(text.strip())) is not None


def join_link(app: SceneApp, text: str, server: Server | None = None) -> str | None:
    """Join the room of a link in any of its forms (``huit://``, ``huits://``, a room page's
    ``https://…/r/ROOM``), or of a room code typed alone (any case, with or without its dashes)
    on ``server``, with this device's key when it holds one. A device with no name yet asks for
    the player's name and avatar first (the "WhoAreYou" screen, which joins after).

    Returns a message for the lobby when the link or code cannot be used, else None.
    """
    wrong = lookalike(text)
    if wrong is not None:  # "O" for a zero: say which character codes never hold
        return tr("online.code_lookalike", char=wrong, alphabet=" ".join(ALPHABET))
    if server is not None and bare_code(text):
        host, port, tls = server
        room = canonical(text.strip())
    else:
        try:
            host, port, room, tls = read_link(text)
        except ValueError as exc:
            return tr("online.bad_link", why=str(exc))
    held = app.store.keys.get(room)
    remember_server(app, Server(host, port, tls))
    if held is not None and _same_server(held.link, host, port):
        _take_back(app, host, port, room, tls, held)
        return None
    if not app.settings.player_name.strip():  # a first room: who joins is asked first (name, avatar)
        app.replace("WhoAreYou", link=make_link(host, port, room, tls))
        return None
    connection = RoomConnection(host, port, Join(room=room, name=app.settings.player_name), tls=tls,
                                player=online_player.hello(app, (host, port)))
    app.replace("WaitingRoom", remote=connect(app, connection, host, port))
    return None


def rejoin(app: SceneApp, seat_key: SeatKey) -> str | None:
    """Take back a seat this device holds the key of (the lobby's and the server lobby's "My rooms").

    Returns a message for the lobby when the key's link cannot be used, else None.
    """
    try:
        host, port, room, tls = read_link(seat_key.link)
    except ValueError as exc:
        return tr("online.bad_link", why=str(exc))
    _take_back(app, host, port, room, tls, seat_key)
    return None


def _take_back(app: SceneApp, host: str, port: int, room: str, tls: bool, seat_key: SeatKey) -> None:
    """Join ``room`` again at the seat of ``seat_key`` with its key, and wait in the room."""
    connection = RoomConnection.rejoin(host, port, room, seat_key.seat, seat_key.key, tls=tls,
                                       player=online_player.hello(app, (host, port)))
    app.replace("WaitingRoom", remote=connect(app, connection, host, port))


def remember_server(app: SceneApp, address: Server) -> None:
    """Put ``address`` first in the settings' recent servers (saved when the list changed)."""
    text = server_text(address)
    servers = [text] + [s for s in app.settings.servers if s != text][:MAX_SERVERS - 1]
    if servers != app.settings.servers:
        app.settings.servers = servers
        app.save_settings()


def _same_server(link: str, host: str, port: int) -> bool:
    try:
        return parse_link(link)[:2] == (host, port)
    except ValueError:
        return False
