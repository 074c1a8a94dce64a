"""Players, not only seats: the profile a player key stands for (a name, an avatar, a tag).

A device keeps one random player key in its data folder and says ``hello`` with it;
the server keeps only the key's SHA-256 digest (the player's id, as seat keys are kept)
and the profile under it: a display name and an avatar. There are no passwords and no
e-mail: whoever holds the key is the player, and Clear data on the device forgets it.

Names need not be unique; a tag tells two Anas apart (``Ana #3F2K9Q``). The server
assigns it (`new_tag`: `TAG_LENGTH` random characters of `TAG_ALPHABET`, 30 bits), and
keeps it unique among the profiles whose names look alike (the same `skeleton`): no key
can be ground to copy another player's name and tag, and a name change keeps the tag
while it is still unique for the new name. A name that looks like another profile's
without being it (Cyrillic "Аna" beside a Latin "Ana") is refused (``confusable``).

What a name may hold is decided with Unicode's own data (UTS #39, through the `disarm`
library, and the general categories of `unicodedata`), never a hand list of bad
characters: a name (`name_problem`) is trimmed and NFC-normalised, 1 to `MAX_NAME`
characters and at most `MAX_WIDTH` columns as drawn (East Asian wide letters count two);
it holds no control, invisible or blank-looking character (`disarm.strip_format`: the
Hangul fillers, U+2800, variation selectors...), no symbol (emoji, ⧣, ⩩, 𝄪, U+FDFD),
nothing NFKC would change (mathematical or full-width letters, ligatures), no number
sign (`NUMBER_SIGNS`), at least one letter or digit, at most `MAX_MARKS` combining marks
on a letter and none alone, and the letters of one writing system (UTS #39 mixed-script
detection). A refused name gets a ``reason`` the game translates. An avatar is an id of
`game.play.avatars` (``0 <= avatar < AVATARS``), one of the people's: the robots are the
computers' (the game draws the pictures).

Profiles live in the server's store (`roomstore.RoomStore`). A profile that
never played a ranked game is forgotten after `PROFILE_EXPIRY` without a visit.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import disarm

from game.play.avatars import AVATARS, PEOPLE, is_person_avatar, person_default

from .protocol import Refusal

if TYPE_CHECKING:
    from .roomstore import RoomStore

__all__ = ["AVATARS", "DEFAULT_AVATAR", "DEFAULT_NAME", "MAX_MARKS", "MAX_NAME", "MAX_WIDTH",
           "NAME_REASONS", "NUMBER_SIGNS", "PLAYER_KEY", "TAG_ALPHABET", "TAG_LENGTH", "NameTaken",
           "Profile", "Profiles", "TagTaken", "check_avatar", "check_name", "free_tag", "name_problem",
           "new_tag", "player_id", "skeleton", "tag_of", "tagged"]

MAX_NAME: Final = 24
DEFAULT_NAME: Final = "Player"
DEFAULT_AVATAR: Final = person_default(0)
"""A new player's avatar when their hello names none."""
TAG_LENGTH: Final = 6
"""Characters of a server-assigned tag: 32**6, about a billion tags per name."""
TAG_ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: digits and capitals without I, L, O and U, which look like 1, 1, 0 and V."""
OLD_TAG_LENGTH: Final = 3
"""The tags of version 2 servers: three hexadecimal digits of the id (`tag_of`)."""
MAX_WIDTH: Final = 24
"""Columns a name takes as drawn (`disarm.terminal_width`: an East Asian wide letter counts two,
a combining mark none): the width the game gives a name everywhere it draws one."""
MAX_MARKS: Final = 2
"""Combining marks on one letter (Vietnamese needs two; "a" with 23 stacks over the lines)."""
TAG_TRIES: Final = 20
"""New tags drawn before giving up on a name (a name with a million profiles)."""
PLAYER_KEY: Final = re.compile(r"[A-Za-z0-9_-]{32,128}", re.ASCII)
"""A player key: 32 to 128 URL-safe characters (the game makes 32 with `secrets.token_urlsafe(24)`);
anything else names no player and is never hashed."""
PROFILE_EXPIRY: Final = 90 * 24 * 3600.0
"""Seconds without a visit before a profile that never played a ranked game is forgotten."""
VISIT_GRAIN: Final = 3600.0
"""A visit is written at most once this often per profile (a hello on every connection would
otherwise be a commit each)."""
NAME_REASONS: Final = ("not_text", "empty", "too_long", "control", "invisible", "tag", "symbol", "form",
                       "marks", "blank", "scripts", "too_wide", "confusable", "crowded")
"""Every ``reason`` a refused name gets (`name_problem`'s, then the server's `NameTaken`): the game
translates each (``name.<reason>``)."""
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, invisible formatting (bidirectional overrides, zero widths), lone surrogates,
private-use and unassigned characters, line and paragraph separators."""
NUMBER_SIGNS: Final = frozenset("#\uff03\ufe5f\u266f\u2317\u22d5\u01c2")
"""The sign that marks a player's tag (``Ana #3F2K9Q``) and the characters that look like it
(fullwidth and small number signs, the sharp, ⌗, ⋕, and the click letter ǂ, which Unicode files
as a Latin letter and its confusables table does not fold to #): no name holds one. The
symbols among them are refused as symbols anyway; the letters and punctuation are why this
set is kept."""


