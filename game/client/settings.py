"""Player settings: language, animation speed, sound, deck colours, layout, undo, the hand's sort, defaults,
and the names and avatars of the people who play on this device.

The values live here; `to_json` and `from_json` turn them into the settings document
that `game.saves` keeps on disk. Reading is forgiving: every value is checked by its
type first (a list where a word belongs never reaches a dictionary lookup), then by
its value, and one of the wrong type or out of range is replaced by its default, one
field at a time, so a hand-edited or old settings file never stops the game;
`Settings.parse` names the fields it could not use, for the menu to say so.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields
from typing import Any, Final

from game.engine import PRESETS
from game.play.avatars import is_person_avatar

from . import i18n

SPEEDS: Final = {"slow": 0.6, "normal": 1.0, "fast": 2.0, "instant": 0.0}
"""Animation and think-delay multipliers by setting name (0: instant)."""

SEAT_KINDS: Final = ("human", "easy", "medium", "hard")
MAX_SEATS: Final = 7
NAME_LENGTH: Final = 24
"""The longest name a person may give their seat."""
MAX_MUTED: Final = 100
"""Players whose reactions this player keeps muted."""
MAX_SERVERS: Final = 8
"""Room servers the lobby remembers (the most recent first)."""
HAND_SORTS: Final = ("dealt", "suit", "rank")
"""How the table lays out the shown hand (`game.client.hand_order`): as dealt, by suit, by rank."""


@dataclass
class Settings:
    """What a player can change in the Settings screen, and the last new-game choices."""

    language: str = field(default_factory=i18n.system_language)
    speed: str = "normal"
    volume: float = 0.8
    muted: bool = False
    four_color: bool = False
    left_handed: bool = False
    undo_allowed: bool = True
    default_levels: list[str] = field(default_factory=lambda: ["human"] + ["medium"] * (MAX_SEATS - 1))
    """Who sits at each seat in the new-game form: human or a computer level."""
    last_preset: str = "classic"
    last_players: dict[str, int] = field(default_factory=dict)
    last_options: dict[str, dict[str, object]] = field(default_factory=dict)
    quick_preset: str = ""
    """The rule set of the last quick match asked for (empty: none yet; the new-game form's
    `last_preset` is the first choice then): remembered apart from the form's, which it never
    changes, nor is changed by."""
    player_name: str = ""
    """The name other players see online (empty: "Player N")."""
    hotseat_levels: list[str] = field(default_factory=lambda: ["human"] * 2 + ["medium"] * (MAX_SEATS - 2))
    """Who sits at each seat in the same-device form: human or a computer level."""
    people_names: list[str] = field(default_factory=list)
    """The names the people at the last same-device game gave their seats, the first person's
    first (each `is_name`)."""
    people_avatars: list[int] = field(default_factory=list)
    """The avatars the people chose, the first person's first (the solo player is the first)."""
    servers: list[str] = field(default_factory=list)
    """The room servers this player used, most recent first (``HOST:PORT``, ``huits://HOST:PORT``
    with TLS), at most `MAX_SERVERS`: the lobby's Recent servers steps through them."""
    hand_sort: str = "dealt"
    """How the hand is laid out at the table, one of `HAND_SORTS` (the table's Sort control, S)."""
    default_server: str = ""
    """A server the lobby's Server field starts with (empty: none): for the operator of a kiosk
    or a club, set by editing the settings file. Huit itself points at no server."""
    reactions_muted: bool = False
    """Online: nobody's quick reactions are shown (but this player's own)."""
    muted_players: list[str] = field(default_factory=list)
    """Online: the tags (``3F2``) of the players whose quick reactions are not shown, at most
    `MAX_MUTED` (the oldest forgotten first)."""

    @property
    def speed_factor(self) -> float:
        """The multiplier for animations and think delays (0 means instant)."""
        return SPEEDS.get(self.speed, 1.0)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every setting."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, value: Any) -> Settings:
        """Settings from a stored dict; missing or unusable values keep their defaults."""
        return cls.parse(value)[0]

    @classmethod
    def parse(cls, value: Any) -> tuple[Settings, list[str]]:
        """Settings from a stored dict, and the names of the fields present but unusable.

        Unknown fields (a newer version's) are left out silently.
        """
        out = cls()
        if not isinstance(value, dict):
            return out, []
        ignored = []
        for name, check in _CHECKS.items():
            if name not in value:
                continue
            if check(value[name]):
                setattr(out, name, value[name])
            else:
                ignored.append(name)
        for name in ("default_levels", "hotseat_levels"):
            if name not in value:
                continue
            levels, default = value[name], getattr(out, name)
            if isinstance(levels, list) and levels and all(_one_of(SEAT_KINDS)(k) for k in levels):
                setattr(out, name, (levels + default[len(levels):])[:MAX_SEATS])
            else:
                ignored.append(name)
        return out, ignored


