"""The HTTP answers of the room server's plain pages (`web`) and the browser client's (`browser_pages`),
made one way: `answer` sets the headers every answer carries (its length and type, its
Content-Security-Policy, ``nosniff``, ``Referrer-Policy: no-referrer``, ``Connection: close``,
and ``Cache-Control``), and `language_of` picks a page's language from a request (``?lang=``,
else ``Accept-Language``, as `room_page.pick_language` weighs them)."""

from __future__ import annotations

import email.utils
from typing import Final
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .room_page import pick_language

SECURITY: Final = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"))
"""The headers every answer carries besides its own."""


def answer(status: int, reason: str, kind: str, body: str | bytes, csp: str,
           cache: str = "no-store") -> Response:
    """An answer with every header (see the module); ``body`` text is sent as UTF-8 (a character that
    cannot be is replaced: a name kept from before names were checked)."""
    data = body.encode("utf-8", "replace") if isinstance(body, str) else body
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                       ("Content-Length", str(len(data))), ("Content-Type", kind),
                       ("Content-Security-Policy", csp), *SECURITY, ("Cache-Control", cache)])
    return Response(status, reason, headers, data)


def asked_language(request: Request) -> str:
    """The ``?lang=`` of ``request`` as given (checked by `language_of`; empty when none)."""
    return parse_qs(urlsplit(request.path).query).get("lang", [""])[0]


def language_of(request: Request) -> str:
    """The language of the page ``request`` asks for: ``?lang=``, else ``Accept-Language`` (a list:
    it may come in several lines), else English."""
    return pick_language(", ".join(request.headers.get_all("Accept-Language")), asked_language(request))
