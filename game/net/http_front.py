"""The HTTP front of the server's port: every request is read here first, before websockets.

websockets reads one request per connection and has its own idea of a bad one: a request
with a body, a second request pipelined behind the first or a line it cannot read was
closed without an answer (or with a reset that lost the answer), and a header sent twice
reached the pages as an exception (a 500 and a traceback in the log). So a connection
(`FrontConnection`) reads the head of each request itself, within the limits below, and:

- a WebSocket upgrade (``GET`` with ``Upgrade: websocket``, no body) is handed to websockets
  as it came, and the protocol goes on there, unless its address is cooling down after a
  flood (`web.admit`: ``429`` with ``Retry-After``, before any WebSocket work);
- any other well-formed request is answered by the pages (`web.respond`: a page, ``404``,
  ``405`` for a method but ``GET`` and ``HEAD``, ``429``), a ``GET`` or ``HEAD`` with a body
  ``400`` (a page request has none);
- requests pipelined behind it (up to `MAX_PIPELINED`, all that came before the answer) are
  answered in order; the last answer says ``Connection: close``, and the connection is
  closed gently (what the client still sends is read and dropped for `LINGER` seconds, so
  that the answers are not lost to a reset);
- a request line past `MAX_LINE` (``414``), a header line past it, a head past `MAX_HEAD`
  bytes or `MAX_HEADERS` lines (``431``), a
  line that is not HTTP/1.x (``400``; another version ``505``), a header that must come
  once (`SINGLE`) sent twice or a line folded (``400``) is refused with a short text.

No answer names Python or websockets (``Server: Huit``) and nothing here writes a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any, Final

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

log = logging.getLogger("huit.server")

SERVER_HEADER: Final = "Huit"
MAX_LINE: Final = 8192  # bytes of the request line (and of a header line)
MAX_HEAD: Final = 16 * 1024  # bytes of a request's head, its lines together
MAX_HEADERS: Final = 128
MAX_PIPELINED: Final = 8  # requests answered on one connection
LINGER: Final = 2.0  # seconds a closing connection's late bytes are read and dropped
LINGER_BYTES: Final = 64 * 1024  # past this, a closing connection is cut at once
SINGLE: Final = ("host", "upgrade", "content-length", "transfer-encoding", "x-forwarded-proto")
"""Headers a request may carry once: twice is a ``400`` (RFC 9112 for ``Host``; the others
decide how the request is read or where its links point)."""

_TOKEN: Final = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_TARGET: Final = re.compile(rb"/[!-~]*")
_VALUE: Final = re.compile(rb"[\t -~\x80-\xff]*")
_BARE_LF: Final = re.compile(rb"(?<!\r)\n")

Answer = Callable[[ServerConnection, Request], "Response | None"]
"""The pages: a response to a request that is not an upgrade (`web.respond`); for an upgrade,
a refusal before any WebSocket work (`web.admit`), or None to go on."""


class BadRequest(Exception):
    """A request refused before the pages: its status, reason and a short text."""

    def __init__(self, status: int, reason: str, text: str) -> None:
        super().__init__(text)
        self.status, self.reason, self.text = status, reason, text


def refusal(status: int, reason: str, text: str) -> Response:
    """The plain-text answer of a refused request."""
    data = text.encode()
    headers = Headers([("Connection", "close"), ("Content-Length", str(len(data))),
                       ("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff"),
                       ("Cache-Control", "no-store")])
    return Response(status, reason, headers, data)


_LINE_TEXT: Final = "The request line is too long.\n"


def _line_too_long() -> Response:
    return refusal(414, "URI Too Long", _LINE_TEXT)


def _head_too_large() -> Response:
    return refusal(431, "Request Header Fields Too Large", "The request's head is too large.\n")


def read_head(head: bytes) -> tuple[Request, bool]:
    """A request's head (its lines without the blank one) as websockets' `Request`, and whether
    a body follows (``Content-Length`` but 0, or ``Transfer-Encoding``).

    Raises:
        BadRequest: the head breaks HTTP/1.x or one of the limits of the module.
    """
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(lines[0]) > MAX_LINE:
        raise BadRequest(414, "URI Too Long", _LINE_TEXT)
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not parts[2].startswith(b"HTTP/"):
        raise BadRequest(400, "Bad Request", "Not an HTTP/1.1 request line.\n")
    if parts[2] not in (b"HTTP/1.0", b"HTTP/1.1"):
        raise BadRequest(505, "HTTP Version Not Supported", "Only HTTP/1.1 (and 1.0) is spoken here.\n")
    if not _TARGET.fullmatch(parts[1]):
        raise BadRequest(400, "Bad Request", "The request's target must be a path.\n")
    if len(lines) - 1 > MAX_HEADERS:
        raise BadRequest(431, "Request Header Fields Too Large", "Too many header lines.\n")
    headers = Headers()
    for line in lines[1:]:
        if len(line) > MAX_LINE:
            raise BadRequest(431, "Request Header Fields Too Large", "A header line is too long.\n")
        raw_name, colon, value = line.partition(b":")
        if not colon or not _TOKEN.fullmatch(raw_name):
            # a folded line (RFC 9112 5.2: obsolete, refused), no colon, a space before it
            raise BadRequest(400, "Bad Request", "A header line is not \"Name: value\".\n")
        value = value.strip(b" \t")
        if not _VALUE.fullmatch(value):
            raise BadRequest(400, "Bad Request", "A header's value holds a control character.\n")
        headers[raw_name.decode("ascii")] = value.decode("latin-1")
    for name in SINGLE:
        if len(headers.get_all(name)) > 1:  # even with one value twice: every reader takes one
            raise BadRequest(400, "Bad Request", f"The {name.title()} header must come once.\n")
    body = "transfer-encoding" in headers or headers.get("content-length", "0") != "0"
    return Request(parts[1].decode("ascii"), headers, parts[0].decode("ascii"),
                   parts[2].decode("ascii")), body


def is_upgrade(request: Request) -> bool:
    """Whether the request asks for a WebSocket (the protocol), not a page."""
    return "websocket" in request.headers.get("Upgrade", "").lower()


class FrontConnection(ServerConnection):
    """websockets' connection, with the front (see the module) reading each request's head;
    `answer` gives the pages and `admit` may refuse an upgrade (set on a subclass: `front`)."""

    answer: Answer
    admit: Answer

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head = bytearray()  # what came before the protocol (None of it once handed over)
        self._handed = False  # an upgrade: websockets reads everything from now on
        self._closing = False  # answered for the last time: what comes is dropped
        self._answered = 0
        self._dropped = 0

    def data_received(self, data: bytes) -> None:
        if self._handed:
            super().data_received(data)
        elif self._closing:
            self._dropped += len(data)
            if self._dropped > LINGER_BYTES:
                self.transport.abort()
        else:
            self._head += data
            self._read()

    def eof_received(self) -> None:
        if self._handed:
            super().eof_received()
        else:
            self.transport.close()  # the client is done: nothing more to answer

    def _read(self) -> None:
        """Answer each complete request in what came so far (see the module)."""
        while not self._closing:
            end = self._head.find(b"\r\n\r\n")
            bare = _BARE_LF.search(self._head, 0, len(self._head) if end < 0 else end)
            if bare is not None:  # lines end with CRLF (a bare LF is how requests are smuggled)
                self._finish(refusal(400, "Bad Request", "Lines of a request end with CRLF.\n"))
                return
            line = self._head.find(b"\r\n")
            if line > MAX_LINE or (line < 0 and len(self._head) > MAX_LINE):
                self._finish(_line_too_long())
                return
            if end > MAX_HEAD or (end < 0 and len(self._head) > MAX_HEAD):
                self._finish(_head_too_large())
                return
            if end < 0:
                return  # the rest of the head is still to come
            head, rest = bytes(self._head[:end]), self._head[end + 4:]
            try:
                request, body = read_head(head)
            except BadRequest as exc:
                self._finish(refusal(exc.status, exc.reason, exc.text))
                return
            except Exception:  # never a traceback for what a client sent: a short answer and one line
                log.warning("a request's head could not be read")
                self._finish(refusal(400, "Bad Request", "This request cannot be read.\n"))
                return
            if not self._answered and not body and request.method == "GET" and is_upgrade(request):
                try:
                    refused = self.admit(self, request)
                except Exception as exc:  # a header the checks read twice (a proxy's, sent twice...)
                    log.warning("an upgrade could not be read: %s", type(exc).__name__)
                    refused = refusal(400, "Bad Request", "This request cannot be read.\n")
                if refused is not None:
                    self._finish(refused)
                    return
                self._handed = True  # websockets reads the same bytes again, and the protocol after
                data, self._head = bytes(self._head), bytearray()
                super().data_received(data)
                return
            self._answered += 1
            self._head = bytearray(rest)
            if body:  # its end cannot be trusted: nothing after it is read
                self._finish(refusal(400, "Bad Request", "A page request has no body.\n")
                             if request.method in ("GET", "HEAD") else self._page(request))
                return
            response = self._page(request)
            last = self._answered >= MAX_PIPELINED or b"\r\n\r\n" not in self._head
            if last:
                self._finish(response)
                return
            if "Connection" in response.headers:  # more answers follow on this connection
                del response.headers["Connection"]
            self._write(response)

    def _page(self, request: Request) -> Response:
        """The pages' answer (an upgrade that is not a connection's first request is refused; a
        page that fails is a 500 and one line in the log, never a traceback)."""
        try:
            response = self.answer(self, request)
        except Exception as exc:
            log.warning("the page %s failed: %s", request.path[:80], type(exc).__name__)
            return refusal(500, "Internal Server Error", "This page cannot be made now.\n")
        if response is None:
            return refusal(400, "Bad Request", "A WebSocket upgrade must be a connection's first request.\n")
        return response

    def _write(self, response: Response) -> None:
        _set(response.headers, "Server", SERVER_HEADER)
        self.transport.write(response.serialize())

    def _finish(self, response: Response) -> None:
        """Write the last answer and close gently: our end is shut, late bytes are dropped."""
        _set(response.headers, "Connection", "close")
        self._write(response)
        self._closing = True
        self._head = bytearray()
        if self.transport.can_write_eof():
            self.transport.write_eof()
            asyncio.get_running_loop().call_later(LINGER, self.transport.close)
        else:  # TLS: no half-close
            self.transport.close()


def _set(headers: Headers, name: str, value: str) -> None:
    """Set a header to one value (websockets' `Headers` adds a line on each assignment)."""
    if name in headers:
        del headers[name]
    headers[name] = value


def front(answer: Answer, admit: Answer) -> type[FrontConnection]:
    """The connection class of a server whose pages are ``answer`` and whose upgrades ``admit``
    may refuse (websockets' ``create_connection``)."""
    return type("HuitConnection", (FrontConnection,), {"answer": staticmethod(answer),
                                                       "admit": staticmethod(admit)})
