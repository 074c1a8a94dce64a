"""The autopilot on the table, through real pygame events: the toggle (tap, click, the O key),
taking back control by playing, the turn timer switching it on after two lost turns (and the
table saying so), hot-seat people each with their own, and the time-out's move being Medium's."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import i18n
from game.client.controller import MatchController, SeatConfig
from game.client.scenes.table import TableScene
from game.engine import Match, parse_action
from tests.client_support import STEP, click, make_app, press, run_until, tap, top_name
from tests.support import make_match


@pytest.fixture
def app():
    application = make_app()
    yield application
    pygame.display.quit()


def start_table(app, match: Match, seats: list[SeatConfig]) -> TableScene:
    controller = MatchController(match, seats, rng=random.Random(1), speed=0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    return table


def solo_colors(turn_seconds: int = 0) -> Match:
    options = {"turn_seconds": turn_seconds} if turn_seconds else {}
    return make_match("colors", ["R1 B7 Y2 R9 G1 B5", "Y1 Y3 G5 B3 B9 G3"], "R4",
                      "G9 B1 B2 B4 G6 G7 Y4 Y5 G8 R2 R3 R5 R6 R7 R8 B6", options=options)


def toggle_rect(table: TableScene) -> pygame.Rect:
    assert table.autopilot_button is not None
    return table.autopilot_button.rect


def moves_of(table: TableScene, seat: int) -> int:
    """How many actions ``seat`` has made in the match so far."""
    return sum(1 for who, _ in table.controller.match.log if who == seat)


def test_the_toggle_lets_the_computer_play_your_turns_until_you_tap_it_again(app):
    table = start_table(app, solo_colors(), [SeatConfig("human"), SeatConfig("computer")])
    assert table.autopilot_button is not None and table.autopilot_button.label == "Autopilot: off"
    for _ in range(120):
        app.frame(STEP)
    assert moves_of(table, 0) == 0  # without it, the table waits for you
    tap(app, toggle_rect(table).center)
    assert table.controller.autopilot(0) and table.autopilot_button.label == "Autopilot: on"
    assert run_until(app, lambda: moves_of(table, 0) >= 3, frames=3000)  # it plays turn after turn
    click(app, toggle_rect(table).center)  # the mouse works too
    assert not table.controller.autopilot(0) and table.autopilot_button.label == "Autopilot: off"
    run_until(app, lambda: table.view.to_act == 0, frames=3000)
    before = moves_of(table, 0)
    for _ in range(200):  # longer than the toast saying it is off
        app.frame(STEP)
    assert moves_of(table, 0) == before and table.message() == "Your turn"


def test_the_table_says_the_autopilot_plays_for_you_while_it_thinks(app):
    table = start_table(app, solo_colors(), [SeatConfig("human"), SeatConfig("computer")])
    table.controller.speed = 1.0  # a computer's think delay: long enough to read the table
    press(app, pygame.K_o)
    assert table.view.to_act == 0 and table.controller.thinking == 0
    table.toast_left = 0
    assert table.message() == "The autopilot plays for you: press O or make a move to take over."
    assert table.controller.timer_left is None


def test_the_o_key_turns_the_autopilot_on_and_any_move_of_yours_takes_back_control(app):
    table = start_table(app, solo_colors(), [SeatConfig("human"), SeatConfig("computer")])
    press(app, pygame.K_o)
    assert table.controller.autopilot(0)
    assert "Autopilot on" in table.toast
    press(app, pygame.K_o)
    assert not table.controller.autopilot(0)
    press(app, pygame.K_o)
    assert table.controller.autopilot(0)
    run_until(app, lambda: table.view.to_act == 0 and table.controller.thinking is None, frames=3000)
    press(app, pygame.K_d)  # a move of yours (here a draw) is yours, and so is control
    assert not table.controller.autopilot(0)


def test_two_turns_lost_to_the_timer_switch_the_autopilot_on_and_the_table_says_so(app):
    table = start_table(app, solo_colors(turn_seconds=5), [SeatConfig("human"), SeatConfig("computer")])
    for lost in (1, 2):
        run_until(app, lambda: table.view.to_act == 0 and table.controller.timer_left is not None)
        assert not table.controller.autopilot(0)
        app.frame(9.0, rested=9.0)  # the whole turn goes by without a move (and more: a long rest)
        for _ in range(4):
            app.frame(STEP)
        events = [e for e in table.controller.history if type(e).__name__ == "TimedOut"]
        assert len(events) == lost
    assert table.controller.autopilot(0)
    assert table.toast.startswith("Time ran out twice in a row: the autopilot plays for you now")
    assert table.message() == table.toast
    assert table.autopilot_button is not None and table.autopilot_button.label == "Autopilot: on"
    assert table.autopilot_button.hot  # lit while it plays for you


def test_when_time_runs_out_the_table_plays_mediums_move_not_a_bluff(app):
    match = make_match("colors", ["W+4 R5 B7 G2", "Y1 Y2 G5 B3"], "R3", "B1 B2 B4 G6 G7 Y4 Y5 G8",
                       options={"turn_seconds": 5})
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    app.frame(5.0, rested=5.0)
    for _ in range(4):
        app.frame(STEP)
    assert (0, "timeout play R5") in table.controller.match.log  # the engine's own rule played W+4
    assert "W+4" in [c.code for c in table.controller.match.round.hands[0]]


def take_device(app, table: TableScene) -> None:
    """Tap the hand-off cover, if it is up."""
    if top_name(app) == "HandoffScene":
        app.frame(0.5, rested=0.5)  # past the cover's grace
        tap(app, (app.size[0] // 2, app.size[1] // 2))
    assert top_name(app) == "TableScene"


def play_a_card(app, table: TableScene) -> None:
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # the first playable card


def test_hot_seat_people_each_have_their_own_autopilot_and_the_device_need_not_pass(app):
    # Only hearts and no eight: every turn has a heart to play.
    match = make_match("classic", ["3H 9H 4H 2H AH", "5H 6H TH JH QH"], "7H",
                       "KD QD JD TD 2C 3C 4C 5D 6D 9D KH")
    table = start_table(app, match, [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")])
    controller = table.controller
    take_device(app, table)
    assert table.view.seat == 0
    play_a_card(app, table)  # Ana plays; the device goes to Ben
    assert run_until(app, lambda: top_name(app) == "HandoffScene", frames=600)
    take_device(app, table)
    assert table.view.seat == 1
    press(app, pygame.K_o)  # Ben leaves his turns to the autopilot
    assert controller.autopilot(1) and not controller.autopilot(0)
    assert run_until(app, lambda: top_name(app) == "HandoffScene", frames=600)  # to Ana, after his turn
    take_device(app, table)
    assert table.view.seat == 0 and table.autopilot_button.label == "Autopilot: off"  # Ana's own
    ben = moves_of(table, 1)
    play_a_card(app, table)
    # Ben's turn is played without the device changing hands.
    assert run_until(app, lambda: moves_of(table, 1) > ben and table.view.to_act == 0, frames=600)
    assert top_name(app) == "TableScene" and table.view.seat == 0
    press(app, pygame.K_ESCAPE)
    pause = app.stack.top
    labels = [b.label for b in pause.buttons]
    assert "Ben: autopilot on" in labels and not any(label.startswith("Ana") for label in labels)
    pause.focus = labels.index("Ben: autopilot on")
    press(app, pygame.K_LEFT)  # ← → change a value, as on every menu
    assert not controller.autopilot(1) and "Ben: autopilot off" in [b.label for b in pause.buttons]
    press(app, pygame.K_ESCAPE)
    play_a_card(app, table)  # Ana plays, and Ben is asked for the device again
    assert run_until(app, lambda: top_name(app) == "HandoffScene", frames=600)
    assert app.stack.top.seat == 1


def test_the_autopilot_is_shown_in_french(app):
    i18n.set_language("fr")
    try:
        table = start_table(app, solo_colors(), [SeatConfig("human"), SeatConfig("computer")])
        assert table.autopilot_button is not None and table.autopilot_button.label == "Mode auto : non"
        press(app, pygame.K_o)
        assert table.autopilot_button.label == "Mode auto : oui"
    finally:
        i18n.set_language("en")


def test_online_the_servers_autopilot_shows_on_the_table_and_the_toggle_asks_the_server(app):
    from game.client.remote import RemoteController
    from game.net.wire import event_to_json, view_to_json
    from tests.test_table_contract import ScriptedRoom

    match = make_match("colors", ["W+4 R5 B7 G2", "Y1 Y2 G5 B3"], "R3", "B1 B2 B4 G6 G7 Y4 Y5 G8",
                       options={"turn_seconds": 5})
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    assert table.autopilot_button is not None and table.autopilot_button.label == "Autopilot: off"
    press(app, pygame.K_o)
    assert {"type": "autopilot", "on": True} in room.sent and controller.autopilot(0)
    press(app, pygame.K_o)
    assert room.sent[-1] == {"type": "autopilot", "on": False} and not controller.autopilot(0)
    # The server's clock ran out twice: its update plays Medium's move and says the autopilot is on.
    events = match.apply(parse_action("timeout play R5"), 0)
    events += match.apply(parse_action("draw"), 1) + match.apply(parse_action("pass"), 1)  # Ben: none plays
    room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                       "events": [event_to_json(e.for_seat(0)) for e in events], "timer": None,
                       "autopilot": True})
    for _ in range(3):
        app.frame(STEP)
    assert controller.autopilot(0) and table.autopilot_button.label == "Autopilot: on"
    assert table.toast.startswith("Time ran out twice in a row")
    press(app, pygame.K_d)  # a move of yours: the server is told, and the toggle is off at once
    assert room.sent[-1] == {"type": "action", "action": "draw"} and not controller.autopilot(0)
