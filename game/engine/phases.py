"""The phases of the seat to act: what kind of decision the engine waits for."""

from __future__ import annotations

from typing import Final

PLAY: Final = "play"  # a normal turn (maybe after a draw, or continuing a twin/run/10)
SUIT: Final = "suit"  # must announce a suit after a wild
PENALTY: Final = "penalty"  # a draw penalty is pending: stack an answer or draw
CHALLENGE_PHASE: Final = "challenge"  # a Wild +4 was played at this seat: challenge or accept
OVER: Final = "over"  # the round has ended
