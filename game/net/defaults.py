"""The room server's default limits, and the little its command line needs to read them:
standard library only, so that ``python main.py serve`` checks its flags and says its
``--help`` without loading the server, the engine or the computer players.

Each name is still read from the module that uses it (`protocol.RATE`, `rooms.RANKED_TURN_SECONDS`,
`fair_seats.RELEASE_AFTER`, `search.default_workers`, `server.MAX_ROOMS`, `stores.is_postgres`,
`hosting.DEFAULT_PORT`...); this is where it is written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

DEFAULT_PORT: Final = 8765
"""The port ``serve`` listens on, and that a link without one names."""

RATE: Final = 20.0  # messages a second a connection may send, sustained

RANKED_TURN_SECONDS: Final = 40
"""The longest turn of a ranked game: its clock, whatever the room's options (a room whose own
clock is shorter keeps it). The server may run it shorter (``serve --ranked-clock``)."""

RELEASE_AFTER: Final = 60.0
"""Seconds a person may be away from a public room waiting for players before their seat is freed."""
SEATS_PER_ADDRESS: Final = 4
"""Seats one address may hold at once in public rooms and quick match (a family, not a farm)."""

MAX_WORKERS: Final = 4
BUDGET: Final = 0.5  # seconds: Hard's own think budget
MIN_BUDGET: Final = 0.05

MAX_ROOMS: Final = 10_000  # rooms one server keeps
ROOMS_PER_HOUR: Final = 60  # rooms one address may create in an hour
ROOMS_HELD: Final = 50  # rooms one address may hold at once (created by it, still kept)
COMPUTER_SEATS: Final = 12  # computer seats in the games under way in one address's rooms
PROFILES_PER_HOUR: Final = 20  # new players one address may make in an hour
QUEUE_PER_HOUR: Final = 120  # quick-match requests an hour, per address and per player

SCHEMES: Final = ("postgresql://", "postgres://")
"""How a PostgreSQL URL begins (what ``--db`` tells from a file name)."""


def default_workers() -> int:
    """Search workers for this machine: one per core but the one the event loop runs on
    (at least one, at most `MAX_WORKERS`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores - 1))


def is_postgres(db: str | Path) -> bool:
    """Whether ``db`` is a PostgreSQL URL rather than an SQLite file."""
    return isinstance(db, str) and db.lower().startswith(SCHEMES)
