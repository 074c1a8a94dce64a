"""Saved games, one per mode on this device: what a save holds, writing it and reading it back.

A save (format `FORMAT`) holds plain data only, pickled without a memo
(`unpickler.plain_dumps`) in the `document` envelope, and is read back only through
`unpickler.plain_loads` (a scan of every opcode, then an unpickler that admits no class).
It names the rules by preset and options and keeps how the match began and its log;
the game is rebuilt by replaying that log through the engine (`Match.replay`), so a
save that does not replay under the rules is refused by the rules themselves. Every
field is checked by type before its value. The payload::

    {"rules": {"preset": "classic", "options": {"undo": True, …}}, "players": 3,
     "start": {"seed": 8812, "first": None, "deck": None},
     "log": [(0, "play 7H"), (1, "draw"), …, ("next", None), ("shuffle", 9021)],
     "seats": [("human", "medium", "Ana", 4), ("computer", "easy", "", None), …],
     "viewer": 0, "rng": (3, (…625 whole numbers…), None),
     "timer": ((1, 27, 0), 6.5), "undo": [12, 30], "undo_turn": (1, 27),
     "queue": [(0, "play 7H")], "settled": False,
     "autopilot": {"on": [0], "lost_in_a_row": [0, 1, 0], "lost_turn": None}}

``start`` is how the match began: a seed (and the first seat, and the first deal's
deck in card notation when it was explicit), an injected generator's ``state``
instead of the seed, or a ``position`` (`game.engine.snapshot`) for a game upgraded
from format 1 or whose log grew past `REBASE_AT`. ``rng`` and ``timer`` are the
table's own generator and turn clock; ``seats`` each seat's kind, level, name and
avatar (an id of `game.play.avatars`, or None: the seat's default; saves from before
avatars hold only the first three, and read as None); ``undo`` the log lengths at the
start of the person's last turns; ``queue`` actions asked for and not applied yet, in
notation; ``autopilot`` the people's seats the computer plays for, each seat's turns in
a row lost to the turn timer, and the turn lost to it that the computer is finishing (a
save without it, written before the autopilot, has it off for everyone).

Format 1 (pickled engine objects) is read through `format1.upgrade`. A file that
cannot be read is never overwritten: the next save in that mode first keeps it aside
as ``NAME.corrupt`` (`GameSlots.write`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from game.engine import Action, Match, Rules, RulesError, parse_action, parse_cards
from game.engine.autopilot import Autopilot
from game.engine.events import Event
from game.engine.match import NEXT, SEED_LIMIT, SHUFFLE, Entry
from game.engine.snapshot import (
    MAX_EVENTS,
    from_plain,
    generator_from_plain,
    rules_from_plain,
    rules_to_plain,
    stored_rules,
    to_plain,
)

from . import format1
from .document import Upgrade, pack, unpack, upgrade
from .errors import SaveError
from .paths import game_file
from .safefile import GAME_CAP, backup_of, read_file, set_aside
from .unpickler import DamagedPickle, MalformedPickle, UnsafePickle, plain_dumps, plain_loads, stub_loads
from .writer import SaveWriter

KIND: Final = "game"
FORMAT: Final = 2
UPGRADES: Final[dict[int, Upgrade]] = {}
"""Steps ``version n → n + 1`` for plain game payloads (none yet: format 2 is the first).
Format 1 is read differently (as stubs), so `decode_game` takes its step itself."""

FIELDS: Final = ("rules", "players", "start", "log", "seats", "viewer", "rng", "timer", "undo",
                 "undo_turn", "queue", "settled", "autopilot")
OPTIONAL: Final = ("autopilot",)
"""Fields a format-2 save may lack (written before they existed): each has a default."""
MAX_LOST: Final = 10**6
KINDS: Final = ("human", "computer")
LEVELS: Final = ("easy", "medium", "hard")
"""The computer levels a save may name (`game.ai.LEVELS`; a test keeps them the same)."""
MAX_LOG: Final = 20_000
"""The longest log a save may hold (replayed in about a fifth of a second)."""
REBASE_AT: Final = 10_000
"""A log longer than this is saved from the match's position instead (losing the undo steps)."""
MAX_UNDO: Final = 50
MAX_QUEUE: Final = 64
MAX_NAME: Final = 64
AVATARS: Final = 24
"""How many avatars a seat may name (`game.play.avatars.AVATARS`; a test keeps them the same)."""
MAX_TIMER: Final = 3600.0


@dataclass(frozen=True)
class SavedSeat:
    """Who sits at a seat in a save: ``kind`` (human or computer), ``level``, display ``name``,
    and ``avatar`` (None: the seat's default, as in saves from before avatars)."""

    kind: str
    level: str
    name: str
    avatar: int | None = None


