"""The avatars players are shown with: a catalogue of ids and names, no drawing.

There are `AVATARS` avatars, numbered ``0`` to ``AVATARS - 1``. Sixteen are for
people to choose from (four faces, eight animals, four emblems); eight are robots,
kept for the computers, so a computer never looks like a person. A computer's
avatar comes from its seat (`computer_avatar`), so it stays the same from deal to
deal and from one game to the next, and no two computers at a table share one. A
person who has not chosen gets the one `person_default` gives the n-th person.

The names are words for the translations (``avatar.<name>`` in the client's
catalogues) and never change: settings and saves keep an avatar by its id. This
module imports nothing of the game, so the server may use it too; the pictures are
drawn by the client (`game.client.avatar_art`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

AVATARS: Final = 24
"""How many avatars there are (ids ``0`` to ``AVATARS - 1``)."""


@dataclass(frozen=True)
class Avatar:
    """One avatar: its id, its name (a translation key's last word), its family
    (``face``, ``animal``, ``emblem`` or ``robot``), and whether it is a computer's."""

    id: int
    name: str
    family: str

    @property
    def computer(self) -> bool:
        """Whether this avatar is kept for the computers (the robots)."""
        return self.family == "robot"


_NAMES: Final = (
    ("curls", "face"), ("glasses", "face"), ("beard", "face"), ("bun", "face"),
    ("fox", "animal"), ("cat", "animal"), ("bear", "animal"), ("owl", "animal"),
    ("frog", "animal"), ("panda", "animal"), ("rabbit", "animal"), ("penguin", "animal"),
    ("sun", "emblem"), ("moon", "emblem"), ("star", "emblem"), ("flower", "emblem"),
    ("rivet", "robot"), ("visor", "robot"), ("cyclops", "robot"), ("dome", "robot"),
    ("gear", "robot"), ("bolt", "robot"), ("screen", "robot"), ("hex", "robot"),
)

CATALOGUE: Final = tuple(Avatar(i, name, family) for i, (name, family) in enumerate(_NAMES))
"""Every avatar, by id."""

PEOPLE: Final = tuple(a.id for a in CATALOGUE if not a.computer)
"""The avatars a person may choose, in the order the picker shows them."""

COMPUTERS: Final = tuple(a.id for a in CATALOGUE if a.computer)
"""The computers' avatars (one per seat, see `computer_avatar`)."""

_DEFAULTS: Final = (4, 10, 7, 0, 5, 13, 9, 2)
"""The avatars people get before they choose, in turn: varied, and each unlike the last."""


def is_avatar(value: object) -> bool:
    """Whether ``value`` is an avatar id (a whole number in range; a bool is not one)."""
    return type(value) is int and 0 <= value < AVATARS


def is_person_avatar(value: object) -> bool:
    """Whether ``value`` is an avatar a person may choose."""
    return isinstance(value, int) and is_avatar(value) and not CATALOGUE[value].computer


def person_default(index: int) -> int:
    """The avatar of the ``index``-th person (from 0) who has not chosen one."""
    return _DEFAULTS[index % len(_DEFAULTS)]


def computer_avatar(seat: int) -> int:
    """The avatar of the computer at ``seat``: the same for that seat in every game, and
    different for each of up to eight seats."""
    return COMPUTERS[seat % len(COMPUTERS)]


def seat_avatars(humans: list[bool], chosen: list[int | None]) -> list[int]:
    """The avatar shown at each seat: the person's choice when it is a person's avatar,
    else the n-th person's default; a computer's from its seat.

    ``humans`` says which seats people play; ``chosen`` holds each seat's avatar as kept
    (None: none kept, as in saves from before avatars, or online).
    """
    out = []
    person = 0
    for seat, human in enumerate(humans):
        avatar = chosen[seat] if seat < len(chosen) else None
        if human:
            out.append(avatar if isinstance(avatar, int) and is_person_avatar(avatar)
                       else person_default(person))
            person += 1
        else:
            out.append(computer_avatar(seat))
    return out
