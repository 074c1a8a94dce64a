"""Information-set Monte Carlo tree search (single observer), for the Hard level's research.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search": one tree
whose nodes are the searching seat's information sets, not the states of one guessed
deal. Each iteration deals a guess of the hidden cards (Hard's own `Guesser`: the marks of
what opponents lack and the reading of their choices), walks down the tree on that guess,
choosing at each of the seat's decisions by UCB among the actions legal there (counting a
child's *availability*, the times it could have been chosen, instead of its parent's
visits), adds one node, plays the rest out with the playout policy (Medium's tips, cut at
`HORIZON` actions and judged by the hand sizes, as Hard did before `game.ai.judge`) and backs the result up
along the path, each node scored for the seat that chose its action.

Two ways of treating the opponents' moves inside the tree (``opponents``):
``"policy"``: they play Medium's tips (the model the `Reading` already assumes), the tree
only branching where they did; ``"ucb"``: they choose by UCB too, each for its own side
(the paper's SO-ISMCTS). A node is keyed by the public action that led to it and, where
the seat itself drew, by the cards it drew (which it sees): so a node is one information
set of the seat's, and the same node serves every guess that reaches it.

Unlike `Hard`'s flat search it searches the seat's later decisions (Hard plays them by the
tips) without knowing the hidden cards, at the price of unpaired comparisons at the root.
``paired``: keep Hard's root instead (every living candidate played out on each guess with
the same random numbers, the worse dropped by the paired test) and grow the tree below
each candidate. Neither is the game's Hard: the arena levels ``ismcts`` and
``ismcts-paired`` measured them, and at equal CPU time they played today's Hard evenly
(`docs/ai.md`, 2026-12-06).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from game.engine import Action, PlayerView, Round
from game.engine.scoring import team_of

from .hard import FIRST_CHECK, Estimate, Evaluation, Guesses, Hard, search_candidates, survivors
from .playout import HORIZON, Lacks, playout, policy, reward
from .stakes import Stakes, stakes_for

UCB_C = 0.7  # exploration constant for rewards in [0, 1]
PER_GUESS = 4  # iterations that share one guessed deal (a guess costs about a playout's time)
OPPONENTS = ("policy", "ucb")

Key = Action | tuple[object, ...]  # an action, or below one the cards it drew the seat


class Node:
    """One information set of the searching seat's, reached by ``key`` from its parent.

    ``visits``: iterations through it; ``total``: the sum of their rewards for the seat
    that chose the action leading here; ``avail``: iterations in which that action was
    legal at the parent (UCB's count of chances)."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0

    def mean(self) -> float:
        """The mean reward of the iterations through this node (0 when none)."""
        return self.total / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Setting:
    """What one search needs besides the tree: who searches, for whom, and how rounds are judged."""

    seat: int
    players: int
    pairs: bool
    stakes: Stakes | None
    lacked: list[frozenset[str]]
    horizon: int | None
    c: float
    opponents: str

    def rewards(self, r: Round) -> list[float]:
        """Each seat's reward at the end of ``r`` (its side's; in a match, the searcher's side's
        chance of the match, the others' of the round)."""
        mine = team_of(self.seat, self.players, self.pairs)
        out = []
        for seat in range(self.players):
            team = team_of(seat, self.players, self.pairs)
            out.append(reward(r, team, self.stakes if team == mine else None))
        return out


def iterate(root: Node, guess: Round, rng: random.Random, s: Setting,
            candidates: tuple[Action, ...] | None = None) -> list[float]:
    """One iteration on ``guess`` (consumed): down the tree from ``root`` (the first choice among
    ``candidates`` when given, the seat being to act), one node added, a playout, the rewards
    backed up; return each seat's reward."""
    node = root
    path: list[tuple[Node, int]] = []  # the nodes reached below the root, and who chose their action
    steps = 0
    limit = s.horizon
    me = s.seat
    lacks = Lacks(guess, s.lacked)
    while not guess.over and (limit is None or steps < limit):
        legal = candidates if node is root and candidates is not None else guess.legal_actions()
        actor = guess.to_act
        searched = len(legal) > 1 and (actor == me or s.opponents == "ucb")
        if searched:
            action = _select(node, legal, rng, s.c)
        else:
            action = legal[0] if len(legal) == 1 else policy(guess, rng, lacks)
        before = len(guess.hands[me])
        if lacks.active:
            lacks.before(guess, action)
        guess.apply(action, events=False)
        steps += 1
        hand = guess.hands[me]
        drawn = hand[before:] if len(hand) > before else []
        if not (len(legal) > 1 or drawn):
            continue  # a forced move that shows the seat nothing: no information set of its own
        # A choice, or cards the seat sees: a step in the seat's information sets.
        child = node.children.get(action)
        new = child is None
        if child is None:
            child = node.children[action] = Node()
        if new or not searched:
            child.avail += 1  # `_select` counted the others; a modelled move is available when taken
        path.append((child, actor))
        node = child
        if drawn:  # what the seat drew, which it sees: a chance node below the action
            seen = tuple(drawn)
            grand = node.children.get(seen)
            if grand is None:
                grand = node.children[seen] = Node()
                new = True
            grand.avail += 1
            path.append((grand, actor))
            node = grand
        if new:
            break
    if not guess.over and (limit is None or steps < limit):
        playout(guess, rng, lacks.suits if lacks.active else None, None if limit is None else limit - steps)
    rewards = s.rewards(guess)
    root.visits += 1
    for child, actor in path:
        child.visits += 1
        child.total += rewards[actor]
    return rewards


def _select(node: Node, legal: tuple[Action, ...], rng: random.Random, c: float) -> Action:
    """The action to take at ``node`` among ``legal``: an untried one at random, else the best
    by UCB over availability. Every legal child's availability counts this iteration."""
    untried = []
    best, best_score = legal[0], -math.inf
    for action in legal:
        child = node.children.get(action)
        if child is None or not child.visits:
            untried.append(action)
            continue
        child.avail += 1
        score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if score > best_score:
            best, best_score = action, score
    if untried:
        return rng.choice(untried)
    return best


class Ismcts(Hard):
    """Hard's watching and guessing, with a single-observer ISMCTS instead of the flat search.

    ``c``: UCB's exploration constant; ``per_guess``: iterations that share one guessed deal;
    ``opponents``: ``"policy"`` (Medium's tips) or ``"ucb"`` (see the module's docstring).
    Helper processes are not used (its search is one tree)."""

    def __init__(
        self, budget: float | None = 0.5, *, max_playouts: int | None = None, min_playouts: int = 24,
        horizon: int | None = HORIZON, c: float = UCB_C, per_guess: int = PER_GUESS,
        opponents: str = "policy", paired: bool = False,
    ) -> None:
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {OPPONENTS}, not {opponents!r}")
        super().__init__(budget, max_playouts=max_playouts, min_playouts=min_playouts, horizon=horizon)
        self.c = c
        self.per_guess = max(1, per_guess)
        self.opponents = opponents
        self.paired = paired
        self.last_tree: Node | None = None

    def evaluate(
        self, view: PlayerView, rng: random.Random, *, narrow: bool = True,
        stop: Callable[[], bool] | None = None,
    ) -> Evaluation:
        """Estimate each candidate's chance of winning for ``view.seat``'s side from the seat's
        information only, by the tree's statistics (a candidate's chance: the mean reward of
        the iterations through it; its playouts: their number), within the budget or the
        iteration count (``max_playouts``). ``narrow`` is accepted for `Hard`'s interface:
        UCB already spends little on candidates that fall behind. ``stop``: asked between
        guesses; True ends the search with what it has."""
        _, candidates = search_candidates(view)
        if len(candidates) < 2:
            self.last_playouts = 0
            return Evaluation(tuple(Estimate(a, 0.0, 0) for a in candidates), 0)
        team = team_of(view.seat, view.players, view.rules.pairs)
        guesser = self.guesses_for(view)
        setting = Setting(
            view.seat, view.players, view.rules.pairs, stakes_for(view, team),
            [frozenset(self.lacking(view, seat)) for seat in range(view.players)],
            None if view.target else self.horizon, self.c, self.opponents)
        if self.paired:
            return self._paired(view, rng, guesser, candidates, setting, narrow, stop)
        root = Node()
        deadline = None if self.budget is None else self.clock() + self.budget
        done = 0
        while True:
            guess = self.next_guess(guesser, rng, deadline, done, stop)
            if guess is None:
                break
            for _ in range(self.per_guess):
                trial = guess.clone(random.Random(rng.random()))
                iterate(root, trial, rng, setting, tuple(candidates))
                done += 1
                if self.max_playouts is not None and done >= self.max_playouts:
                    break
        self.last_playouts = done
        self.last_tree = root
        children = [root.children.get(a) or Node() for a in candidates]
        chosen = max(range(len(candidates)), key=lambda i: (children[i].visits, children[i].mean()))
        estimates = tuple(Estimate(a, child.mean(), child.visits) for a, child in zip(candidates, children,
                                                                                      strict=True))
        return Evaluation(estimates, done, chosen)

    def _paired(self, view: PlayerView, rng: random.Random, guesser: Guesses, candidates: list[Action],
                s: Setting, narrow: bool, stop: Callable[[], bool] | None) -> Evaluation:
        """The flat search's root (every candidate still in the running played out on each guess
        with the same random numbers, the ones a paired test shows worse dropped: `Hard`), with
        the tree's information sets below each candidate: the seat's later decisions are
        searched, not played by the tips."""
        root = Node()
        scores: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        deadline = None if self.budget is None else self.clock() + self.budget
        done = 0
        check = FIRST_CHECK
        me = view.seat
        while len(alive) > 1:
            guess = self.next_guess(guesser, rng, deadline, done, stop)
            if guess is None:
                break
            seed = rng.random()
            for index in alive:
                action = candidates[index]
                trial = guess.clone(random.Random(seed))
                before = len(trial.hands[me])
                trial.apply(action, events=False)
                top = root.children.get(action)
                if top is None:
                    top = root.children[action] = Node()
                top.avail += 1
                node = top
                hand = trial.hands[me]
                if len(hand) > before:  # what the seat drew, which it sees: the tree goes on below it
                    seen = tuple(hand[before:])
                    sub = top.children.get(seen)
                    if sub is None:
                        sub = top.children[seen] = Node()
                    sub.avail += 1
                    node = sub
                rest = Setting(s.seat, s.players, s.pairs, s.stakes, s.lacked,
                               None if s.horizon is None else max(1, s.horizon - 1), s.c, s.opponents)
                value = iterate(node, trial, random.Random(seed), rest)[me]  # counts a visit at ``node``
                scores[index].append(value)
                node.total += value
                if node is not top:
                    top.visits += 1
                    top.total += value
            root.visits += 1
            done += len(alive)
            if narrow and len(scores[alive[0]]) >= check:
                alive = survivors(scores, alive)
                check = int(len(scores[alive[0]]) * 1.5)
        self.last_playouts = done
        self.last_tree = root
        best = max(alive, key=lambda i: sum(scores[i]))
        estimates = tuple(
            Estimate(c, sum(scores[i]) / len(scores[i]) if scores[i] else 0.0, len(scores[i]))
            for i, c in enumerate(candidates))
        return Evaluation(estimates, done, best)
