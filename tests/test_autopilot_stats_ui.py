"""Wins the autopilot played are kept apart in Statistics: not the player's wins, not in their streak.
Statistics files from before them still load."""

from __future__ import annotations

import json
import random

import pygame

from game.client import ui
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import set_language
from game.client.saving import watch
from game.client.scenes.table import TableScene
from game.saves import Statistics
from tests.client_support import open_menu, press, run_until, tap_label, top_name
from tests.support import make_match


def win_a_duel(app, *, autopilot: bool) -> None:
    """A duel you win with your one card: played by you (Enter), or by the autopilot (O)."""
    match = make_match("duel", ["3H", "5S"], "7H", "KD QD JD")
    controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer", "easy")],
                                 rng=random.Random(1), speed=0)
    watch(app, controller)
    app.start(TableScene(app, controller))
    app.frame(1 / 60)
    if autopilot:
        press(app, pygame.K_o)
    else:
        press(app, pygame.K_RETURN)
        press(app, pygame.K_RETURN)
    assert run_until(app, lambda: controller.match.status == "match_over", 600)
    app.frame(1 / 60)
    app.store.flush()


def test_a_win_the_autopilot_played_is_counted_apart_and_leaves_the_streak_alone(app):
    win_a_duel(app, autopilot=False)
    win_a_duel(app, autopilot=True)
    record = app.store.read_statistics().records["duel"]["easy"]
    assert (record.games, record.wins, record.autopilot_wins, record.losses) == (2, 1, 1, 0)
    assert (record.streak, record.best_streak) == (1, 1)
    app.settings.last_preset = "duel"
    open_menu(app)
    tap_label(app, "Statistics")
    assert top_name(app) == "StatisticsScene"
    with ui.recording() as found:
        app.draw()
    texts = [item.text for item in found]
    assert "Won by the autopilot" in texts and "Autopilot" in texts  # its column and its bar's key
    header = next(item for item in found if item.text == "Won by the autopilot")
    below = [item.text for item in found
             if item.rect.left == header.rect.left and item.rect.top > header.rect.top]
    assert below[0] == "1"


def test_the_autopilot_column_in_french(app):
    win_a_duel(app, autopilot=True)
    set_language("fr")
    app.settings.last_preset = "duel"
    open_menu(app)
    tap_label(app, "Statistiques")
    with ui.recording() as found:
        app.draw()
    assert "Gagnées en mode auto" in [item.text for item in found]


def test_statistics_from_before_the_autopilot_column_still_load(tmp_path):
    old = {"records": {"duel": {"easy": {"games": 3, "wins": 2, "ties": 0, "best": None, "streak": 2,
                                         "best_streak": 2}}}, "xp": 0, "xp_history": []}
    stats, dropped = Statistics.parse(json.loads(json.dumps(old)))
    record = stats.records["duel"]["easy"]
    assert dropped == [] and (record.wins, record.autopilot_wins, record.losses) == (2, 0, 1)
    again = Statistics.from_json(stats.to_json())
    assert again == stats and again.to_json()["records"]["duel"]["easy"]["autopilot_wins"] == 0


def test_autopilot_wins_that_do_not_add_up_are_dropped():
    raw = {"records": {"duel": {"easy": {"games": 1, "wins": 1, "ties": 0, "best": None, "streak": 1,
                                         "best_streak": 1, "autopilot_wins": 1}}}}
    assert Statistics.from_json(raw).records == {}
