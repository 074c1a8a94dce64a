"""The secret keys of online seats this device holds, one small file per room.

Reconnecting to a room with its link and the key gets the same seat back, so a key is
what an online game's "save" is on this device. Keys are secrets: they are never
printed or logged, and "Clear data" deletes them.

A key file is read like every data file (`safefile.read_file`: a regular file of at
most `SEAT_KEY_CAP` bytes; bounded JSON) and every field is checked by type before its
value. One that cannot be used is left as it is, and `SeatKeys.survey` says why, so
the lobby can tell the player instead of hiding the room.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

from . import paths
from .document import pack_json, unpack_json
from .errors import SaveError
from .paths import ONLINE
from .safefile import SEAT_KEY_CAP, read_file
from .writer import SaveWriter

KIND: Final = "seat"
FORMAT: Final = 1
ROOM_ID: Final = re.compile(rf"^{paths.ROOM_ID}$")
MAX_LINK: Final = 400  # huit:// + a 253-character host + :PORT + / + a 64-character room id
MAX_KEY: Final = 256  # the server's keys are 32 characters
MAX_SEAT: Final = 64


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

    def read(self, room: str) -> SeatKey | None:
        """The key held for ``room``, or None when there is none.

        Raises:
            SaveError: the file cannot be used (it is left as it is).
            ValueError: the room id is not a room id.
        """
        path = self._path(room)
        self.writer.flush()  # read what was last remembered, not what the disk had before
        try:
            data = read_file(path, SEAT_KEY_CAP)
        except FileNotFoundError:
            return None
        return _seat_key(unpack_json(data, KIND, FORMAT, {}), room)

    def get(self, room: str) -> SeatKey | None:
        """The key held for ``room``, or None (also for an unreadable file).

        Raises:
            ValueError: the room id is not a room id.
        """
        try:
            return self.read(room)
        except SaveError:
            return None

    def survey(self) -> tuple[list[SeatKey], list[tuple[str, SaveError]]]:
        """Every readable key, and every room whose key file cannot be used with why: the seat
        taken last comes last (its file was written last), then by room id.

        The lobbies show the last few of them as "My rooms": ordered by room id, a room just
        joined could be left out for older ones (issue 33's trial)."""
        if not self.folder.is_dir():
            return [], []
        self.writer.flush()  # a key being written counts as the newest

        def taken(path: Path) -> tuple[int, str]:
            try:
                return path.stat().st_mtime_ns, path.name
            except OSError:  # gone meanwhile: read() says so below
                return 0, path.name

        keys, problems = [], []
        for path in sorted(self.folder.glob("*.json"), key=taken):
            room = path.name[:-5]
            if not ROOM_ID.match(room):
                continue
            try:
                key = self.read(room)
            except SaveError as exc:
                problems.append((room, exc))
                continue
            if key is not None:
                keys.append(key)
        return keys, problems

    def rooms(self) -> list[SeatKey]:
        """Every readable key, the seat taken last last (`survey`)."""
        return self.survey()[0]

    def forget(self, room: str) -> None:
        """Drop the key of ``room`` (the room is gone)."""
        self.writer.delete(self._path(room))


def _seat_key(value: Any, room: str) -> SeatKey:
    """A seat key from its document, each field checked by type, then by value.

    Raises:
        SaveError: not an object (``wrong_shape``), or which fields are wrong (``bad_fields``).
    """
    if not isinstance(value, dict):
        raise SaveError("wrong_shape")
    link, seat, key = value.get("link"), value.get("seat"), value.get("key")
    checks = {
        "link": isinstance(link, str) and 0 < len(link) <= MAX_LINK,
        "room": isinstance(value.get("room"), str) and value.get("room") == room,
        "seat": type(seat) is int and 0 <= seat < MAX_SEAT,
        "key": isinstance(key, str) and 0 < len(key) <= MAX_KEY,
    }
    wrong = [name for name, ok in checks.items() if not ok]
    if wrong:
        raise SaveError("bad_fields", names=", ".join(wrong))
    return SeatKey(cast(str, link), room, cast(int, seat), cast(str, key))
