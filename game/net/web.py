"""The room server's plain HTTP side, on the same port as its WebSocket (``process_request``).

A WebSocket upgrade goes on to the protocol; any other request is answered here, from
a small table of routes (`ROUTES`, a path pattern and its page each), so that more
pages (a public lobby, a leaderboard) are one more line:

- ``GET /r/ROOM``: the room's page, small and self-contained (no script, no image, no
  style sheet or font from elsewhere; every value escaped): which game and house
  rules the room holds, its seats and who is waiting, the link that opens it in the
  game (``huit://`` or ``huits://``), and how to get Huit. It shows nothing a player of
  the room would not see in its waiting room: no key, no seed, no card, and no room
  id but the one asked for;
- ``GET /health``: ``{"ok": true, "rooms": N, "connections": N}`` for load balancers;
- anything else, or a room the server does not keep: ``404``, the same few words for
  every path (never a listing). ``HEAD`` gets a GET's headers without its body; any
  other method, ``405``.

Pages count against a per-address allowance (`quotas.Quotas.page`; past it, ``429``).
The scheme and host of the game link come from the request: the server's own TLS (or,
from a trusted proxy, ``X-Forwarded-Proto``) and the ``Host`` header (else the address
the connection came to).
"""

from __future__ import annotations

import email.utils
import html
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from game.engine import PRESETS

from .links import ROOM_ID, make_link, page_link, read_server

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .rooms import Room
    from .server import RoomServer

Page = Callable[["RoomServer", "ServerConnection", Request, "re.Match[str]"], Response]

TITLES: Final = {"duel": "Duel", "classic": "Classic", "points": "Points game", "colors": "Colours",
                 "action": "Action eights"}
STATES: Final = {"waiting": "waiting for players", "playing": "being played", "round_over": "between deals",
                 "match_over": "over"}
