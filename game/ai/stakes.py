"""What a deal is worth in a match to a target: the chance of winning the match after it.

In a match played to a target score (`points`) a deal is one step of a race: whoever goes
out scores the cards left in the other hands, and the match ends with the deal that
takes a score to the target. Winning a deal is then worth more or less by the scores: the
last deal of a match is worth the match, and when an opponent one win short of the target
is about to go out, another player's win (or the points it leaves behind) is worth a lot
to the seat too. `Stakes` turns a deal's result into the seat's chance of winning the
match, which is what the Hard player's playouts are scored by in such a match.

The chance is estimated on futures drawn once per table (`MatchOdds`): a sequence of deals
each won by a player drawn at random (every player as strong as the others) who scores
as much as a deal of Medium players scored, sampled from deals played out here with a
fixed seed. The same futures serve every question, so the estimates are smooth in the
scores and never depend on anything but them.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Sequence

from game.engine import PlayerView, Round, Rules
from game.engine.scoring import finished_result, match_winners

from .playout import playout

FUTURES = 800  # abstract futures of the match that the odds are read from
SAMPLE_DEALS = 300  # deals played out to learn what a deal scores at a table
_ODDS: dict[tuple[Rules, int], MatchOdds | PairOdds] = {}


def deal_gains(rules: Rules, players: int, deals: int = SAMPLE_DEALS, seed: int = 0) -> list[int]:
    """What the winner of a deal scored, in ``deals`` deals played out by Medium's tips."""
    gains = []
    for k in range(deals):
        rng = random.Random(seed + k)
        r = Round(rules, players, rng, first=k % players)
        playout(r, rng, None, None, noise=0.0)
        if r.result is not None and not r.result.tie:
            gains.append(max(r.result.points))
    return gains or [1]


class MatchOdds:
    """Each seat's chance of winning a match to ``target`` from given scores, read off
    ``futures`` random futures of deal winners and their gains (drawn from ``gains``)."""

    def __init__(self, players: int, target: int, gains: Sequence[int], pairs: bool = False,
                 futures: int = FUTURES, seed: int = 0) -> None:
        self.players = players
        self.target = target
        self.pairs = pairs
        rng = random.Random(seed)
        low = max(1, min(gains))
        # Enough deals that some seat reaches the target from nothing in every future.
        length = players * (math.ceil(target / low) + 1)
        self._wins: list[list[list[int]]] = []  # per future, per seat: the deals it wins
        self._sums: list[list[list[int]]] = []  # per future, per seat: its score after each win
        for _ in range(futures):
            wins: list[list[int]] = [[] for _ in range(players)]
            sums: list[list[int]] = [[] for _ in range(players)]
            for deal in range(length):
                seat = rng.randrange(players)
                wins[seat].append(deal)
                sums[seat].append((sums[seat][-1] if sums[seat] else 0) + rng.choice(gains))
            self._wins.append(wins)
            self._sums.append(sums)
        self._cache: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._split_cache: dict[tuple[int, ...], tuple[list[int], list[list[int]]]] = {}

    def chances(self, scores: Sequence[int], since: Sequence[int] | None = None) -> tuple[float, ...]:
        """Each seat's chance of winning the match when the scores are ``scores`` between
        deals (a match already decided gives its winners all of it).

        ``since``: the scores before the deal; when one seat scored (as in every deal), the
        other seats' part of the futures is worked out once for all the questions, and each
        question is then a few binary searches."""
        key = tuple(scores)
        known = self._cache.get(key)
        if known is not None:
            return known
        decided = self.winners(key)
        if decided:
            odds = tuple(1.0 / len(decided) if s in decided else 0.0 for s in range(self.players))
        else:
            changed = [] if since is None else [s for s in range(self.players) if key[s] != since[s]]
            counts = self._race(key, changed[0]) if len(changed) == 1 else self._race_afresh(key)
            total = sum(counts) or 1  # futures too short for anyone to win are left out
            odds = tuple(c / total for c in counts)
        if len(self._cache) > 50_000:
            self._cache.clear()
            self._split_cache.clear()
        self._cache[key] = odds
        return odds

    def _need(self, score: int) -> int:
        # A seat at or past the target (the lead being tied) needs one more win.
        return max(1, self.target - score)

    def _race_afresh(self, scores: tuple[int, ...]) -> list[int]:
        """How many futures each seat wins from ``scores``."""
        needs = [self._need(s) for s in scores]
        counts = [0] * self.players
        for wins, sums in zip(self._wins, self._sums, strict=True):
            first, _ = self._first_to_win(wins, sums, needs, -1)
            if first >= 0:
                counts[first] += 1
        return counts

    def _first_to_win(self, wins: list[list[int]], sums: list[list[int]], needs: Sequence[int],
                      skip: int) -> tuple[int, float]:
        """In one future, the seat (other than ``skip``) first to score what it ``needs``, and
        the deal it does (-1 and infinity if none does)."""
        first, best = -1, math.inf
        for seat in range(self.players):
            if seat != skip:
                index = bisect_left(sums[seat], needs[seat])
                if index < len(wins[seat]) and wins[seat][index] < best:
                    first, best = seat, wins[seat][index]
        return first, best

    def _race(self, scores: tuple[int, ...], seat: int) -> list[int]:
        """How many futures each seat wins from ``scores``, where the other seats' scores
        are those of earlier questions about ``seat``."""
        reached, by_rival = self._split(scores, seat)
        need = self._need(scores[seat])
        counts = [bisect_left(lows, need) for lows in by_rival]
        counts[seat] = len(reached) - bisect_left(reached, need)
        return counts

    def _split(self, scores: tuple[int, ...], seat: int) -> tuple[list[int], list[list[int]]]:
        """For each future, the score ``seat`` reaches before another seat wins the match
        (sorted), and the same split by that other seat: ``seat`` wins a future when it
        needed no more than that score, else the other seat does."""
        key = (*scores[:seat], *scores[seat + 1:], seat)
        known = self._split_cache.get(key)
        if known is not None:
            return known
        reached: list[int] = []
        by_rival: list[list[int]] = [[] for _ in range(self.players)]
        needs = [self._need(s) for s in scores]
        for wins, sums in zip(self._wins, self._sums, strict=True):
            first, best = self._first_to_win(wins, sums, needs, seat)
            before = bisect_left(wins[seat], best)  # the seat's wins before the rival's
            score = sums[seat][before - 1] if before else 0
            reached.append(score)
            if first >= 0:
                by_rival[first].append(score)
        reached.sort()
        for lows in by_rival:
            lows.sort()
        self._split_cache[key] = (reached, by_rival)
        return reached, by_rival

    def winners(self, scores: Sequence[int]) -> tuple[int, ...]:
        """The seats that have won the match at these scores, or ``()`` (see `match_winners`)."""
        return match_winners(scores, self.target, self.pairs)


