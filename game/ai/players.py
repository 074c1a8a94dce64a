"""Rule-based computer players: `Easy` (random) and `Medium` (a sound simple strategy)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Final, Protocol

from game.engine import (
    Accept,
    Action,
    CallLastCard,
    Card,
    Challenge,
    ChooseSuit,
    Denounce,
    Draw,
    EndTurn,
    Pass,
    Play,
    PlayerView,
)
from game.engine.scoring import card_value
from game.engine.table import card_table

LEVELS: Final = ("easy", "medium", "hard")


class ComputerPlayer(Protocol):
    """What every computer player does: pick one of ``view.legal``."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Return one action from ``view.legal``."""
        ...


class Easy:
    """A uniformly random legal action (the ``duel`` rules' Easy level)."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A random legal action."""
        return rng.choice(view.legal)


class Medium:
    """Favours its strongest suit, keeps its wilds, calls "Card", dumps points when they count."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The rule-based choice for this view."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if CallLastCard() in legal:
            return CallLastCard()
        denounces = [a for a in legal if isinstance(a, Denounce)]
        if denounces:
            return denounces[0]
        suits = [a for a in legal if isinstance(a, ChooseSuit)]
        if suits:
            return ChooseSuit(self.best_suit(view.hand, [s.suit for s in suits]))
        if Challenge() in legal:
            # A +4 from a player who was following freely is often a bluff: challenge rarely.
            return Challenge() if rng.random() < 0.25 else Accept()
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return max(plays, key=lambda p: self.score_play(view, p.card, rng))
        for choice in (Draw(), EndTurn(), Pass()):
            if choice in legal:
                return choice
        return legal[0]

    @staticmethod
    def best_suit(hand: tuple[Card, ...], allowed: list[str]) -> str:
        """The allowed suit the hand holds most of (ties: the higher point total)."""
        counts = Counter(c.suit for c in hand if c.suit is not None)
        return max(allowed, key=lambda s: (counts.get(s, 0), s))

    @staticmethod
    def score_play(view: PlayerView, card: Card, rng: random.Random) -> float:
        """How much this player likes playing ``card`` now (higher is better)."""
        effect = card_table(view.rules).effects[card]
        hand = view.hand
        if len(hand) == 1:
            return 1000.0
        counts = Counter(c.suit for c in hand if c.suit is not None)
        score = 0.0
        if effect.wild:
            score -= 50  # keep wilds for when nothing else plays
        else:
            score += counts.get(card.suit, 0) * 3  # stay in the long suit
        next_seat = (view.seat + view.direction) % view.players
        if effect.draws or effect.skip:
            score += 20 if view.hand_counts[next_seat] <= 2 else 4
        score += card_value(card, card_table(view.rules).values) / 10.0  # shed points when they count
        return score + rng.random() * 0.01


def player_for(level: str, budget: float = 0.5) -> ComputerPlayer:
    """The computer player of ``level`` (``easy``, ``medium`` or ``hard``; ``budget``: Hard's
    think time in seconds).

    Raises:
        ValueError: unknown level.
    """
    if level == "easy":
        return Easy()
    if level == "medium":
        return Medium()
    if level == "hard":
        from .hard import Hard

        return Hard(budget)
    raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")