@dataclass
class SavedTable:
    """A table's game as a save holds it: the match (with its record), the events of its deal
    so far (what computers learn again), and the table's own state."""

    match: Match
    history: list[Event]
    seats: list[SavedSeat]
    viewer: int
    rng: tuple[Any, ...]
    """The table's own generator's state (`random.Random.getstate`)."""
    timer: tuple[tuple[int, int, int], float] | None = None
    """The person's turn clock: its turn (deal, turn number, seat) and the seconds left."""
    undo: list[int] | None = None
    """Undo points: the log's length at the start of the person's last turns."""
    undo_turn: tuple[int, int] | None = None
    """The (deal, turn number) of the newest undo point."""
    queue: list[tuple[int | None, Action]] | None = None
    settled: bool = False
    """The finished match is already counted in the statistics."""
    autopilot: Autopilot | None = None
    """The autopilot as `game.play.TurnDriver.autopilot` gives it (None: a save from before it)."""


# ---- writing ---------------------------------------------------------------------------------------
def table_to_plain(table: SavedTable) -> dict[str, Any]:
    """The plain payload of ``table`` (see the module doc).

    Raises:
        RulesError: rules that are not a preset with options, or a match begun in a way a
            save cannot hold (a seed that is not a whole number).
    """
    match = table.match
    log: list[Entry] = list(match.log)
    undo, undo_turn = list(table.undo or ()), table.undo_turn
    start: dict[str, Any]
    if len(log) > REBASE_AT:  # replaying it would take long: start from where the game stands
        start = {"position": _rebased(match, table.history)}
        log, undo, undo_turn = [], [], None
    elif match.position is not None:
        start = {"position": match.position}
    else:
        deck = None if match.first_deck is None else " ".join(c.code for c in match.first_deck)
        start = {"first": match.first_seat, "deck": deck}
        if match.seed is not None:
            if type(match.seed) is not int:
                raise RulesError(f"a saved match's seed is a whole number, not {match.seed!r:.40}")
            start["seed"] = match.seed
        else:
            start["state"] = match.start_state
    return {
        "rules": rules_to_plain(match.rules), "players": match.players, "start": start, "log": log,
        "seats": [(s.kind, s.level, s.name, s.avatar) for s in table.seats], "viewer": table.viewer,
        "rng": table.rng, "timer": table.timer, "undo": undo, "undo_turn": undo_turn,
        "queue": [(seat, str(action)) for seat, action in table.queue or ()],
        "settled": table.settled,
        "autopilot": _autopilot_to_plain(table.autopilot or Autopilot()),
    }


def _autopilot_to_plain(value: Autopilot) -> dict[str, Any]:
    lost = value.lost_turn
    return {"on": list(value.on), "lost_in_a_row": list(value.lost_in_a_row),
            "lost_turn": lost}  # a TurnKey is a tuple already


def _rebased(match: Match, history: list[Event]) -> dict[str, Any]:
    """The position of ``match`` with its deal's events, or without them when they would not
    read back (too many, or not from the deal's start): computers then learn the deal anew."""
    position = to_plain(match, history[:MAX_EVENTS + 1])
    try:
        from_plain(match.rules, match.players, position)
    except RulesError:
        position["events"] = []
    return position


def encode_game(table: SavedTable) -> bytes:
    """The file bytes of a saved table."""
    return pack(KIND, FORMAT, plain_dumps(table_to_plain(table)))


# ---- reading ---------------------------------------------------------------------------------------
def decode_game(data: bytes) -> SavedTable:
    """Read a saved table from file bytes, safely: the envelope, the scan, the fields, the replay.

    Raises:
        SaveError: empty, foreign, newer, damaged, unsafe, malformed or meaningless data,
            or moves the rules refuse.
    """
    version, body = unpack(data, KIND, FORMAT)
    try:
        value = plain_loads(body) if version >= 2 else stub_loads(body)
        if version == 1:
            value, version = format1.upgrade(value), 2
    except UnsafePickle:
        raise SaveError("unsafe") from None
    except DamagedPickle as exc:
        raise SaveError("invalid", detail=str(exc)[:80]) from None
    except MalformedPickle as exc:
        raise SaveError("malformed", detail=str(exc)[:80]) from None
    return table_from_plain(upgrade(value, version, FORMAT, UPGRADES))


def _wrong(detail: str) -> SaveError:
    return SaveError("invalid", detail=detail[:120])


def _before_pair_scores(plain: object) -> object:
    """Rules written before the ``pair_scores`` option existed, as they were played: pair play
    then counted each seat's own score (anything else is left for `rules_from_plain` to judge)."""
    if not isinstance(plain, dict):
        return plain
    options = plain.get("options")
    if type(options) is dict and options.get("pairs") is True and "pair_scores" not in options:
        return {**plain, "options": {**options, "pair_scores": False}}
    return plain


