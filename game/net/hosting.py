"""Running a room server: on a thread of the game ("Host on this computer"), or as a command.

``python main.py serve [--host --port --db --think-scale --rooms-per-hour --rate …]`` (also
``python -m game.net.server``) serves until interrupted; ``--help`` lists every flag. With
``--certfile`` (and ``--keyfile``) it serves ``wss://`` and ``https://``; behind a reverse
proxy, ``--proxy-headers`` with one ``--trusted-proxy`` or more reads the client's address
from ``X-Forwarded-For``. A bad flag, a certificate that cannot be used or a rooms'
database that cannot be (`roomstore.StoreError`) is one line and exit code 2, and the
file is left as it was.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypedDict, Unpack
from urllib.parse import urlsplit

# Only what reading ``serve``'s flags needs is imported here (the standard library, `game.cli`,
# `addresses`, `defaults`): a refused flag and ``--help`` load neither the server, the engine
# nor the computer players. `main` and `ServerThread` import the server when they run it.
from game.cli import CommandParser, number, shown, whole_number

from .addresses import trusted_network
from .defaults import (
    BUDGET,
    COMPUTER_SEATS,
    MAX_ROOMS,
    MIN_BUDGET,
    PROFILES_PER_HOUR,
    QUEUE_PER_HOUR,
    RANKED_TURN_SECONDS,
    RATE,
    RELEASE_AFTER,
    ROOMS_HELD,
    ROOMS_PER_HOUR,
    SEATS_PER_ADDRESS,
    default_workers,
    is_postgres,
)
from .defaults import DEFAULT_PORT as DEFAULT_PORT  # the port ``serve`` listens on by default

if TYPE_CHECKING:
    import asyncio
    import random
    import ssl

    from .addresses import Network
    from .clock import Clock
    from .cluster import Cluster
    from .roomstore import RoomStore
    from .search import SearchPool
    from .server import RoomServer
    from .ticket_store import TicketStore


class ServerOptions(TypedDict, total=False):
    """`RoomServer`'s keyword options, as a `ServerThread` passes them on (each one's meaning
    and default: `RoomServer`; the game hosts with none, tests with ``think_scale=0``...)."""

    clock: Clock
    think_scale: float
    rng: random.Random
    rate: float
    burst: float
    max_rooms: int
    rooms_per_hour: int
    rooms_held: int
    computer_seats: int
    connections_per_address: int
    pages_per_second: float
    trust_loopback: bool
    lonely_expiry: float
    finished_expiry: float
    search: SearchPool
    tls: ssl.SSLContext
    proxy_headers: bool
    trusted_proxies: Iterable[str | Network]
    profiles_per_hour: int
    queue_per_hour: int
    renames_per_hour: int
    votes_per_hour: int
    download_url: str
    ranked_clock: float
    seats_per_address: int
    seat_release: float
    cluster: Cluster
    tickets: TicketStore
    browser: bool
    browser_root: Path


class ServerThread(threading.Thread):
    """A `RoomServer` on its own thread and event loop ("Host on this computer", tests)."""

    def __init__(self, db: str | Path | RoomStore, host: str = "127.0.0.1", port: int = 0,
                 **options: Unpack[ServerOptions]) -> None:
        super().__init__(name="huit-server", daemon=True)
        self.db, self.host, self.requested_port, self.options = db, host, port, options
        self.port = 0
        self.error: BaseException | None = None
        self.server: RoomServer | None = None  # for tests: the rooms, on this thread's loop
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._halt: asyncio.Event | None = None

    def run(self) -> None:
        """Serve until `stop`."""
        import asyncio

        asyncio.run(self._main())

    async def _main(self) -> None:
        import asyncio

        from .server import RoomServer

        self._loop = asyncio.get_running_loop()
        self._halt = asyncio.Event()
        try:
            server = self.server = RoomServer(self.db, **self.options)  # StoreError: a damaged database
        except BaseException as exc:  # the caller reads `error` (the lobby says it)
            self.error = exc
            self._ready.set()
            return
        try:
            await server.start(self.host, self.requested_port)
        except BaseException as exc:  # e.g. the port is taken: the caller reads `error`
            self.error = exc
            await server.stop()
            self._ready.set()
            return
        self.port = server.port
        self._ready.set()
        await self._halt.wait()
        await server.stop()

    def start(self) -> None:
        """Start and wait until the server listens (or failed: see ``error``)."""
        super().start()
        self._ready.wait(10)

    def stop(self) -> None:
        """Stop the server and wait for its thread."""
        if self._loop is not None and self._halt is not None:
            self._loop.call_soon_threadsafe(self._halt.set)
        self.join(10)


MAX_RATE: Final = 100_000.0
"""Messages a second one connection may be allowed at most (``--rate``): more than any connection
sends, so as good as no limit (tests use 10,000), but a number; ``inf`` and ``nan`` are refused."""
MIN_RATE: Final = 1.0
"""The least ``--rate``: its bursts (twice the rate) must let at least two messages through."""
MAX_THINK_SCALE: Final = 100.0
"""The largest ``--think-scale``: computers that think 100 times slower than usual."""
MAX_PER_HOUR: Final = 1_000_000
"""The most ``--profiles-per-hour`` and ``--queue-per-hour`` allow: as good as no limit, but a number."""
MIN_RANKED_CLOCK: Final = 1.0
"""The shortest ``--ranked-clock``: a turn of a ranked game is never shorter than a second."""
MAX_SEARCH_WORKERS: Final = 64
MIN_RELEASE: Final = 1.0
MAX_RELEASE: Final = 3600.0
"""The range of ``--seat-release``: an away seat of a public room is freed after a second to an hour."""
MAX_THINK_BUDGET: Final = 10.0
PATH_SHOWN: Final = 160  # characters of a path quoted in a refusal
SQLITE_HEADER: Final = b"SQLite format 3\x00"


def database_file(text: str) -> Path | str:
    """``--db``: a ``postgresql://`` (or ``postgres://``) URL, kept as it is (`stores.open_store`
    checks it when it opens it), or a file SQLite can open, or a name for a new one (argparse
    ``type=``).

    Raises:
        argparse.ArgumentTypeError: a folder, something other than a file (a FIFO, a device),
            or a file that is not an SQLite database.
    """
    if is_postgres(text):
        return text
    path = Path(text)
    try:
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{shown(text, PATH_SHOWN)} is a folder; --db names the rooms' "
                                             "SQLite file, e.g. rooms.sqlite3 in it")
        if path.exists():
            if not path.is_file():
                raise argparse.ArgumentTypeError(f"{shown(text, PATH_SHOWN)} is not a regular file")
            with path.open("rb") as fh:
                head = fh.read(len(SQLITE_HEADER))
            if head and head != SQLITE_HEADER:
                raise argparse.ArgumentTypeError(f"{shown(text, PATH_SHOWN)} is not an SQLite database")
    except OSError as exc:
        why = exc.strerror or exc
        raise argparse.ArgumentTypeError(f"cannot read {shown(text, PATH_SHOWN)}: {why}") from None
    return path


def download_url(text: str) -> str:
    """``--download-url``: an ``https://`` or ``http://`` address with a host, at most 512
    characters, no spaces or quotes (it is written into every room page).

    Raises:
        argparse.ArgumentTypeError: anything else, in one line.
    """
    parts = urlsplit(text)
    if (len(text) > MAX_DOWNLOAD_URL or parts.scheme not in ("https", "http") or not parts.hostname
            or any(c.isspace() or c in "\"'<>`" or ord(c) < 32 for c in text)):
        raise argparse.ArgumentTypeError(
            f"expected an https:// or http:// address of at most {MAX_DOWNLOAD_URL} characters, "
            f"not {shown(text, 60)}")
    return text


MAX_DOWNLOAD_URL: Final = 512


def server_tls(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """The TLS context of ``--certfile`` (and ``--keyfile``; without it, the key is in the
    certificate's file): TLS 1.2 or newer.

    Raises:
        ValueError: a file that cannot be read, or that holds no usable certificate or key.
    """
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certfile, keyfile)
    except FileNotFoundError as exc:
        raise ValueError(f"{shown(exc.filename or certfile, PATH_SHOWN)} does not exist") from None
    except OSError as exc:  # ssl.SSLError too
        why = getattr(exc, "reason", None) or exc.strerror or exc
        raise ValueError(f"the certificate {shown(certfile, PATH_SHOWN)} or its key cannot be used ({why})") \
            from None
    return context


def _proxy(text: str) -> str:
    try:
        trusted_network(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def main(argv: list[str] | None = None) -> int:
    """``python main.py serve``: run the room server until interrupted.

    A bad flag, an unusable data folder or a database that cannot be opened is one line on
    standard error and exit code 2; a server that cannot listen (the port is taken), one
    line and exit code 1.
    """
    parser = CommandParser(prog="python main.py serve", description="Huit's online room server")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=DEFAULT_PORT,
                        help=f"port to listen on, 0 for any free one (default {DEFAULT_PORT})")
    parser.add_argument("--db", type=database_file,
                        help="the rooms' SQLite file (default: rooms.sqlite3 in the data folder), or "
                             "a PostgreSQL database shared by several instances: "
                             "postgresql://USER@HOST/DB (docs/deploy.md)")
    parser.add_argument("--think-scale", type=number(0, MAX_THINK_SCALE), default=1.0,
                        help=f"computers' think delay multiplier, 0 to {MAX_THINK_SCALE:g} "
                             "(0: play at once; default 1)")
    parser.add_argument("--rooms-per-hour", type=whole_number(1, MAX_ROOMS), default=ROOMS_PER_HOUR,
                        help=f"rooms one address may create in an hour, 1 to {MAX_ROOMS} "
                             f"(default {ROOMS_PER_HOUR})")
    parser.add_argument("--rate", type=number(MIN_RATE, MAX_RATE), default=RATE,
                        help=f"messages a second one connection may send, {MIN_RATE:g} to {MAX_RATE:g} "
                             f"(default {RATE:g}; bursts of twice that)")
    parser.add_argument("--profiles-per-hour", type=whole_number(1, MAX_PER_HOUR), default=PROFILES_PER_HOUR,
                        help=f"new players one address may make in an hour, 1 to {MAX_PER_HOUR} "
                             f"(default {PROFILES_PER_HOUR})")
    parser.add_argument("--queue-per-hour", type=whole_number(1, MAX_PER_HOUR), default=QUEUE_PER_HOUR,
                        help=f"quick-match requests an hour per address and per player, 1 to {MAX_PER_HOUR} "
                             f"(default {QUEUE_PER_HOUR})")
    parser.add_argument("--rooms-held", type=whole_number(1, MAX_ROOMS), default=ROOMS_HELD,
                        help=f"rooms one address may hold at once, 1 to {MAX_ROOMS} (default {ROOMS_HELD})")
    parser.add_argument("--computer-seats", type=whole_number(0, 7 * MAX_ROOMS), default=COMPUTER_SEATS,
                        help="computer seats in the games under way in one address's rooms, 0 to "
                             f"{7 * MAX_ROOMS} (default {COMPUTER_SEATS})")
    parser.add_argument("--search-workers", type=whole_number(1, MAX_SEARCH_WORKERS), default=None,
                        help=f"processes Hard computers search in, 1 to {MAX_SEARCH_WORKERS} "
                             f"(default: one per core but one, here {default_workers()})")
    parser.add_argument("--think-budget", type=number(MIN_BUDGET, MAX_THINK_BUDGET), default=BUDGET,
                        help=f"seconds a Hard computer may search, {MIN_BUDGET:g} to {MAX_THINK_BUDGET:g} "
                             f"(default {BUDGET:g}; less on a busy server)")
    parser.add_argument("--ranked-clock", type=number(MIN_RANKED_CLOCK, RANKED_TURN_SECONDS),
                        default=float(RANKED_TURN_SECONDS), metavar="S",
                        help=f"seconds a turn of a ranked game, {MIN_RANKED_CLOCK:g} to "
                             f"{RANKED_TURN_SECONDS} (default {RANKED_TURN_SECONDS}; shorter for tests and "
                             "the stall script)")
    parser.add_argument("--certfile", help="serve wss:// and https:// with this PEM certificate (chain)")
    parser.add_argument("--keyfile", help="the certificate's private key (PEM), if not in --certfile")
    parser.add_argument("--proxy-headers", action="store_true",
                        help="behind a reverse proxy: read the client's address from X-Forwarded-For, "
                             "on connections from a --trusted-proxy only")
    parser.add_argument("--trusted-proxy", type=_proxy, action="append", default=[], metavar="ADDRESS",
                        help="a proxy's address or network (repeatable), e.g. 127.0.0.1 or 10.0.0.0/8")
    parser.add_argument("--seat-release", type=number(MIN_RELEASE, MAX_RELEASE), default=RELEASE_AFTER,
                        metavar="SECONDS",
                        help="seconds before the seat of a person away from a public room waiting for "
                             f"players is freed, {MIN_RELEASE:g} to {MAX_RELEASE:g} "
                             f"(default {RELEASE_AFTER:g})")
    parser.add_argument("--seats-per-address", type=whole_number(1, MAX_ROOMS), default=SEATS_PER_ADDRESS,
                        help="seats one address may hold at once in public rooms and quick match, 1 to "
                             f"{MAX_ROOMS} (default {SEATS_PER_ADDRESS}; loopback exempt without a proxy)")
    parser.add_argument("--download-url", type=download_url, default=None, metavar="URL",
                        help="where the rooms' web pages say to download Huit, an https:// or http:// "
                             "address (default: the project's release page)")
    parser.add_argument("--no-web", action="store_true",
                        help="do not serve the browser client (/play/ROOM answers 404 and the room pages "
                             "offer no \"Play in the browser\"; docs/web.md)")
    args = parser.parse_args(argv)
    if args.keyfile and not args.certfile:
        parser.error("--keyfile needs --certfile")
    if args.proxy_headers != bool(args.trusted_proxy):
        parser.error("--proxy-headers and --trusted-proxy go together: name the proxies whose "
                     "X-Forwarded-For is read")
    tls = None
    if args.certfile:
        try:
            tls = server_tls(args.certfile, args.keyfile)
        except ValueError as exc:
            parser.error(f"argument --certfile: {exc}")
    # The flags are read and agree: now the server itself.
    import asyncio
    import contextlib
    import logging
    import signal

    from game.saves.paths import DataFolderError, data_dir, make_data_dir, remove_leftovers

    from .roomstore import StoreError, StoreFailure
    from .search import SearchPool
    from .server import RoomServer
    from .stores import redacted

    db = args.db
    if db is None:
        try:
            root = data_dir()
            make_data_dir(root)
        except DataFolderError as exc:
            parser.error(str(exc))
        db = root / "rooms.sqlite3"
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    where = redacted(db) if is_postgres(db) else str(db)  # a URL is never shown with its password
    if not is_postgres(db):
        # A data folder the game shares: the writes in progress a killed game or server left there,
        # under the game's own names only (SQLite's -wal and -journal are its recovery: never touched).
        for path in remove_leftovers(Path(db).parent):
            logging.getLogger("huit.server").info("removed %s, a write a crash left unfinished", path)

    def unusable(exc: Exception) -> int:
        if isinstance(exc, StoreError):
            print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        else:
            print(f"{parser.prog}: error: cannot open the rooms' database {shown(where, PATH_SHOWN)}: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 2

    try:
        server = RoomServer(db, think_scale=args.think_scale, rate=args.rate, burst=2 * args.rate,
                            rooms_per_hour=args.rooms_per_hour, rooms_held=args.rooms_held,
                            computer_seats=args.computer_seats, tls=tls, proxy_headers=args.proxy_headers,
                            profiles_per_hour=args.profiles_per_hour, queue_per_hour=args.queue_per_hour,
                            trusted_proxies=args.trusted_proxy, download_url=args.download_url,
                            search=SearchPool(args.search_workers, budget=args.think_budget),
                            seat_release=args.seat_release, seats_per_address=args.seats_per_address,
                            ranked_clock=args.ranked_clock, browser=not args.no_web)
    except (StoreError, StoreFailure, OSError) as exc:  # a damaged database; a folder that cannot be made
        return unusable(exc)

    async def run() -> None:
        stopping = asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers here
            # SIGTERM (a service manager's stop) stops like Ctrl+C: the search workers end too.
            # Set before the line saying the server is up, so a stop right after it is a clean one.
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
        await server.start(args.host, args.port)
        page, game = ("https", "huits") if tls else ("http", "huit")
        # One of several instances on one database: its name, as /health and its log lines say it.
        instance = "" if server.cluster.instance == "alone" else f" (instance {server.cluster.instance})"
        if args.trusted_proxy:  # the links name the address the proxy was reached at, not this port
            links = "links name the address players reach the proxy at (its Host and X-Forwarded headers)"
        else:
            links = (f"links look like {page}://HOST:{server.port}/r/ROOM "
                     f"({game}://HOST:{server.port}/ROOM in the game)")
        print(f"Huit server on {args.host}:{server.port}{instance}, rooms in {where}; {links}", flush=True)
        try:
            await stopping.wait()
        finally:
            await server.stop()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except StoreFailure as exc:  # its rooms cannot be read
        return unusable(exc)
    except OSError as exc:
        print(f"Cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
