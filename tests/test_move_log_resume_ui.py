"""The move log outlives the table: Continue of a saved game and an undo rebuild it from the round so far."""

from __future__ import annotations

import pygame

from game.client.controller import MatchController, SeatConfig
from game.engine import PRESETS
from tests.client_support import make_app, press, run_until, top_name
from tests.test_saves_ui import activate, begin, open_menu, solo_seats, table


def play_turns(app, turns: int) -> None:
    """The person at the shown seat plays ``turns`` turns by keys: Enter picks the first playable card
    and Enter plays it, or draws; the suit picker takes its first suit; the computers play between."""
    for _ in range(turns):
        controller = table(app)
        if not run_until(app, lambda c=controller: c.match.status != "playing" or (
                c.seats[c.match.to_act].is_human and not c.queue
                and top_name(app) in ("TableScene", "HandoffScene")), 3000):
            return
        if top_name(app) == "HandoffScene":  # same device: the next person takes it
            press(app, pygame.K_RETURN)
        if controller.match.status != "playing":
            return
        turn = controller.match.round.turn_no
        for _ in range(4):
            press(app, pygame.K_RETURN)
            if top_name(app) == "HandoffScene":
                press(app, pygame.K_RETURN)
            if controller.match.round.turn_no != turn:
                break


def test_continue_shows_the_moves_of_the_round_played_before_quitting():
    first = make_app()
    begin(first, PRESETS["classic"], solo_seats("easy", "medium", "easy"), seed=7)
    play_turns(first, 5)
    controller = table(first)
    assert run_until(first, lambda: controller.seats[controller.match.to_act].is_human
                     and not controller.queue)
    before = first.stack.scenes[0].move_lines()
    assert len(before) >= 10
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window is closed: the game is saved
    first.frame(1 / 60)
    first.shutdown()
    pygame.display.quit()

    second = make_app()
    try:
        open_menu(second)
        activate(second, "Continue")
        assert run_until(second, lambda: top_name(second) == "TableScene", 30)
        assert second.stack.top.move_lines() == before
        press(second, pygame.K_m)  # the whole log, over the table
        assert top_name(second) == "MovesScene"
        assert second.stack.top.lines() == before
    finally:
        second.store.flush()
        pygame.display.quit()


def test_a_hot_seat_game_continued_keeps_its_log(app):
    begin(app, PRESETS["classic"], [SeatConfig("human"), SeatConfig("human")], seed=3)
    play_turns(app, 4)
    before = app.stack.scenes[0].move_lines()
    assert len(before) >= 3
    open_menu(app)
    activate(app, "Continue: Same device")
    assert run_until(app, lambda: top_name(app) == "HandoffScene", 30)
    assert app.stack.scenes[0].move_lines() == before


def test_undo_after_continue_takes_the_turn_out_of_the_log(app):
    begin(app, PRESETS["classic"], solo_seats("easy"), seed=11)
    play_turns(app, 3)
    open_menu(app)
    activate(app, "Continue")
    assert run_until(app, lambda: top_name(app) == "TableScene", 30)
    scene = app.stack.top
    controller = scene.controller
    assert isinstance(controller, MatchController)
    assert run_until(app, lambda: controller.match.to_act == 0 and not controller.queue)
    lines = scene.move_lines()
    turn = controller.match.round.turn_no
    play_turns(app, 1)
    assert run_until(app, lambda: controller.match.to_act == 0 and not controller.queue
                     and controller.match.round.turn_no > turn)
    assert len(scene.move_lines()) > len(lines)
    press(app, pygame.K_u)
    assert scene.move_lines() == lines