def player_id(key: Any) -> str:
    """The id of the player whose key is ``key``: its SHA-256 digest (the key is never kept).

    Raises:
        Refusal: ``bad_key``: not a player key.
    """
    if not isinstance(key, str) or not PLAYER_KEY.fullmatch(key):
        raise Refusal("bad_key", "a player key is 32 to 128 letters, digits, - or _ (the game makes one)")
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def tag_of(player: str) -> str:
    """The tag version 2 servers showed, from the player's id (``3F2``): 12 bits anyone could
    grind a key for. Kept for reading what they wrote; a profile's tag is now `new_tag`'s."""
    return hashlib.sha256(b"tag:" + player.encode("ascii")).hexdigest()[:OLD_TAG_LENGTH].upper()


def new_tag(draw: Callable[[str], str] = secrets.choice) -> str:
    """A fresh random tag (``3F2K9Q``): `TAG_LENGTH` characters of `TAG_ALPHABET`."""
    return "".join(draw(TAG_ALPHABET) for _ in range(TAG_LENGTH))


def skeleton(name: str) -> str:
    """What ``name`` looks like, as a key: UTS #39's confusable skeleton (with case folded, so
    "ANA", "Ana" and a Cyrillic "Аna" share one). Two names with one skeleton can be told apart
    only by their tags; the server keeps tags unique per skeleton."""
    return disarm.skeleton_key(unicodedata.normalize("NFC", name.strip()))


def free_tag(taken: Collection[str], draw: Callable[[str], str] = secrets.choice) -> str:
    """A new tag not in ``taken`` (the tags of the names that look alike).

    Raises:
        NameTaken: `TAG_TRIES` draws all in use (a name held by about a billion profiles).
    """
    for _ in range(TAG_TRIES):
        tag = new_tag(draw)
        if tag not in taken:
            return tag
    raise NameTaken("crowded", "this name has no free tag left: choose another")


class TagTaken(Exception):
    """The store refused a profile whose tag another profile of a look-alike name holds (two
    servers on one database gave it at once): nothing was stored; `Profiles` draws again."""


