"""How Hard's playouts judge a round they leave unfinished: a learnt chance for each seat.

A playout looks `playout.HORIZON` actions ahead, then judges who would win the round from
there. Each seat gets a score from what its hand holds and where it sits, and its chance is
its share of ``exp(score)`` (a multinomial logit, as in `reward`'s hand sizes, which are the
special case of a score of ``-SHARPNESS × cards``). The weights are learnt offline by
``python -m tools.fit_judge`` from rounds played by the playouts' own policy (Medium's
tips), one set per preset and player count, and written into `judge_weights` (a small Python
file read at import, never loaded from anywhere else).

What the weights say, for example in ``duel``: a card fewer counts little (about 0.07), an
eight in hand counts as much as ten cards fewer, one card left more than eight: a round's
winner is foretold by the wilds held and who is about to go out far more than by counting
cards. The hand-size judge (e^(−0.7 × cards)) was much too sure of itself: on held-out
positions its log-loss was worse than even odds (docs/ai.md, 2026-12-07).

The judge reads the round as the searcher guessed it (every hand, the guessed ones
included): it runs inside playouts, never on the real game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from game.engine import Round, Rules

from .judge_weights import WEIGHTS

# The features of a seat, in the order of the weights. ``in_suit``: its cards of the suit in
# force; ``to_act`` and ``next``: it acts now, or after the seat to act; ``pending``: the draw
# penalty it faces now; ``one``: one card left; ``longest``: its longest suit.
FEATURES = ("cards", "wilds", "actions", "suits", "in_suit", "to_act", "next", "pending", "one", "longest")


def seat_features(r: Round, seat: int) -> tuple[float, ...]:
    """The `FEATURES` of ``seat`` in ``r`` (wild cards count in no suit)."""
    effects = r.table.effects
    players = r.players
    hand = r.hands[seat]
    suit = r.suit
    wilds = actions = in_suit = 0
    counts: dict[str | None, int] = {}
    for card in hand:
        effect = effects[card]
        if effect.wild:
            wilds += 1
            continue
        if effect.draws or effect.skip:
            actions += 1
        own = card.suit
        counts[own] = counts.get(own, 0) + 1
        if own == suit:
            in_suit += 1
    after = (seat - r.to_act) * r.direction % players  # 0: to act, 1: next, ...
    cards = len(hand)
    return (cards, wilds, actions, len(counts), in_suit, 1.0 if after == 0 else 0.0,
            1.0 if after == 1 and players > 2 else 0.0, r.pending if after == 0 else 0,
            1.0 if cards == 1 else 0.0, max(counts.values()) if counts else 0)


class Judge:
    """A learnt judge of unfinished rounds: one weight per `FEATURES` entry."""

    __slots__ = ("weights",)

    def __init__(self, weights: Sequence[float]) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"a judge needs {len(FEATURES)} weights, not {len(weights)}")
        self.weights = tuple(float(w) for w in weights)

    def __call__(self, r: Round) -> list[float]:
        """Each seat's chance of winning ``r`` (they add up to 1)."""
        return chances(self.weights, [seat_features(r, seat) for seat in range(r.players)])


def chances(weights: Sequence[float], seats: Sequence[Sequence[float]]) -> list[float]:
    """Each seat's chance under ``weights``, given the `FEATURES` of every seat: its share of
    ``exp(score)``, the score being the weighted sum of its features."""
    scores = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in seats]
    top = max(scores)  # shifted, so that exp never overflows
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


_JUDGES: dict[tuple[str, int], Judge | None] = {}


def judge_for(rules: Rules, players: int) -> Judge | None:
    """The learnt judge of ``rules``' preset at ``players`` players (the nearest player count
    learnt when that one was not), or None where none was learnt: the hand sizes judge then.

    Rules changed by options keep their preset's judge: the features read the rules in force
    (which cards are wild, which draw or skip), not the preset's."""
    key = (rules.name, players)
    if key not in _JUDGES:
        learnt = WEIGHTS.get(rules.name, {})
        near = min(learnt, key=lambda n: (abs(n - players), n), default=None)
        _JUDGES[key] = None if near is None else Judge(learnt[near])
    return _JUDGES[key]
