"""The turn driver: computer turns, catching a missed "Card" call, the turn clock, feeding computers."""

from __future__ import annotations

import random
import threading

import pytest

from game.ai import Easy, Medium
from game.ai.pace import REACTION_SECONDS, THINK_SECONDS
from game.engine import PRESETS, Match, Play, TimeOut
from game.engine.actions import Denounce, Draw
from game.engine.events import CardsDrawn
from game.play import Computer, Move, Pace, TurnDriver
from tests.support import act, make_match

LONGEST_THINK = THINK_SECONDS * 1.4
LONGEST_REACTION = REACTION_SECONDS * 1.5
PILE = "R9 B2 G3 Y4 B6 G7 Y8 B9"


class Recorder:
    """A computer that plays its first legal action and remembers every event it is told."""

    searches = False

    def __init__(self) -> None:
        self.seen: list[tuple[int, object]] = []
        self.asked = 0

    def observe(self, seat, event, rules, players) -> None:
        self.seen.append((seat, event))

    def choose(self, view, rng):
        self.asked += 1
        return view.legal[0]


class Searcher:
    """A searching computer that decides only once the test opens the gate."""

    searches = True

    def __init__(self, gate: threading.Event, threads: list[str], copies: list[Searcher]) -> None:
        self.gate, self.threads, self.copies = gate, threads, copies

    def __deepcopy__(self, memo) -> Searcher:  # the gate is shared, the player is copied
        twin = Searcher(self.gate, self.threads, self.copies)
        self.copies.append(twin)
        return twin

    def observe(self, seat, event, rules, players) -> None:
        pass

    def choose(self, view, rng):
        self.threads.append(threading.current_thread().name)
        assert self.gate.wait(10)
        return view.legal[0]


def computer_to_act() -> Match:
    """Classic, two seats: seat 1 (the computer) is to act and holds 5H on 7H."""
    m = make_match("classic", ["3C 9H", "5H 6S"], "7H", "KD QD JD")
    act(m, "play 9H")
    assert m.round.to_act == 1
    return m


def missed_call(players: int = 3, **options) -> Match:
    """Colors: seat 0 played its second-to-last card without calling "Card"; seat 1 is to act."""
    hands = ["R5 R6", "Y4 Y5", "B7 G8", "G1 G2"][:players]
    # Written seat 0, then seat 1: clockwise, whatever the preset's starting direction.
    m = make_match("colors", hands, "R3", PILE, options={"counter_clockwise": False, **options})
    act(m, "play R5")
    assert m.round.exposed and m.round.to_act == 1
    return m


