"""The autopilot and the move made when a turn's time runs out: engine, turn driver, controller,
saves and the room server (the table's side is in test_autopilot_ui.py)."""

from __future__ import annotations

import pickle
import random

import pytest

from game.ai import Medium
from game.client.controller import MatchController, SeatConfig
from game.engine import IllegalAction, Play, TimeOut, parse_action
from game.engine.events import CardPlayed, TimedOut
from game.engine.legal import turn_actions
from game.engine.round import auto_action
from game.net.clock import ManualClock
from game.play import Computer, Pace, TurnDriver
from game.play.turns import AUTOPILOT_AFTER
from game.saves import decode_game, encode_game
from game.saves.games import table_to_plain
from tests.net_support import Peer, start_server
from tests.support import make_match

HUMAN = {"kind": "human"}


def bluff_position(turn_seconds: int = 5):
    """Seat 0 to play on R3 holding W+4 first, then R5: the engine's own time-out rule (the first
    card that plays) would throw the Wild +4 while holding red; Medium plays R5."""
    return make_match("colors", ["W+4 R5 B7 G2", "Y1 Y2 G5 B3"], "R3", "B1 B2 B4 G6 G7 Y4 Y5 G8",
                      options={"turn_seconds": turn_seconds})


def run_out(driver: TurnDriver, seconds: float):
    """Advance the driver by ``seconds`` in one go; the move it then wants."""
    return driver.advance(seconds)


# ---- the engine -------------------------------------------------------------------------------
def test_a_time_out_may_name_the_move_played_for_the_player_in_its_notation():
    assert str(TimeOut(Play(parse_action("play 7H").card))) == "timeout play 7H"  # type: ignore[union-attr]
    for text in ("timeout", "timeout play W+4", "timeout draw", "timeout suit H", "timeout accept"):
        assert str(parse_action(text)) == text
    for bad in ("timeout timeout", "timeout timeout draw", "timeout play", "timeout fly"):
        with pytest.raises(ValueError):
            parse_action(bad)


def test_a_time_out_plays_the_named_move_after_saying_the_time_ran_out():
    m = bluff_position()
    events = m.apply(parse_action("timeout play R5"), 0)
    assert events[:2] == [TimedOut(0), CardPlayed(0, parse_action("play R5").card)]  # type: ignore[union-attr]
    assert m.log[-1] == (0, "timeout play R5")


