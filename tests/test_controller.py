"""The match controller: command queue, computer turns, handoff, levels, undo."""

import copy
import random

import pytest

from game.client.controller import MatchController, SeatConfig
from game.engine import PRESETS, Draw, Match, Play, Status, parse_card
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


def test_undo_points_are_the_log_length_at_the_start_of_the_persons_turns():
    m = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    c = controller(m, [SeatConfig("human"), SeatConfig("computer", "easy")])
    c.submit(Play(m.round.hands[0][0]))
    c.update(1 / 60)
    assert c._undo == [0]
    while c.match.round.to_act != 0:
        c.update(1 / 60)
    start = len(c.match.log)
    c.submit(Play(parse_card("AS")))  # refused (not in the hand): no undo point
    c.update(1 / 60)
    assert c.error is not None and c._undo == [0]
    c.submit(c.match.legal_actions()[0])
    c.update(1 / 60)
    assert c._undo == [0, start]


def test_undo_rebuilds_the_turn_from_the_log_and_shuffles_the_pile_through_it():
    m = Match(PRESETS["classic"], 3, 12)
    c = controller(m, [SeatConfig("human"), SeatConfig("computer", "easy"), SeatConfig("computer", "easy")])
    before = copy.deepcopy(c.match)
    c.submit(c.match.legal_actions()[0])
    for _ in range(30):
        c.update(1 / 60)
    assert c.undo()
    after = c.match
    assert after.log[:-1] == [] and after.log[-1][0] == "shuffle"
    assert [list(h) for h in after.round.hands] == [list(h) for h in before.round.hands]
    assert sorted(after.round.pile) == sorted(before.round.pile) and after.round.pile != before.round.pile
    assert Match.replay(after.rules, 3, after.log, after.seed, first=after.first_seat) == after
    assert c.history == before.start_events


def test_undo_at_random_points_of_random_games_gives_back_the_turns_as_they_were():
    for seed in range(4):
        m = Match(PRESETS["classic"], 4, seed)
        c = controller(m, [SeatConfig("human")] + [SeatConfig("computer", "easy")] * 3)
        rng = random.Random(seed)
        starts: list[Match] = []  # the match at the start of each of the person's turns
        for _ in range(400):
            match = c.match
            if match.status != Status.PLAYING:
                break
            if match.to_act == 0 and not c.queue:
                if c.can_undo and rng.random() < 0.25:
                    then = starts.pop()
                    assert c.undo()
                    now = c.match
                    assert [list(h) for h in now.round.hands] == [list(h) for h in then.round.hands]
                    assert now.round.discard == then.round.discard and now.round.to_act == then.round.to_act
                    assert sorted(now.round.pile) == sorted(then.round.pile)
                    events: list = []
                    Match.replay(now.rules, 4, now.log, now.seed, first=now.first_seat, events=events)
                    assert c.history == events
                    continue
                if not starts or starts[-1].round.turn_no != match.round.turn_no:
                    starts.append(copy.deepcopy(match))
                c.submit(rng.choice(match.legal_actions()), 0)
            c.update(1 / 60)
            del starts[:-50]
