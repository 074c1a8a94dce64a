"""The hint with one move only says so, rather than doing nothing."""

from __future__ import annotations

import pygame

from game.client.intents import TableCommand
from game.engine import Draw, Play
from tests.client_support import click, press
from tests.support import make_match
from tests.test_client_ui import SeatConfig, start_table


def test_the_hint_says_when_only_one_card_can_be_played_and_selects_it(app):
    match = make_match("classic", ["9C 3H", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    assert [a for a in table.view.legal if isinstance(a, Play)] == [Play(table.view.hand[1])]
    hint = next(b for b in table.buttons if b.intent is TableCommand.HINT)
    click(app, hint.rect.center)
    assert table.toast == "Only one card can be played: 3♥"
    assert table.selected == 1
    press(app, pygame.K_RETURN)  # Enter plays the card the hint selected
    assert "3H" in [c.code for c in table.controller.match.round.discard]


def test_the_hint_says_to_draw_when_no_card_can_be_played(app):
    match = make_match("classic", ["9C 3C", "5S 6S"], "7H", "KD QD JD")
    table = start_table(app, match, [SeatConfig("human"), SeatConfig("computer")])
    assert table.view.legal == (Draw(),)
    press(app, pygame.K_h)
    assert table.toast == "No card can be played: draw."
    assert table.message() == "No card can be played: draw."
    assert len(table.view.hand) == 2  # the hint itself never acts