LEVELS: Final = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
SECURITY: Final = (("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; "
                                               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
                   ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                   ("Cache-Control", "no-store"))

STYLE: Final = """body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;
color:#1d2b22;background:#f4f7f2;line-height:1.5}h1{color:#0b5d2a}code,a.game{word-break:break-all}
a.game{display:inline-block;padding:.6rem 1rem;background:#0b5d2a;color:#fff;border-radius:.4rem;
text-decoration:none}li{margin:.2rem 0}.small{color:#555;font-size:.9rem}"""


def is_upgrade(request: Request) -> bool:
    """Whether the request asks for a WebSocket (the protocol), not a page."""
    return "websocket" in request.headers.get("Upgrade", "").lower()


def respond(server: RoomServer, connection: ServerConnection, request: Request) -> Response | None:
    """websockets' ``process_request``: None for a WebSocket upgrade, else the page asked for."""
    if is_upgrade(request):
        return None
    if request.method not in ("GET", "HEAD"):
        answer = _plain(405, "Method Not Allowed", "Only GET: a room's page is /r/ROOM, from its link.\n")
        answer.headers["Allow"] = "GET, HEAD"
        return answer
    answer = _page(server, connection, request)
    if request.method == "HEAD":  # the same headers (its length too), without the body
        return Response(answer.status_code, answer.reason_phrase, answer.headers, b"")
    return answer


def _page(server: RoomServer, connection: ServerConnection, request: Request) -> Response:
    address = server.client_address(connection, request)
    if not server.quotas.page(server.quota_key(address)):
        return _plain(429, "Too Many Requests", "Too many requests from this address: wait a moment.\n")
    path = urlsplit(request.path).path
    for pattern, page in ROUTES:
        found = pattern.fullmatch(path)
        if found is not None:
            return page(server, connection, request, found)
    return not_found()


def health(server: RoomServer, connection: ServerConnection, request: Request,
           found: re.Match[str]) -> Response:
    """``/health``: whether the server serves, and how much."""
    body = json.dumps({"ok": True, "rooms": len(server.rooms), "connections": server.open_connections})
    return _response(200, "OK", "application/json", body)


def room_page(server: RoomServer, connection: ServerConnection, request: Request,
              found: re.Match[str]) -> Response:
    """``/r/ROOM``: the room's page (see the module), or 404."""
    room_id = found.group(1)
    room = server.rooms.get(room_id) if ROOM_ID.match(room_id) else None
    if room is None:
        return not_found()
    tls = server.request_tls(connection, request)
    host, port = _host(connection, request, tls)
    return _response(200, "OK", "text/html; charset=utf-8", render_room(room, host, port, tls))


def not_found() -> Response:
    """The one answer to every path that is not a page (or a room not kept)."""
    return _plain(404, "Not Found", "Nothing here. A room's page is /r/ROOM, from its link.\n")


ROUTES: Final[list[tuple[re.Pattern[str], Page]]] = [
    (re.compile(r"/health"), health),
    (re.compile(r"/r/([^/]{1,64})/?"), room_page),
]


def render_room(room: Room, host: str, port: int, tls: bool) -> str:
    """The room's page as HTML (every value escaped)."""
    e = html.escape
    game_link = make_link(host, port, room.room_id, tls)
    web_link = page_link(host, port, room.room_id, tls)
    preset = room.rules.name
    title = TITLES.get(preset, preset)
    usual = PRESETS[preset].options() if preset in PRESETS else {}
    changed = {k: v for k, v in room.rules.options().items() if usual.get(k) != v}
    rules = ", ".join(f"{name}: {_value(value)}" for name, value in sorted(changed.items()))
    waiting = set(room.waiting_for())
    seats = []
    for i, seat in enumerate(room.seats):
        if not seat.is_human:
            who = f"computer ({LEVELS.get(seat.level, seat.level)})"
        elif seat.key_hash is None:
            who = "free: waiting for a player"
        else:
            name = (seat.name or f"Player {i + 1}") + (f" #{seat.tag}" if seat.tag else "")
            who = f"{name}, {'here' if seat.connected else 'away'}"
            if i in waiting and room.match is not None:
                who += " (the game waits for them)"
        seats.append(f"<li>Seat {i + 1}: {e(who)}</li>")
    opens = "huits://" if tls else "huit://"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Huit: a room of {e(title)}</title><style>{STYLE}</style></head>
<body>
<h1>Huit: a game of Crazy Eights</h1>
<p>This room plays <strong>{e(title)}</strong>{f" with these house rules: {e(rules)}" if rules else ""}.
The game is {e(STATES.get(room.state, room.state))}.</p>
<ul>{"".join(seats)}</ul>
<p><a class="game" href="{e(game_link)}">Open this room in Huit</a></p>
<p class="small">If the button does nothing, open Huit, choose Play online, and paste this page's
address or the game's own link into Room link: <code>{e(game_link)}</code>. From a terminal:
<code>python main.py {e(web_link)}</code>. A link starting with {e(opens)} opens the room directly.</p>
<h2>Getting Huit</h2>
<p>Huit is a free Crazy Eights game for Python 3.11 or newer. Ask whoever sent you this link
for a copy of the game, then in its folder run <code>make play</code> (or
<code>python3 -m venv .venv &amp;&amp; .venv/bin/pip install -e . &amp;&amp;
.venv/bin/python main.py</code>).</p>
</body></html>
"""


def _value(value: object) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def _host(connection: ServerConnection, request: Request, tls: bool) -> tuple[str, int]:
    """The host and port the player reached the server by: the ``Host`` header, else the
    address the connection came to."""
    default = 443 if tls else 80
    given = request.headers.get("Host", "")
    if given:
        try:
            server = read_server(("https://" if tls else "http://") + given)
        except ValueError:
            pass
        else:
            return server.host, server.port or default
    local = connection.local_address
    return (str(local[0]), int(local[1])) if local else ("localhost", default)


def _response(status: int, reason: str, kind: str, body: str) -> Response:
    data = body.encode("utf-8", "replace")  # a name kept from before names were checked
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                       ("Content-Length", str(len(data))), ("Content-Type", kind), *SECURITY])
    return Response(status, reason, headers, data)


def _plain(status: int, reason: str, text: str) -> Response:
    return _response(status, reason, "text/plain; charset=utf-8", text)
