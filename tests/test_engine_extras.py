"""Engine behaviours found in review: the Card call while stacking, reasons with keys, seat0."""

import random
from collections import Counter

import pytest

from game.engine import PRESETS, IllegalAction, Match, parse_action
from game.engine.explain import REASONS
from tests.support import act, hand, legal, make_match


def test_card_can_be_called_before_stacking_the_next_to_last_card():
    m = make_match("colors", ["R+2 B5", "R+2 G1"], "R4", "R1 R2 R3 R5 R6 R7 R8 R9")
    act(m, "card", "play R+2")
    assert legal(m) == {"play R+2", "draw", "card"}
    act(m, "card", "play R+2")
    assert "denounce 1" not in legal(m)
    assert m.round.exposed == {}


def test_forgetting_the_call_while_stacking_can_be_denounced():
    m = make_match("colors", ["R+2 B5", "R+2 G1"], "R4", "R1 R2 R3 R5 R6 R7 R8 R9")
    act(m, "card", "play R+2", "play R+2")
    assert "denounce 1" in legal(m)
    act(m, "0: denounce 1")
    assert len(hand(m, 1)) == 3


def test_a_refusal_carries_its_reason_key_and_values():
    m = make_match("classic", ["3C 9H", "5S 6S"], "7H", "KD QD JD")
    with pytest.raises(IllegalAction) as caught:
        m.apply(parse_action("play 3C"))
    assert caught.value.key == "must_follow"
    assert caught.value.values == {"suit": "H", "card": "7H", "wild": "eight"}
    assert str(caught.value) == "You must follow ♥ or 7♥, or play an eight."


def test_every_reason_has_an_english_sentence():
    assert all(text.endswith(".") for text in REASONS.values())


def test_the_chosen_first_seat_starts_every_classic_round():
    m = Match(PRESETS["classic"], 3, 5, first=2)
    rng = random.Random(1)
    for _ in range(3):
        assert m.round.first == 2 and m.round.to_act == 2
        while m.status == "playing":
            m.apply(rng.choice(m.legal_actions()))
        m.next_round()


def test_shuffling_the_draw_pile_keeps_its_cards():
    m = Match(PRESETS["duel"], 2, 9)
    before = list(m.round.pile)
    m.shuffle_draw_pile(4)
    assert Counter(m.round.pile) == Counter(before) and m.round.pile != before
