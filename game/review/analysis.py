"""Where the deal was lost: Hard's estimate of each candidate at each of the seat's decisions.

For a decision with two or more candidates, a fresh `Hard` watches the events the seat had
seen (redacted for it, through `observe`, exactly as a table feeds a computer) and then
`Hard.evaluate` estimates every candidate's chance of winning from the seat's view (its
information set: never the hidden cards). The decision's cost is the best candidate's
estimate minus the estimate of what the seat played; the review marks the costliest
(`costliest`). The search is asked for a fixed number of playouts with its own seeded
generator per decision, so the same story always gives the same figures, whichever process
computes them and in whatever order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from game.ai.hard import Hard, search_candidates
from game.engine import Action

from .story import Story

GUESSES: Final = 40
"""Guesses of the hidden cards per decision (each plays every candidate out once)."""
MARKED: Final = 3
"""How many of the costliest decisions a review marks."""


@dataclass(frozen=True)
class Cost:
    """One decision of the seat, judged: the moment it was made at, what was played and its
    estimated chance of winning, the candidate Hard would have played and its chance."""

    moment: int
    played: Action
    played_chance: float
    best: Action
    best_chance: float
    candidates: int

    @property
    def cost(self) -> float:
        """How much the estimated chance of winning dropped by this choice (0 to 1)."""
        return max(0.0, self.best_chance - self.played_chance)

    @property
    def points(self) -> int:
        """The cost in points of chance (percentage points, rounded)."""
        return round(100 * self.cost)


def judged(story: Story) -> list[int]:
    """The decisions of ``story`` worth a search: the seat's moves from a view with two or
    more candidates, where what it played was one of them."""
    out = []
    for index in story.decisions():
        moment = story.moments[index]
        at_once, candidates = search_candidates(moment.view)
        if at_once is None and len(candidates) >= 2 and moment.action in candidates:
            out.append(index)
    return out


def seed_of(story: Story, index: int) -> str:
    """The seed of the search at moment ``index`` (a string: the same in every process)."""
    view = story.moments[index].view
    return f"review:{view.rules.name}:{view.round_number}:{view.seat}:{index}"


def judge(story: Story, index: int, *, guesses: int = GUESSES,
          stop: Callable[[], bool] | None = None, player: Callable[[int], Hard] | None = None) -> Cost | None:
    """The cost of the seat's decision at moment ``index`` (None: not one `judged` keeps, or a
    search stopped before it had anything). ``player``: makes the searcher for a playout
    count (tests give a fake)."""
    moment = story.moments[index]
    at_once, candidates = search_candidates(moment.view)
    played = moment.action
    if at_once is not None or len(candidates) < 2 or played is None or played not in candidates:
        return None
    make = player or (lambda playouts: Hard(None, max_playouts=playouts))
    hard = make(guesses * len(candidates))
    view = moment.view
    for event in story.events_before(index):  # what the seat had seen, as a table would feed it
        hard.observe(story.seat, event, view.rules, view.players)
    evaluation = hard.evaluate(view, random.Random(seed_of(story, index)), narrow=False, stop=stop)
    mine = evaluation.of(played)
    if mine is None or mine.playouts == 0:
        return None
    best = max(evaluation.estimates, key=lambda e: e.chance)
    return Cost(index, played, mine.chance, best.action, best.chance, len(candidates))


def costliest(costs: Sequence[Cost], count: int = MARKED) -> list[Cost]:
    """The ``count`` costliest decisions (ties: the earlier first), only those that cost
    something, in the order of the deal."""
    ranked = sorted((c for c in costs if c.cost > 0), key=lambda c: (-c.cost, c.moment))[:count]
    return sorted(ranked, key=lambda c: c.moment)
