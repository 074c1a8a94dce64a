"""Where a game stands: the match's `Status`, the `Phase` of the seat to act, and why a
turn goes on (`Follow`).

All are `enum.StrEnum`s whose values are the strings saves, the online protocol,
replays and tests have always used (``view.phase == "penalty"`` still holds), so old
files read the same. The module constants (``PLAY``, ``SUIT`` …) are the members bound
to plain globals for the engine's hot loops, where a global costs a fraction of an
attribute look-up on an enum class. A `Round` always holds members (the engine sets
them; unpickling turns an older save's strings into members), so those loops compare
with ``is``: ``==`` on a str subclass misses the interpreter's fast path for strings.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Status(StrEnum):
    """Where a match stands (`Match.status`, `PlayerView.status`)."""

    PLAYING = "playing"  # a deal is being played
    ROUND_OVER = "round_over"  # a deal ended; ``Match.next_round`` deals the next one
    MATCH_OVER = "match_over"  # the match is won (or a one-deal game is over)


class Phase(StrEnum):
    """What kind of decision the engine waits for from the seat to act."""

    PLAY = "play"  # a normal turn (maybe after a draw, or continuing a twin/run/10)
    SUIT = "suit"  # must announce a suit after a wild
    PENALTY = "penalty"  # a draw penalty is pending: stack an answer or draw
    CHALLENGE = "challenge"  # a Wild +4 was played at this seat: challenge or accept
    OVER = "over"  # the round has ended


class Follow(StrEnum):
    """Why the seat that just played goes on playing in the same turn."""

    TWIN = "twin"  # it played the twin of the card below (``twin_card``): it may play once more
    RUN = "run"  # a run (``runs``): the next card of the suit, one rank up, may follow
    AGAIN = "again"  # a 10 of the ``action`` rules: play again, in the same suit


PLAY: Final = Phase.PLAY
SUIT: Final = Phase.SUIT
PENALTY: Final = Phase.PENALTY
CHALLENGE_PHASE: Final = Phase.CHALLENGE
OVER: Final = Phase.OVER

TWIN: Final = Follow.TWIN
RUN: Final = Follow.RUN
AGAIN: Final = Follow.AGAIN
