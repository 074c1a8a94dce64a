"""The room server's plain HTTP side, on the same port as its WebSocket (``process_request``).

Every request is read first by `http_front` (which hands a WebSocket upgrade on to the
protocol and refuses what HTTP/1.1 does not allow); any other request is answered here, from
a small table of routes (`ROUTES`, a path pattern and its page each), so that more
pages (a public lobby, a leaderboard) are one more line:

- ``GET /r/ROOM``: the room's page (`room_page`), in the visitor's language: what Huit
  is, the room's game, whether it is ranked, who is seated, a big "Open in Huit" button
  (``huit://`` or ``huits://``) and where to download Huit (``--download-url``). ROOM is
  the room's code in any case, with or without its dashes (`room_codes.canonical`), or
  an older room's id. It shows nothing a player of the room would not see in its
  waiting room: no key, no seed, no card, and no room id but the one asked for;
- ``GET /play/ROOM``, ``GET /play`` and ``GET /web/FILE``: the browser client, its shell page
  and its built files (`browser_pages`; ``404`` with ``serve --no-web``);
- ``GET /health``: ``{"ok": true, "rooms": N, "connections": N, "instance": NAME}`` for load
  balancers (``instance``: which of several servers on one database answered: `cluster`);
- anything else, or a room the server does not keep: ``404``, the same few words for
  every path (never a listing). ``HEAD`` gets a GET's headers without its body; any
  other method, ``405``.

Pages count against a per-address allowance (`quotas.Quotas.page`; past it, ``429``); a
built file of the browser client counts as `FILE_COST` of a page, so that a browser opening
the client with its avatars stays well inside a burst.
The scheme and host of the game link come from the request: the server's own TLS (or,
from a trusted proxy, ``X-Forwarded-Proto``) and the ``Host`` header (else the address
the connection came to).
"""

from __future__ import annotations

import email.utils
import json
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from . import browser_pages
from .http_front import is_upgrade
from .links import ROOM_ID, read_server
from .room_codes import canonical
from .room_page import CSP, LANGUAGES, pick_language, render

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .server import RoomServer

Page = Callable[["RoomServer", "ServerConnection", Request, "re.Match[str]"], Response]

PLAIN_CSP: Final = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
"""Every answer but a room's page (which allows its own style sheet: `room_page.CSP`)."""
SECURITY: Final = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                   ("Cache-Control", "no-store"))
FILE_COST: Final = 0.125
"""What a request for one of the browser client's files (``/web/...``) takes of the page allowance."""

def respond(server: RoomServer, connection: ServerConnection, request: Request) -> Response | None:
    """The answer to a request `http_front` read (a header that must come once came once): None
    for a WebSocket upgrade, else the page asked for."""
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


def admit(server: RoomServer, connection: ServerConnection, request: Request) -> Response | None:
    """A WebSocket upgrade refused before any WebSocket work: ``429`` while its address cools down
    after one of its connections was closed for flooding (`quotas.Quotas.cooling`; loopback is
    exempt, as from the connection cap); else None."""
    address = server.client_address(connection, request)
    left = 0.0 if server.exempt(address, request) else server.quotas.cooling(server.quota_key(address))
    if left <= 0:
        return None
    answer = _plain(429, "Too Many Requests", "A connection from this address flooded the server: wait a "
                                              "few seconds.\n")
    answer.headers["Retry-After"] = str(math.ceil(left))
    return answer


def _page(server: RoomServer, connection: ServerConnection, request: Request) -> Response:
    address = server.client_address(connection, request)
    path = urlsplit(request.path).path
    cost = FILE_COST if path.startswith("/web/") else 1.0
    if not server.quotas.page(server.quota_key(address), cost):
        return _plain(429, "Too Many Requests", "Too many requests from this address: wait a moment.\n")
    for pattern, page in ROUTES:
        found = pattern.fullmatch(path)
        if found is not None:
            return page(server, connection, request, found)
    return not_found()


def health(server: RoomServer, connection: ServerConnection, request: Request,
           found: re.Match[str]) -> Response:
    """``/health``: whether the server serves, and how much."""
    body = json.dumps({"ok": True, "rooms": len(server.rooms), "connections": server.open_connections,
                       "instance": server.cluster.instance})
    return _response(200, "OK", "application/json", body)


def room_page(server: RoomServer, connection: ServerConnection, request: Request,
              found: re.Match[str]) -> Response:
    """``/r/ROOM``: the room's page (see the module), or 404."""
    room_id = canonical(found.group(1))
    # As the database has it now: the room may be another instance's doing.
    room = server.service.replicas.find(room_id) if ROOM_ID.match(room_id) else None
    if room is None:
        return not_found()
    tls = server.request_tls(connection, request)
    host, port = _host(connection, request, tls)
    asked = parse_qs(urlsplit(request.path).query).get("lang", [""])[0]
    # Accept-Language is a list: it may come in several lines
    lang = pick_language(", ".join(request.headers.get_all("Accept-Language")), asked)
    browser = None
    if server.browser is not None:  # the browser client's page of the room, in the language asked for
        browser = f"/play/{room_id}" + (f"?lang={asked}" if asked in LANGUAGES else "")
    page = render(room, host, port, tls, lang, server.download_url, browser)
    answer = _response(200, "OK", "text/html; charset=utf-8", page, CSP)
    answer.headers["Vary"] = "Accept-Language"
    answer.headers["Content-Language"] = lang
    return answer


def not_found() -> Response:
    """The one answer to every path that is not a page (or a room not kept)."""
    return _plain(404, "Not Found", "Nothing here. A room's page is /r/ROOM, from its link.\n")


def play_page(server: RoomServer, connection: ServerConnection, request: Request,
              found: re.Match[str]) -> Response:
    """``/play/ROOM`` and ``/play``: the browser client's page (`browser_pages.play`), or 404."""
    return browser_pages.play(server, connection, request, found) or not_found()


def browser_file(server: RoomServer, connection: ServerConnection, request: Request,
                 found: re.Match[str]) -> Response:
    """``/web/FILE``: a file of the built browser client (`browser_pages.asset`), or 404."""
    return browser_pages.asset(server, connection, request, found) or not_found()


ROUTES: Final[list[tuple[re.Pattern[str], Page]]] = [
    (re.compile(r"/health"), health),
    (re.compile(r"/r/([^/]{1,64})/?"), room_page),
    (re.compile(r"/play(?:/([^/]{1,64}))?/?"), play_page),
    (re.compile(r"/web/(.+)"), browser_file),
]


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


def _response(status: int, reason: str, kind: str, body: str, csp: str = PLAIN_CSP) -> Response:
    data = body.encode("utf-8", "replace")  # a name kept from before names were checked
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                       ("Content-Length", str(len(data))), ("Content-Type", kind),
                       ("Content-Security-Policy", csp), *SECURITY])
    return Response(status, reason, headers, data)


def _plain(status: int, reason: str, text: str) -> Response:
    return _response(status, reason, "text/plain; charset=utf-8", text)
