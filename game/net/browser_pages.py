"""The browser client's pages and files, on the room server's own port (issue 35; docs/web.md).

The browser client is built from ``web/`` by ``make web`` into ``game/net/browser/``
(`BUILT`): ``app.js``, ``app.css``, ``i18n/<lang>.json``, ``avatars/<name>.png`` (and their
``index.json``), ``icon.png``, and ``manifest.json``, which says the build is complete. The
server serves it (`BrowserFiles`), unless started with ``serve --no-web``:

- ``GET /play/ROOM`` (a room the server keeps; else ``404``, as ``/r/ROOM``) and ``GET /play``
  (no room: quick match and the lobby) answer one HTML shell (`shell`): no inline script and
  no inline style, the room, the visitor's language (``?lang=`` or ``Accept-Language``, as the
  room's page picks it) and whether the page came over TLS as ``data-`` attributes of
  ``<main id="huit">``, the style sheet and the script by versioned URLs (``?v=`` the first 16
  hex digits of the file's SHA-256);
- ``GET /web/FILE`` serves one built file from memory. Only the files found in the built folder
  when it was read are served: a request is a lookup in that table by its raw path (never
  decoded, never joined to a folder), so ``..``, ``%2e%2e``, an absolute path or a symbolic link
  can reach nothing else. A ``?v=`` that matches the file's version is cached for a year
  (``immutable``); any other request, ``no-cache`` with an ``ETag`` (``304`` when it matches);
- when the build is missing, ``/play...`` is a short ``503`` page saying so in the visitor's
  language, and the server logs one line at start (`MISSING`).

Every answer carries `csp`'s Content-Security-Policy (scripts, styles, images and fonts from
this server only; connections to its own WebSocket; nothing else), ``nosniff`` and
``Referrer-Policy: no-referrer``. The folder is read again when its ``manifest.json`` changes
(a ``make web`` while the server runs), so an update needs no restart: the shell names the new
versions, and a browser holding the old page keeps its old, immutable files until it reloads.
"""

from __future__ import annotations

import email.utils
import hashlib
import html
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .links import ROOM_ID
from .room_codes import canonical
from .room_page import LANGUAGES, Words, pick_language

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .server import RoomServer

log = logging.getLogger("huit.server")

BUILT: Final = Path(__file__).resolve().parent / "browser"
"""Where ``make web`` writes the built client (package data in the wheel and the bundle)."""
MISSING: Final = "the browser client is not built: run `make web` (or serve --no-web to turn it off)"
"""The server's one log line at start when the build is missing."""
REQUIRED: Final = ("manifest.json", "app.js", "app.css")
"""The files without which the build is missing."""
MAX_FILES: Final = 512
MAX_FILE_BYTES: Final = 8 * 1024 * 1024
MAX_TOTAL_BYTES: Final = 64 * 1024 * 1024
MAX_PATH: Final = 200  # characters of a /web/ path looked up (longer: 404 without a lookup)
VERSION_DIGITS: Final = 16
TYPES: Final = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml",
                ".woff2": "font/woff2"}
