"""Guess the hidden cards: deal the unseen cards to the other hands and the draw pile.

Every guess fits the seat's view (hand sizes, pile size) and, as far as it can,
what the seat knows from the public events (`Knowledge`): a cohort marked "no
hearts" gets no heart. When the marks cannot all be met (rare: a wrong inference
after cards changed hands unseen), the remaining cards are dealt freely. The soft
marks (what a hand probably lacks) are honoured in a share `SOFT_TRUST` of the guesses.
Then each hand whose player's choices can be read (`Reading`) is dealt again, a few
times at most, until those choices fit it; or, given a `Weigher` (an opponent model that
grades a hand by how likely its player's choices were from it), dealt a few times and one
deal kept with the chance its weight allows (rejection sampling, then importance resampling).
At a "Liar" decision the Wild +4's player's hand is always dealt again until the +4 and the
colour it named fit it, even where the rest of its reading was given up: that choice tells most
whether it held the colour in force.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from game.engine import Card, Phase, PlayerView, Round
from game.engine.determinize import round_from_view, unseen_cards

from .knowledge import Cohort, Knowledge

SOFT_TRUST = 0.75  # share of the guesses that take the soft marks as certain
FIT_TRIES = 20  # deals of one hand tried until its player's choices fit it
WILD_FOUR_CHOICES = 2  # fitted at a "Liar" decision: the Wild +4 played and the colour named
WILD_FOUR_TRIES = 100  # deals of its player's hand tried until they fit (one decision: it can afford more)
GIVE_UP = 4  # hands that could not be made to fit (and more than did) before a player is no longer read


def _fill(cohort: Cohort, pool: list[Card], wilds: frozenset[str], out: list[Card]) -> int:
    """Move ``cohort.count`` cards it admits from ``pool`` (already shuffled) to ``out``; return
    how many it still lacks (``pool`` ran out)."""
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
    return need


def _pick(cohort: Cohort, pool: list[Card], wilds: frozenset[str], out: list[Card],
          rng: random.Random) -> None:
    """Like `_fill`, picking at random from ``pool`` (in any order) instead of from its end:
    no shuffle of the whole pool for each hand dealt again."""
    need = cohort.count
    misses = 0
    while need and pool and misses < 4 * len(pool):
        index = int(rng.random() * len(pool))
        card = pool[index]
        if cohort.admits(card, wilds):
            pool[index] = pool[-1]
            pool.pop()
            out.append(card)
            need -= 1
        else:
            misses += 1
    if need:  # few cards it admits are left: deal from a shuffled pool as `_fill` does
        rng.shuffle(pool)
        _fill(Cohort(need, cohort.no_suits, cohort.no_ranks, cohort.no_wild), pool, wilds, out)


Groups = dict[int, tuple[list[Cohort], list[Cohort], int, int]]


def _groups(plans: list[tuple[int, Cohort]]) -> Groups:
    """Per seat of ``plans``: its cohorts held since before the reshuffle, those drawn since, and
    how many cards each group counts."""
    out: Groups = {}
    for seat, cohort in plans:
        old, drawn, n_old, n_drawn = out.get(seat, ([], [], 0, 0))
        if cohort.fresh is False:
            out[seat] = ([*old, cohort], drawn, n_old + cohort.count, n_drawn)
        else:
            out[seat] = (old, [*drawn, cohort], n_old, n_drawn + cohort.count)
    return out


def _plan(found: list[tuple[int, Cohort]]) -> list[tuple[int, Cohort]]:
    """The (seat, cohort) pairs in dealing order: the most constrained cohorts choose first."""
    def marks(item: tuple[int, Cohort]) -> int:
        cohort = item[1]
        return len(cohort.no_suits) + len(cohort.no_ranks) + cohort.no_wild
    return sorted(found, key=marks, reverse=True)


class Weigher(Protocol):
    """An opponent model that grades guessed hands (see `game.ai.weighted`)."""

    @property
    def draws(self) -> int:
        """Deals of one hand among which one is kept in proportion to its weight."""
        ...

    def weigh(self, seat: int, hand: Sequence[Card]) -> tuple[float, float]:
        """The log of how likely ``seat``'s observed choices were, had it held ``hand`` now, and
        the log of the most they could have been (from any hand making those choices)."""
        ...

    def kept(self, seat: int, hand: Sequence[Card]) -> bool:
        """Learn from the hand kept for ``seat``; False when ``seat`` is no longer worth reading."""
        ...


class Guesser:
    """Deals guesses for one view: the unseen cards and the cohorts' marks are worked out once,
    each `sample` only shuffles and deals. ``weigher``: grade the readable hands instead of
    dealing them again until they fit (`Weigher`)."""

    def __init__(self, view: PlayerView, knowledge: Knowledge | None, weigher: Weigher | None = None) -> None:
        self.view = view
        self.weigher = weigher
        self.unseen = unseen_cards(view)
        self.wilds = view.rules.wild_ranks
        found: list[tuple[int, Cohort]] = []
        for seat in range(view.players):
            if seat == view.seat:
                continue
            count = view.hand_counts[seat]
            cohorts = knowledge.hand_cohorts(seat, count) if knowledge is not None else [Cohort(count)]
            found.extend((seat, cohort) for cohort in cohorts)
        self.plans = _plan(found)
        soft = any(c.soft for _, c in found)
        self.soft_plans = _plan([(seat, c.hardened()) for seat, c in found]) if soft else None
        # Seats whose choices can be read (see `Reading`).
        self.reading = knowledge.reading if knowledge is not None else None
        self.readable = [] if self.reading is None else [
            seat for seat in range(view.players) if seat != view.seat and self.reading.read(seat)]
        self.tally: dict[int, list[int]] = {}  # per readable seat: [guesses not fitted, fitted]
        self.wild_four_suit = knowledge.wild_four_suit if knowledge is not None else None
        # After a reshuffle: the unseen cards held since before it (in the hands for certain)
        # and those of the refill (in the pile, or drawn since).
        self.split: tuple[list[Card], list[Card]] | None = None
        self.old_only: frozenset[Card] = frozenset()
        self.groups: tuple[Groups, Groups] = ({}, {})  # by plans: hard marks, soft ones taken as certain
        refill = knowledge.refill if knowledge is not None else None
        if refill is not None:
            unseen = Counter(self.unseen)
            fresh = unseen & refill
            old = unseen - fresh
            if fresh.total() >= view.draw_count:
                self.split = (list(old.elements()), list(fresh.elements()))
            self.old_only = frozenset(old) - frozenset(fresh)  # cards that cannot be in the pile
            self.groups = (_groups(self.plans), _groups(self.soft_plans or []))
        self.judge_bluff = (view.phase == Phase.CHALLENGE and view.pending_by is not None
                            and knowledge is not None)
        # Naming the suit after its own Wild +4, the seat knows whether it held the suit in force.
        self.own_bluff = (view.phase == Phase.SUIT and view.pending_by is not None and knowledge is not None
                          and view.pending_by.rank in self.wilds
                          and any(c.suit == knowledge.wild_four_suit for c in view.hand))

    def _redeal(self, seat: int, hands: list[list[Card]], pool: list[Card], plans: list[tuple[int, Cohort]],
                donors: list[int], rng: random.Random) -> bool:
        """Deal ``seat``'s hand again from its cohorts (after a reshuffle, trading the cards held
        since before it with the ``donors``); False, and nothing changed, when it cannot be."""
        if self.split is not None:
            return self._refit_split(seat, hands, pool, plans, donors, rng)
        hand = hands[seat]
        pool.extend(hand)
        hand.clear()
        for owner, cohort in plans:
            if owner == seat:
                _pick(cohort, pool, self.wilds, hand, rng)
        return True

    def _weigh(self, hands: list[list[Card]], pool: list[Card], plans: list[tuple[int, Cohort]],
               rng: random.Random) -> None:
        """Deal each readable seat's hand until a deal is accepted with the chance its weight bears
        to the most a hand could weigh (rejection sampling: the kept hands follow the model's
        odds), `Weigher.draws` deals at most; when none is accepted, keep one of them in
        proportion to its weight (importance resampling). The marks stay hard."""
        weigher = self.weigher
        assert weigher is not None
        split = self.split is not None
        order = list(self.readable)
        redealt = False
        for k, seat in enumerate(order):
            donors = [d for d in range(len(hands)) if d != seat and d != self.view.seat
                      and d not in order[:k + 1]] if split else []
            logs: list[float] = []
            states: list[tuple[list[list[Card]], list[Card]]] = []
            while True:
                weight, ceiling = weigher.weigh(seat, hands[seat])
                if rng.random() < math.exp(weight - ceiling):
                    break  # accepted: the deal stands
                logs.append(weight)
                states.append(([list(h) for h in hands], list(pool)))
                if len(logs) >= weigher.draws or not self._redeal(seat, hands, pool, plans, donors, rng):
                    top = max(logs)
                    odds = [math.exp(w - top) for w in logs]
                    pick = rng.random() * sum(odds)
                    chosen = len(odds) - 1
                    for index, odd in enumerate(odds):
                        pick -= odd
                        if pick < 0:
                            chosen = index
                            break
                    kept_hands, kept_pool = states[chosen]
                    for hand, cards in zip(hands, kept_hands, strict=True):
                        hand[:] = cards
                    pool[:] = kept_pool
                    break
                redealt = True
            if not weigher.kept(seat, hands[seat]):
                self.readable.remove(seat)
        if redealt:  # the picks left the pool in no random order: the pile is taken from it
            rng.shuffle(pool)

    def _fit(self, hands: list[list[Card]], pool: list[Card], plans: list[tuple[int, Cohort]],
             rng: random.Random) -> None:
        """Deal each readable seat's hand again, up to `FIT_TRIES` times, until its choices fit it
        (`Reading.fits`); a hand that never fits is kept as the last deal left it."""
        reading = self.reading
        assert reading is not None
        refitted = False
        split = self.split is not None
        order = list(self.readable)
        for k, seat in enumerate(order):
            hand = hands[seat]
            tries = 0
            fits = reading.fits(seat, hand)
            # After a reshuffle the cards held since before it are in some hand: they are traded
            # with the hands not fitted yet; the ones drawn since, with the pile.
            donors = [d for d in range(len(hands)) if d != seat and d != self.view.seat
                      and d not in order[:k + 1]] if split else []
            while not fits and tries < FIT_TRIES:
                tries += 1
                if split:
                    if not self._refit_split(seat, hands, pool, plans, donors, rng):
                        break
                else:
                    pool.extend(hand)
                    hand.clear()
                    for owner, cohort in plans:
                        if owner == seat:
                            _pick(cohort, pool, self.wilds, hand, rng)
                fits = reading.fits(seat, hand)
            refitted = refitted or tries > 0
            # A player whose choices fit hardly any hand does not play by Medium's tips: stop
            # spending the budget on reading it (for this decision).
            tally = self.tally.setdefault(seat, [0, 0])
            tally[fits] += 1
            if tally[0] >= GIVE_UP and tally[0] > tally[1]:
                self.readable.remove(seat)
        if refitted:  # the picks left the pool in no random order: the pile is taken from it
            rng.shuffle(pool)

    def _fit_wild_four(self, offender: int, hands: list[list[Card]], pool: list[Card],
                       plans: list[tuple[int, Cohort]], rng: random.Random) -> None:
        """Deal the hand of the Wild +4's player again, up to `WILD_FOUR_TRIES` times, until its last
        `WILD_FOUR_CHOICES` choices (the +4 and the colour it named) fit it; the other hands keep
        their fit (after a reshuffle it trades none of its old cards with them)."""
        # At a "Liar" decision the Wild +4's own choice tells most whether it broke the rule: it is
        # fitted in every guess, even where the rest of its choices fit no hand (reading given up).
        reading = self.reading
        assert reading is not None  # a "Liar" is judged with knowledge only (`judge_bluff`)
        tries = 0
        while not reading.fits(offender, hands[offender], WILD_FOUR_CHOICES) and tries < WILD_FOUR_TRIES:
            tries += 1
            if not self._redeal(offender, hands, pool, plans, [], rng):
                break
        if tries:
            rng.shuffle(pool)  # the picks left the pool in no random order: the pile is taken from it

    def _deal_split(self, hands: list[list[Card]], plans: list[tuple[int, Cohort]],
                    rng: random.Random) -> list[Card]:
        """Deal the hands after a reshuffle: the cohorts held before it from the old cards, those
        drawn since from the refill; return the cards left for the pile (refill cards on top)."""
        assert self.split is not None
        old, fresh = list(self.split[0]), list(self.split[1])
        rng.shuffle(old)
        rng.shuffle(fresh)
        later: list[tuple[int, Cohort]] = []
        for seat, cohort in plans:
            source = old if cohort.fresh is False else fresh if cohort.fresh else None
            if source is None:
                later.append((seat, cohort))
                continue
            short = _fill(cohort, source, self.wilds, hands[seat])
            if short:  # the counts did not add up (a misread play): dealt from what is left
                later.append((seat, Cohort(short, cohort.no_suits, cohort.no_ranks, cohort.no_wild)))
        for seat, cohort in later:  # old cards first: they cannot be in the pile
            short = _fill(cohort, old, self.wilds, hands[seat])
            if short:
                rest = Cohort(short, cohort.no_suits, cohort.no_ranks, cohort.no_wild)
                _fill(rest, fresh, self.wilds, hands[seat])
        return old + fresh  # the pile is taken from the end

    def _refit_split(self, seat: int, hands: list[list[Card]], pool: list[Card],
                     plans: list[tuple[int, Cohort]], donors: list[int], rng: random.Random) -> bool:
        """Deal ``seat``'s hand again after a reshuffle: the cards it drew since from ``pool`` (the
        pile), those it held before from its own and the ``donors``' old cards (the donors take
        back the rest). False, and nothing changed, when its cohorts do not add up to its hand."""
        old_only = self.old_only
        groups = self.groups[plans is self.soft_plans]
        olds: dict[int, list[Card]] = {}
        for owner in [seat, *donors]:
            old = [c for c in hands[owner] if c in old_only]
            group = groups.get(owner)
            if group is None or group[2] != len(old):
                if owner == seat:
                    return False
                continue  # its counts do not add up: leave that hand alone
            olds[owner] = old
        hand = hands[seat]
        old_cohorts, drawn_cohorts, _, drawn_count = groups[seat]
        if drawn_count != len(hand) - len(olds[seat]):
            return False
        traded = [c for cards in olds.values() for c in cards]
        rng.shuffle(traded)  # a few cards: shuffled once, then dealt in order
        pool.extend(c for c in hand if c not in old_only)
        del hand[:]
        for cohort in old_cohorts:
            _fill(cohort, traded, self.wilds, hand)
        for cohort in drawn_cohorts:
            _pick(cohort, pool, self.wilds, hand, rng)
        # The donors take back the rest, each by its cohorts' marks as far as the cards left
        # allow (as in the first deal; refusing such trades fitted fewer hands: 81% against 89%).
        for owner in donors:
            if owner in olds:
                hands[owner][:] = [c for c in hands[owner] if c not in old_only]
                for cohort in groups[owner][0]:
                    _fill(cohort, traded, self.wilds, hands[owner])
        return True

    def sample(self, rng: random.Random) -> Round:
        """One determinization: a full round consistent with the view and the knowledge."""
        view = self.view
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in range(view.players)]
        hands[view.seat] = list(view.hand)
        plans = self.plans
        if self.soft_plans is not None and rng.random() < SOFT_TRUST:
            plans = self.soft_plans
        if self.split is None:
            for seat, cohort in plans:
                _fill(cohort, pool, self.wilds, hands[seat])
        else:
            pool = self._deal_split(hands, plans, rng)
        if self.readable:
            if self.weigher is not None:
                self._weigh(hands, pool, plans, rng)
            else:
                self._fit(hands, pool, plans, rng)
        bluff_by = view.seat if self.own_bluff else None
        if self.judge_bluff:
            offender = (view.seat - view.direction) % view.players
            self._fit_wild_four(offender, hands, pool, plans, rng)
            if any(c.suit == self.wild_four_suit for c in hands[offender]):
                bluff_by = offender
        # Cards dealt out of play (a short explicit deck) are as unknown as the pile: keep a random few.
        pile = pool[len(pool) - view.draw_count:] if view.draw_count else []
        return round_from_view(view, hands, pile, random.Random(rng.random()), bluff_by=bluff_by)


def sample_round(view: PlayerView, knowledge: Knowledge | None, rng: random.Random) -> Round:
    """One determinization for ``view`` (see `Guesser` to deal many)."""
    return Guesser(view, knowledge).sample(rng)
