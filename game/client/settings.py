"""Player settings: language, animation speed, sound, deck colours, layout, undo, defaults.

The values live here; `to_json` and `from_json` turn them into the settings document
that `game.saves` keeps on disk. Reading is forgiving: every value is checked by its
type first (a list where a word belongs never reaches a dictionary lookup), then by
its value, and one of the wrong type or out of range is replaced by its default, one
field at a time, so a hand-edited or old settings file never stops the game;
`Settings.parse` names the fields it could not use, for the menu to say so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields
from typing import Any, Final

from game.engine import PRESETS

from . import i18n

SPEEDS: Final = {"slow": 0.6, "normal": 1.0, "fast": 2.0, "instant": 0.0}
"""Animation and think-delay multipliers by setting name (0: instant)."""

SEAT_KINDS: Final = ("human", "easy", "medium", "hard")
MAX_SEATS: Final = 7
MAX_SERVERS: Final = 8
"""Room servers the lobby remembers (the most recent first)."""


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
    player_name: str = ""
    """The name other players see online (empty: "Player N")."""
    servers: list[str] = field(default_factory=list)
    """The room servers this player used, most recent first (``HOST:PORT``, ``huits://HOST:PORT``
    with TLS), at most `MAX_SERVERS`: the lobby's Recent servers steps through them."""
    default_server: str = ""
    """A server the lobby's Server field starts with (empty: none): for the operator of a kiosk
    or a club, set by editing the settings file. Huit itself points at no server."""

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
        if "default_levels" in value:
            levels = value["default_levels"]
            if isinstance(levels, list) and levels and all(_one_of(SEAT_KINDS)(k) for k in levels):
                out.default_levels = (levels + out.default_levels[len(levels):])[:MAX_SEATS]
            else:
                ignored.append("default_levels")
        return out, ignored


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
    "last_players": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and _is_seat_count(n) for k, n in v.items()),
    "last_options": _options,
    "player_name": lambda v: isinstance(v, str) and len(v) <= 24,
    "servers": lambda v: isinstance(v, list) and len(v) <= MAX_SERVERS and all(_is_server(s) for s in v),
    "default_server": lambda v: v == "" or _is_server(v),
}
