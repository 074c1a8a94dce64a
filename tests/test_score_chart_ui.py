"""The result's score chart at a seven-seat Points table: a colour per seat, the target line labelled,
and how far the leader is from the target."""

from __future__ import annotations

import pygame

from game.client import ui
from game.client.i18n import set_language
from game.client.score_chart import CHART_COLORS, TARGET_COLOR
from tests.client_support import press, run_until, top_name
from tests.support import make_match
from tests.test_client_ui import SeatConfig, start_table


def seven_seat_result(app):
    """You play your one card: the first deal of a seven-seat Points game is over."""
    match = make_match("points", ["3H", "5S", "9C", "2D", "4C", "6D", "TS"], "7H", "KD QD JD")
    start_table(app, match, [SeatConfig("human")] + [SeatConfig("computer")] * 6)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert run_until(app, lambda: top_name(app) == "ResultScene", 300)
    return match


def test_seven_seats_get_seven_colours_far_from_each_other_and_from_the_target():
    colours = [*CHART_COLORS, TARGET_COLOR]
    assert len(set(colours)) == 8
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:
            assert sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 > 60, (a, b)


def test_the_chart_names_the_target_and_the_leaders_distance_to_it(app):
    match = seven_seat_result(app)
    target, points = match.target, match.scores[0]
    assert points > 0 and target == 350
    with ui.recording() as found:
        app.draw()
    texts = [item.text for item in found]
    assert "Target 350" in texts
    assert f"Leader: You · {target - points} points to the target" in texts
    screen = app.screen
    names = ["You"] + [f"Computer {n}" for n in range(2, 8)]
    legends = {item.text: item.rect for item in found if item.text in names}
    assert len(legends) == 7
    shown = []
    for rect in legends.values():
        pixels = {tuple(screen.get_at((x, y)))[:3] for x in range(rect.left, rect.right)
                  for y in range(rect.top, rect.bottom)}
        shown.append(next(c for c in CHART_COLORS if c in pixels))
    assert len(set(shown)) == 7  # every legend in a colour of its own


def test_the_distance_to_the_target_in_french(app):
    set_language("fr")
    match = seven_seat_result(app)
    with ui.recording() as found:
        app.draw()
    texts = [item.text for item in found]
    assert "Objectif 350" in texts
    assert f"En tête : Vous · à {350 - match.scores[0]} points de l'objectif" in texts