class PairOdds:
    """The odds of a pair-play match whose partners' points add up (``pair_scores``): a race
    of two pairs, each deal won by either pair alike, read off a two-seat `MatchOdds`. A
    seat's chance is half its pair's, so a team's chances add up to the pair's."""

    def __init__(self, target: int, gains: Sequence[int], futures: int = FUTURES, seed: int = 0) -> None:
        self.players = 4
        self.target = target
        self.race = MatchOdds(2, target, gains, futures=futures, seed=seed)

    @staticmethod
    def _pairs(scores: Sequence[int]) -> tuple[int, int]:
        return scores[0] + scores[2], scores[1] + scores[3]

    def chances(self, scores: Sequence[int], since: Sequence[int] | None = None) -> tuple[float, ...]:
        """Each seat's chance of winning the match at ``scores`` (see `MatchOdds.chances`)."""
        pair = self.race.chances(self._pairs(scores), None if since is None else self._pairs(since))
        return tuple(pair[seat % 2] / 2 for seat in range(4))

    def winners(self, scores: Sequence[int]) -> tuple[int, ...]:
        """The seats that have won the match at these scores, or ``()`` (see `match_winners`)."""
        return match_winners(scores, self.target, True, True)


def match_odds(rules: Rules, players: int) -> MatchOdds | PairOdds:
    """The odds of a match to the target at this table (worked out once per table)."""
    key = (rules, players)
    odds = _ODDS.get(key)
    if odds is None:
        target, gains = rules.target_for(players), deal_gains(rules, players)
        if rules.pairs and rules.pair_scores:
            odds = PairOdds(target, gains)
        else:
            odds = MatchOdds(players, target, gains, rules.pairs)
        _ODDS[key] = odds
    return odds


class Stakes:
    """What the result of the deal being played is worth to ``team``: its chance of
    winning the match from the scores ``scores`` (before the deal) plus the deal's points."""

    def __init__(self, odds: MatchOdds | PairOdds, scores: Sequence[int], team: tuple[int, ...]) -> None:
        self.odds = odds
        self.scores = tuple(scores)
        self.team = team

    def after(self, points: Sequence[int]) -> float:
        """The team's chance of winning the match once the deal scored ``points``."""
        chances = self.odds.chances([s + p for s, p in zip(self.scores, points, strict=True)], self.scores)
        return sum(chances[s] for s in self.team)

    def unfinished(self, r: Round, weights: Sequence[float]) -> float:
        """The team's chance for a deal left unfinished: each seat goes out with the chance
        ``weights`` gives it and scores the other hands as they are."""
        rules, values = r.rules, r.table.values
        worth = 0.0
        for seat, weight in enumerate(weights):
            points = finished_result(seat, r.hands, values, rules.scoring, rules.pairs).points
            worth += weight * self.after(points)
        return worth / (sum(weights) or 1.0)


def stakes_for(view: PlayerView, team: tuple[int, ...]) -> Stakes | None:
    """In a match to a target, what each result of the deal in ``view`` is worth to
    ``team`` (its chance of winning the match after it); else None (only the deal's win
    counts)."""
    if not view.target or view.rules.scoring == "none":
        return None
    return Stakes(match_odds(view.rules, view.players), view.scores, team)
