"""What a reshuffle tells the computer players: the new draw pile is made of the discards.

The pile runs out before a reshuffle, so every card a seat could not see was then in a
hand; from then on the pile holds only cards of the refill, which every seat saw played.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator

from game.ai.knowledge import Knowledge
from game.ai.sampler import Guesser
from game.engine import PRESETS, Match, PlayerView
from game.engine import events as ev
from game.engine.cards import parse_card
from game.engine.determinize import unseen_cards
from tools.inference import decisions, suit_error


def decisions_after_a_reshuffle(preset: str, players: int,
                                deals: int) -> Iterator[tuple[Match, PlayerView, Knowledge]]:
    """Seat 0's choices in rounds of Medium players, once the round's pile was reshuffled."""
    for match, view, knowledge, _ in decisions(preset, players, deals, 0, after_reshuffle=True):
        yield match, view, knowledge


def test_after_a_reshuffle_every_guess_keeps_the_pile_to_the_refill():
    checked = 0
    for match, view, knowledge in decisions_after_a_reshuffle("classic", 4, 40):
        refill = knowledge.refill
        assert refill is not None
        assert all(card in refill for card in match.round.pile)  # what the reasoning rests on
        old = Counter(unseen_cards(view)) - refill
        guesser = Guesser(view, knowledge)
        rng = random.Random(checked)
        for _ in range(5):
            guess = guesser.sample(rng)
            assert all(card in refill for card in guess.pile)
            held = Counter(card for seat, hand in enumerate(guess.hands) if seat != 0 for card in hand)
            assert not old - held  # every unseen card held since before the reshuffle is in a hand
        checked += 1
    assert checked > 30


def test_the_cards_held_since_a_reshuffle_are_counted_exactly():
    # One deck: a card of the refill was drawn since, any other was held before.
    checked = 0
    for match, _view, knowledge in decisions_after_a_reshuffle("classic", 4, 40):
        refill = knowledge.refill
        for seat in range(1, 4):
            hand = match.round.hands[seat]
            cohorts = knowledge.hand_cohorts(seat, len(hand))
            assert sum(c.count for c in cohorts if c.fresh is False) == sum(c not in refill for c in hand)
            checked += 1
    assert checked > 90


def test_a_reshuffle_of_discards_not_all_seen_tells_nothing():
    rules = PRESETS["classic"]
    knowledge = Knowledge(1, rules, 2)  # joined mid-round: no RoundStarted, no start card
    knowledge.observe(ev.CardPlayed(0, parse_card("5H")))
    knowledge.observe(ev.Reshuffled(20))
    knowledge.observe(ev.CardsDrawn(0, 1, "draw"))
    assert knowledge.refill is None
    assert all(c.fresh is False for c in knowledge.hand_cohorts(0, 6))


def test_a_reshuffle_brings_the_guesses_closer_to_the_real_hands():
    errors: dict[str, list[float]] = {"told": [], "blind": []}
    for match, view, knowledge in decisions_after_a_reshuffle("classic", 4, 40):
        blind = copy.deepcopy(knowledge)  # the same marks and reading, without the refill
        blind.refill = None
        for cohorts in blind.cohorts:
            for cohort in cohorts:
                cohort.fresh = False
        for name, known in (("told", knowledge), ("blind", blind)):
            guesser = Guesser(view, known)
            rng = random.Random(len(errors[name]))
            guesses = [guesser.sample(rng) for _ in range(10)]
            for seat in range(1, 4):
                errors[name].append(suit_error([g.hands[seat] for g in guesses], match.round.hands[seat]))
    told, blind = (sum(errors[k]) / len(errors[k]) for k in ("told", "blind"))
    assert told < blind - 0.1


def test_after_a_reshuffle_the_guesses_still_fit_the_players_choices():
    # The cards held from before the reshuffle are traded between the hands, not only the
    # cards drawn since with the pile (which fitted 74% of these hands, against 89%).
    fitted = dealt = 0
    for _match, view, knowledge in decisions_after_a_reshuffle("classic", 4, 15):
        guesser = Guesser(view, knowledge)
        rng = random.Random(1)
        for _ in range(10):
            guess = guesser.sample(rng)
            for seat in guesser.readable:
                dealt += 1
                fitted += knowledge.reading.fits(seat, guess.hands[seat])
    assert dealt > 300
    assert fitted / dealt > 0.82