def _int(value: object, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _wrong(f"{what} must be a whole number from {low} to {high}")
    return value


def _pair(value: object, what: str) -> tuple[Any, Any]:
    if not isinstance(value, tuple | list) or type(value) not in (tuple, list) or len(value) != 2:
        raise _wrong(f"{what} must be a pair")
    return value[0], value[1]


def _list(value: object, what: str, most: int) -> list[Any] | tuple[Any, ...]:
    if type(value) not in (list, tuple):
        raise _wrong(f"{what} must be a list")
    assert isinstance(value, list | tuple)
    if len(value) > most:
        raise _wrong(f"{what} holds {len(value)} items; at most {most}")
    return value


def _seat_of(value: object, what: str, players: int) -> int:
    return _int(value, what, 0, players - 1)


def table_from_plain(data: object) -> SavedTable:
    """Check a plain payload field by field, type before value, and rebuild its table by
    replaying the log.

    Raises:
        SaveError: ``invalid`` (a field of the wrong type or value, a position the game
            could not reach) or ``illegal_log`` (a move the rules refuse).
    """
    if type(data) is not dict:
        raise _wrong("not a table of fields")
    assert isinstance(data, dict)
    missing = [f for f in FIELDS if f not in data and f not in OPTIONAL]
    if missing or any(f not in FIELDS for f in data):
        raise _wrong("missing " + ", ".join(missing) if missing else "unknown fields")
    try:
        rules = rules_from_plain(stored_rules(_before_pair_scores(data["rules"])))
    except RulesError as exc:
        raise _wrong(f"rules: {exc}") from None
    players = _int(data["players"], "players", rules.min_players, rules.max_players)
    seats = [_seat(s, i) for i, s in enumerate(_list(data["seats"], "seats", players))]
    if len(seats) != players:
        raise _wrong(f"seats: {players} expected")
    viewer = _seat_of(data["viewer"], "viewer", players)
    try:
        rng = generator_from_plain(data["rng"], "rng").getstate()
    except RulesError as exc:
        raise _wrong(str(exc)) from None
    timer = _timer(data["timer"], players)
    log = _log(data["log"], players)
    undo = [_int(u, "undo", 0, len(log)) for u in _list(data["undo"], "undo", MAX_UNDO)]
    if undo != sorted(set(undo)):
        raise _wrong("undo points must grow")
    undo_turn = None
    if data["undo_turn"] is not None:
        deal, turn = _pair(data["undo_turn"], "undo_turn")
        undo_turn = (_int(deal, "undo_turn", 1, 10**6), _int(turn, "undo_turn", 0, 10**8))
    queue = []
    for item in _list(data["queue"], "queue", MAX_QUEUE):
        seat, text = _pair(item, "a queued action")
        if seat is not None:
            seat = _seat_of(seat, "a queued action's seat", players)
        if type(text) is not str or len(text) > 40:
            raise _wrong("a queued action is written in its notation")
        try:
            queue.append((seat, parse_action(text)))
        except ValueError:
            raise _wrong("a queued action is not an action") from None
    if type(data["settled"]) is not bool:
        raise _wrong("settled must be true or false")
    autopilot = _autopilot(data["autopilot"], seats) if "autopilot" in data else None
    history: list[Event] = []
    match = _rebuild(rules, players, data["start"], log, history)
    return SavedTable(match, history, seats, viewer, rng, timer, undo, undo_turn, queue, data["settled"],
                      autopilot)


def _autopilot(value: object, seats: list[SavedSeat]) -> Autopilot:
    """The autopilot's fields, checked (the only place they are): people's seats only, each once,
    a count per seat, a turn or None."""
    if type(value) is not dict:
        raise _wrong("autopilot must be a table")
    assert isinstance(value, dict)
    if set(value) != {"on", "lost_in_a_row", "lost_turn"}:
        raise _wrong("autopilot holds on, lost_in_a_row and lost_turn")
    players = len(seats)
    on = [_seat_of(s, "autopilot.on", players) for s in _list(value["on"], "autopilot.on", players)]
    if len(set(on)) != len(on) or any(seats[s].kind != "human" for s in on):
        raise _wrong("the autopilot plays people's seats, each once")
    counts = [_int(n, "autopilot.lost_in_a_row", 0, MAX_LOST)
              for n in _list(value["lost_in_a_row"], "autopilot.lost_in_a_row", players)]
    lost = None
    if value["lost_turn"] is not None:
        items = _list(value["lost_turn"], "autopilot.lost_turn", 3)
        if len(items) != 3:
            raise _wrong("autopilot.lost_turn is (deal, turn, seat)")
        what = "autopilot.lost_turn"
        lost = (_int(items[0], what, 1, 10**6), _int(items[1], what, 0, 10**8),
                _seat_of(items[2], what, players))
    return Autopilot(tuple(on), tuple(counts), lost)


def _seat(value: object, index: int) -> SavedSeat:
    """A seat: its kind, level and name, and its avatar (absent from saves made before avatars)."""
    items = _list(value, f"seat {index}", 4)
    if len(items) not in (3, 4) or not all(type(v) is str for v in items[:3]):
        raise _wrong(f"seat {index} must be its kind, level, name and avatar")
    kind, level, name = items[:3]
    if kind not in KINDS or level not in LEVELS or len(name) > MAX_NAME:
        raise _wrong(f"seat {index}: {kind!r:.20}, {level!r:.20}")
    avatar = items[3] if len(items) == 4 else None
    if avatar is not None:
        avatar = _int(avatar, f"seat {index}'s avatar", 0, AVATARS - 1)
    return SavedSeat(kind, level, name, avatar)


def _timer(value: object, players: int) -> tuple[tuple[int, int, int], float] | None:
    if value is None:
        return None
    key, left = _pair(value, "timer")
    items = _list(key, "timer", 3)
    if len(items) != 3:
        raise _wrong("the timer's turn is (deal, turn, seat)")
    turn = (_int(items[0], "timer", 1, 10**6), _int(items[1], "timer", 0, 10**8),
            _seat_of(items[2], "timer", players))
    if type(left) not in (int, float) or not math.isfinite(left) or not -1.0 <= left <= MAX_TIMER:
        raise _wrong("the timer's seconds")
    return turn, float(left)


def _log(value: object, players: int) -> list[Entry]:
    """The log's entries, each of the right shape (the replay then checks them against the rules)."""
    entries = _list(value, "log", MAX_LOG)
    for i, entry in enumerate(entries):
        head, arg = _pair(entry, f"log entry {i}")
        if type(head) is int:
            if not 0 <= head < players or type(arg) is not str or len(arg) > 40:
                raise _wrong(f"log entry {i} must be a seat and an action")
        elif head == NEXT:
            if arg is not None and (type(arg) is not str or len(arg) > 1000):
                raise _wrong(f"log entry {i} must be a deal")
        elif head == SHUFFLE:
            if type(arg) is not int or not 0 <= arg < SEED_LIMIT:
                raise _wrong(f"log entry {i} must be a shuffle's seed")
        else:
            raise _wrong(f"log entry {i} is of no known kind")
    return [(head, arg) for head, arg in entries]


def _rebuild(rules: Rules, players: int, value: object, log: list[Entry], history: list[Event]) -> Match:
    """The match the save's beginning and log make (``history``: its deal's events)."""
    if type(value) is not dict:
        raise _wrong("start must be a table")
    assert isinstance(value, dict)
    try:
        if set(value) == {"position"}:
            match = from_plain(rules, players, value["position"], history)
        elif set(value) in ({"seed", "first", "deck"}, {"state", "first", "deck"}):
            first = value["first"]
            if first is not None:
                first = _seat_of(first, "start.first", players)
            deck = value["deck"]
            if deck is not None and (type(deck) is not str or len(deck) > 1000):
                raise _wrong("start.deck must be cards in notation")
            if "seed" in value:
                seed, rng = _int(value["seed"], "start.seed", 0, SEED_LIMIT - 1), None
            else:
                seed, rng = None, generator_from_plain(value["state"], "start.state")
            match = Match(rules, players, seed, rng=rng, first=first,
                          deck=None if deck is None else parse_cards(deck))
            history[:] = match.start_events
        else:
            raise _wrong("start must be a seed, a generator state or a position")
    except (RulesError, ValueError) as exc:
        if isinstance(exc, SaveError):
            raise
        raise _wrong(f"start: {exc}") from None
    try:
        match.play_log(log, history)
    except RulesError as exc:
        raise SaveError("illegal_log", detail=str(exc)[:120]) from None
    return match


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

    def read(self, mode: str, *, backup: bool = False) -> SavedTable | None:
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
        table = decode_game(data)
        if not backup:
            self._trusted.add(mode)
        return table

    def write(self, mode: str, table: SavedTable) -> None:
        """Save ``table`` for ``mode`` (the bytes are made now, written in the background).

        An unreadable file there is first kept aside as ``NAME.corrupt``: only starting
        a new game (or taking the backup) in that mode leads here.
        """
        data = encode_game(table)
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

    def forget_files(self) -> None:
        """Forget which modes' files were read or written here (the folder was cleared): the next
        save in a mode first checks again whatever file is there."""
        self._trusted.clear()

    def delete(self, mode: str) -> None:
        """Remove ``mode``'s save and its backup (the match is over)."""
        self.writer.delete(self.path(mode))