class NameTaken(Exception):
    """A name the server will not give this player: it looks like another player's name
    (``confusable``) or has no tag left (``crowded``). ``reason`` is the code the game translates."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(sentence)
        self.reason = reason


def tagged(name: str, tag: str | None) -> str:
    """A name as the server and every screen of the game write it: with its player's tag after it
    (``Ana #3F2``), or alone when it has none (a seat claimed without hello, a computer). The one
    place this format is written: the table, the result, the vote, the lobby, the leaderboards and
    the histories all go through it."""
    return f"{name} #{tag}" if tag else name


def _invisible(char: str) -> bool:
    """Whether ``char`` draws nothing though it is no control character: any space but the plain
    one, a variation selector, the combining grapheme joiner, a Hangul filler, U+2800 (what
    `disarm.strip_format` removes, from Unicode's Default_Ignorable and White_Space data)."""
    return char != " " and not disarm.strip_format(char)


def _symbol(char: str) -> bool:
    """Whether ``char`` is a symbol (emoji, math, music, U+FDFD) or an enclosing mark, which are
    not part of a name in UTS #39's identifier profile."""
    category = unicodedata.category(char)
    return category[0] == "S" or category == "Me"


def _marks_problem(name: str) -> bool:
    """Whether a combining mark stands alone (first, or after a space) or more than `MAX_MARKS`
    stack on one letter."""
    run, after = 0, " "
    for char in name:
        if unicodedata.category(char)[0] == "M":
            if after == " ":
                return True
            run += 1
            if run > MAX_MARKS:
                return True
        else:
            run, after = 0, char
    return False


def name_problem(value: Any) -> tuple[str, str] | None:
    """Why ``value`` cannot be a display name, as (reason, sentence), or None.

    The name is judged trimmed and NFC-normalised (`check_name` returns it so). Whether it
    looks like another player's name is the server's to say (`NameTaken`)."""
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
    name = unicodedata.normalize("NFC", name)
    for char in name:
        if _invisible(char):
            return "invisible", (f"a name holds no invisible or blank-looking character (U+{ord(char):04X} "
                                 "is one); spaces are plain spaces")
    for char in name:
        if char in NUMBER_SIGNS:
            return "tag", (f"a name holds no # nor a sign like it (U+{ord(char):04X}): it marks a "
                           "player's tag, as in Ana #3F2K9Q")
    for char in name:
        if _symbol(char):
            return "symbol", ("a name holds letters, digits and punctuation, no symbol "
                              f"(U+{ord(char):04X} is one)")
    if unicodedata.normalize("NFKC", name) != name:
        return "form", ("a name is written in plain letters, not mathematical, full-width or "
                        "ligature forms (NFKC changes this one)")
    if _marks_problem(name):
        return "marks", f"a combining mark goes on a letter, at most {MAX_MARKS} on one"
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        return "blank", "a name has at least one letter or digit"
    if disarm.is_mixed_script(name):
        return "scripts", "a name's letters are of one writing system (not Latin and Cyrillic mixed)"
    width = disarm.terminal_width(name)
    if width > MAX_WIDTH:
        return "too_wide", f"a name is at most {MAX_WIDTH} columns wide (this one takes {width})"
    return None


def check_name(value: Any) -> str:
    """``value`` trimmed and NFC-normalised, as a display name.

    Raises:
        Refusal: ``bad_name`` with the ``reason`` (``not_text``, ``empty``, ``too_long``,
            ``control``, ``invisible``, ``tag``, ``symbol``, ``form``, ``marks``, ``blank``,
            ``scripts``, ``too_wide``) and a sentence.
    """
    problem = name_problem(value)
    if problem is not None:
        raise Refusal("bad_name", problem[1], reason=problem[0])
    assert isinstance(value, str)
    return unicodedata.normalize("NFC", value.strip())


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
    """A player as others see them: name, avatar, and the tag the server gave them."""

    player: str  # the key's digest: never sent to anyone
    name: str
    avatar: int = DEFAULT_AVATAR
    active: float = 0.0  # when it was last visited (the server's clock), as stored
    tag: str = ""  # unique among the profiles of names with this name's skeleton ("" before one is given)

    @property
    def label(self) -> str:
        """Name and tag, as shown (``Ana #3F2``)."""
        return tagged(self.name, self.tag)


class Profiles:
    """The players' profiles, kept in the server's `roomstore.RoomStore`, and their tags.

    ``draw`` picks each character of a new tag (`secrets.choice`; a test scripts it to make two
    players race for one tag)."""

    def __init__(self, store: RoomStore, draw: Callable[[str], str] | None = None) -> None:
        self.store = store
        self.draw = draw

    def get(self, player: str) -> Profile | None:
        """The profile of ``player``, if the server knows it."""
        return self.store.profile(player)

    def tag_for(self, player: str, name: str, tag: str = "") -> str:
        """The tag ``player`` gets with ``name``: ``tag`` (their own) while no other profile of a
        look-alike name holds it, else a free one.

        Raises:
            NameTaken: ``confusable``: another profile's name has this name's skeleton but is
                written otherwise (Cyrillic "Аna" when a Latin "Ana" plays); ``crowded``.
            roomstore.StoreFailure: the store could not be read.
        """
        alike = [(other, held) for who, other, held in self.store.look_alikes(skeleton(name))
                 if who != player]
        for other, _ in alike:
            if other != name:
                raise NameTaken("confusable", f"this name looks like another player's ({other!r}): choose "
                                              "another, or write it exactly as they do to share it")
        taken = {held for _, held in alike}
        if tag and tag not in taken:
            return tag
        return free_tag(taken, self.draw or secrets.choice)

    def add(self, profile: Profile, now: float) -> None:
        """Keep a new profile, with a free tag for its name (`tag_for`).

        Raises:
            NameTaken: the name looks like another player's, or has no free tag.
            roomstore.StoreFailure: nothing was stored.
        """
        for _ in range(TAG_TRIES):
            profile.tag = self.tag_for(profile.player, profile.name)
            try:
                self.store.add_profile(profile, now)
                return
            except TagTaken:  # another server on this database gave it meanwhile: draw again
                continue
        raise NameTaken("crowded", "this name has no free tag left: choose another")

    def save(self, profile: Profile, now: float) -> None:
        """Store a changed name or avatar; the tag stays while unique for the name (`tag_for`),
        else the profile gets a new one (set in ``profile``).

        Raises:
            NameTaken: the new name looks like another player's, or has no free tag.
            roomstore.StoreFailure: nothing was stored.
        """
        for _ in range(TAG_TRIES):
            profile.tag = self.tag_for(profile.player, profile.name, profile.tag)
            try:
                self.store.save_profile(profile, now)
                return
            except TagTaken:
                continue
        raise NameTaken("crowded", "this name has no free tag left: choose another")

    def visit(self, profile: Profile, now: float) -> None:
        """The player said hello: their profile is in use (written at most once a `VISIT_GRAIN`)."""
        if now - profile.active < VISIT_GRAIN:
            return
        self.store.visit(profile.player, now)
        profile.active = now

    def expire(self, before: float) -> int:
        """Forget profiles unvisited since ``before`` that never played a ranked game; how many."""
        return self.store.expire_profiles(before)
