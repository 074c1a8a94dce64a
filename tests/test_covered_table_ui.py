"""Whatever covers an online table lets the game go on underneath (`overlay.CoversTable`): the move
log, the pause menu and what it opens (Settings, the rules in play), the leave-ranked question, the
reactions. A local game waits under the same screens."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client.controller import MatchController, SeatConfig
from game.client.scenes.table import TableScene
from game.engine import Draw
from tests.client_support import STEP, close_online_app, make_app, press, run_until, tap, top_name
from tests.support import make_match
from tests.test_stakes_ui import StakesRoom, table_for


@pytest.fixture
def app():
    application = make_app((1024, 600), player_name="Ana")
    yield application
    close_online_app(application)


def ben_draws(room: StakesRoom) -> None:
    """Ben (seat 1, a person at another device) draws: the server sends the update."""
    room._update(room.match.apply(Draw(), 1))
    room._room_status()


def online_table_at_bens_turn(app) -> tuple[TableScene, StakesRoom]:
    room = StakesRoom(make_match("duel", ["3H 9C", "5S 9D"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table, controller = table_for(app, room)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # Ana plays the 3♥: Ben's turn
    assert run_until(app, lambda: table.view.to_act == 1 and not table.animator.busy, 300)
    return table, room


def test_the_move_log_over_an_online_table_grows_as_the_others_play(app):
    table, room = online_table_at_bens_turn(app)
    press(app, pygame.K_m)
    assert top_name(app) == "MovesScene"
    log = app.stack.top
    before = list(log.lines())
    ben_draws(room)
    assert run_until(app, lambda: len(log.lines()) > len(before), 300), "the table runs under the log"
    assert top_name(app) == "MovesScene"
    assert log.lines() == [*before, "Ben #3F2 drew 1 card"]


def test_the_move_log_is_drawn_again_by_itself_when_the_game_goes_on_under_it(app):
    table, room = online_table_at_bens_turn(app)
    tap(app, pygame.Rect(table.layout.log).center)
    assert top_name(app) == "MovesScene"
    for _ in range(5):
        app.frame(STEP, lazy=True)
    before, lines = app.draws, len(table.move_lines())
    ben_draws(room)
    for _ in range(int(1 / STEP)):  # no input: the move comes from the server alone
        app.frame(STEP, lazy=True)
    assert app.draws > before and len(table.move_lines()) == lines + 1


def test_the_countdown_ticks_under_settings_and_the_rules_opened_from_the_online_pause(app):
    table, room = online_table_at_bens_turn(app)
    room.takeover = [{"seat": 1, "left": 252.0}]
    room.tell()
    assert run_until(app, lambda: "4:12" in table.message(), 30)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    for label, scene in (("Settings", "SettingsScene"), ("Rules", "RulesInPlayScene")):
        pause = app.stack.top
        button = next(b for b in pause.buttons if b.label == label)
        tap(app, button.rect.center)
        assert top_name(app) == scene
        shown = table.message()
        for _ in range(int(2.5 / STEP)):
            app.frame(STEP, lazy=True)
        assert table.message() != shown, f"the countdown ticks under {scene}"
        press(app, pygame.K_ESCAPE)
        assert top_name(app) == "PauseScene"
    lines = len(table.move_lines())
    ben_draws(room)
    assert run_until(app, lambda: len(table.move_lines()) == lines + 1, 300), "and Ben's move is taken in"


def test_a_local_game_waits_under_the_move_log(app):
    match = make_match("classic", ["3H 9C", "5S 6S"], "7H", "KH QD JD")
    controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer")], rng=random.Random(1),
                                 speed=1.0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # the 3♥: the computer's turn
    press(app, pygame.K_m)
    assert top_name(app) == "MovesScene"
    for _ in range(int(5 / STEP)):
        app.frame(STEP)
    assert table.view.to_act == 1, "the computer waits while the log is open"
