"""The secret keys of online seats this device holds, one small file per room.

Reconnecting to a room with its link and the key gets the same seat back, so a key is
what an online game's "save" is on this device. Keys are secrets: they are never
printed or logged, and "Clear data" deletes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from . import paths
from .document import pack_json, unpack_json
from .errors import SaveError
from .paths import ONLINE
from .writer import SaveWriter

KIND: Final = "seat"
FORMAT: Final = 1
ROOM_ID: Final = re.compile(rf"^{paths.ROOM_ID}$")


@dataclass(frozen=True)
class SeatKey:
    """A claimed seat: the room's link, the seat number and its secret key."""

    link: str
    room: str
    seat: int
    key: str

    def __repr__(self) -> str:  # never show the key in a log or a traceback
        return f"SeatKey(link={self.link!r}, room={self.room!r}, seat={self.seat}, key=…)"


class SeatKeys:
    """Seat keys under ``ROOT/online/``."""

    def __init__(self, root: Path, writer: SaveWriter) -> None:
        self.folder = root / ONLINE
        self.writer = writer

    def _path(self, room: str) -> Path:
        if not ROOM_ID.match(room):
            raise ValueError(f"a room id is 1 to 64 letters, digits, - or _, not {room!r}")
        return self.folder / f"{room}.json"

    def remember(self, seat_key: SeatKey) -> None:
        """Keep the key of a claimed seat.

        Raises:
            ValueError: the room id is not a room id.
        """
        value = {"link": seat_key.link, "room": seat_key.room, "seat": seat_key.seat, "key": seat_key.key}
        self.writer.write(self._path(seat_key.room), pack_json(KIND, FORMAT, value), private=True)

    def get(self, room: str) -> SeatKey | None:
        """The key held for ``room``, or None (also for an unreadable file).

        Raises:
            ValueError: the room id is not a room id.
        """
        path = self._path(room)
        try:
            value = unpack_json(path.read_bytes(), KIND, FORMAT, {})
            link, seat, key = value["link"], value["seat"], value["key"]
        except (OSError, SaveError, KeyError, TypeError):
            return None
        if (not isinstance(link, str) or type(seat) is not int or not 0 <= seat < 64
                or not isinstance(key, str) or value.get("room") != room):
            return None
        return SeatKey(link, room, seat, key)

    def rooms(self) -> list[SeatKey]:
        """Every readable key, by room id."""
        if not self.folder.is_dir():
            return []
        rooms = [p.name[:-5] for p in sorted(self.folder.glob("*.json"))]
        keys = [self.get(room) for room in rooms if ROOM_ID.match(room)]
        return [k for k in keys if k is not None]

    def forget(self, room: str) -> None:
        """Drop the key of ``room`` (the room is gone)."""
        self.writer.delete(self._path(room))
