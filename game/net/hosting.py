"""Running a room server: on a thread of the game ("Host on this computer"), or as a command.

``python main.py serve [--host --port --db --think-scale --rooms-per-hour --rate]`` (also
``python -m game.net.server``) serves until interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, Final

from game.cli import CommandParser, number, shown, whole_number

from .protocol import RATE
from .server import MAX_ROOMS, ROOMS_PER_HOUR, RoomServer

DEFAULT_PORT: Final = 8765


class ServerThread(threading.Thread):
    """A `RoomServer` on its own thread and event loop ("Host on this computer", tests)."""

    def __init__(self, db: str | Path, host: str = "127.0.0.1", port: int = 0, **options: Any) -> None:
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
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._halt = asyncio.Event()
        server = self.server = RoomServer(self.db, **self.options)
        try:
            await server.start(self.host, self.requested_port)
        except BaseException as exc:  # e.g. the port is taken: the caller reads `error`
            self.error = exc
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
PATH_SHOWN: Final = 160  # characters of a path quoted in a refusal
SQLITE_HEADER: Final = b"SQLite format 3\x00"


def database_file(text: str) -> Path:
    """``--db``: a file SQLite can open, or a name for a new one (argparse ``type=``).

    Raises:
        argparse.ArgumentTypeError: a folder, something other than a file (a FIFO, a device),
            or a file that is not an SQLite database.
    """
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


def main(argv: list[str] | None = None) -> int:
    """``python main.py serve``: run the room server until interrupted.

    A bad flag, an unusable data folder or a database that cannot be opened is one line on
    standard error and exit code 2; a server that cannot listen (the port is taken), one
    line and exit code 1.
    """
    from game.saves.paths import DataFolderError, data_dir, make_data_dir

    parser = CommandParser(prog="python main.py serve", description="Huit's online room server")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=DEFAULT_PORT,
                        help=f"port to listen on, 0 for any free one (default {DEFAULT_PORT})")
    parser.add_argument("--db", type=database_file,
                        help="the rooms' SQLite file (default: rooms.sqlite3 in the data folder)")
    parser.add_argument("--think-scale", type=number(0, MAX_THINK_SCALE), default=1.0,
                        help=f"computers' think delay multiplier, 0 to {MAX_THINK_SCALE:g} "
                             "(0: play at once; default 1)")
    parser.add_argument("--rooms-per-hour", type=whole_number(1, MAX_ROOMS), default=ROOMS_PER_HOUR,
                        help=f"rooms one address may create in an hour, 1 to {MAX_ROOMS} "
                             f"(default {ROOMS_PER_HOUR})")
    parser.add_argument("--rate", type=number(MIN_RATE, MAX_RATE), default=RATE,
                        help=f"messages a second one connection may send, {MIN_RATE:g} to {MAX_RATE:g} "
                             f"(default {RATE:g}; bursts of twice that)")
    args = parser.parse_args(argv)
    db = args.db
    if db is None:
        try:
            root = data_dir()
            make_data_dir(root)
        except DataFolderError as exc:
            parser.error(str(exc))
        db = root / "rooms.sqlite3"
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

    def unusable(exc: Exception) -> int:
        print(f"{parser.prog}: error: cannot open the rooms' database {shown(str(db), PATH_SHOWN)}: "
              f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 2

    try:
        server = RoomServer(db, think_scale=args.think_scale, rate=args.rate, burst=2 * args.rate,
                            rooms_per_hour=args.rooms_per_hour)
    except (sqlite3.Error, OSError) as exc:  # not a database; a folder for it that cannot be made
        return unusable(exc)

    async def run() -> None:
        await server.start(args.host, args.port)
        print(f"Huit server on {args.host}:{server.port}, rooms in {db}; "
              f"links look like huit://HOST:{server.port}/ROOM", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except sqlite3.Error as exc:  # its rooms cannot be read
        return unusable(exc)
    except OSError as exc:
        print(f"Cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