def timed(seconds: int = 2) -> Match:
    """Action rules with a clock of ``seconds``; seat 0 (a person) is to act."""
    return make_match("action", ["3H 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD",
                      options={"turn_seconds": seconds})


def run(driver: TurnDriver, seconds: float, step: float = 0.05) -> Move | None:
    """Advance in steps until a move comes or ``seconds`` have passed."""
    elapsed = 0.0
    while elapsed < seconds:
        move = driver.advance(step)
        elapsed += step
        if move is not None:
            return move
    return None


# ---- a computer's turn ----------------------------------------------------------------------------
def test_a_computer_acts_after_its_think_delay_and_not_before():
    m = computer_to_act()
    driver = TurnDriver(m, {1: Computer("medium", Medium())}, pace=Pace(random.Random(1)))
    assert driver.advance(0.0) is None
    delay = driver.think_left
    assert driver.thinking == 1 and 0.6 * THINK_SECONDS <= delay <= LONGEST_THINK
    assert driver.advance(delay - 0.01) is None
    assert driver.thinking == 1
    move = driver.advance(0.02)
    assert move == Move(1, Play(m.round.hands[1][0]))  # 5H, from its own view


def test_a_searching_player_thinks_on_a_worker_on_its_own_copy():
    gate, threads, copies = threading.Event(), [], []
    player = Searcher(gate, threads, copies)
    woken = threading.Event()
    driver = TurnDriver(computer_to_act(), {1: Computer("hard", player)}, pace=Pace(random.Random(2)),
                        wake=woken.set)
    try:
        assert driver.advance(0.0) is None
        assert driver.advance(5.0) is None  # the delay ran, the search has not finished
        assert driver.due() is None  # nothing to do until the search reports in
        gate.set()
        assert woken.wait(10)
        assert driver.due() == 0.0
        move = driver.advance(0.0)
        assert move is not None and move.seat == 1
        assert threads and threads[0] != threading.current_thread().name
        assert len(copies) == 1 and copies[0] is not player
    finally:
        gate.set()
        driver.close()


def test_instant_speed_plays_at_the_first_step():
    driver = TurnDriver(computer_to_act(), {1: Computer("medium", Medium())},
                        pace=Pace(random.Random(3), think_scale=0.0))
    assert driver.think_time() == 0.0
    assert driver.due() == 0.0
    assert driver.advance(0.0) is not None


def test_a_change_during_a_computers_think_makes_it_think_again():
    # Seat 2 (a person) denounces seat 0 while seat 1 (a computer) thinks about that same call.
    m = missed_call()
    recorder = Recorder()
    driver = TurnDriver(m, {1: Computer("medium", recorder)}, pace=Pace(random.Random(4), reaction_scale=50))
    driver.advance(0.1)
    assert recorder.asked == 1
    driver.observe(act(m, "2: denounce 0"))
    assert driver.thinking is None
    move = run(driver, LONGEST_THINK + 0.2)
    assert recorder.asked == 2
    assert move is not None and move.action in m.legal_actions(1)


def test_a_failing_or_illegal_choice_gives_way_to_the_first_legal_action():
    class Broken(Recorder):
        def choose(self, view, rng):
            raise RuntimeError("a bug")

    class Cheat(Recorder):
        def choose(self, view, rng):
            return Draw()  # not legal: 5H plays

    for player in (Broken(), Cheat()):
        m = computer_to_act()
        driver = TurnDriver(m, {1: Computer("medium", player)}, pace=Pace(random.Random(5), think_scale=0))
        assert driver.advance(0.0) == Move(1, m.legal_actions(1)[0])


def test_a_move_not_applied_is_owed_until_something_happens():
    m = computer_to_act()
    driver = TurnDriver(m, {1: Computer("medium", Medium())}, pace=Pace(random.Random(6), think_scale=0))
    move = driver.advance(0.0)
    assert move is not None
    assert driver.advance(0.5) == move and driver.due() == 0.0  # the owner could not apply it: again
    driver.observe(m.apply(move.action, move.seat))
    assert driver.thinking is None


# ---- a missed "Card" call ---------------------------------------------------------------------------
def test_a_computer_denounces_a_missed_call_after_its_reaction_delay():
    m = missed_call()
    driver = TurnDriver(m, {2: Computer("medium", Medium())}, pace=Pace(random.Random(7)))
    assert driver.due() == 0.0  # a reaction to start
    assert driver.advance(0.0) is None
    reaction = driver.due()
    assert reaction is not None and 0.7 * REACTION_SECONDS <= reaction <= LONGEST_REACTION
    assert driver.advance(reaction - 0.01) is None
    assert driver.advance(0.02) == Move(2, Denounce(0))


def test_a_computer_never_denounces_its_partner():
    m = missed_call(4, pairs=True)  # seats 0 and 2 play together
    assert Denounce(0) in m.legal_actions(2)
    driver = TurnDriver(m, {2: Computer("medium", Medium())}, pace=Pace(random.Random(8)))
    assert driver.due() is None  # nothing it would do by itself
    assert run(driver, 3 * LONGEST_REACTION) is None
    opponent = TurnDriver(m, {3: Computer("medium", Medium())}, pace=Pace(random.Random(8)))
    assert run(opponent, 3 * LONGEST_REACTION) == Move(3, Denounce(0))


def test_easy_catches_a_missed_call_only_half_the_time_and_medium_always():
    caught = {"easy": 0, "medium": 0}
    for level, player in (("easy", Easy()), ("medium", Medium())):
        for seed in range(200):
            driver = TurnDriver(missed_call(), {2: Computer(level, player)}, pace=Pace(random.Random(seed)))
            caught[level] += driver.advance(LONGEST_REACTION + 0.1) is not None  # one reaction's chance
    assert caught["medium"] == 200
    assert 70 <= caught["easy"] <= 130


def test_when_nobody_catches_the_call_another_reaction_delay_starts():
    for seed in range(50):
        driver = TurnDriver(missed_call(), {2: Computer("easy", Easy())}, pace=Pace(random.Random(seed)))
        if driver.advance(LONGEST_REACTION + 0.1) is None:
            again = driver.due()
            assert again is not None and 0.7 * REACTION_SECONDS <= again <= LONGEST_REACTION
            return
    pytest.fail("Easy caught every call")


# ---- the turn clock -----------------------------------------------------------------------------------
def test_the_clock_runs_pauses_resumes_and_times_out():
    m = timed(2)
    here = [True]
    driver = TurnDriver(m, {1: Computer("medium", Medium())}, may_time=lambda seat: here[0])
    assert driver.timer_left == 2.0 and driver.timer_running
    assert driver.advance(0.5) is None
    assert driver.timer_left == pytest.approx(1.5)
    here[0] = False  # the player left (or the device is being passed)
    assert driver.advance(10.0) is None
    assert driver.timer_left == pytest.approx(1.5) and not driver.timer_running
    here[0] = True
    assert driver.advance(1.4) is None
    assert driver.timer_left == pytest.approx(0.1)
    assert driver.advance(0.1) == Move(0, TimeOut())
    events = m.apply(TimeOut(), 0)
    driver.observe(events)
    assert driver.timer_left is None  # the computer's turn now: no clock


def test_the_clock_of_a_turn_goes_on_across_its_draw_and_starts_again_next_turn():
    m = make_match("action", ["3S 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD", options={"turn_seconds": 5})
    driver = TurnDriver(m, {})
    driver.advance(2.0)
    driver.observe(m.apply(Draw(), 0))  # nothing plays: draw, same turn
    assert m.round.to_act == 0
    driver.advance(1.0)
    assert driver.timer_left == pytest.approx(2.0)


def test_a_saved_clock_is_restored_and_goes_on():
    m = timed(10)
    driver = TurnDriver(m, {})
    driver.advance(3.0)
    saved = driver.timer
    assert saved == ((1, m.round.turn_no, 0), 7.0)
    again = TurnDriver(m, {})
    again.timer = saved
    assert again.timer_left == 7.0
    again.advance(1.0)
    assert again.timer_left == pytest.approx(6.0)
    with pytest.raises(ValueError):
        again.timer = (("x", 1, 2), 3.0)


def test_no_clock_without_timed_rules():
    m = make_match("classic", ["3C 9H", "5H 6S"], "7H", "KD QD JD")
    driver = TurnDriver(m, {})
    assert driver.timer_left is None and not driver.timer_running
    assert run(driver, 60.0, step=1.0) is None


# ---- due --------------------------------------------------------------------------------------------------
def test_due_says_how_long_until_the_driver_acts_by_itself():
    m = computer_to_act()
    driver = TurnDriver(m, {1: Computer("medium", Medium())}, pace=Pace(random.Random(9)))
    assert driver.due() == 0.0  # a think to start
    driver.advance(0.0)
    delay = driver.due()
    assert delay == driver.think_left and delay > 0
    driver.advance(0.25)
    assert driver.due() == pytest.approx(delay - 0.25)
    clock = timed(4)
    here = [True]
    person = TurnDriver(clock, {}, may_time=lambda seat: here[0])
    assert person.due() == 0.0  # a clock to start
    person.advance(1.0)
    assert person.due() == pytest.approx(3.0)
    here[0] = False
    assert person.due() is None
    untimed = TurnDriver(make_match("classic", ["3C 9H", "5H 6S"], "7H", "KD QD JD"), {})
    assert untimed.due() is None


# ---- feeding the computers --------------------------------------------------------------------------------
def test_computers_are_fed_the_events_redacted_for_their_seat():
    m = Match(PRESETS["duel"], 2, seed=3)
    recorder = Recorder()
    driver = TurnDriver(m, {1: Computer("medium", recorder)})
    driver.observe(m.start_events)
    dealt = [e for seat, e in recorder.seen if type(e) is CardsDrawn]
    assert {seat for seat, _ in recorder.seen} == {1}
    assert [e.cards is not None for e in dealt] == [e.seat == 1 for e in dealt]
    assert any(e.seat == 0 for e in dealt)


def test_a_computer_seated_mid_round_learns_the_round_so_far():
    m = Match(PRESETS["duel"], 2, seed=4)
    driver = TurnDriver(m, {1: Computer("easy", Easy())})
    recorder = Recorder()
    driver.seat_computer(1, Computer("medium", recorder), m.start_events)
    assert len(recorder.seen) == len(m.start_events)
    assert driver.players[1] is recorder
