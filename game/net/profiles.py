"""Players, not only seats: the profile a player key stands for (a name, an avatar, a tag).

A device keeps one random player key in its data folder and says ``hello`` with it;
the server keeps only the key's SHA-256 digest (the player's id, as seat keys are kept)
and the profile under it: a display name and an avatar. There are no passwords and no
e-mail: whoever holds the key is the player, and Clear data on the device forgets it.

Names need not be unique; a short tag made from the id (``Ana #3F2``) tells two Anas
apart. A name is trimmed, 1 to `MAX_NAME` characters, with no control or invisible
formatting character, and no number sign (`NUMBER_SIGNS`: ``#`` and its lookalikes),
which marks the tag: so no name, a profile's or a seat's without one, passes for
another player's tag (a refused name gets a ``reason`` the game translates). An avatar
is an id of `game.play.avatars` (``0 <= avatar < AVATARS``), one of the people's: the
robots are the computers' (the game draws the pictures).

Profiles live in the server's store (`roomstore.RoomStore`). A profile that
never played a ranked game is forgotten after `PROFILE_EXPIRY` without a visit.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from game.play.avatars import AVATARS, PEOPLE, is_person_avatar, person_default

from .protocol import Refusal

if TYPE_CHECKING:
    from .roomstore import RoomStore

__all__ = ["AVATARS", "DEFAULT_AVATAR", "DEFAULT_NAME", "MAX_NAME", "NUMBER_SIGNS", "PLAYER_KEY", "Profile",
           "Profiles", "check_avatar", "check_name", "name_problem", "player_id", "tag_of", "tagged"]

MAX_NAME: Final = 24
DEFAULT_NAME: Final = "Player"
DEFAULT_AVATAR: Final = person_default(0)
"""A new player's avatar when their hello names none."""
TAG_LENGTH: Final = 3
PLAYER_KEY: Final = re.compile(r"[A-Za-z0-9_-]{32,128}", re.ASCII)
"""A player key: 32 to 128 URL-safe characters (the game makes 32 with `secrets.token_urlsafe(24)`);
anything else names no player and is never hashed."""
PROFILE_EXPIRY: Final = 90 * 24 * 3600.0
"""Seconds without a visit before a profile that never played a ranked game is forgotten."""
VISIT_GRAIN: Final = 3600.0
"""A visit is written at most once this often per profile (a hello on every connection would
otherwise be a commit each)."""
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, invisible formatting (bidirectional overrides, zero widths), lone surrogates,
private-use and unassigned characters, line and paragraph separators."""
NUMBER_SIGNS: Final = frozenset("#\uff03\ufe5f\u266f\u2317\u22d5")
"""The sign that marks a player's tag (``Ana #3F2``) and the characters that look like it
(fullwidth and small number signs, the sharp, ⌗, ⋕): no name holds one."""


def player_id(key: Any) -> str:
    """The id of the player whose key is ``key``: its SHA-256 digest (the key is never kept).

    Raises:
        Refusal: ``bad_key``: not a player key.
    """
    if not isinstance(key, str) or not PLAYER_KEY.fullmatch(key):
        raise Refusal("bad_key", "a player key is 32 to 128 letters, digits, - or _ (the game makes one)")
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def tag_of(player: str) -> str:
    """The short tag shown with a player's name, from their id (``3F2``)."""
    return hashlib.sha256(b"tag:" + player.encode("ascii")).hexdigest()[:TAG_LENGTH].upper()


def tagged(name: str, tag: str | None) -> str:
    """A name as the server and every screen of the game write it: with its player's tag after it
    (``Ana #3F2``), or alone when it has none (a seat claimed without hello, a computer). The one
    place this format is written: the table, the result, the vote, the lobby, the leaderboards and
    the histories all go through it."""
    return f"{name} #{tag}" if tag else name


def name_problem(value: Any) -> tuple[str, str] | None:
    """Why ``value`` cannot be a display name, as (reason, sentence), or None.

    The name is judged trimmed (`check_name` trims it)."""
    if not isinstance(value, str):
        return "not_text", "a name is text"
    name = value.strip()
    if not name:
        return "empty", "a name needs at least one character besides spaces"
    if len(name) > MAX_NAME:
        return "too_long", f"a name is at most {MAX_NAME} characters (this one has {len(name):,})"
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return "control", (f"a name holds no control or invisible character (U+{ord(char):04X} "
                               "is one)")
    for char in name:
        if char in NUMBER_SIGNS:
            return "tag", (f"a name holds no # nor a sign like it ({char!r}): it marks a player's tag, "
                           "as in Ana #3F2")
    return None


def check_name(value: Any) -> str:
    """``value`` trimmed, as a display name.

    Raises:
        Refusal: ``bad_name`` with the ``reason`` (``not_text``, ``empty``, ``too_long``,
            ``control``, ``tag``) and a sentence.
    """
    problem = name_problem(value)
    if problem is not None:
        raise Refusal("bad_name", problem[1], reason=problem[0])
    assert isinstance(value, str)
    return value.strip()


def check_avatar(value: Any) -> int:
    """``value`` as an avatar: a person's (the robots are kept for the computers).

    Raises:
        Refusal: ``bad_message``: not a whole number from 0 to ``AVATARS - 1``, or a robot's.
    """
    if type(value) is not int or not is_person_avatar(value):
        raise Refusal("bad_message", f"avatar must be one of the people's avatars: "
                                     f"{', '.join(map(str, PEOPLE))} (of 0 to {AVATARS - 1}; "
                                     "the others are the computers')")
    return value


@dataclass
class Profile:
    """A player as others see them: name, avatar, and the tag of their id."""

    player: str  # the key's digest: never sent to anyone
    name: str
    avatar: int = DEFAULT_AVATAR
    active: float = 0.0  # when it was last visited (the server's clock), as stored

    @property
    def tag(self) -> str:
        """The short tag (``3F2``)."""
        return tag_of(self.player)

    @property
    def label(self) -> str:
        """Name and tag, as shown (``Ana #3F2``)."""
        return tagged(self.name, self.tag)


class Profiles:
    """The players' profiles, kept in the server's `roomstore.RoomStore`."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store

    def get(self, player: str) -> Profile | None:
        """The profile of ``player``, if the server knows it."""
        return self.store.profile(player)

    def add(self, profile: Profile, now: float) -> None:
        """Keep a new profile."""
        self.store.add_profile(profile, now)

    def save(self, profile: Profile, now: float) -> None:
        """Store a changed name or avatar."""
        self.store.save_profile(profile, now)

    def visit(self, profile: Profile, now: float) -> None:
        """The player said hello: their profile is in use (written at most once a `VISIT_GRAIN`)."""
        if now - profile.active < VISIT_GRAIN:
            return
        self.store.visit(profile.player, now)
        profile.active = now

    def expire(self, before: float) -> int:
        """Forget profiles unvisited since ``before`` that never played a ranked game; how many."""
        return self.store.expire_profiles(before)
