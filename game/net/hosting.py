"""Running a room server: on a thread of the game ("Host on this computer"), or as a command.

``python main.py serve [--host --port --db --think-scale --rooms-per-hour --rate]`` (also
``python -m game.net.server``) serves until interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import threading
from pathlib import Path
from typing import Any, Final

from .protocol import RATE
from .server import ROOMS_PER_HOUR, RoomServer

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


def main(argv: list[str] | None = None) -> int:
    """``python main.py serve``: run the room server until interrupted."""
    from game.saves import data_dir

    parser = argparse.ArgumentParser(prog="python main.py serve", description="Huit's online room server")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--db", help="the rooms' SQLite file (default: rooms.sqlite3 in the data folder)")
    parser.add_argument("--think-scale", type=float, default=1.0,
                        help="computers' think delay multiplier (0: play at once)")
    parser.add_argument("--rooms-per-hour", type=int, default=ROOMS_PER_HOUR,
                        help=f"rooms one address may create in an hour (default {ROOMS_PER_HOUR})")
    parser.add_argument("--rate", type=float, default=RATE,
                        help=f"messages a second one connection may send (default {RATE:g}; "
                             "bursts of twice that)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    db = Path(args.db) if args.db else data_dir() / "rooms.sqlite3"

    async def run() -> None:
        server = RoomServer(db, think_scale=args.think_scale, rate=args.rate, burst=2 * args.rate,
                            rooms_per_hour=args.rooms_per_hour)
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
    except OSError as exc:
        print(f"Cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
