"""The Hard computer player: Monte Carlo search over guessed deals, with inference.

Each iteration guesses the hidden cards (`Guesser`, honouring what the public events showed
each opponent lacks, and dealing again a hand that would not have made the choices its
player made: `Reading`) and plays the round out after every candidate action on that same
guess with the same random numbers (a paired comparison, so the luck of the guess cancels),
every seat playing by Medium's tips (`policy`), for `HORIZON` actions: a learnt judge
(`game.ai.judge`) then gives each seat its chance. A match to a target score is played to
the end of the round, since the points left count there, and a playout is worth the seat's
chance of winning the match after the deal's points (`Stakes`), so that the last deals of a
match, and who wins them, weigh what they are worth. Candidates shown worse than the leader
beyond doubt (a paired test on the guesses so far) stop being played out, so the budget goes
to the close ones; the search stops when one is left. After the think budget, the action
with the best total is played. One legal action: no search. Too few playouts in the budget:
the Medium rules decide. Under a time budget, helper processes (`game.ai.parallel`) can deal
and play out more guesses on the other cores. Denouncing a missed "Card" call needs no
search (unless the offender is a partner).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from game.engine import Action, Denounce, PlayerView, Round, RulesError
from game.engine.scoring import team_of

from .judge import judge_for
from .knowledge import Knowledge
from .parallel import HelperSearch, shared
from .players import Medium
from .playout import HORIZON, outcomes
from .sampler import Guesser
from .stakes import stakes_for

FIRST_CHECK = 24  # guesses before the first candidates may be dropped (then every 1.5 times more)


@dataclass(frozen=True)
class Estimate:
    """One candidate of a search: its estimated chance of winning for the seat's side (the
    mean of its playouts' rewards, 0 to 1: the round, or in a match the match) and how many
    playouts that mean rests on."""

    action: Action
    chance: float
    playouts: int


@dataclass(frozen=True)
class Evaluation:
    """What a search found: an estimate per candidate (in the order of `search_candidates`),
    the playouts made in all, and which candidate it would play (``chosen``: an index into
    ``estimates``; the best of the candidates it kept to the end)."""

    estimates: tuple[Estimate, ...]
    playouts: int
    chosen: int = 0

    def best(self) -> Estimate:
        """The candidate the search would play."""
        return self.estimates[self.chosen]

    def of(self, action: Action) -> Estimate | None:
        """The estimate of ``action``, or None when it was not a candidate (a denounce)."""
        for estimate in self.estimates:
            if estimate.action == action:
                return estimate
        return None


class Guesses(Protocol):
    """What deals the guesses of a search: a `Guesser`, or in a benchmark something that knows more."""

    def sample(self, rng: random.Random) -> Round:
        """A round in which the cards the seat cannot see are guessed."""
        ...


class Hard(Medium):
    """Determinized Monte Carlo search with paired playouts, within a think budget.

    It watches the public events as Medium does, and decides by Medium's rules when
    the budget allows too few playouts. ``helpers``: processes that play out guesses of
    the same decision beside it under a time budget (`game.ai.parallel`); a fixed playout
    count never uses them, so that it stays reproducible."""

    searches = True  # whoever runs it does so on a worker thread, during the think delay

    def __init__(
        self, budget: float | None = 0.5, *, max_playouts: int | None = None, min_playouts: int = 24,
        clock: Callable[[], float] = time.perf_counter, horizon: int | None = HORIZON,
        helpers: int = 0, judged: bool = True,
    ) -> None:
        if budget is None and max_playouts is None:
            raise ValueError("Hard needs a time budget or a playout count")
        super().__init__()
        self.budget = budget
        self.max_playouts = max_playouts
        self.min_playouts = min_playouts
        self.clock = clock
        self.horizon = horizon
        self.helpers = helpers  # processes that play out guesses beside this one (`parallel`)
        # Unfinished playouts judged by the learnt judge of the rules (`game.ai.judge`), or by
        # the hand sizes alone (``judged=False``: Hard as it was before, in the arena).
        self.judged = judged
        self.last_playouts = 0

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Search for the best action in ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            self.last_playouts = 0
            return legal[0]
        at_once, candidates = search_candidates(view)
        if at_once is not None:
            return at_once
        if len(candidates) == 1:
            return candidates[0]
        evaluation = self.evaluate(view, rng)
        if evaluation.playouts < self.min_playouts:
            return super().choose(view, rng)
        return evaluation.best().action

    def evaluate(
        self, view: PlayerView, rng: random.Random, *, narrow: bool = True,
        stop: Callable[[], bool] | None = None,
    ) -> Evaluation:
        """Estimate each candidate's chance of winning for ``view.seat``'s side, from the seat's
        information only (its view and the events it observed), within the think budget or
        the playout count.

        ``narrow``: drop the candidates a paired test shows worse than the leader beyond doubt
        (the player does; a review that compares every candidate does not). ``stop``: asked
        between guesses; when it answers True the search ends with what it has (a cancelled
        review). The candidates are `search_candidates`; with fewer than two, nothing is played
        out and each is estimated at 0 playouts."""
        _, candidates = search_candidates(view)
        if len(candidates) < 2:
            self.last_playouts = 0
            return Evaluation(tuple(Estimate(a, 0.0, 0) for a in candidates), 0)
        team = team_of(view.seat, view.players, view.rules.pairs)
        guesser = self.guesses_for(view)
        # Frozen once here: every playout's `Lacks` starts from them without a copy.
        lacked = [frozenset(self.lacking(view, seat)) for seat in range(view.players)]
        # In a match to a target the points left in the hands count, which hand sizes do not show.
        horizon = None if view.target else self.horizon
        stakes = stakes_for(view, team)
        judge = judge_for(view.rules, view.players) if self.judged else None
        scores: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        deadline = None if self.budget is None else self.clock() + self.budget
        # Helpers only under a time budget: a fixed playout count stays reproducible.
        helping = None
        if self.budget is not None and self.max_playouts is None and self.helpers:
            helping = shared(self.helpers).begin(view, guesser, candidates, lacked, horizon, rng,
                                                 self.budget, self.helpers, judge)
        done = 0
        check = FIRST_CHECK
        try:
            while len(alive) > 1:
                guess = self.next_guess(guesser, rng, deadline, done, stop)
                if guess is None:
                    break
                # Every candidate is played out on the same guess with the same random numbers:
                # comparing them pairwise removes most of the luck from the comparison.
                row = outcomes(guess, [candidates[i] for i in alive], rng.random(), lacked, horizon,
                               team, stakes, judge)
                for index, value in zip(alive, row, strict=True):
                    scores[index].append(value)
                done += len(alive)
                if helping is not None:
                    done += self._merge(helping, alive, scores)
                if narrow and len(scores[alive[0]]) >= check:
                    narrowed = survivors(scores, alive)
                    check = int(len(scores[alive[0]]) * 1.5)
                    if helping is not None and len(narrowed) < len(alive):
                        helping.narrow(narrowed)
                    alive = narrowed
        finally:
            if helping is not None:
                helping.end()
        self.last_playouts = done
        # The best is judged among the survivors only, on their totals (they were all played
        # out the same number of times), as the search always did.
        best = max(alive, key=lambda i: sum(scores[i]))
        estimates = tuple(
            Estimate(c, sum(scores[i]) / len(scores[i]) if scores[i] else 0.0, len(scores[i]))
            for i, c in enumerate(candidates))
        return Evaluation(estimates, done, best)

    def next_guess(self, guesser: Guesses, rng: random.Random, deadline: float | None, done: int,
                   stop: Callable[[], bool] | None) -> Round | None:
        """The next guess of a search that has made ``done`` playouts, or None when the search is
        over: its playout count made, its ``deadline`` passed, ``stop`` asked, or (it should not
        happen) the view cannot be dealt out, when the caller decides by what it has."""
        if self.max_playouts is not None and done >= self.max_playouts:
            return None
        if deadline is not None and self.clock() >= deadline:
            return None
        if stop is not None and stop():
            return None
        try:
            return guesser.sample(rng)
        except RulesError:
            return None

    @staticmethod
    def _merge(helping: HelperSearch, alive: list[int], scores: list[list[float]]) -> int:
        """Add the helpers' rows to ``scores`` (each row covers every candidate still alive: the
        helpers only learn of a drop after it); return the playouts they made."""
        made = 0
        for played, row in helping.rows():
            results = dict(zip(played, row, strict=False))
            if any(index not in results for index in alive):
                continue  # cannot happen (the helpers only narrow when told): no unpaired scores
            for index in alive:
                scores[index].append(results[index])
            made += len(played)
        return made

    def guesses_for(self, view: PlayerView) -> Guesses:
        """What deals a decision's guesses: `guesser` with what this player learnt of the seat's
        round, unless that was learnt under other rules or another table."""
        knowledge = self.knowledge.get(view.seat)
        if knowledge is not None and (knowledge.rules != view.rules or knowledge.players != view.players):
            knowledge = None
        return self.guesser(view, knowledge)

    def guesser(self, view: PlayerView, knowledge: Knowledge | None) -> Guesses:
        """What deals the guesses of the hidden cards for a decision (a benchmark may
        substitute one that knows more)."""
        return Guesser(view, knowledge)


def search_candidates(view: PlayerView) -> tuple[Action | None, list[Action]]:
    """A denounce of a missed "Card" call to take without searching (never of a partner), or
    None; and the actions the search compares (the legal ones but the denounces)."""
    team = team_of(view.seat, view.players, view.rules.pairs)
    for action in view.legal:
        if isinstance(action, Denounce) and action.seat not in team:
            return action, []
    return None, [a for a in view.legal if not isinstance(a, Denounce)]


def survivors(scores: list[list[float]], alive: list[int], z: float = 3.0) -> list[int]:
    """The candidates of ``alive`` not shown worse than the leader beyond doubt.

    All of them were played out on the same guesses, so each is compared with the leader
    guess by guess (a paired test): a candidate goes when the leader's mean lead over it
    exceeds ``z`` standard errors of that lead. The playouts then go to the close ones."""
    n = len(scores[alive[0]])
    leader = max(alive, key=lambda i: sum(scores[i]))
    best = scores[leader]
    kept = []
    for index in alive:
        if index != leader:
            diffs = [b - x for b, x in zip(best, scores[index], strict=True)]
            mean = sum(diffs) / n
            spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > 0 and mean * mean * n > z * z * spread:
                continue
        kept.append(index)
    return kept

