"""Saved games, one per mode on this device: what a save holds, and reading and writing it.

A save is a plain dict (format `FORMAT`) pickled in the `document` envelope and read
back only through the allow-list unpickler:

- ``match``: the `Match` (rules, scores, the round with the pending suit choice,
  penalties, the draw pile and the match's random generator);
- ``seats``: ``{"kind", "level", "name"}`` per seat;
- ``rng``: the state of the table's own generator (think delays, undo reshuffles);
- ``viewer``: the seat the table showed; ``undo``: the undo snapshots (pickled
  match, turn, length of the history then);
- ``history``: this round's events, so computer players learn again what they knew;
- ``queue``: actions asked for but not applied yet; ``timer``: the turn timer's
  turn and seconds left; ``settled``: the finished match is already in the statistics.

A file that cannot be read is never overwritten: the next save in that mode first
keeps it aside as ``NAME.corrupt`` (`GameSlots.write`).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, Final

from game.engine import Action, Match
from game.engine.events import Event

from .document import pack, unpack, upgrade
from .errors import SaveError
from .paths import game_file
from .safefile import GAME_CAP, backup_of, read_file, set_aside
from .unpickler import UnsafePickle, safe_loads
from .writer import SaveWriter

KIND: Final = "game"
FORMAT: Final = 1
UPGRADES: Final[dict[int, Any]] = {}
"""Steps ``version n → n + 1`` for game payloads (none yet: format 1 is the first)."""

FIELDS: Final = ("match", "seats", "rng", "viewer", "undo", "history", "queue", "timer", "settled")
MAX_BODY: Final = 16 << 20  # a 7-seat game with 50 undo steps is about 0.3 MB


def encode_game(payload: dict[str, Any]) -> bytes:
    """The file bytes of a game payload."""
    return pack(KIND, FORMAT, pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))


def decode_game(data: bytes) -> dict[str, Any]:
    """Read a game payload from file bytes, safely, and check its shape.

    Raises:
        SaveError: empty, foreign, newer, damaged, unsafe or meaningless data.
    """
    version, body = unpack(data, KIND, FORMAT)
    if len(body) > MAX_BODY:
        raise SaveError("invalid", detail=f"{len(body)} bytes is more than a game ever needs")
    try:
        value = safe_loads(body)
    except UnsafePickle:
        raise SaveError("unsafe") from None
    except Exception as exc:  # any damage a pickle can have: the file is refused, never trusted
        raise SaveError("invalid", detail=type(exc).__name__) from None
    game: dict[str, Any] = upgrade(value, version, FORMAT, UPGRADES)
    check_game(game)  # a dict of the expected shape, or SaveError
    return game


def check_game(value: Any) -> None:
    """Check that a decoded payload has the fields and types a game needs.

    Raises:
        SaveError: what is missing or wrong.
    """
    def wrong(detail: str) -> SaveError:
        return SaveError("invalid", detail=detail)

    if not isinstance(value, dict):
        raise wrong("not a table of fields")
    missing = [f for f in FIELDS if f not in value]
    if missing:
        raise wrong("missing " + ", ".join(missing))
    match = value["match"]
    if not isinstance(match, Match):
        raise wrong("no match")
    seats = value["seats"]
    names = ("kind", "level", "name")
    if (not isinstance(seats, list) or len(seats) != match.players
            or not all(isinstance(s, dict) and all(isinstance(s.get(k), str) for k in names) for s in seats)):
        raise wrong("seats")
    if type(value["viewer"]) is not int or not 0 <= value["viewer"] < match.players:
        raise wrong("viewer")
    if not isinstance(value["rng"], tuple):
        raise wrong("random state")
    undo = value["undo"]
    if not isinstance(undo, list) or not all(
            isinstance(u, tuple) and len(u) == 3 and isinstance(u[0], bytes)
            and type(u[1]) is int and type(u[2]) is int for u in undo):
        raise wrong("undo history")
    if not isinstance(value["history"], list) or not all(isinstance(e, Event) for e in value["history"]):
        raise wrong("history")
    queue = value["queue"]
    if not isinstance(queue, list) or not all(
            isinstance(q, tuple) and len(q) == 2 and (q[0] is None or type(q[0]) is int)
            and isinstance(q[1], Action) for q in queue):
        raise wrong("queued actions")
    timer = value["timer"]
    if timer is not None and not (
            isinstance(timer, tuple) and len(timer) == 2 and isinstance(timer[0], tuple)
            and len(timer[0]) == 3 and all(type(t) is int for t in timer[0])
            and isinstance(timer[1], int | float)):
        raise wrong("timer")
    _check_match(match, wrong)
    for data, _, _ in undo:  # every undo step must itself be a sound game
        try:
            snapshot = safe_loads(data)
        except Exception:
            raise wrong("an undo step cannot be read") from None
        if not isinstance(snapshot, Match) or snapshot.players != match.players:
            raise wrong("an undo step is not this game")
        _check_match(snapshot, wrong)


def _check_match(match: Match, wrong: Any) -> None:
    """Ask the game what every seat sees and may do: a damaged or outdated one fails here, not later."""
    try:
        for seat in range(match.players):
            match.view(seat)
        match.legal_actions()
        if len(match.scores) != match.players or not isinstance(match.results, list):
            raise ValueError("scores")
    except Exception as exc:  # whatever the damage, the file is refused rather than crashing the game
        raise wrong(f"the game inside does not work ({type(exc).__name__})") from None


class GameSlots:
    """The saved games of one data folder: read, write (through a `SaveWriter`), delete."""

    def __init__(self, root: Path, writer: SaveWriter) -> None:
        self.root = root
        self.writer = writer
        self._trusted: set[str] = set()  # modes whose file on disk is one we read or wrote

    def path(self, mode: str) -> Path:
        """The save file of ``mode``."""
        return self.root / game_file(mode)

    def exists(self, mode: str) -> bool:
        """Whether ``mode`` has a save file (readable or not)."""
        return self.path(mode).is_file()

    def read(self, mode: str, *, backup: bool = False) -> dict[str, Any] | None:
        """The saved game of ``mode`` (or its backup); None when there is none.

        Raises:
            SaveError: the file exists but cannot be used (it is left as it is).
        """
        path = self.path(mode)
        if backup:
            path = backup_of(path)
        self.writer.flush()  # a save still on its way to the disk is the one to read
        try:
            data = read_file(path, GAME_CAP)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SaveError("unreadable", detail=exc.strerror or str(exc)) from None
        payload = decode_game(data)
        if not backup:
            self._trusted.add(mode)
        return payload

    def write(self, mode: str, payload: dict[str, Any]) -> None:
        """Save ``payload`` for ``mode`` (the bytes are made now, written in the background).

        An unreadable file there is first kept aside as ``NAME.corrupt``: only starting
        a new game (or taking the backup) in that mode leads here.
        """
        data = encode_game(payload)
        if mode not in self._trusted:
            self._set_aside_if_unreadable(mode)
            self._trusted.add(mode)
        self.writer.write(self.path(mode), data)

    def _set_aside_if_unreadable(self, mode: str) -> None:
        self.writer.flush()
        try:
            self.read(mode)
        except SaveError:
            set_aside(self.path(mode))

    def delete(self, mode: str) -> None:
        """Remove ``mode``'s save and its backup (the match is over)."""
        self.writer.delete(self.path(mode))
