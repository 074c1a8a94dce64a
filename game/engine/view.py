"""`PlayerView`: everything one seat may know, and nothing more.

Computer players, the table and the online server look at a game only through
views. A view holds the seat's own hand, the other hands' sizes, the discard pile
(public: every card in it was seen played), the suit in force, the draw pile's size
(never its order), whose turn it is, pending penalties, scores and the seat's legal
actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .phases import Follow, Phase, Status
from .position import describe_view
from .rules import Rules
from .scoring import DealScore, RoundResult, deal_score, standings


@dataclass(frozen=True)
class PlayerView:
    """What ``seat`` may know of the game now."""

    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    discard: tuple[Card, ...]
    suit: str | None
    draw_count: int
    direction: int
    to_act: int | None
    phase: Phase
    pending: int
    pending_by: Card | None
    legal: tuple[Action, ...]
    drawn_card: Card | None
    follow: Follow | None
    follow_suit: str | None
    called: bool
    exposed: tuple[int, ...]
    turn_no: int
    passes: int
    round_number: int
    dealer: int
    first: int
    scores: tuple[int, ...]
    target: int
    status: Status
    result: RoundResult | None
    winners: tuple[int, ...]
    drawn: int = 0  # cards the seat to act has drawn this turn (public: everyone saw it draw)
    played: bool = False  # whether the seat to act has played a card this turn
    run_next: int = 0  # the rank number a run would continue with
    start_choice: bool = False  # the suit being chosen is the starting wild's
    exposed_until: tuple[tuple[int, int], ...] = ()  # (seat, last turn it may be denounced)

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.to_act == self.seat

    @property
    def standings(self) -> tuple[int, ...]:
        """What each seat has toward the target: its score, or in pair play whose partners'
        points add up (``pair_scores``) its pair's total (see `scoring.standings`)."""
        return standings(self.scores, self.rules.pairs, self.rules.pair_scores)

    @property
    def deal_score(self) -> DealScore | None:
        """How the finished deal was scored, each counted hand card by card with its values
        (``None`` while the deal is played; see `scoring.DealScore`)."""
        return None if self.result is None else deal_score(self.result, self.rules)

    def __str__(self) -> str:
        """The position as this seat knows it, in card notation: its own hand, the others'
        counts, never a hidden card (see `describe_view`)."""
        return describe_view(self)
