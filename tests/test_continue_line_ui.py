"""The menu's Continue line of a table of many seats reads as a ranking, not a row of figures."""

from __future__ import annotations

import random

from game.client.controller import MatchController, SeatConfig
from game.client.i18n import set_language
from game.engine import PRESETS, Match
from tests.client_support import label_starting, open_menu, run_until, tap_label, top_name


def save_points_game(app, seats: list[SeatConfig], mode: str = "solo", deals: int = 0) -> Match:
    """A Points game of these seats saved after ``deals`` deals played by random legal moves."""
    match, rng = Match(PRESETS["points"], len(seats), 5), random.Random(2)
    for _ in range(deals):
        while match.status == "playing":
            match.apply(rng.choice(match.legal_actions()), match.to_act)
        match.next_round()
    app.store.games.write(mode, MatchController(match, seats, rng=random.Random(1)).to_save())
    app.store.flush()
    return match


def expected(scores, names) -> str:
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    shown = order[:3] + ([0] if 0 not in order[:3] else [])
    return " · ".join(f"{names[s]} {scores[s]}" for s in shown) + " · …"


SEVEN = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * 6


def test_a_seven_seat_game_just_dealt_says_everyone_is_level(app):
    save_points_game(app, SEVEN)
    open_menu(app)
    assert label_starting(app, "Continue: ") == "Continue: Points game, round 1, all 7 at 0"


def test_a_seven_seat_game_is_ranked_best_first_with_you_shown(app):
    match = save_points_game(app, SEVEN, deals=3)
    scores = list(match.scores)
    assert len(set(scores)) > 1
    open_menu(app)
    line = label_starting(app, "Continue: ")
    names = ["you"] + [f"Computer {n}" for n in range(2, 8)]
    assert line == f"Continue: Points game, round 4, {expected(scores, names)}"
    tap_label(app, line)
    assert run_until(app, lambda: top_name(app) == "TableScene", 30)


def test_a_same_device_ranking_uses_the_peoples_names_in_french(app):
    seats = [SeatConfig("human", name="Léa"), SeatConfig("human", name="Tom")] + [SeatConfig("computer")] * 3
    match = save_points_game(app, seats, mode="hotseat", deals=2)
    set_language("fr")
    open_menu(app)
    line = label_starting(app, "Continuer")
    names = ["Léa", "Tom"] + [f"Ordinateur {n}" for n in range(3, 6)]
    order = sorted(range(5), key=lambda s: (-match.scores[s], s))[:3]
    assert line.endswith(" · ".join(f"{names[s]} {match.scores[s]}" for s in order) + " · …"), line
