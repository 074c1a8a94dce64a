"""Guess the hidden cards: deal the unseen cards to the other hands and the draw pile.

Every guess fits the seat's view (hand sizes, pile size) and, as far as it can,
what the seat knows from the public events (`Knowledge`): a cohort marked "no
hearts" gets no heart. When the marks cannot all be met (rare: a wrong inference
after cards changed hands unseen), the remaining cards are dealt freely.
"""

from __future__ import annotations

import random

from game.engine import Card, PlayerView, Round
from game.engine.determinize import round_from_view, unseen_cards

from .knowledge import Cohort, Knowledge


def _fill(cohort: Cohort, pool: list[Card], wilds: frozenset[str], out: list[Card]) -> None:
    """Move ``cohort.count`` cards it admits from ``pool`` (already shuffled) to ``out``."""
    need = cohort.count
    kept: list[Card] = []
    while pool and need:
        card = pool.pop()
        if cohort.admits(card, wilds):
            out.append(card)
            need -= 1
        else:
            kept.append(card)
    pool.extend(kept)
    while need and pool:  # the marks cannot all be met: deal the rest freely
        out.append(pool.pop())
        need -= 1


def sample_round(view: PlayerView, knowledge: Knowledge | None, rng: random.Random) -> Round:
    """One determinization: a full round consistent with ``view`` and ``knowledge``."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    wilds = view.rules.wild_ranks
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    plans: list[tuple[int, int, Cohort]] = []
    for seat in range(view.players):
        if seat == view.seat:
            continue
        count = view.hand_counts[seat]
        cohorts = knowledge.hand_cohorts(seat, count) if knowledge is not None else [Cohort(count)]
        for cohort in cohorts:
            marks = len(cohort.no_suits) + len(cohort.no_ranks) + cohort.no_wild
            plans.append((-marks, seat, cohort))
    plans.sort(key=lambda p: p[0])  # the most constrained cohorts choose first
    for _, seat, cohort in plans:
        _fill(cohort, pool, wilds, hands[seat])
    bluff_by = None
    if view.phase == "challenge" and view.pending_by is not None and knowledge is not None:
        offender = (view.seat - view.direction) % view.players
        suit = knowledge.wild_four_suit
        if any(c.suit == suit for c in hands[offender]):
            bluff_by = offender
    # Cards dealt out of play (a short explicit deck) are as unknown as the pile: keep a random few.
    pile = pool[len(pool) - view.draw_count:] if view.draw_count else []
    return round_from_view(view, hands, pile, random.Random(rng.random()), bluff_by=bluff_by)
