"""The fast playout policy of the Hard player, and how a finished round is scored for a seat.

Playouts run on rounds the searcher rebuilt itself (guesses, never the real game),
so the policy may read them directly (its own hand and the public card counts, never
another hand): no views are built in the inner loop. It plays Medium's rules with
some noise: call "Card", denounce, keep wilds, follow the longest suit, name the
longest suit, save skips and draw cards for a next player low on cards, challenge a
+4 on Medium's odds, stack when hit, and a random move
now and then. Like Medium it watches who draws: where a draw shows that a hand held no
card of the suit in force (`Lacks`), the players lead the next player into that suit.
"""

from __future__ import annotations

import math
import random

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

NOISE = 0.06
MAX_STEPS = 3000
HORIZON = 30  # actions a playout looks ahead before the hand sizes judge the round
SHARPNESS = 0.7  # how much one card fewer in hand counts when judging an unfinished round
LACK_BONUS = 4.0  # Medium's bonus for a suit the next player was seen to lack


class Lacks:
    """The suits each seat was seen to lack during one playout (Medium's "watch who draws").

    Only under rules where a draw proves it (no drawing with a playable card, and a turn
    that draws until playable or ends): every card that enters the hand afterwards is
    either unplayable then (so not of that suit) or played at once, so the mark stays true
    for the rest of the round."""

    __slots__ = ("active", "suits")

    def __init__(self, r: Round, seeded: list[set[str]] | None = None) -> None:
        rules = r.rules
        self.active = not rules.draw_when_playable and rules.draw_until_playable
        self.suits: list[set[str]] = ([set(s) for s in seeded] if seeded is not None and self.active
                                      else [set() for _ in range(r.players)])

    def before(self, r: Round, action: Action) -> None:
        """Note what ``action`` (about to be applied in ``r``) shows."""
        if type(action) is Draw and r.phase == PLAY and r.suit is not None:
            self.suits[r.to_act].add(r.suit)


def policy(r: Round, rng: random.Random, lacks: Lacks | None = None) -> Action:
    """A quick, reasonable action for the seat to act in ``r``: Medium's rules, read off the round."""
    legal = r.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if rng.random() < NOISE:
        return rng.choice(legal)
    if CALL_LAST_CARD in legal:
        return CALL_LAST_CARD
    seat = r.to_act
    hand = r.hands[seat]
    first = legal[0]
    if type(first) is ChooseSuit:
        counts: dict[str, float] = {}
        for card in hand:
            if card.suit is not None:
                counts[card.suit] = counts.get(card.suit, 0) + 1
        if lacks is not None and lacks.active and counts:
            for suit in lacks.suits[(seat + r.direction) % r.players]:  # ties go to a suit it lacks
                if suit in counts:
                    counts[suit] += 0.5
        best = max(counts, key=counts.__getitem__) if counts else first.suit
        return SUIT_CHOICES.get(best, first)
    players = r.players
    if CHALLENGE in legal:
        # Medium's odds: the +4's player held the colour if it had four cards or more.
        return CHALLENGE if len(r.hands[(seat - r.direction) % players]) >= 3 else ACCEPT
    rules = r.rules
    partner = (seat + players // 2) % players if rules.pairs else seat
    nxt = (seat + r.direction) % players
    effects = r.table.effects
    # Unlike Medium it does not shed points: that cost rounds in A/B runs (classic 4p, colors 2p).
    size = len(hand)
    counts = {}
    ranks: dict[str, int] = {}
    for card in hand:
        if card.suit is not None and not effects[card].wild:
            counts[card.suit] = counts.get(card.suit, 0) + 1
        ranks[card.rank] = ranks.get(card.rank, 0) + 1
    partner_next = nxt == partner
    danger = len(r.hands[nxt]) <= 2 and not partner_next
    lacked = lacks.suits[nxt] if lacks is not None and lacks.active and not partner_next else ()
    best_play: Action | None = None
    best_score = -1000.0
    for action in legal:
        kind = type(action)
        if kind is Play:
            card = action.card  # type: ignore[attr-defined]
            if size == 1:
                return action
            effect = effects[card]
            if effect.wild:  # keep wilds for when nothing else plays; then name the long suit
                score = (-8.0 if danger or size == 2 else -50.0) + 3.0 * max(counts.values(), default=0)
            else:  # stay in (or switch to) the long suit; keep a same-rank card to switch later
                score = 3.0 * (counts[card.suit] - 1) + ranks[card.rank] - 1  # type: ignore[index]
                if card.suit in lacked:
                    score += LACK_BONUS
            if effect.draws or effect.skip or (effect.reverse and players == 2):
                score += -15.0 if partner_next else (20.0 if danger else -2.0)  # save them for when they hurt
            if score > best_score:
                best_score, best_play = score, action
        elif kind is Denounce and action.seat != partner:  # type: ignore[attr-defined]
            return action
    if best_play is not None and (best_score > -40 or DRAW not in legal):
        return best_play
    for choice in (DRAW, END_TURN, PASS):
        if choice in legal:
            return choice
    return best_play if best_play is not None else rng.choice(legal)


def playout(r: Round, rng: random.Random, seeded: list[set[str]] | None = None,
            horizon: int | None = HORIZON) -> int:
    """Play ``r`` with `policy` for ``horizon`` actions at most (None: to the end of the
    round); return the number of actions. `reward` judges a round left unfinished.

    Cutting the playouts short buys several times more of them in a think budget, and the
    hand sizes after a few turns foretell the winner about as well as the rest of a noisy
    playout does (A/B in the README). ``seeded``: the suits each seat was already known to
    lack (see `Lacks`)."""
    lacks = Lacks(r, seeded)
    steps = 0
    limit = MAX_STEPS if horizon is None else min(horizon, MAX_STEPS)
    while not r.over and steps < limit:
        action = policy(r, rng, lacks)
        if lacks.active:
            lacks.before(r, action)
        r.apply(action, events=False)
        steps += 1
    return steps


def reward(r: Round, team: tuple[int, ...], target: int = 0) -> float:
    """How good the end of ``r`` is for ``team`` (one seat, or partners): 1 for a win, 0 for
    a loss, shares for ties.

    In a match played to a ``target`` score, a loss is softened by how few points were left
    in the hand (they are the winner's score). Without one only the round's win counts: the
    points left then change nothing for the loser. A round a playout left unfinished is
    judged by the hand sizes: each seat's chance grows as ``exp(-SHARPNESS × cards)``.
    """
    result = r.result
    if result is None:
        weights = [math.exp(-SHARPNESS * len(h)) for h in r.hands]
        return sum(weights[s] for s in team) / sum(weights)
    if any(s in result.winners for s in team):
        return 1.0
    if result.tie:
        low = min(result.totals)
        tied = [s for s, t in enumerate(result.totals) if t == low]
        return 0.5 * sum(1 for s in team if s in tied) / len(tied)
    if not target or r.rules.scoring == "none":
        return 0.0
    worst = max(result.totals) or 1
    return 0.15 * max(1 - result.totals[s] / worst for s in team)
