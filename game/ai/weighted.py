"""Guesses weighted by how likely each opponent's observed choices were: an opponent model.

Hard's reading is all or nothing: a guessed hand from which Medium's tips would not have
made its player's last choices is dealt again, and a player whose choices fit no hand is
no longer read. Here it is graded, as Buro et al. (Skat, 2009) and Solinas et al. (2019)
did for trick-taking games. The model gives the chance of each observed free choice (a
card played, a suit named) from a hand: a softmax of Medium's own scores for the options
it had then (`tips.play_scores`, `tips.suit_preference`, as `Reading.scored` replays them),
with a temperature, mixed with a uniform share (a person or Easy plays otherwise). A
guessed hand weighs the product of those chances over its player's newest `CHOICES`
choices; the sampler deals each readable hand until a deal is accepted with the chance its
weight bears to the most it could be (rejection sampling), `DRAWS` deals at most, and then
keeps one of them in proportion to its weight (importance resampling: `sampler.Weigher`);
the marks of what a hand lacks and the reshuffle's facts stay hard. The uniform share of each
opponent is learnt during the search, as an EM step: the kept hands' choices that the
softmax calls unlikely raise it (a flatter model), and a player whose share passes `FLAT`
is no longer read for that decision.

`WeightedHard` is Hard with these guesses: the arena level ``hard-weighted`` (docs/ai.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from game.engine import Card, PlayerView

from .hard import Guesses, Hard
from .knowledge import Knowledge
from .reading import Reading
from .sampler import Guesser

# From the fits of `python -m tools.fit_model` (docs/ai.md): on Medium's choices the sharpest
# model fits best (temperature 0.2, no uniform share); on Hard's, a sharp model fits nearly as
# well as the best flat one once its uniform share is about 0.7. So a sharp model whose uniform
# share each opponent's choices move (see `OpponentModel.share`).
TEMPERATURE = 0.3  # of the play scores (3 points a card of the suit kept)
SUIT_TEMPERATURE = 0.3  # of the suit preferences (1 point a card of the suit)
UNIFORM = 0.05  # the prior share of choices made otherwise than by the tips
PRIOR = 4.0  # how many choices that prior counts for when the share is learnt
FLAT = 0.5  # a player whose learnt share passes this is no longer read (4 of 6 choices unlikely)
DRAWS = 20  # deals of a readable hand at most, until one is accepted
CHOICES: int | None = 6  # the newest choices a hand is weighed by (None: all the round's)


def choice_probabilities(scores: Sequence[float], temperature: float, uniform: float) -> list[float]:
    """The model's chance of each option, given Medium's ``scores`` for them: a softmax at
    ``temperature`` mixed with a ``uniform`` share spread evenly (they sum to 1)."""
    top = max(scores)
    exps = [math.exp((score - top) / temperature) for score in scores]
    total = sum(exps)
    even = uniform / len(scores)
    return [(1.0 - uniform) * e / total + even for e in exps]


def chosen_probability(scores: Sequence[float], temperature: float, uniform: float) -> tuple[float, float]:
    """The chance of the first of ``scores`` (the option taken) under the model, and the share of
    it that the uniform part explains (its responsibility, 0 to 1)."""
    top = max(scores)
    total = 0.0
    for score in scores:
        total += math.exp((score - top) / temperature)
    soft = (1.0 - uniform) * math.exp((scores[0] - top) / temperature) / total
    even = uniform / len(scores)
    if soft + even <= 0.0:  # no uniform share and an option scored far below: only "otherwise" explains it
        return 0.0, 1.0
    return soft + even, even / (soft + even)


class OpponentModel:
    """The graded reading of one decision's guesses (a `sampler.Weigher`): how likely each
    opponent's choices were from a guessed hand, with each opponent's uniform share learnt
    from the hands kept so far."""

    def __init__(self, reading: Reading, *, temperature: float = TEMPERATURE,
                 suit_temperature: float = SUIT_TEMPERATURE, uniform: float = UNIFORM,
                 draws: int = DRAWS, choices: int | None = CHOICES) -> None:
        self.reading = reading
        self.temperature = temperature
        self.suit_temperature = suit_temperature
        self.uniform = uniform
        self.draws = draws
        self.choices = choices
        # Per seat: the uniform responsibilities summed over the kept hands' choices, the
        # choices counted, the hands kept.
        self.learnt: dict[int, list[float]] = {}
        self.last: tuple[tuple[int, tuple[Card, ...]], list[tuple[float, float, float]]] | None = None

    def share(self, seat: int) -> float:
        """The uniform share of ``seat``'s model: the prior, moved by the mean responsibility of
        the uniform part in the kept hands' choices (counted once per distinct choice)."""
        learnt = self.learnt.get(seat)
        if learnt is None or not learnt[2]:
            return self.uniform
        responsibility, counted, hands = learnt
        return (PRIOR * self.uniform + responsibility / hands) / (PRIOR + counted / hands)

    def probabilities(self, seat: int, hand: Sequence[Card]) -> list[tuple[float, float, float]]:
        """Per choice of ``seat`` that had alternatives (newest first), had it held ``hand`` now:
        the chance of what it chose, the most that chance could be (its option scored far above
        the others), and the uniform part's responsibility for it. The last hand asked is
        remembered (the sampler asks again for the hand it keeps)."""
        key = (seat, tuple(hand))
        if self.last is not None and self.last[0] == key:
            return self.last[1]
        uniform = self.share(seat)
        out = []
        for named, scores in self.reading.scored(seat, hand, self.choices):
            if len(scores) > 1:
                temperature = self.suit_temperature if named else self.temperature
                chance, responsibility = chosen_probability(scores, temperature, uniform)
                out.append((chance, 1.0 - uniform + uniform / len(scores), responsibility))
        self.last = (key, out)
        return out

    def weigh(self, seat: int, hand: Sequence[Card]) -> tuple[float, float]:
        """The log of how likely ``seat``'s observed choices were, had it held ``hand`` now, and
        the log of the most they could have been."""
        weight = ceiling = 0.0
        for chance, most, _ in self.probabilities(seat, hand):
            weight += math.log(chance) if chance > 0.0 else -700.0  # (only without a uniform share)
            ceiling += math.log(most)
        return weight, ceiling

    def kept(self, seat: int, hand: Sequence[Card]) -> bool:
        """Learn ``seat``'s uniform share from the hand the sampler kept; False once the share
        passes `FLAT` (its choices say little: no longer worth reading for this decision)."""
        learnt = self.learnt.setdefault(seat, [0.0, 0.0, 0.0])
        for _, _, responsibility in self.probabilities(seat, hand):
            learnt[0] += responsibility
            learnt[1] += 1.0
        learnt[2] += 1.0
        self.last = None  # its chances were worked out at the share before
        return self.share(seat) < FLAT


class WeightedHard(Hard):
    """Hard whose guesses of the hidden hands are weighted by the opponent model (`OpponentModel`)
    instead of dealt again until they fit: the arena level ``hard-weighted``. Its search, budget,
    helpers and fall-back are Hard's."""

    def guesser(self, view: PlayerView, knowledge: Knowledge | None) -> Guesses:
        """`Guesser` grading the readable hands with an `OpponentModel` of this decision."""
        if knowledge is None:
            return Guesser(view, None)
        return Guesser(view, knowledge, OpponentModel(knowledge.reading))
