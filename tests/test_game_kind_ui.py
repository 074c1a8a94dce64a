"""Quick game or Points game, as a player meets them: chosen by name in the new-game form (real
taps), and running scores shown on the table, the result screen, the Continue line and in the
statistics only where they carry over (the deal's own points are on every result); in pairs, the
partners' points added up."""

from __future__ import annotations

import random
import re

import pygame

from game.client import ui
from game.client.i18n import tr
from game.client.scenes.newgame import NewGameScene
from tests.client_support import STEP, label_starting, labels, open_menu, tap_label, top_name

QUICK = "Quick game: first out wins"
POINTS = "Points game: to the target"


def open_form(app, preset_label: str) -> None:
    """The new-game form, its rules stepped by taps to ``preset_label`` ("Colours")."""
    app.start(NewGameScene(app))
    app.stack.apply_requests()
    app.frame(STEP)
    wanted = f"Rules: {preset_label}  ◂ ▸"
    for _ in range(6):
        if wanted in labels(app):
            return
        tap_label(app, label_starting(app, "Rules: "))
    raise AssertionError(f"no {wanted!r} in {labels(app)}")


def seat_to_computer(app, seat: int) -> None:
    """Tap a human seat until a computer sits there."""
    tap_label(app, f"Seat {seat}: Human  ◂ ▸")
    assert label_starting(app, f"Seat {seat}: ").startswith(f"Seat {seat}: Computer")


def set_players(app, players: int) -> None:
    for _ in range(8):
        if f"Players: {players}  ◂ ▸" in labels(app):
            return
        tap_label(app, label_starting(app, "Players: "))
    raise AssertionError(labels(app))


def start(app) -> None:
    """Start the game chosen (a starting Wild may ask the first player for a colour at once)."""
    tap_label(app, "Start")
    assert top_name(app) in ("TableScene", "SuitPickerScene"), top_name(app)


def drawn(app) -> list[str]:
    """Every text drawn in one frame of the top scene (and those under it that show)."""
    with ui.recording() as found:
        app.frame(STEP)
    return [item.text for item in found]


def controller(app):
    scene = app.stack.top
    return scene.controller if hasattr(scene, "controller") else scene.table.controller


def play_to_the_result(app, seed: int = 0) -> None:
    """Any human seat plays random legal actions until the round's result is shown."""
    chooser = random.Random(seed)
    for _ in range(3000):
        if top_name(app) == "ResultScene":
            app.frame(STEP)
            return
        c = controller(app)
        match = c.match
        if (match.status == "playing" and c.seats[match.to_act].is_human and not c.queue
                and top_name(app) in ("TableScene", "SuitPickerScene")):
            c.submit(chooser.choice(match.legal_actions()), match.to_act)
        app.frame(STEP)
    raise AssertionError(f"no result screen: {top_name(app)}")


# ---- the form ----------------------------------------------------------------------------------
def test_colours_offers_a_quick_game_and_a_points_game_by_name_with_the_target_under_the_choice(app):
    open_form(app, "Colours")
    assert QUICK in labels(app) and POINTS not in labels(app)
    options = labels(app)[labels(app).index(QUICK):]
    assert options[1] == "Target score: one round"  # the choice, then its target
    tap_label(app, QUICK)
    assert POINTS in labels(app) and QUICK not in labels(app)
    assert label_starting(app, "Target score: ") == "Target score: 500"
    tap_label(app, "Target score: 500")
    assert label_starting(app, "Target score: ") == "Target score: 1000"
    tap_label(app, "Target score: 1000")  # past the last target: one round, which is the Quick game
    assert QUICK in labels(app) and label_starting(app, "Target score: ") == "Target score: one round"
    tap_label(app, "Target score: one round")
    assert POINTS in labels(app) and label_starting(app, "Target score: ") == "Target score: 50"
    tap_label(app, "Target score: 50")
    tap_label(app, POINTS)
    assert QUICK in labels(app) and label_starting(app, "Target score: ") == "Target score: one round"
    tap_label(app, QUICK)  # the target chosen before comes back
    assert label_starting(app, "Target score: ") == "Target score: 100"