def is_name(value: object) -> bool:
    """A seat's name: text of 1 to `NAME_LENGTH` characters, not only spaces, with no control or
    invisible formatting character (nor a line break)."""
    return (isinstance(value, str) and 1 <= len(value) <= NAME_LENGTH and not value.isspace()
            and not any(unicodedata.category(c) in _NOT_IN_NAMES for c in value))


def clean_name(text: str) -> str:
    """What a person typed as a name, made one: without control characters, spaces collapsed, cut
    to `NAME_LENGTH` (possibly empty)."""
    kept = "".join(c for c in text if unicodedata.category(c) not in _NOT_IN_NAMES)
    return " ".join(kept.split())[:NAME_LENGTH].strip()


_NOT_IN_NAMES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _is_bool(v: object) -> bool:
    return isinstance(v, bool)


def _one_of(values: Collection[str]) -> Callable[[Any], bool]:
    """A word among ``values``: its type is checked before it is looked up (a list is unhashable)."""
    return lambda v: isinstance(v, str) and v in values


def _is_seat_count(n: object) -> bool:
    return type(n) is int and 2 <= n <= MAX_SEATS


def _is_server(v: object) -> bool:
    """A server address the lobby can use (``HOST:PORT``, ``huits://HOST:PORT``…)."""
    from game.net.links import read_server

    if not isinstance(v, str):
        return False
    try:
        read_server(v)
    except ValueError:
        return False
    return True


def _options(v: object) -> bool:
    return isinstance(v, dict) and all(
        isinstance(k, str) and isinstance(o, dict)
        and all(isinstance(n, str) and type(x) in (bool, int) for n, x in o.items()) for k, o in v.items())


_CHECKS: Final[dict[str, Callable[[Any], bool]]] = {
    "language": _one_of(i18n.LANGUAGES),
    "speed": _one_of(SPEEDS),
    "volume": lambda v: type(v) in (int, float) and 0 <= v <= 1,
    "muted": _is_bool, "four_color": _is_bool, "left_handed": _is_bool, "undo_allowed": _is_bool,
    "last_preset": _one_of(PRESETS),
    "quick_preset": lambda v: v == "" or _one_of(PRESETS)(v),
    "last_players": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and _is_seat_count(n) for k, n in v.items()),
    "last_options": _options,
    "player_name": lambda v: isinstance(v, str) and len(v) <= NAME_LENGTH,
    "people_names": lambda v: isinstance(v, list) and len(v) <= MAX_SEATS and all(is_name(n) for n in v),
    "people_avatars": lambda v: isinstance(v, list) and len(v) <= MAX_SEATS and all(
        is_person_avatar(a) for a in v),
    "servers": lambda v: isinstance(v, list) and len(v) <= MAX_SERVERS and all(_is_server(s) for s in v),
    "default_server": lambda v: v == "" or _is_server(v),
    "reactions_muted": _is_bool,
    "muted_players": lambda v: isinstance(v, list) and len(v) <= MAX_MUTED and all(
        isinstance(t, str) and 0 < len(t) <= 16 and t.isprintable() for t in v),
    "hand_sort": _one_of(HAND_SORTS),
}
