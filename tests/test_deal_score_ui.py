"""The deal's score on the result screen, reached by real key presses: the points the deal gave
and each opponent's cards with their values (issue 31, seed 001 "il marque des points pour les
cartes", seed 003 "nous affichons un score"), in a Quick game and a Points game, in pairs, and in
French."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import ui
from game.client.app import App
from game.client.controller import MatchController, SeatConfig
from game.client.scenes.table import TableScene
from game.client.settings import Settings
from tests.client_support import STEP, make_app, press, run_until, top_name
from tests.support import make_match


def result_texts(app, match, seats) -> list[str]:
    """Seat 0 plays its one card by the keyboard (select, play); the texts of the result screen."""
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.stack.apply_requests()
    app.frame(STEP)
    press(app, pygame.K_RETURN)  # selects the card
    press(app, pygame.K_RETURN)  # plays it
    assert run_until(app, lambda: top_name(app) == "ResultScene", 200), top_name(app)
    app.frame(STEP)  # the result's first frame, with no further input
    with ui.recording() as found:
        app.frame(STEP)
        app.stack.top.draw(app.screen)
    return [item.text for item in found]


def solo(players: int) -> list[SeatConfig]:
    return [SeatConfig("human")] + [SeatConfig("computer", "easy")] * (players - 1)


@pytest.fixture
def app():
    app = make_app((1280, 800))
    yield app
    pygame.display.quit()


def test_a_quick_classic_game_shows_the_winners_points_and_each_opponents_cards(app):
    match = make_match("classic", ["7H", "8D", "3C"], "4H", "KS QS JS TS")
    assert match.target == 0
    texts = result_texts(app, match, solo(3))
    assert "Points for the round: You +53" in texts, texts
    assert "Computer 2: 8♦ 50 = 50" in texts and "Computer 3: 3♣ 3 = 3" in texts
    assert not [t for t in texts if t.startswith("You:")]  # the winner's own empty hand is not counted


def test_a_hand_of_several_cards_is_counted_card_by_card(app):
    match = make_match("classic", ["7H 9S", "8D KH", "3C AC"], "4H", "KS QS JS TS 2D 5D 6D 4D")
    match.round.hands[0] = [match.round.hands[0][0]]  # one card left to play: 7♥
    match.round._legal = None
    texts = result_texts(app, match, solo(3))
    assert "Points for the round: You +64" in texts, texts
    assert "Computer 2: 8♦ 50 + K♥ 10 = 60" in texts and "Computer 3: 3♣ 3 + A♣ 1 = 4" in texts


def test_a_points_game_shows_the_deals_counting_and_still_carries_the_points_over(app):
    match = make_match("points", ["7H", "8D", "3C"], "4H", "KS QS JS TS")
    texts = result_texts(app, match, solo(3))
    assert "Points for the round: You +53" in texts, texts
    assert "Computer 2: 8♦ 50 = 50" in texts
    assert "Value  ·  Points  ·  Total" in texts and match.scores[0] == 53


def test_colours_values_are_in_brackets_and_a_pair_counts_only_its_opponents(app):
    options = {"pairs": True, "target": 300}
    match = make_match("colors", ["R5", "W", "B9", "G+2"], "R3", "Y1 Y2 Y3 Y4", options=options)
    texts = result_texts(app, match, solo(4))
    assert "Points for the round: You & Computer 3 +70" in texts, texts  # the partners' points add up
    assert "Computer 2: Wild (50) = 50" in texts and "Computer 4: Green +2 (20) = 20" in texts
    assert not [t for t in texts if t.startswith("Computer 3:")]  # the partner's hand is not counted


def test_the_duel_counts_the_cards_left_and_says_it_keeps_no_score(app):
    match = make_match("duel", ["7H", "8D"], "4H", "KS QS JS TS")
    texts = result_texts(app, match, solo(2))
    assert "Value of the cards left (these rules keep no score)" in texts, texts
    assert "Computer 2: 8♦ 50 = 50" in texts


def test_the_counting_reads_in_french():
    app = App((1024, 600), settings=Settings(language="fr", speed="instant"), sound=False)
    try:
        match = make_match("action", ["7H", "8D", "XJ"], "4H", "KS QS JS TS")
        texts = result_texts(app, match, solo(3))
        assert "Points de la manche : Vous +7500" in texts, texts
        assert "Ordinateur 2 : 8♦ 5000 = 5000" in texts and "Ordinateur 3 : Joker 2500 = 2500" in texts
    finally:
        pygame.display.quit()


@pytest.mark.parametrize(("name", "hands", "options"), [
    ("classic", ["7H", "8D", "3C"], {}),
    ("colors", ["R5", "W", "B9", "G+2"], {"pairs": True, "target": 300}),
    ("points", ["7H", "8D", "3C"], {}),
])
def test_online_the_view_the_server_sends_carries_everything_the_counting_needs(name, hands, options):
    """The remote table draws the counting from the view it receives: the result's hands and the
    rules cross the wire, and the engine counts the same on both sides (no new field needed)."""
    import json

    from game.net.wire import view_from_json, view_to_json
    from tests.support import act

    match = make_match(name, hands, "R3" if name == "colors" else "4H", "Y1 Y2 Y3 Y4" if name == "colors"
                       else "KS QS JS TS", options=options)
    act(match, "play R5" if name == "colors" else "play 7H")
    for seat in range(len(hands)):
        sent = match.view(seat)
        received = view_from_json(json.loads(json.dumps(view_to_json(sent))))
        assert received.deal_score == sent.deal_score is not None
