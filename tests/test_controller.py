"""The match controller: command queue, computer turns, handoff, levels, undo."""

import random

import pytest

from game.client.controller import MatchController, SeatConfig
from game.engine import PRESETS, Draw, Match, Play
from tests.support import make_match


def controller(match, seats, speed=0.0):
    return MatchController(match, seats, rng=random.Random(3), speed=speed)


def test_queued_actions_apply_one_per_step_and_wait_for_animations():
    m = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    c = controller(m, [SeatConfig("human"), SeatConfig("human")])
    busy = [True]
    c.busy = lambda: busy[0]
    c.submit(Play(m.round.hands[0][0]))
    c.update(1 / 60)
    assert len(m.round.hands[0]) == 2  # blocked by the animation
    busy[0] = False
    c.update(1 / 60)
    assert [x.code for x in m.round.hands[0]] == ["9C"]


def test_an_illegal_action_leaves_the_engine_reason_and_the_game():
    m = make_match("classic", ["3C 9H", "5S 6S"], "7H", "KD QD JD")
    c = controller(m, [SeatConfig("human"), SeatConfig("computer")])
    c.submit(Draw())
    c.update(1 / 60)
    assert str(c.error) == "You may not draw while you hold a card that plays."
    assert c.error.key == "draw_while_playable"
    assert len(m.round.hands[0]) == 2


def test_computer_waits_its_think_time_then_plays_from_its_view():
    m = make_match("classic", ["3C 9H", "5H 6S"], "7H", "KD QD JD")
    c = controller(m, [SeatConfig("human"), SeatConfig("computer")], speed=1.0)
    c.submit(Play(m.round.hands[0][1]))
    c.update(1 / 60)
    assert m.round.to_act == 1
    c.update(1 / 60)
    assert c.think_left is not None and c.think_left > 0
    for _ in range(600):
        c.update(1 / 60)
        if m.round.to_act == 0:
            break
    assert m.round.to_act == 0
    assert [x.code for x in m.round.discard][-1] == "5H"


def test_instant_speed_means_no_think_delay():
    c = controller(Match(PRESETS["duel"], 2, seed=1), [SeatConfig("computer"), SeatConfig("computer")])
    assert c.think_time() == 0.0


def test_events_are_redacted_for_the_shown_seat():
    m = Match(PRESETS["duel"], 2, seed=3)
    c = controller(m, [SeatConfig("human"), SeatConfig("computer")])
    dealt = [e for e in c.take_events() if type(e).__name__ == "CardsDrawn"]
    assert [e.cards is not None for e in dealt] == [True, False]


def test_hot_seat_asks_for_a_handoff_when_another_human_must_act():
    m = make_match("classic", ["3H 9C", "5H 6S"], "7H", "KD QD JD")
    c = controller(m, [SeatConfig("human"), SeatConfig("human")])
    assert c.handoff_to is None
    c.submit(Play(m.round.hands[0][0]))
    c.update(1 / 60)
    assert c.handoff_to == 1
    c.accept_handoff(1)
    assert c.viewer == 1 and c.handoff_to is None


def test_changing_a_computer_level_keeps_the_round():
    m = Match(PRESETS["duel"], 2, seed=5)
    c = controller(m, [SeatConfig("human"), SeatConfig("computer", "easy")])
    before = [list(h) for h in m.round.hands]
    c.set_level(1, "hard")
    assert c.seats[1].level == "hard"
    assert [list(h) for h in c.match.round.hands] == before
    with pytest.raises(ValueError):
        c.set_level(0, "easy")


def test_hard_at_the_table_searches_on_the_machines_other_cores_too(monkeypatch):
    from game.client import controller as controller_module

    monkeypatch.setattr(controller_module, "default_helpers", lambda: 3)
    m = Match(PRESETS["duel"], 2, seed=5)
    c = controller(m, [SeatConfig("human"), SeatConfig("computer", "hard")])
    assert c.driver.players[1].helpers == 3
    c.set_level(1, "easy")
    c.set_level(1, "hard")  # a level changed during the game keeps the helpers
    assert c.driver.players[1].helpers == 3


def test_undo_is_for_solo_play_only():
    m = make_match("classic", ["3H 9C", "5H 6S"], "7H", "KD QD JD")
    c = controller(m, [SeatConfig("human"), SeatConfig("human")])
    c.submit(Play(m.round.hands[0][0]))
    c.update(1 / 60)
    assert not c.can_undo and not c.undo()


def test_undo_respects_the_rules_option():
    m = make_match("duel", ["3H 9C", "5H 6S"], "7H", "KD QD JD")  # duel: undo off
    c = controller(m, [SeatConfig("human"), SeatConfig("computer")])
    c.submit(Play(m.round.hands[0][0]))
    c.update(1 / 60)
    assert not c.can_undo


def test_turn_timer_submits_a_timeout_for_a_human():
    m = make_match("action", ["3H 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD", options={"turn_seconds": 1})
    c = controller(m, [SeatConfig("human"), SeatConfig("computer")])
    for _ in range(70):
        c.update(1 / 60)
    events = c.take_events()
    assert [e.seat for e in events if type(e).__name__ == "TimedOut"] == [0]
    assert len(m.round.hands[0]) == 4  # one penalty card, and the turn passed
