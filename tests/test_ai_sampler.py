"""How Hard's guesses deal the unseen cards (`game.ai.sampler`)."""

from __future__ import annotations

import random

from game.ai.knowledge import Knowledge
from game.ai.sampler import Guesser
from tests.support import act, make_match


def test_the_cards_a_marked_hand_turns_down_spread_evenly_over_the_others():
    # Seat 1 drew on a heart: it holds none. The hearts left must spread over seats 2 and 3
    # and the pile alike, not go first to whichever hand is dealt after seat 1's.
    m = make_match("classic", ["4H 2C 3C 4C 5C", "2S 3S 6S 7S 9D", "2D 3D 4D 5D 6D", "7D TD JD QD KD"],
                   "5H", "6H AS KS QS JS TS 9S")
    knowledge = Knowledge(0, m.rules, 4)
    for event in [*m.start_events, *act(m, "play 4H", "draw", "play 6H")]:
        knowledge.observe(event.for_seat(0))
    guesser = Guesser(m.view(0), knowledge)
    rng = random.Random(0)
    hearts = {1: 0, 2: 0, 3: 0, "pile": 0}
    cards = {2: 0, 3: 0, "pile": 0}
    for _ in range(2000):
        guess = guesser.sample(rng)
        for seat in (1, 2, 3):
            hearts[seat] += sum(c.suit == "H" for c in guess.hands[seat])
            cards[seat] = cards.get(seat, 0) + len(guess.hands[seat])
        hearts["pile"] += sum(c.suit == "H" for c in guess.pile)
        cards["pile"] += len(guess.pile)
    assert hearts[1] == 0
    shares = [hearts[k] / cards[k] for k in (2, 3, "pile")]
    assert max(shares) - min(shares) < 0.03, shares  # turned-down hearts first to seat 2: 0.44 vs 0.23
