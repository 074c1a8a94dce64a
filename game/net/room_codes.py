"""Room codes a person can read aloud and type: ``K7M-4AX-P9T-E3F-HWR``.

A new room's id (`new_code`) is 15 characters from `ALPHABET`, written in five groups of
three joined by ``-``. The alphabet has no two characters a person could take for one
another, read aloud, handwritten or in a small font:

- no ``0`` / ``O`` / ``Q`` / ``D``, no ``1`` / ``I`` / ``L``, no ``2`` / ``Z``, no ``5`` /
  ``S``, no ``8`` / ``B``, no ``6`` / ``G``, no ``U`` / ``V``, no ``N`` (``M`` and ``N``
  sound alike);
- what is left: the digits ``3 4 7 9`` and the letters ``A C E F H J K M P R T W X Y``
  (18 characters). Read aloud in English, ``C E P T`` still rhyme: spell them out
  ("C as in Charlie") on a bad line.

Each character is drawn with `secrets` (the operating system's random source), so a code
holds 15 × log2(18) ≈ 62.5 bits (`ENTROPY_BITS`): a private room is reached by its link
only, and the code is what keeps it private. Guessing is slowed further by the server's
limits (messages a second per connection, connections per address), and a wrong code gets
the one answer every unknown room gets (``unknown_room``), which says nothing of the codes
that exist.

A code is typed however a person types it: `canonical` reads it in any case, with or
without the dashes, with spaces instead (``k7m 4ax p9t e3f hwr``), and gives the grouped,
upper-case form the server keeps. A text that is not a code in that sense is left exactly
as it is: the ids of rooms made before codes (``secrets.token_urlsafe(9)``: 12 characters,
case matters) and any other id a store holds keep working, in links and in the lobby alike.
`lookalike` says which character of a typed code no code holds (``O``, ``0``…), so that the
lobby can say so instead of "no such room".
"""

from __future__ import annotations

import math
import re
import secrets
from typing import Final

ALPHABET: Final = "3479ACEFHJKMPRTWXY"
"""The characters of a room code: no look-alike pairs (see the module)."""
GROUPS: Final = 5
GROUP: Final = 3
LENGTH: Final = GROUPS * GROUP
ENTROPY_BITS: Final = LENGTH * math.log2(len(ALPHABET))
"""The bits of chance in a new code (about 62.5)."""
_SEPARATOR: Final = r"[\s\-‐‑–—_.]+"  # what may stand between groups: dashes of any kind, spaces, dots
_SEPARATORS: Final = re.compile(_SEPARATOR)
CODE: Final = re.compile("^" + "-".join([f"[{ALPHABET}]{{{GROUP}}}"] * GROUPS) + "$")
"""A room code in its kept form."""


def new_code() -> str:
    """A new room code (its kept form: five groups of three, upper case)."""
    return _grouped("".join(secrets.choice(ALPHABET) for _ in range(LENGTH)))


def _grouped(compact: str) -> str:
    return "-".join(compact[i:i + GROUP] for i in range(0, LENGTH, GROUP))


def _compact(text: str) -> str:
    return _SEPARATORS.sub("", text).upper()


def canonical(text: str) -> str:
    """A typed room code in its kept form (any case, any dashes or spaces), or ``text`` as it is
    when it is not one (a room id from before codes, kept exactly: its case matters)."""
    compact = _compact(text)
    if len(compact) == LENGTH and all(c in ALPHABET for c in compact):
        return _grouped(compact)
    return text


def is_code(text: str) -> bool:
    """Whether ``text`` is a room code in its kept form."""
    return CODE.match(text) is not None


def lookalike(text: str) -> str | None:
    """The first character no code holds (``O``, ``0``, ``1``, ``S``…) in what a person typed as a
    room code: five groups of three letters or digits, or 15 of them in a row. None for a code,
    and for a text that is no attempt at one (an older room's 12-character id)."""
    if _TYPED.match(text) is None:
        return None
    return next((c for c in _compact(text) if c not in ALPHABET), None)


_TYPED: Final = re.compile(rf"^\s*(?:[A-Za-z0-9]{{3}}(?:{_SEPARATOR}[A-Za-z0-9]{{3}}){{4}}"
                           rf"|[A-Za-z0-9]{{15}})\s*$")
