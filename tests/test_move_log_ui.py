"""The move log: what the computers did, even at the instant speed, and the whole round on a tap."""

from __future__ import annotations

import random

import pygame

from game.ai import player_for
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import set_language
from game.client.move_log import MoveLog
from game.client.scenes.table import TableScene
from game.engine import Match, Status, preset
from game.engine.cards import SUIT_SYMBOLS
from tests.client_support import click, make_app, press, run_until, tap, top_name
from tests.support import act, make_match

NAMES = ["You", "Computer 2", "Computer 3", "Computer 4"]


def start_table(app, match, seats) -> TableScene:
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.frame(1 / 60)
    return table


def test_the_log_says_what_a_computer_did_at_the_instant_speed(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KH QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer", "medium")])
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # plays 3♥; the computer draws the K♥ and plays it at once
    assert run_until(app, lambda: table.view.to_act == 0, 300)
    assert table.move_lines()[-3:] == ["You played 3♥", "Computer 2 drew 1 card", "Computer 2 played K♥"]
    shown = table.moves.lines(table.names(), last=3)
    assert shown == table.move_lines()[-3:]  # what the corner of the table shows


def test_drawn_cards_are_never_named_not_even_your_own(app):
    match = make_match("classic", ["3C 9C", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_d)
    assert table.move_lines()[-1] == "You drew 1 card"
    assert "KD" in [c.code for c in table.view.hand]


def test_a_whole_round_logs_every_draw_as_a_count_only():
    log = MoveLog()
    match = Match(preset("points", {"twos_draw_two": True, "jacks_skip": True, "aces_reverse": True}), 4, 3)
    log.observe(e.for_seat(0) for e in match.start_events)
    medium, rng = player_for("medium"), random.Random(3)
    while match.status == Status.PLAYING:
        seat = match.to_act
        log.observe(e.for_seat(0) for e in match.apply(medium.choose(match.view(seat), rng), seat))
    lines = log.lines(NAMES)
    drew = [line for line in lines if " drew " in line]
    assert drew and all(not any(symbol in line for symbol in SUIT_SYMBOLS.values()) for line in drew)
    assert any(line.endswith("won the round") for line in lines) or match.round.result.tie
    kinds = {move.kind for move in log.moves}
    assert {"played", "drew"} <= kinds


def test_the_suit_named_after_an_eight_is_in_the_same_line(app):
    match = make_match("classic", ["8C 4H", "5S 6S"], "7H", "KD QD JD TD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # plays the eight: the suit picker opens
    assert top_name(app) == "SuitPickerScene"
    press(app, pygame.K_s)
    assert "You played 8♣, named ♠ Spades" in table.move_lines()


def test_colour_cards_and_colours_are_named_in_words():
    log = MoveLog()
    match = make_match("colors", ["W Rskip G3", "Y5 Y6 B2", "R7 B8 B9"], "R3", "G1 G2 G4 G5 G6 G7",
                       options={"counter_clockwise": False})  # seat 0's Skip passes over seat 1
    log.observe(act(match, "play Rskip", "2: play R7"))
    log.observe(act(match, "play W", "suit G"))
    assert log.lines(NAMES, you=0) == ["You played Red Skip", "Computer 2 is skipped",
                                       "Computer 3 played Red 7", "You played Wild, named Green"]
    try:
        set_language("fr")
        assert log.lines(["Vous", "Ordi 2", "Ordi 3"], you=0)[-1] == "Vous avez joué Joker, annonce Vert"
        assert log.lines(["Ana", "Ordi 2", "Ordi 3"])[:2] == ["Ana a joué Passer rouge",
                                                            "Ordi 2 saute son tour"]
    finally:
        set_language("en")


def test_in_colours_the_log_follows_play_counter_clockwise():
    log = MoveLog()
    match = make_match("colors", ["Rskip G3", "R5 B2", "R7 B8"], "R3", "G1 G2 G4 G5 G6 G7")
    log.observe(match.start_events)
    log.observe(act(match, "play Rskip", "1: play R5"))
    # From seat 0 play goes to the seat on its right, the last one: it is skipped, then seat 1 plays.
    assert log.lines(NAMES, you=0) == ["Starting card: Red 3", "You played Red Skip", "Computer 3 is skipped",
                                       "Computer 2 played Red 5"]


def test_a_tap_on_the_log_opens_every_move_of_the_round_and_a_tap_closes_it(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KH QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert run_until(app, lambda: table.view.to_act == 0, 300)
    tap(app, pygame.Rect(table.layout.log).center)
    assert top_name(app) == "MovesScene"
    assert app.stack.top.lines() == table.move_lines()
    tap(app, (10, 10))
    assert top_name(app) == "TableScene"
    press(app, pygame.K_m)
    assert top_name(app) == "MovesScene"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableScene"


def test_a_long_log_scrolls_by_wheel_keys_and_drag_and_opens_on_the_newest():
    app = make_app((1024, 600))
    try:
        match = Match(preset("points"), 7, 11)
        seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * 6
        table = start_table(app, match, seats)
        medium, rng = player_for("medium"), random.Random(5)
        while len(table.moves.moves) < 60 and match.status == Status.PLAYING:  # a long round
            seat = match.to_act
            events = match.apply(medium.choose(match.view(seat), rng), seat)
            table.moves.observe(e.for_seat(0) for e in events)
        press(app, pygame.K_m)
        moves = app.stack.top
        assert top_name(app) == "MovesScene" and len(moves.lines()) > moves.rows
        assert moves.top_line == moves.last_top > 0  # the newest moves are shown first
        press(app, pygame.K_UP)
        assert moves.top_line == moves.last_top - 1
        press(app, pygame.K_HOME)
        assert moves.top_line == 0
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0,
                                             precise_y=-1.0, touch=False, which=0))
        app.frame(1 / 60)
        assert moves.top_line == 3
        centre = moves.list_box.center
        up = (centre[0], centre[1] - 4 * moves.step)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=up, rel=(0, 0), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=1))
        app.frame(1 / 60)
        assert top_name(app) == "MovesScene" and moves.top_line == 7  # a drag scrolls, it does not close
        click(app, centre)
        assert top_name(app) != "MovesScene"  # the table (or its result, if that round is over)
    finally:
        pygame.display.quit()


def test_undo_takes_the_undone_moves_out_of_the_log(app):
    match = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    before = table.move_lines()
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # plays 3♥, the computer answers
    assert run_until(app, lambda: table.view.to_act == 0, 300)
    assert len(table.move_lines()) > len(before)
    press(app, pygame.K_u)
    assert table.move_lines() == before


def test_a_new_deal_starts_a_new_log():
    log = MoveLog()
    match = make_match("points", ["3H 4H", "5S 6S"], "7H", "KD QD JD TD 9D 8D 2C 3C 4C 5C 6C 7C")
    log.observe(act(match, "play 3H", "draw"))
    assert log.moves
    from game.engine.events import RoundStarted

    log.observe([RoundStarted(2, 1, 0, 1, 7)])
    assert log.moves == []
