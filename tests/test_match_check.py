"""`Match.check`: legality without applying, refusing exactly as `Match.apply` would."""

from __future__ import annotations

import copy

import pytest

from game.engine import IllegalAction, Match, TimeOut
from game.engine.actions import Denounce, Draw, Play
from tests.support import act, make_match


def refusals(match: Match, action, seat=None):
    """(key, values) of `check`'s refusal and of `apply`'s; neither changed the match."""
    before = copy.deepcopy(match)
    with pytest.raises(IllegalAction) as checked:
        match.check(action, seat)
    assert match == before
    with pytest.raises(IllegalAction) as applied:
        match.apply(action, seat)
    assert match == before
    return (checked.value.key, checked.value.values), (applied.value.key, applied.value.values)


def classic() -> Match:
    return make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")


def test_a_legal_action_passes_and_nothing_changes():
    m = classic()
    before = copy.deepcopy(m)
    for action in m.legal_actions():
        assert m.check(action) is None
    assert m == before


def test_check_refuses_as_apply_does_when_the_round_is_over():
    m = make_match("classic", ["3H", "5S"], "7H", "KD QD")
    act(m, "play 3H")
    assert m.status != "playing"
    checked, applied = refusals(m, Draw())
    assert checked == applied and checked[0] == "round_over"


def test_check_refuses_a_time_out_without_a_turn_timer():
    checked, applied = refusals(classic(), TimeOut())
    assert checked == applied and checked[0] == "no_timer"


def test_check_refuses_a_time_out_for_a_seat_not_to_act():
    m = make_match("action", ["3H 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD", options={"turn_seconds": 5})
    m.check(TimeOut(), 0)  # the seat to act under timed rules: accepted
    checked, applied = refusals(m, TimeOut(), 1)
    assert checked == applied and checked[0] == "not_your_turn"


def test_check_refuses_playing_out_of_turn():
    m = classic()
    checked, applied = refusals(m, Play(m.round.hands[1][0]), 1)
    assert checked == applied and checked == ("not_your_turn", {"to_act": 0})


def test_check_gives_the_rounds_reason_for_an_illegal_action():
    checked, applied = refusals(classic(), Draw())  # 3H plays on 7H
    assert checked == applied and checked[0] == "draw_while_playable"


def test_check_refuses_a_card_not_in_the_hand():
    m = classic()
    checked, applied = refusals(m, Play(m.round.hands[1][0]))
    assert checked == applied and checked == ("not_held", {"card": "5S"})


def test_check_refuses_a_denounce_of_nobody_and_of_oneself():
    m = classic()
    checked, applied = refusals(m, Denounce(1), 0)
    assert checked == applied and checked[0] == "denounce_nobody"
    checked, applied = refusals(m, Denounce(0), 0)
    assert checked == applied and checked[0] == "denounce_self"


def test_check_refuses_a_seat_that_does_not_exist():
    checked, applied = refusals(classic(), Draw(), 7)
    assert checked == applied and checked[0] == "no_seat"