def test_the_kind_of_game_steps_with_the_keyboard_too(app):
    open_form(app, "Colours")
    scene = app.stack.top
    scene.focus = [c.element.text for c in scene.controls].index(QUICK)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
    app.frame(STEP)
    assert POINTS in labels(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
    app.frame(STEP)
    assert QUICK in labels(app)


def test_partners_points_add_up_is_offered_only_for_pairs_in_a_points_game(app):
    open_form(app, "Colours")
    set_players(app, 4)
    assert not [t for t in labels(app) if t.startswith("Partners' points add up")]
    tap_label(app, "Pair play (4 players): off")
    assert not [t for t in labels(app) if t.startswith("Partners' points add up")]  # no points: no use
    tap_label(app, QUICK)
    assert label_starting(app, "Partners' points add up: ") == "Partners' points add up: on"
    tap_label(app, "Partners' points add up: on")
    assert label_starting(app, "Partners' points add up: ") == "Partners' points add up: off"


def test_the_duel_and_the_points_game_have_no_such_choice(app):
    for name in ("Duel", "Points game"):
        open_form(app, name)
        assert QUICK not in labels(app) and POINTS not in labels(app)
    assert label_starting(app, "Target score: ")  # the points preset always plays to a target


# ---- the table and the result ------------------------------------------------------------------
def test_a_quick_game_shows_no_points_on_the_table_the_result_or_the_continue_line(app):
    open_form(app, "Colours")
    start(app)
    assert controller(app).match.target == 0
    texts = drawn(app)
    assert not [t for t in texts if "pts" in t or "Target" in t], texts
    open_menu(app)
    line = label_starting(app, "Continue: ")
    assert re.fullmatch(r"Continue: Colours, round 1, cards in hand: you \d+ – \d+", line), line
    tap_label(app, line)
    play_to_the_result(app)
    result = controller(app).match.round.result
    texts = drawn(app)
    # No running score (issue 31: the deal's own points and their counting are shown, see
    # tests/test_deal_score_ui.py): no score columns, no "+N" figure, no chart and its legend.
    rows = [t for t in texts if not t.startswith(("Points for the round", "No points for this round"))
            and ": " not in t]
    assert not [t for t in rows if "Points" in t or "Total" in t or t.startswith("+")], texts
    assert texts.count("You") == 1 and texts.count("Computer 2") == 1  # no chart and its legend
    if not result.blocked:
        assert "Cards left" in texts and "Went out" in texts


def test_a_points_game_shows_the_scores_and_the_target_on_the_table_and_the_result(app):
    open_form(app, "Colours")
    tap_label(app, QUICK)
    start(app)
    assert controller(app).match.target == 500
    texts = drawn(app)
    assert "You: 0 pts  ·  Target 500" in texts, texts
    assert [t for t in texts if re.fullmatch(r"\d+ cards  ·  0 pts", t)], texts
    open_menu(app)
    line = label_starting(app, "Continue: ")
    assert line == "Continue: Colours, round 1, you 0 – 0"
    tap_label(app, line)
    play_to_the_result(app)
    texts = drawn(app)
    assert "Value  ·  Points  ·  Total" in texts
    assert texts.count("You") == 2 and texts.count("Computer 2") == 2  # the rows and the chart's legend


def test_in_pairs_the_table_the_result_and_the_continue_line_count_each_pairs_points(app):
    open_form(app, "Colours")
    set_players(app, 4)
    tap_label(app, "Pair play (4 players): off")
    tap_label(app, QUICK)
    for seat in (2, 3, 4):
        if label_starting(app, f"Seat {seat}: ") == f"Seat {seat}: Human  ◂ ▸":
            seat_to_computer(app, seat)
    start(app)
    rules = controller(app).match.rules
    assert rules.pairs and rules.pair_scores and rules.target == 500
    texts = drawn(app)
    assert "You & Computer 3: 0 pts  ·  Target 500" in texts, texts
    assert [t for t in texts if t.endswith("pair 0 pts")], texts
    open_menu(app)
    line = label_starting(app, "Continue: ")
    assert line == "Continue: Colours, round 1, your pair 0 – 0"
    tap_label(app, line)
    controller(app).match.scores[:] = [30, 0, 45, 20]  # as if earlier deals had scored: 0 and 2 are a pair
    texts = drawn(app)
    assert "You & Computer 3: 75 pts  ·  Target 500" in texts, texts
    seats = {t.split("  ·  ")[-1] for t in texts if "pair" in t and "cards" in t}
    assert seats == {"pair 75 pts", "pair 20 pts"}


def test_a_finished_pair_round_shows_pair_totals_and_a_line_per_pair(app):
    open_form(app, "Colours")
    set_players(app, 4)
    tap_label(app, "Pair play (4 players): off")
    tap_label(app, QUICK)
    assert label_starting(app, "Seat 1: ") == "Seat 1: You"  # a solo game: the others are computers
    start(app)
    play_to_the_result(app)
    texts = drawn(app)
    assert "Value  ·  Points  ·  Pair total" in texts
    assert "You & Computer 3" in texts and "Computer 2 & Computer 4" in texts  # the chart's legend
    view = controller(app).view()
    assert view.standings[0] == view.standings[2] == view.scores[0] + view.scores[2]


def test_a_one_round_classic_game_shows_who_went_out_and_what_each_held(app):
    open_form(app, "Classic")
    set_players(app, 3)
    assert QUICK in labels(app)
    start(app)
    assert controller(app).match.target == 0
    texts = drawn(app)
    assert not [t for t in texts if "pts" in t or "Target" in t], texts
    play_to_the_result(app)
    result = controller(app).match.round.result
    texts = drawn(app)
    rows = [t for t in texts if not t.startswith(("Points for the round", "No points for this round"))
            and ": " not in t]  # the deal's counting aside (tests/test_deal_score_ui.py)
    assert not [t for t in rows if "Points" in t or "Total" in t], texts
    held = [len(hand) for hand in result.hands]
    if result.blocked:
        assert "Cards left  ·  Value" in texts
    else:
        assert "Cards left" in texts and texts.count("Went out") == 1
        assert held.count(0) == 1
    for count in held:
        if count:
            words = "1 card" if count == 1 else f"{count} cards"
            assert any(t.startswith(words) for t in texts), (words, texts)


def test_a_finished_quick_game_keeps_no_score_in_the_statistics(app):
    open_form(app, "Colours")
    start(app)
    play_to_the_result(app, seed=3)
    app.store.flush()
    records = app.store.read_statistics().records["colors"]
    (record,) = records.values()
    assert record.games == 1 and record.best is None
    open_menu(app)
    tap_label(app, tr("menu.statistics"))
    assert top_name(app) == "StatisticsScene"
    texts = drawn(app)
    assert "Best score (points games)" in texts and "–" in texts


def test_the_rule_sets_that_score_but_play_one_round_by_default_offer_the_choice():
    from game.client.game_kind import offers_choice
    from game.engine import PRESETS

    offered = [name for name, rules in PRESETS.items() if offers_choice(rules)]
    assert offered == ["classic", "colors", "action"]


def test_the_table_lists_partners_points_add_up_only_where_it_counts():
    from game.client.table_paint import options_in_force
    from game.engine import PRESETS

    colours = PRESETS["colors"]
    assert "Partners' points add up" not in options_in_force(colours)
    assert "Partners' points add up" not in options_in_force(colours.with_options(pairs=True))
    assert "Partners' points add up" not in options_in_force(colours.with_options(target=300))
    assert "Partners' points add up" in options_in_force(colours.with_options(pairs=True, target=300))
