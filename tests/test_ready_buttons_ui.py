"""At the end of a same-device deal each person's button says what it does."""

from __future__ import annotations

import pygame

from game.client.i18n import set_language
from game.client.intents import Ready
from tests.client_support import click, press, run_until, top_name
from tests.support import make_match
from tests.test_client_ui import SeatConfig, start_table

NAMES = ["Léa", "Tom", "Ana", "Ben", "Zoé", "Max", "Eva"]


def finish_deal(app, people: int = 2):
    """Léa plays her one card: the deal is over (a Points game goes on to its target)."""
    hands = ["3H", "5S", "9C", "2D", "4C", "6D", "TS"][:max(3, people)]
    match = make_match("points", hands, "7H", "KD QD JD")
    seats = [SeatConfig("human", name=n) for n in NAMES[:people]]
    seats += [SeatConfig("computer")] * (len(hands) - people)
    table = start_table(app, match, seats)
    if top_name(app) == "HandoffScene":
        press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # Léa plays her last card
    assert run_until(app, lambda: top_name(app) == "ResultScene", 300)
    return table


def test_each_persons_button_says_they_are_ready_for_the_next_round(app):
    finish_deal(app)
    result = app.stack.top
    labels = [b.label for b in result.buttons]
    assert labels[:2] == ["Léa: ready for the next round", "Tom: ready for the next round"]
    click(app, result.buttons[0].rect.center)
    assert [b.label for b in app.stack.top.buttons][0] == "✓ Léa: ready for the next round"
    tom = next(b for b in app.stack.top.buttons if b.intent == Ready(1))
    click(app, tom.rect.center)
    assert run_until(app, lambda: top_name(app) in ("TableScene", "HandoffScene"), 60)


def test_the_ready_buttons_speak_french_and_fit_seven_people(app):
    set_language("fr")
    finish_deal(app, people=7)
    labels = [b.label for b in app.stack.top.buttons]
    assert labels[0] == "Léa : passer à la manche suivante" and len(labels) == 9  # 7 Ready, Review, Menu
    w = app.size[0]
    assert all(b.rect.left >= 0 and b.rect.right <= w for b in app.stack.top.buttons)
