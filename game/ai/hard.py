"""The Hard computer player: Monte Carlo search over guessed deals, with inference.

Each iteration guesses the hidden cards (`sample_round`, honouring what the public
events showed each opponent lacks) and plays the round out after every candidate
action on that same guess with the same random numbers (paired comparison, so the
luck of the guess cancels), with the fast `policy`. After the think budget, the
action with the best total is played. One legal action: no search. Too few playouts in the budget: the
Medium rules decide. Denouncing a missed "Card" call needs no search (unless the
offender is a partner).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from game.engine import Action, Denounce, PlayerView, RulesError
from game.engine.scoring import team_of

from .players import Medium
from .playout import playout, reward
from .sampler import Guesser


class Hard(Medium):
    """Determinized Monte Carlo search with paired playouts, within a think budget.

    It watches the public events as Medium does, and decides by Medium's rules when
    the budget allows too few playouts."""

    slow = True  # the table runs it on a worker thread during the think delay

    def __init__(
        self, budget: float | None = 0.5, *, max_playouts: int | None = None, min_playouts: int = 24,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if budget is None and max_playouts is None:
            raise ValueError("Hard needs a time budget or a playout count")
        super().__init__()
        self.budget = budget
        self.max_playouts = max_playouts
        self.min_playouts = min_playouts
        self.clock = clock
        self.last_playouts = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Search for the best action in ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            self.last_playouts = 0
            return legal[0]
        team = team_of(view.seat, view.players, view.rules.pairs)
        for action in legal:
            if isinstance(action, Denounce) and action.seat not in team:
                return action
        candidates = [a for a in legal if not isinstance(a, Denounce)]
        if len(candidates) == 1:
            return candidates[0]
        knowledge = self.knowledge.get(view.seat)
        if knowledge is not None and (knowledge.rules != view.rules or knowledge.players != view.players):
            knowledge = None
        guesser = Guesser(view, knowledge)
        totals = [0.0] * len(candidates)
        deadline = None if self.budget is None else self.clock() + self.budget
        done = 0
        while True:
            if self.max_playouts is not None and done >= self.max_playouts:
                break
            if deadline is not None and self.clock() >= deadline:
                break
            try:
                guess = guesser.sample(rng)
            except RulesError:  # the view cannot be dealt out (should not happen): decide by rules
                break
            # Every candidate is played out on the same guess with the same random numbers:
            # comparing them pairwise removes most of the luck from the comparison.
            seed = rng.random()
            for index, action in enumerate(candidates):
                trial = guess.clone(random.Random(seed))
                trial.apply(action, events=False)
                playout(trial, random.Random(seed))
                totals[index] += (reward(trial, view.seat) if not view.rules.pairs
                                  else max(reward(trial, s) for s in team))
            done += len(candidates)
        self.last_playouts = done
        if done < self.min_playouts:
            return super().choose(view, rng)
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