"""The kinds of files served, by suffix; any other file of the folder is not."""
_NAME: Final = re.compile(r"(?:[a-z0-9][a-z0-9_-]{0,31}/){0,2}[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A built file's path under the folder: at most two folders deep, plain ASCII names."""
_HOST: Final = re.compile(r"[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?")
IMMUTABLE: Final = "public, max-age=31536000, immutable"
SECURITY: Final = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"))


def csp(host: str = "") -> str:
    """The Content-Security-Policy of every browser page and file. ``host``: the ``Host`` the
    page was asked by, when it is a plain name or address (with its port): the WebSocket of that
    host is named as well as ``'self'`` (which covers ``ws:`` and ``wss:`` of the page's own host
    in browsers that follow CSP 3; the host named helps those that do not)."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; font-src 'self'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


@dataclass(frozen=True)
class BuiltFile:
    """One file of the build: its bytes, its ``Content-Type`` and its version (hex digest)."""

    data: bytes
    kind: str
    digest: str

    @property
    def version(self) -> str:
        """What a ``?v=`` URL carries for this file."""
        return self.digest[:VERSION_DIGITS]


@dataclass
class Build:
    """The built folder as read: its files by path under the folder (``app.js``,
    ``avatars/fox.png``), and ``manifest.json``'s build time (empty when missing)."""

    files: dict[str, BuiltFile] = field(default_factory=dict)
    built: str = ""

    @property
    def complete(self) -> bool:
        """Whether the files the shell names are all there."""
        return all(name in self.files for name in REQUIRED)


@dataclass
class BrowserFiles:
    """The built client of ``root`` (default `BUILT`), read when first asked for and again when
    its ``manifest.json`` changes (see the module)."""

    root: Path = BUILT
    _build: Build = field(default_factory=Build, init=False)
    _stamp: tuple[int, int] | None = field(default=None, init=False)  # the manifest's mtime and size
    _read: bool = field(default=False, init=False)

    def current(self) -> Build:
        """The build as it is now (read again when its manifest changed)."""
        try:
            info = (self.root / "manifest.json").stat()
            stamp: tuple[int, int] | None = (info.st_mtime_ns, info.st_size)
        except OSError:
            stamp = None
        if not self._read or stamp != self._stamp:
            self._build, self._stamp, self._read = read_build(self.root), stamp, True
        return self._build

    def built(self) -> bool:
        """Whether the built client is there (else `MISSING` applies)."""
        return self.current().complete


def read_build(root: Path) -> Build:
    """Every file of the built folder ``root`` that may be served (see `TYPES` and `_NAME`:
    regular files only, no symbolic links, within the `MAX_FILES` and size limits)."""
    build = Build()
    total = 0
    try:
        home = root.resolve()
        found = sorted(root.rglob("*"))
    except OSError:
        return build
    for path in found:
        name = path.relative_to(root).as_posix()
        if (path.is_symlink() or not path.is_file() or not _NAME.fullmatch(name) or path.suffix not in TYPES
                or not path.resolve().is_relative_to(home)):  # a linked folder leads out of the build
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if len(data) > MAX_FILE_BYTES or total + len(data) > MAX_TOTAL_BYTES or len(build.files) >= MAX_FILES:
            log.warning("the browser client's folder holds more than the server serves: %s left out", name)
            continue
        total += len(data)
        build.files[name] = BuiltFile(data, TYPES[path.suffix], hashlib.sha256(data).hexdigest())
    manifest = build.files.get("manifest.json")
    if manifest is not None:
        try:
            built = json.loads(manifest.data).get("built", "")
        except (ValueError, AttributeError):
            built = ""
        build.built = built if isinstance(built, str) else ""
    return build


# ---- the pages --------------------------------------------------------------------------------------
def play(server: RoomServer, connection: ServerConnection, request: Request,
         found: re.Match[str]) -> Response | None:
    """``/play/ROOM`` and ``/play``: the shell (see the module); None (the server's ``404``) for a
    room the server does not keep or with ``--no-web``; ``503`` when the build is missing."""
    files = server.browser
    if files is None:
        return None
    room_id = ""
    if found.group(1):
        room_id = canonical(found.group(1))
        if not ROOM_ID.match(room_id) or server.service.replicas.find(room_id) is None:
            return None
    asked = parse_qs(urlsplit(request.path).query).get("lang", [""])[0]
    lang = pick_language(", ".join(request.headers.get_all("Accept-Language")), asked)
    host = request.headers.get("Host", "")
    build = files.current()
    if not build.complete:
        page = missing_page(lang)
        answer = _answer(503, "Service Unavailable", "text/html; charset=utf-8", page.encode(), host)
        answer.headers["Retry-After"] = "3600"
    else:
        page = shell(build, room_id, lang, server.request_tls(connection, request))
        answer = _answer(200, "OK", "text/html; charset=utf-8", page.encode(), host)
    answer.headers["Cache-Control"] = "no-cache"
    answer.headers["Vary"] = "Accept-Language"
    answer.headers["Content-Language"] = lang
    return answer


def asset(server: RoomServer, connection: ServerConnection, request: Request,
          found: re.Match[str]) -> Response | None:
    """``/web/FILE``: one built file (see the module), else None (the server's ``404``)."""
    files = server.browser
    name = found.group(1)
    if files is None or len(name) > MAX_PATH:
        return None
    built = files.current().files.get(name)  # the raw path: never decoded, never joined to a folder
    if built is None:
        return None
    asked = parse_qs(urlsplit(request.path).query).get("v", [""])[0]
    etag = f'"{built.digest[:32]}"'
    if _matches(request.headers.get("If-None-Match", ""), etag):
        answer = _answer(304, "Not Modified", built.kind, b"", request.headers.get("Host", ""))
        del answer.headers["Content-Length"]
        del answer.headers["Content-Type"]
    else:
        answer = _answer(200, "OK", built.kind, built.data, request.headers.get("Host", ""))
    answer.headers["ETag"] = etag
    exact = len(asked) >= VERSION_DIGITS and built.digest.startswith(asked.lower())
    answer.headers["Cache-Control"] = IMMUTABLE if exact else "no-cache"
    return answer


def shell(build: Build, room_id: str, lang: str, tls: bool) -> str:
    """The page every ``/play`` URL answers: the client's script fills ``<main>``."""
    e = html.escape
    t = Words(lang if lang in LANGUAGES else "en")
    # No icon in the build: an empty one, rather than the browser's own request for /favicon.ico (a 404).
    icon = '<link rel="icon" href="data:,">'
    if "icon.png" in build.files:
        icon = f'<link rel="icon" type="image/png" href="/web/icon.png?v={build.files["icon.png"].version}">'
    return (f'<!DOCTYPE html>\n<html lang="{e(t.lang)}"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="robots" content="noindex"><title>Huit</title>{icon}\n'
            f'<link rel="stylesheet" href="/web/app.css?v={build.files["app.css"].version}"></head><body>\n'
            f'<main id="huit" data-room="{e(room_id)}" data-lang="{e(t.lang)}" '
            f'data-tls="{int(tls)}"></main>\n'
            f'<noscript><p>{e(t("web.noscript"))}</p></noscript>\n'
            f'<script type="module" src="/web/app.js?v={build.files["app.js"].version}"></script>\n'
            '</body></html>\n')


def missing_page(lang: str) -> str:
    """The ``503`` page of ``/play`` when the build is missing: one sentence, no style."""
    t = Words(lang if lang in LANGUAGES else "en")
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(t.lang)}"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="robots" content="noindex"><title>Huit</title></head>\n'
            f'<body><p>{html.escape(t("web.browser_missing"))}</p></body></html>\n')


def _matches(if_none_match: str, etag: str) -> bool:
    return any(tag.strip().removeprefix("W/") == etag for tag in if_none_match[:1024].split(",")[:16])


def _answer(status: int, reason: str, kind: str, data: bytes, host: str) -> Response:
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                       ("Content-Length", str(len(data))), ("Content-Type", kind),
                       ("Content-Security-Policy", csp(host)), *SECURITY])
    return Response(status, reason, headers, data)