def test_a_time_out_naming_an_illegal_move_is_refused_with_that_moves_reason():
    m = bluff_position()
    with pytest.raises(IllegalAction) as caught:
        m.check(parse_action("timeout play B7"), 0)
    assert caught.value.key == "must_follow"
    penalty = make_match("action", ["3H 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD", options={"turn_seconds": 5})
    with pytest.raises(IllegalAction) as caught:
        penalty.check(parse_action("timeout play 3H"), 0)  # these rules give a penalty card instead
    assert caught.value.key == "not_allowed"


def test_a_log_with_the_old_time_out_replays_as_before():
    m = bluff_position()
    m.apply(TimeOut(), 0)
    assert m.log[-1] == (0, "timeout")
    assert m.round.discard[-1].code == "W+4"  # the engine's own rule, kept for older saves and rooms


# ---- the turn driver: the time-out -----------------------------------------------------------
def test_when_time_runs_out_the_move_played_is_mediums_not_the_first_card_in_hand():
    m = bluff_position()
    r = m.round
    assert str(auto_action(turn_actions(r), r.phase, r._best_suit(0))) == "play W+4"  # the old rule bluffs
    medium = {str(Medium().choose(m.view(0), random.Random(i))) for i in range(30)}
    assert medium == {"play R5"}
    driver = TurnDriver(m, {1: Computer("medium", Medium())}, pace=Pace(random.Random(1)))
    driver.observe(m.start_events)
    assert run_out(driver, 4.0) is None
    move = run_out(driver, 1.0)
    assert move is not None and move.seat == 0 and str(move.action) == "timeout play R5"


def test_the_rest_of_a_turn_lost_to_the_clock_is_played_for_the_player():
    # Nothing plays on 5G: the time-out draws (as Medium would), then the stand-in plays on.
    m = make_match("colors", ["R1 B7 Y2 R9", "Y1 Y3 G5 B3"], "G4", "G9 B1 B2 B4 G6 G7 Y4 Y5 G8",
                   options={"turn_seconds": 5})
    driver = TurnDriver(m, {}, pace=Pace(random.Random(2), think_scale=0))
    driver.observe(m.start_events)
    move = run_out(driver, 5.0)
    assert move is not None and str(move.action) == "timeout draw"
    driver.observe(m.apply(move.action, 0))
    assert m.round.to_act == 0 and driver.plays_for(0) and driver.timer_left is None
    then = driver.advance(0.0)
    assert then is not None and then.seat == 0 and str(then.action) == "play G9"  # the card drawn plays
    driver.observe(m.apply(then.action, 0))
    assert m.round.to_act == 1 and not driver.plays_for(0)


def test_the_penalty_rules_still_give_a_penalty_when_time_runs_out():
    m = make_match("action", ["3H 9C 4D", "5S 6S 2C"], "7H", "KD QD JD TD", options={"turn_seconds": 1})
    driver = TurnDriver(m, {}, pace=Pace(random.Random(3)))
    move = run_out(driver, 1.0)
    assert move is not None and move.action == TimeOut()


# ---- the turn driver: the autopilot ----------------------------------------------------------
def two_humans_timed():
    m = make_match("colors", ["R1 B7 Y2 R9 G1", "Y1 Y3 G5 B3 B9"], "R4", "G9 B1 B2 B4 G6 G7 Y4 Y5 G8 R2",
                   options={"turn_seconds": 5})
    driver = TurnDriver(m, {}, pace=Pace(random.Random(4), think_scale=0))
    driver.observe(m.start_events)
    return m, driver


def lose_turn(m, driver):
    """Let the clock of the seat to act run out, and play that turn out."""
    seat = m.round.to_act
    move = driver.advance(6.0)
    assert move is not None and isinstance(move.action, TimeOut)
    driver.observe(m.apply(move.action, move.seat))
    while m.round.to_act == seat and driver.plays_for(seat):
        move = driver.advance(0.0)
        assert move is not None
        driver.observe(m.apply(move.action, move.seat))


def play_own_turn(m, driver):
    seat = m.round.to_act
    action = m.legal_actions(seat)[0]
    driver.observe(m.apply(action, seat))
    driver.person_acted(seat)
    while m.round.to_act == seat:
        action = m.legal_actions(seat)[0]
        driver.observe(m.apply(action, seat))


def test_two_turns_in_a_row_lost_to_the_clock_put_that_person_on_the_autopilot():
    m, driver = two_humans_timed()
    lose_turn(m, driver)  # seat 0
    assert not driver.on_autopilot(0) and driver.take_switched_on() == []
    lose_turn(m, driver)  # seat 1
    lose_turn(m, driver)  # seat 0 again: two in a row
    assert AUTOPILOT_AFTER == 2
    assert driver.on_autopilot(0) and not driver.on_autopilot(1)
    assert driver.take_switched_on() == [0] and driver.take_switched_on() == []
    assert list(driver.autopilot.lost_in_a_row) == [2, 1]


def test_a_turn_played_in_between_starts_the_count_again():
    m, driver = two_humans_timed()
    lose_turn(m, driver)  # seat 0
    lose_turn(m, driver)  # seat 1
    play_own_turn(m, driver)  # seat 0 plays
    lose_turn(m, driver)  # seat 1: two in a row
    lose_turn(m, driver)  # seat 0: one
    assert not driver.on_autopilot(0) and driver.on_autopilot(1)


def test_on_the_autopilot_the_stand_in_plays_without_a_clock_until_the_person_acts():
    m, driver = two_humans_timed()
    driver.set_autopilot(0, True)
    assert driver.timer_left is None and driver.plays_for(0)
    move = driver.advance(0.0)
    assert move is not None and move.seat == 0 and not isinstance(move.action, TimeOut)
    assert move.action == Medium().choose(m.view(0), random.Random(0))
    driver.person_acted(0)
    assert not driver.on_autopilot(0) and driver.advance(0.0) is None
    assert driver.timer_left == 5.0


def test_only_a_persons_seat_has_an_autopilot():
    m = bluff_position()
    driver = TurnDriver(m, {1: Computer("medium", Medium())})
    with pytest.raises(ValueError):
        driver.set_autopilot(1, True)


# ---- the controller and the save ----------------------------------------------------------------
def test_a_persons_action_takes_back_control_even_when_the_rules_refuse_it():
    m = bluff_position()
    c = MatchController(m, [SeatConfig("human"), SeatConfig("computer")], rng=random.Random(5), speed=0)
    c.set_autopilot(0, True)
    assert c.autopilot(0) and c.plays_for(0)
    c.submit(parse_action("play B7"), 0)  # does not follow red: refused
    c.update(1 / 60)
    assert c.error is not None and not c.autopilot(0)


def test_the_autopilot_is_kept_in_the_save_and_older_saves_have_it_off():
    m, _ = two_humans_timed()
    c = MatchController(m, [SeatConfig("human"), SeatConfig("human")], rng=random.Random(6), speed=0)
    c.set_autopilot(1, True)
    c.driver._lost_in_a_row[0] = 1
    table = decode_game(encode_game(c.to_save()))
    resumed = MatchController.from_save(table, speed=0)
    assert resumed.autopilot(1) and not resumed.autopilot(0)
    assert list(resumed.driver.autopilot.lost_in_a_row) == [1, 0]
    older = table_to_plain(c.to_save())
    del older["autopilot"]  # a format-2 save written before the autopilot
    from game.saves.games import table_from_plain

    table = table_from_plain(older)
    assert table.autopilot is None
    resumed = MatchController.from_save(table, speed=0)
    assert not resumed.autopilot(0) and not resumed.autopilot(1)


def test_a_save_that_puts_a_computer_on_the_autopilot_is_refused():
    from game.saves import SaveError
    from game.saves.games import table_from_plain

    m = bluff_position()
    c = MatchController(m, [SeatConfig("human"), SeatConfig("computer")], rng=random.Random(7), speed=0)
    plain = table_to_plain(c.to_save())
    plain["autopilot"] = {"on": [1], "lost_in_a_row": [0, 0], "lost_turn": None}
    with pytest.raises(SaveError):
        table_from_plain(plain)
    plain["autopilot"] = {"on": "all"}
    with pytest.raises(SaveError):
        table_from_plain(plain)


# ---- the room server -----------------------------------------------------------------------------
def bluffing_server_seed() -> int:
    """A `random.Random` seed for the server whose first room (colors, 2 people) deals the seat to
    act a hand where the old time-out rule plays a Wild +4 while the seat holds the colour in force,
    and Medium's choice is another card, whatever its tie-breaking draws."""
    from game.engine import Match, preset

    rules = preset("colors", {"turn_seconds": 5})
    for k in range(2000):
        match = Match(rules, 2, random.Random(k).randrange(1 << 62))
        r = match.round
        seat = r.to_act
        if r.phase.value != "play" or seat is None:
            continue
        old = auto_action(turn_actions(r), r.phase, r._best_suit(seat))
        if not (isinstance(old, Play) and old.card.code == "W+4"):
            continue
        if not any(c.suit == r.suit for c in r.hands[seat]):
            continue
        choices = {Medium().choose(match.view(seat), random.Random(i)) for i in range(30)}
        if len(choices) == 1 and choices != {old}:
            return k
    raise AssertionError("no such deal in the first 2000 seeds")


def test_the_server_plays_mediums_move_when_a_players_time_runs_out(tmp_path):
    k = bluffing_server_seed()
    clock = ManualClock()
    server = start_server(tmp_path / "rooms.sqlite3", clock=clock, rng=random.Random(k))
    try:
        ana, ben = Peer(server.port), Peer(server.port)
        ana.create("colors", [HUMAN, HUMAN], options={"turn_seconds": 5})
        ben.join(ana.room_id)
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        slow = ana if ana.view["to_act"] == ana.seat else ben
        hand = list(slow.view["hand"])
        assert "W+4" in hand
        clock.advance(5.0)
        update = slow.until(lambda m: m["type"] == "update" and any(e["type"] == "TimedOut"
                                                                    for e in m["events"]), timeout=5)
        played = [e["card"] for e in update["events"] if e["type"] == "CardPlayed"]
        assert played and played[0] != "W+4"  # not the bluff the engine's own rule would make
        assert played[0] in hand and update["autopilot"] is False
    finally:
        server.stop()


def test_the_server_puts_a_player_on_the_autopilot_and_an_action_takes_it_back(tmp_path):
    clock = ManualClock()
    server = start_server(tmp_path / "rooms.sqlite3", clock=clock)
    try:
        ana, ben = Peer(server.port), Peer(server.port)
        ana.create("classic", [HUMAN, HUMAN])
        ben.join(ana.room_id)
        ana.until(lambda m: m["type"] == "update")
        ben.until(lambda m: m["type"] == "update")
        mover = ana if ana.view["to_act"] == ana.seat else ben
        mover.send(type="autopilot", on="yes", ref="bad")
        assert mover.until(lambda m: m.get("ref") == "bad")["code"] == "bad_message"
        mover.send(type="autopilot", on=True, ref="on")
        reply = mover.until(lambda m: m.get("ref") == "on")
        assert reply["type"] == "update" and reply["autopilot"] is True
        # The server plays for them (think_scale 0: at once), so the turn passes by itself.
        moved = mover.until(lambda m: m["type"] == "update" and m["view"]["to_act"] != mover.seat, timeout=5)
        assert moved["autopilot"] is True
        mover.send(type="autopilot", on=False, ref="off")
        assert mover.until(lambda m: m.get("ref") == "off")["autopilot"] is False
        # On again; an action of theirs (any, even one the rules refuse) gives them control back.
        mover.send(type="autopilot", on=True, ref="again")
        assert mover.until(lambda m: m.get("ref") == "again")["autopilot"] is True
        mover.send(type="action", action="play ZZ")  # not even a card
        mover.send(type="action", action="denounce 0", ref="refused")
        assert mover.until(lambda m: m.get("ref") == "refused")["code"] == "illegal"
        mover.send(type="ping", ref="p")
        mover.until(lambda m: m.get("ref") == "p")
        driver = server.server.rooms[ana.room_id].driver
        assert driver is not None and not driver.on_autopilot(mover.seat)
    finally:
        server.stop()


def test_the_autopilot_travels_from_the_driver_to_the_save_and_back_as_one_value():
    from game.engine.autopilot import Autopilot
    from game.saves.games import table_from_plain

    m, _ = two_humans_timed()
    c = MatchController(m, [SeatConfig("human"), SeatConfig("human")], rng=random.Random(8), speed=0)
    c.set_autopilot(0, True)
    given = c.driver.autopilot
    assert given == Autopilot(on=(0,), lost_in_a_row=(0, 0), lost_turn=None)
    plain = table_to_plain(c.to_save())
    assert plain["autopilot"] == {"on": [0], "lost_in_a_row": [0, 0], "lost_turn": None}
    assert table_from_plain(plain).autopilot == given


def test_asking_for_the_autopilot_as_it_already_is_stores_nothing(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    server = start_server(db)
    try:
        ana, ben = Peer(server.port, 1), Peer(server.port, 2)
        ana.create("duel", [{"kind": "human"}, {"kind": "human"}], name="Ana")
        ben.join(ana.room_id, name="Ben")
        ana.until(lambda m: m["type"] == "update")
        room = server.server.service.rooms[ana.room_id]
        before = room.log_length
        for i in range(50):  # "off" while it is off: a flood that must not grow the stored log
            ana.send(type="autopilot", on=False, ref=f"p{i}")
        ana.until(lambda m: m.get("ref") == "p49")
        assert room.log_length == before
        ana.send(type="autopilot", on=True, ref="on")
        ana.until(lambda m: m.get("ref") == "on")
        assert room.log_length > before  # a real change is stored (another instance may run the room)
        ana.close(), ben.close()
    finally:
        server.stop()


class _Fixed(random.Random):
    """A generator whose every draw is 0.5: the driver's choices then use a known seed."""

    def random(self) -> float:
        return 0.5


@pytest.mark.parametrize("preset", ["points", "colors", "action"])  # points: several deals
def test_a_stand_in_told_late_knows_and_chooses_as_one_told_the_round_as_it_came(preset):
    """The stand-ins are told a round's events only once one is needed (`TurnDriver.stand_in`), and
    never those of the rounds before: it knows and plays as a Medium told that round from its deal."""
    from game.engine import PRESETS, Match, Status

    rules = PRESETS[preset]
    for seed in range(12):
        match = Match(rules, 4, seed)
        driver = TurnDriver(match, {}, pace=Pace(_Fixed(), think_scale=0))
        eager: list[Medium] = []

        def seen(events, driver=driver, eager=eager, match=match, dealt=False):
            driver.observe(events)
            if dealt:
                eager[:] = [Medium() for _ in range(4)]
            for seat, player in enumerate(eager):
                for event in events:
                    player.observe(seat, event.for_seat(seat), match.rules, match.players)
        seen(match.start_events, dealt=True)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 400)):
            if match.status == Status.ROUND_OVER:
                seen(match.next_round(), dealt=True)
            elif match.status != Status.PLAYING:
                break
            else:
                seen(match.apply(rng.choice(match.legal_actions())))
        if match.status != Status.PLAYING:
            continue
        seat = match.to_act
        for one in range(4):
            assert pickle.dumps(driver.stand_in(one).knowledge) == pickle.dumps(eager[one].knowledge)
        driver.set_autopilot(seat, True)
        move = driver.advance(0.0)
        assert move is not None and move.seat == seat
        assert move.action == eager[seat].choose(match.view(seat), random.Random(0.5)), (preset, seed)
