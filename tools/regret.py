"""How far each decision falls short: ``python -m tools.regret --preset colors --players 4``.

A benchmark with far less noise than the arena's win rates. It plays seeded rounds of
Medium players and, at each decision of seat 0 with a choice, works out the worth of every
candidate action on the *real* hidden cards: the share of ``--rollouts`` rounds the seat
wins (in a match to a target, its mean chance of winning the match after them) when it
takes that action and every seat then plays Medium's tips to the end (the
draw pile shuffled again each time, since no player can know its order). Then it asks
each player level to decide from the seat's view alone, and prints its mean regret per
decision (the best candidate's worth less the chosen one's, in points of win share),
overall and by kind of decision, beside the regret of an "oracle" Hard that is told the
real hands (how much the hidden cards cost) and of a second, independent estimate of the
worths (what the estimates' own noise costs).

Decisions are compared on the same states, so two versions of Hard differing by a tenth
of a point per decision show it in a few minutes, where the arena needs thousands of
games. It measures one step against Medium's play after it, not whole games, so it is a
guide, not the verdict: the arena is. The real cards are read off the engine here, never
by the players.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from game.ai.hard import Hard, search_candidates
from game.ai.knowledge import Knowledge
from game.ai.players import Medium
from game.ai.playout import playout, reward
from game.ai.stakes import Stakes, stakes_for
from game.engine import PRESETS, Action, Draw, Phase, Play, PlayerView, Round
from game.engine.scoring import team_of
from tools.inference import decisions


@dataclass
class Decision:
    """One decision of seat 0: its view and knowledge, the real round, and each candidate's
    worth on the real cards (two independent estimates)."""

    view: PlayerView
    knowledge: Knowledge
    real: Round
    candidates: list[Action]
    worth: list[float]
    again: list[float]

    def regret(self, action: Action) -> float:
        """The best candidate's worth less ``action``'s."""
        return max(self.worth) - self.worth[self.candidates.index(action)]


def worth(real: Round, action: Action, team: tuple[int, ...], lacked: list[set[str]],
          stakes: Stakes | None, rollouts: int, first: int) -> float:
    """The share of ``rollouts`` rounds won by ``team`` (in a match to a target: its mean
    chance of winning the match after them, see `Stakes`) when ``action`` is taken in
    ``real`` and every seat then plays Medium's tips (no noise) to the end, the pile
    shuffled each time."""
    total = 0.0
    for k in range(first, first + rollouts):
        trial = real.clone(random.Random(k))
        random.Random(7 * k + 1).shuffle(trial.pile)
        trial.apply(action, events=False)
        playout(trial, random.Random(13 * k + 5), lacked, None, noise=0.0)
        total += reward(trial, team, stakes)
    return total / rollouts


def collect(preset: str, players: int, deals: int, seed: int, rollouts: int) -> Iterator[Decision]:
    """Seat 0's decisions with a choice in ``deals`` seeded rounds of Medium players, each
    candidate worked out on the real cards. Decisions a denounce settles are left out (Hard
    takes it without searching)."""
    for match, view, knowledge, _ in decisions(preset, players, deals, seed):
        at_once, candidates = search_candidates(view)
        if at_once is not None or len(candidates) < 2:
            continue
        team = team_of(view.seat, view.players, view.rules.pairs)
        real = match.round.clone(random.Random(0))
        stakes = stakes_for(view, team)
        lacked = [set(knowledge.lacking(s, view.hand_counts[s])) for s in range(view.players)]
        first = [worth(real, a, team, lacked, stakes, rollouts, 0) for a in candidates]
        second = [worth(real, a, team, lacked, stakes, rollouts, 10**6) for a in candidates]
        yield Decision(view, copy.deepcopy(knowledge), real, candidates, first, second)


def kind(decision: Decision) -> str:
    """What the decision is about: ``suit``, ``challenge``, ``penalty``, or in the play phase
    the number of cards that play (with ``w`` if one is wild) and whether drawing is allowed."""
    view = decision.view
    if view.phase != Phase.PLAY:
        return str(view.phase)
    plays = [a for a in decision.candidates if isinstance(a, Play)]
    wild = any(p.card.rank in view.rules.wild_ranks for p in plays)
    draw = any(isinstance(a, Draw) for a in decision.candidates)
    return ("draw, " if draw else "") + f"{min(len(plays), 3)}{'+' if len(plays) > 3 else ''} plays" + (
        " w" if wild else "")


class TheRealCards:
    """Deals the real hands of a decision at every guess (the pile shuffled, since no player
    can know its order): the guesser of `Oracle`."""

    def __init__(self, real: Round) -> None:
        self.real = real

    def sample(self, rng: random.Random) -> Round:
        """The real round, its pile shuffled with ``rng``."""
        r = self.real.clone(random.Random(rng.random()))
        rng.shuffle(r.pile)
        return r


class Oracle(Hard):
    """Hard told the real hands of one decision: how much the hidden cards cost it."""

    def __init__(self, real: Round, playouts: int) -> None:
        super().__init__(None, max_playouts=playouts)
        self.real = real

    def guesser(self, view: PlayerView, knowledge: Knowledge | None) -> TheRealCards:
        """The real cards instead of guesses."""
        return TheRealCards(self.real)


def regrets(found: list[Decision], level: str, playouts: int, seed: int) -> list[float]:
    """The regret of ``level`` (``medium``, ``hard``, ``oracle`` or ``again``) at each decision."""
    out = []
    for index, decision in enumerate(found):
        if level == "again":
            out.append(decision.regret(decision.candidates[max(
                range(len(decision.candidates)), key=lambda i: decision.again[i])]))
            continue
        player: Medium
        if level == "medium":
            player = Medium()
        elif level == "oracle":
            player = Oracle(decision.real, playouts)
        else:
            player = Hard(None, max_playouts=playouts)
        player.knowledge[decision.view.seat] = copy.deepcopy(decision.knowledge)
        out.append(decision.regret(player.choose(decision.view, random.Random(seed + index))))
    return out


LEVELS = ("medium", "hard", "oracle", "again")
NAMES = {"medium": "Medium", "hard": "Hard", "oracle": "Hard told the cards", "again": "worths again"}


def main(argv: list[str] | None = None) -> None:
    """Collect the decisions, measure each level and print the table."""
    parser = argparse.ArgumentParser(prog="python -m tools.regret", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40, help="rounds of Medium players")
    parser.add_argument("--rollouts", type=int, default=200, help="rounds played out per candidate worth")
    parser.add_argument("--playouts", type=int, default=400, help="Hard's playouts per decision")
    parser.add_argument("--seed", type=int, default=777000)
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{args.preset} seats {rules.min_players} to {rules.max_players} players")
    start = time.perf_counter()
    found = list(collect(args.preset, args.players, args.deals, args.seed, args.rollouts))
    print(f"{args.preset}, {args.players} players: {len(found)} decisions of seat 0 in {args.deals} rounds "
          f"of Medium players; worths from {args.rollouts} rounds each; Hard {args.playouts} playouts "
          f"({time.perf_counter() - start:.0f} s to collect)")
    if not found:
        return
    by_level = {level: regrets(found, level, args.playouts, args.seed) for level in LEVELS}
    for level, values in by_level.items():
        spread = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        print(f"{NAMES[level]:>20}: mean regret {statistics.mean(values) * 100:.2f} points a decision "
              f"(± {spread * 100:.2f})")
    groups: dict[str, list[int]] = defaultdict(list)
    for index, decision in enumerate(found):
        groups[kind(decision)].append(index)
    print("by kind (decisions; mean regret of " + ", ".join(NAMES[level] for level in LEVELS) + "):")
    for name, indices in sorted(groups.items(), key=lambda item: -len(item[1])):
        means = " ".join(f"{statistics.mean(by_level[level][i] for i in indices) * 100:6.2f}"
                         for level in LEVELS)
        print(f"  {name:>16} {len(indices):5d}  {means}")


if __name__ == "__main__":
    main()
