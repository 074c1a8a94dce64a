"""The fast playout policy of the Hard player, and how a finished round is scored for a seat.

Playouts run on rounds the searcher rebuilt itself (guesses, never the real game),
so the policy may read them directly (its own hand and the public card counts, never
another hand): no views are built in the inner loop. Every seat plays Medium's tips
(`tips.play_scores`, `tips.suit_preference`, the same "Card", denounce and challenge
rules), as the `Reading` assumes the other players do, with a random move now and then:
call "Card", denounce, keep wilds, follow the longest suit, name the longest suit, save
skips and draw cards for a next player low on cards, shed high cards when points
count, challenge a +4 on Medium's odds, stack when hit. Like Medium it watches who
draws: where a draw shows that a hand held no card of the suit in force (`Lacks`), the
players lead the next player into that suit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from game.engine import Action, Round
from game.engine.actions import (
    ACCEPT,
    CALL_LAST_CARD,
    CHALLENGE,
    DRAW,
    END_TURN,
    PASS,
    SUIT_CHOICES,
    ChooseSuit,
    Denounce,
    Draw,
    Play,
)
from game.engine.phases import PLAY

from .tips import KEEP_FOR_DRAW, TIE_NOISE, Situation, bluff_likely, play_scores, situation, suit_preference

if TYPE_CHECKING:  # stakes.py imports this module: what a deal scores is learnt from playouts
    from .judge import Judge
    from .stakes import Stakes

NOISE = 0.06
MAX_STEPS = 3000
HORIZON = 30  # actions a playout looks ahead before the round is judged (`reward`)
SHARPNESS = 0.7  # how much one card fewer in hand counts when judging an unfinished round
_NONE: frozenset[str] = frozenset()
_SITUATIONS: dict[tuple[object, ...], Situation] = {}  # the situations met in playouts, by what makes them


class Lacks:
    """The suits each seat was seen to lack during one playout (Medium's "watch who draws").

    Only under rules where a draw proves it (no drawing with a playable card, and a turn
    that draws until playable or ends): every card that enters the hand afterwards is
    either unplayable then (so not of that suit) or played at once, so the mark stays true
    for the rest of the round."""

    __slots__ = ("active", "suits")

    def __init__(self, r: Round, seeded: Sequence[Collection[str]] | None = None) -> None:
        rules = r.rules
        self.active = not rules.draw_when_playable and rules.draw_until_playable
        # Frozen, so that the policy reads them at every step without a copy.
        self.suits: list[frozenset[str]] = (
            [frozenset(s) for s in seeded] if seeded is not None and self.active else [_NONE] * r.players)

    def before(self, r: Round, action: Action) -> None:
        """Note what ``action`` (about to be applied in ``r``) shows."""
        if type(action) is Draw and r.phase is PLAY and r.suit is not None:
            seen = self.suits[r.to_act]
            if r.suit not in seen:
                self.suits[r.to_act] = seen | {r.suit}


def policy(r: Round, rng: random.Random, lacks: Lacks | None = None, noise: float = NOISE) -> Action:
    """A quick action for the seat to act in ``r``, read off the round: Medium's choice
    (its tips, the same suit, challenge and "Card" rules) or, with chance ``noise``, a
    random one."""
    legal = r.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if rng.random() < noise:
        return rng.choice(legal)
    if CALL_LAST_CARD in legal:
        return CALL_LAST_CARD
    seat = r.to_act
    players = r.players
    nxt = (seat + r.direction) % players
    lacked = lacks.suits[nxt] if lacks is not None and lacks.active else _NONE
    partner = (seat + players // 2) % players if r.rules.pairs else seat
    if r.exposed:  # as Medium does, denounce a missed "Card" call before anything else
        for action in legal:
            if type(action) is Denounce and action.seat != partner:
                return action
    first = legal[0]
    if type(first) is ChooseSuit:
        hand = r.hands[seat]
        # Medium's tie-break: the suit named last in the alphabet.
        _, named = max((suit_preference(c.suit, hand, lacked), c.suit)
                       for c in legal if type(c) is ChooseSuit)
        return SUIT_CHOICES[named]
    if CHALLENGE in legal:
        # Medium's odds, from the +4's player's hand when it played the +4.
        return CHALLENGE if bluff_likely(len(r.hands[(seat - r.direction) % players]) + 1) else ACCEPT
    plays: list[Play] = []
    cards = []
    for action in legal:
        if type(action) is Play:
            plays.append(action)
            cards.append(action.card)
    if plays:
        partner_next = nxt == partner and nxt != seat
        danger = len(r.hands[nxt]) <= 2 and not partner_next
        key = (r.table, players, danger, partner_next, lacked)
        seen = _SITUATIONS.get(key)
        if seen is None:  # a handful per table, instead of a rules lookup and a new object each step
            if len(_SITUATIONS) > 1024:
                _SITUATIONS.clear()
            seen = _SITUATIONS[key] = situation(r.rules, players, danger, partner_next, lacked)
        scores = play_scores(cards, r.hands[seat], seen)
        best, best_score = 0, -1e9
        for index, score in enumerate(scores):
            score += rng.random() * TIE_NOISE  # Medium's tie-break
            if score > best_score:
                best, best_score = index, score
        if best_score > KEEP_FOR_DRAW or DRAW not in legal:
            return plays[best]
    for other in (DRAW, END_TURN, PASS):
        if other in legal:
            return other
    return plays[0] if plays else rng.choice(legal)


def playout(r: Round, rng: random.Random, seeded: Sequence[Collection[str]] | None = None,
            horizon: int | None = HORIZON, noise: float = NOISE) -> int:
    """Play ``r`` with `policy` for ``horizon`` actions at most (None: to the end of the
    round); return the number of actions. `reward` judges a round left unfinished.

    Cutting the playouts short buys several times more of them in a think budget, and the
    hands after a few turns (`reward`) foretell the winner about as well as the rest of a noisy
    playout does (the A/B runs in docs/ai.md). ``seeded``: the suits each seat was already known to
    lack (see `Lacks`). ``noise``: the chance of a random move at each step (see `policy`)."""
    lacks = Lacks(r, seeded)
    steps = 0
    limit = MAX_STEPS if horizon is None else min(horizon, MAX_STEPS)
    while not r.over and steps < limit:
        action = policy(r, rng, lacks, noise)
        if lacks.active:
            lacks.before(r, action)
        r.apply(action, events=False)
        steps += 1
    return steps


def outcomes(guess: Round, actions: Sequence[Action], seed: float, seeded: Sequence[Collection[str]],
             horizon: int | None, team: tuple[int, ...], stakes: Stakes | None = None,
             judge: Judge | None = None) -> list[float]:
    """What each of ``actions`` is worth to ``team`` on one guess: the guess played out after it
    (`playout`), every action with the same random numbers (``seed``), so that comparing them
    removes most of the luck of the playouts; scored by `reward` (with ``judge``, if given, for
    a round left unfinished)."""
    out = []
    for action in actions:
        trial = guess.clone(random.Random(seed))
        trial.apply(action, events=False)
        playout(trial, random.Random(seed), seeded, horizon)
        out.append(reward(trial, team, stakes, judge))
    return out


def reward(r: Round, team: tuple[int, ...], stakes: Stakes | None = None,
           judge: Judge | None = None) -> float:
    """How good the end of ``r`` is for ``team`` (one seat, or partners): 1 for a win, 0 for
    a loss, shares for ties; in a match to a target (``stakes``), the team's chance of
    winning the match after the deal's points.

    A round a playout left unfinished is judged by ``judge`` (`game.ai.judge`: what the
    hands hold and who acts) or, without one, by the hand sizes: each seat's chance of going
    out grows as ``exp(-SHARPNESS × cards)``.
    """
    result = r.result
    if result is None:
        weights = judge(r) if judge is not None else [math.exp(-SHARPNESS * len(h)) for h in r.hands]
        if stakes is not None:
            return stakes.unfinished(r, weights)
        return sum(weights[s] for s in team) / sum(weights)
    if stakes is not None:
        return stakes.after(result.points)
    if any(s in result.winners for s in team):
        return 1.0
    if result.tie:
        low = min(result.totals)
        tied = [s for s, t in enumerate(result.totals) if t == low]
        return 0.5 * sum(1 for s in team if s in tied) / len(tied)
    return 0.0
