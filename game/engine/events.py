"""Events: what happened, as the engine reports it after each ``apply``.

Events are public facts except the faces of drawn and dealt cards, which only the
drawing seat may see. ``event.seen_by(seat)`` says whether ``seat`` may see every
detail; ``event.for_seat(seat)`` returns the event as that seat may receive it (the
faces replaced by a count). Nothing here ever carries the draw-pile order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Final

from .cards import Card
from .phases import Follow
from .scoring import RoundResult


class DrawReason(StrEnum):
    """Why cards went from the draw pile to a hand (`CardsDrawn.reason`)."""

    DEAL = "deal"  # the deal
    DRAW = "draw"  # the seat drew in its turn
    PENALTY = "penalty"  # a draw card's penalty (or an accepted Wild +4)
    CHALLENGE = "challenge"  # a Wild +4's player caught bluffing
    DENOUNCE = "denounce"  # caught with one card and no "Card" call
    TIMEOUT = "timeout"  # the turn timer ran out (``timeout_policy`` "penalty")


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: a public fact everybody may see."""

    def seen_by(self, seat: int) -> bool:
        """Whether ``seat`` may see every detail of this event."""
        return True

    def for_seat(self, seat: int) -> Event:
        """This event as ``seat`` may receive it (hidden details removed)."""
        return self


def _restore(event: Event, state: list[Any]) -> None:
    """Set the fields of an unpickled event from its state (the values in field order)."""
    for f, value in zip(fields(event), state, strict=True):
        object.__setattr__(event, f.name, value)


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A deal begins: its number, dealer, first player, direction and cards per hand."""

    number: int
    dealer: int
    first: int
    direction: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``seat`` took ``count`` cards from the draw pile; ``cards`` only for that seat.

    ``reason`` says why (`DrawReason`).
    """

    seat: int
    count: int
    reason: DrawReason
    cards: tuple[Card, ...] | None = None

    def seen_by(self, seat: int) -> bool:
        return seat == self.seat

    def for_seat(self, seat: int) -> Event:
        if seat == self.seat or self.cards is None:
            return self
        return replace(self, cards=None)

    def __setstate__(self, state: list[Any]) -> None:
        _restore(self, state)
        object.__setattr__(self, "reason", DrawReason(self.reason))  # older saves: a plain string


@dataclass(frozen=True, slots=True)
class StartCard(Event):
    """``card`` was turned to start the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class StartCardReturned(Event):
    """The turned ``card`` may not start the pile; it went back into the draw pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card``."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SuitChosen(Event):
    """``seat`` announced ``suit`` (``None``: chosen for the first player by the start card)."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discards under the top card became a new draw pile of ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` ended its turn without playing."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """``seat`` lost its turn (a skip card, a draw card, a reverse at two)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """Play now goes ``direction`` (1 or -1)."""

    direction: int


@dataclass(frozen=True, slots=True)
class PenaltyPending(Event):
    """``seat`` must draw ``amount`` cards unless it answers (stacking or challenge)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is ``seat``'s turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayAgain(Event):
    """``seat`` plays again: ``why`` is a `Follow` (a twin, a run, a 10 of the ``action`` rules)."""

    seat: int
    why: Follow

    def __setstate__(self, state: list[Any]) -> None:
        _restore(self, state)
        object.__setattr__(self, "why", Follow(self.why))  # older saves: a plain string


@dataclass(frozen=True, slots=True)
class LastCardCalled(Event):
    """``seat`` said "Card"."""

    seat: int


@dataclass(frozen=True, slots=True)
class Denounced(Event):
    """``by`` caught ``seat`` with one card and no "Card" call."""

    by: int
    seat: int


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    """``by`` called "Liar" on ``seat``'s Wild +4; ``bluff`` tells whether it was one."""

    by: int
    seat: int
    bluff: bool


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s turn timer ran out."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The deal is over: ``result`` holds the winner, the hands and the points."""

    result: RoundResult


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over: ``winners`` (seats) and the final ``scores``."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


PUBLIC_EVENT_TYPES: Final = (
    RoundStarted, StartCard, StartCardReturned, CardPlayed, SuitChosen, Reshuffled, Passed,
    TurnSkipped, DirectionChanged, PenaltyPending, TurnStarted, PlayAgain, LastCardCalled,
    Denounced, Challenged, TimedOut, RoundEnded, MatchEnded,
)
