"""Servers side by side: what one room server must know of the others sharing its database.

Several identical servers ("instances") may serve the same rooms from one PostgreSQL
database (docs/deploy.md): a client reaches any of them. Each keeps its own copy of the
rooms it serves (`replicas`: a copy is caught up from the database's log, and a stale
copy's writes are refused: `roomstore.Behind`). What they share besides the rooms is a
`Cluster`:

- **who hears what**: after a room is written, every instance is told (its id and new
  revision, and for a move the log entry itself: `Written`), so those with people in it catch
  up and tell them;
- **presence**: which seats have their person connected to some instance (a turn clock
  runs only while its player is connected, wherever they are);
- **leases**: a room's computers, turn clocks and the next deal run on exactly one instance,
  the one holding the room's lease; it is held only while the instance lives (a killed
  instance's leases are free at once), and another instance with people in the room takes it.

`Alone` is the cluster of a server on its own (SQLite, or "Host on this computer"): it drives
every room, nobody else is ever present, and nobody needs telling. `pgcluster.PgCluster` is
the PostgreSQL one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

from .rooms import LogEntry


@dataclass(frozen=True)
class Written:
    """What a room's news says was written, when it can say it: the log entry stored at ``seq``
    (a move, most of the time). A copy at the revision just before takes it as it is, with no
    read of the database."""

    seq: int
    entry: LogEntry


Heard = Callable[[str, int, Written | None], None]
"""Told that a room was written by someone: its id, its revision (-1: deleted; 0: created)
and, when the news carries it, what was written (None: read it from the database)."""
Moved = Callable[[str], None]
"""Told that who is connected to a room changed elsewhere: its id."""
Signal = Callable[[str], None]
"""Told a signal another instance sent (`Cluster.signal`): its text."""
Lost = Callable[[], None]
"""Told that this instance may have missed news (its link to the others was lost and is back):
every copy it serves must be checked."""


class Cluster(Protocol):
    """What an instance shares with the others on its database (see the module)."""

    instance: str  # this instance's name among them (its log lines and /health say it)

    async def start(self, heard: Heard, moved: Moved, lost: Lost, tend: Callable[[], None]) -> None:
        """Begin hearing the others (``heard``, ``moved``, ``lost`` are called on the event loop),
        and call ``tend`` every beat (the leases to take or let go: `replicas.Replicas.tend`)."""
        ...

    async def stop(self) -> None:
        """Let every lease go and stop hearing the others."""
        ...

    def drives(self, room_id: str) -> bool:
        """Whether this instance runs the room's computers and clocks (it holds its lease)."""
        ...

    def lease(self, room_id: str, wanted: bool) -> bool:
        """Take (``wanted``) or let go the room's lease; return whether this instance holds it now."""
        ...

    def take(self, room_ids: Collection[str]) -> set[str]:
        """Try to take the leases of these rooms at once, without waiting (a beat's work: one
        question to the database, not one a room); return those of them this instance holds now."""
        ...

    def present(self, room_id: str, seat: int, here: bool) -> None:
        """The person of ``seat`` is connected to this instance (``here``) or no longer is."""
        ...

    def elsewhere(self, room_id: str) -> set[int]:
        """The room's seats whose person is connected to another living instance."""
        ...

    def living(self) -> set[str]:
        """The names of the living instances (this one included)."""
        ...

    def signal(self, kind: str, text: str) -> None:
        """Tell every instance (this one too, on the event loop, once its database says it) a
        signal of ``kind`` (a word) with ``text`` (one line, under 7,000 bytes); the instances
        that `listen` to ``kind`` hear it. Sent once the caller's changes are committed."""
        ...

    def listen(self, kind: str, heard: Signal) -> None:
        """Hear the signals of ``kind`` (one listener per kind)."""
        ...


class Alone:
    """The cluster of a server on its own: it drives every room, and nobody else is there."""

    instance = "alone"

    def __init__(self) -> None:
        self._listeners: dict[str, Signal] = {}

    async def start(self, heard: Heard, moved: Moved, lost: Lost, tend: Callable[[], None]) -> None:
        """Nothing to hear, no lease to tend."""

    async def stop(self) -> None:
        """Nothing to let go."""

    def drives(self, room_id: str) -> bool:
        """Every room is this server's."""
        return True

    def lease(self, room_id: str, wanted: bool) -> bool:
        """Every room is this server's."""
        return True

    def take(self, room_ids: Collection[str]) -> set[str]:
        """Every room is this server's."""
        return set(room_ids)

    def present(self, room_id: str, seat: int, here: bool) -> None:
        """Nobody else needs to know."""

    def elsewhere(self, room_id: str) -> set[int]:
        """Nobody is connected anywhere else."""
        return set()

    def living(self) -> set[str]:
        """This server alone."""
        return {self.instance}

    def signal(self, kind: str, text: str) -> None:
        """Heard here, at once (nobody else is there to hear it)."""
        listener = self._listeners.get(kind)
        if listener is not None:
            listener(text)

    def listen(self, kind: str, heard: Signal) -> None:
        """Hear the signals of ``kind``."""
        self._listeners[kind] = heard
