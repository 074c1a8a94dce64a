"""The pause overlay, seen from the game: opened by Esc and the Menu button, it holds the game,
changes a computer's level, opens the settings (which the table then follows) and goes to the menu
with the game saved. Buttons are found by their labels, as a player finds them."""

from __future__ import annotations

import random

import pygame

from game.client.art import FOUR_COLOR, TWO_COLOR
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import tr
from game.client.layout import compute
from game.client.scenes.table import TableScene
from tests.client_support import (
    labels,
    make_app,
    open_menu,
    press,
    rect_of,
    run_until,
    tap,
    tap_label,
    top_name,
)
from tests.support import make_match

# The human holds two hearts (both playable on 7H) and two diamonds; the computer follows hearts.
HANDS = ["3H 9H 4D 5D", "5H 6S 2C 7C"]



def start_table(app, *, first: int = 0, speed: float = 0.0) -> MatchController:
    """A classic game dealt `HANDS`, the human against a Medium computer."""
    match = make_match("classic", HANDS, "7H", "KD QD JD TD 2D 3D 4S 5S", first=first)
    controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer", "medium")],
                                 rng=random.Random(1), speed=speed)
    app.start(TableScene(app, controller))
    app.frame(1 / 60)
    return controller


def tap_menu_button(app) -> None:
    """The table's Menu button, top right."""
    tap(app, pygame.Rect(compute(app.size).menu_button).center)


def discards(controller: MatchController) -> list[str]:
    return [c.code for c in controller.match.round.discard]


def hand(controller: MatchController, seat: int = 0) -> list[str]:
    return [c.code for c in controller.match.round.hands[seat]]


def play(app, controller: MatchController, code: str) -> None:
    """Tap the card ``code`` in the shown hand."""
    tap(app, app.stack.top.hand_rects[hand(controller).index(code)].center)
    assert code in discards(controller)


def play_first_heart(app, controller: MatchController) -> None:
    """Enter shows the first playable card, Enter again plays it (3H); the computer answers."""
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert "3H" in discards(controller)


PAUSE = [tr("pause.resume"), "Computer 2: Medium", tr("menu.settings"), tr("pause.rules"),
         tr("pause.new_game"), tr("pause.menu")]


def test_the_menu_button_opens_the_pause_and_resume_returns_to_the_table(app):
    start_table(app)
    tap_menu_button(app)
    assert top_name(app) == "PauseScene"
    assert labels(app) == PAUSE
    tap_label(app, tr("pause.resume"))
    assert top_name(app) == "TableScene"


def test_the_game_waits_under_the_pause_and_goes_on_after_it(app):
    controller = start_table(app, first=1, speed=1.0)  # the computer starts, thinking for a while
    press(app, pygame.K_ESCAPE, frames=1)
    assert top_name(app) == "PauseScene"
    for _ in range(5 * 60):
        app.frame(1 / 60)
    assert discards(controller) == ["7H"] and controller.match.round.to_act == 1
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableScene"
    assert run_until(app, lambda: controller.match.round.to_act == 0, 5 * 60)
    assert len(discards(controller)) == 2


def test_a_tap_steps_a_computers_level_and_the_round_goes_on(app):
    controller = start_table(app)
    press(app, pygame.K_ESCAPE)
    seen = []
    for _ in range(3):
        tap_label(app, labels(app)[1])
        seen.append(labels(app)[1])
        assert controller.seats[1].level in ("easy", "medium", "hard")
    assert seen == ["Computer 2: Hard", "Computer 2: Easy", "Computer 2: Medium"]
    tap_label(app, "Computer 2: Medium")
    assert controller.seats[1].level == "hard"
    assert top_name(app) == "PauseScene"
    tap_label(app, tr("pause.resume"))
    play_first_heart(app, controller)
    assert run_until(app, lambda: controller.match.round.to_act == 0, 600)
    assert len(discards(controller)) == 3 and hand(controller, 1) != HANDS[1].split()


def test_the_pause_offers_a_level_for_each_computer_and_none_for_a_person(app):
    match = make_match("classic", ["3H 9H", "5H 6S", "4C 4S", "2C 5C"], "7H", "KD QD JD TD 2D 3D")
    seats = [SeatConfig("human"), SeatConfig("computer", "easy"), SeatConfig("human", name="Ben"),
             SeatConfig("computer", "hard")]
    controller = MatchController(match, seats, rng=random.Random(1), speed=0)
    app.start(TableScene(app, controller))
    app.frame(1 / 60)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    assert labels(app) == [tr("pause.resume"), "Computer 2: Easy", "Computer 4: Hard", tr("menu.settings"),
                           tr("pause.rules"), tr("pause.new_game"), tr("pause.menu")]
    tap_label(app, "Computer 4: Hard")
    assert labels(app)[1:3] == ["Computer 2: Easy", "Computer 4: Easy"]
    assert [s.level for s in controller.seats if not s.is_human] == ["easy", "easy"]


def test_the_pause_works_by_arrows_and_enter(app):
    controller = start_table(app)
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert labels(app)[1] == "Computer 2: Hard" and controller.seats[1].level == "hard"
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert top_name(app) == "SettingsScene"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)  # Settings → level → Resume → round to Back to menu
    press(app, pygame.K_RETURN)
    assert top_name(app) == "MenuScene"


def test_settings_open_from_the_pause_and_come_back_to_it_in_the_new_language(app):
    start_table(app)
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("menu.settings"))
    assert top_name(app) == "SettingsScene"
    assert tr("settings.clear") not in labels(app)  # the game under it would be saved again at once
    tap_label(app, "Language: English")
    tap_label(app, "Retour")
    assert top_name(app) == "PauseScene"
    assert labels(app) == ["Reprendre", "Ordinateur 2 : Moyen", "Réglages", "Règles", "Nouvelle partie",
                           "Retour au menu"]
    tap_label(app, "Reprendre")
    assert top_name(app) == "TableScene"
    assert [type(s).__name__ for s in app.stack.scenes] == ["TableScene"]


def change_setting_under_the_pause(app, label: str, times: int = 1) -> None:
    """Esc, Settings, tap ``label`` (the setting's button) ``times``, Back, Resume."""
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("menu.settings"))
    for _ in range(times):
        tap_label(app, next(text for text in labels(app) if text.startswith(label)))
    tap_label(app, tr("settings.back"))
    tap_label(app, tr("pause.resume"))
    app.frame(1 / 60)
    assert top_name(app) == "TableScene"


def ink(app, colour: tuple[int, int, int]) -> int:
    """How many pixels of the shown hand's area are drawn in ``colour``."""
    area = pygame.Rect(compute(app.size).hand_area).clip(app.screen.get_rect())
    return pygame.mask.from_threshold(app.screen.subsurface(area), colour, (8, 8, 8, 255)).count()


def test_the_four_colour_deck_paints_the_diamonds_of_the_hand_blue(app):
    start_table(app)
    blue = FOUR_COLOR["D"]
    assert TWO_COLOR["D"] != blue
    assert ink(app, blue) == 0 and ink(app, TWO_COLOR["D"]) > 0
    hearts_and_diamonds = ink(app, TWO_COLOR["D"])
    change_setting_under_the_pause(app, "Four-colour deck")
    assert ink(app, blue) > 0
    assert 0 < ink(app, TWO_COLOR["H"]) < hearts_and_diamonds  # the hearts stay red


def test_the_left_handed_layout_moves_the_table_buttons_to_the_left(app):
    start_table(app)
    w = app.size[0]
    assert rect_of(app, tr("table.hint")).left > w // 2
    change_setting_under_the_pause(app, "Left-handed layout")
    assert rect_of(app, tr("table.hint")).right < w // 2
    press(app, pygame.K_h)  # the hint still works where the button went
    tap_label(app, tr("table.hint"))
    assert top_name(app) == "TableScene"


def test_undo_switched_off_takes_the_undo_button_and_key_away(app):
    controller = start_table(app)
    change_setting_under_the_pause(app, "Allow undo")
    play_first_heart(app, controller)
    assert run_until(app, lambda: controller.match.round.to_act == 0, 600)
    assert tr("table.undo") not in labels(app)
    before = (hand(controller), discards(controller))
    press(app, pygame.K_u)
    assert (hand(controller), discards(controller)) == before
    change_setting_under_the_pause(app, "Allow undo")  # on again: the next move can be taken back
    play(app, controller, "9H")
    assert run_until(app, lambda: controller.match.round.to_act == 0, 600)
    tap_label(app, tr("table.undo"))
    assert (hand(controller), discards(controller)) == before


def test_a_slower_speed_makes_the_computer_take_its_time(app):
    controller = start_table(app)  # at the instant speed
    play_first_heart(app, controller)
    assert run_until(app, lambda: controller.match.round.to_act == 0, 3)
    assert discards(controller) == ["7H", "3H", "5H"]
    press(app, pygame.K_u)  # take both back, and try again at the slow speed
    assert discards(controller) == ["7H"]
    change_setting_under_the_pause(app, "Animation speed")  # Instant → Slow
    play(app, controller, "3H")
    for _ in range(20):
        app.frame(1 / 60)
    assert controller.match.round.to_act == 1  # still thinking
    assert run_until(app, lambda: controller.match.round.to_act == 0, 10 * 60)
    assert discards(controller) == ["7H", "3H", "5H"]


def test_back_to_menu_saves_the_game_and_continue_resumes_it(app):
    controller = start_table(app)
    play_first_heart(app, controller)
    assert run_until(app, lambda: controller.match.round.to_act == 0, 600)
    tap_menu_button(app)
    tap_label(app, "Computer 2: Medium")  # → Hard, kept with the game
    position = (hand(controller), hand(controller, 1), discards(controller))
    tap_label(app, tr("pause.menu"))
    assert top_name(app) == "MenuScene"
    assert labels(app)[0].startswith("Continue: Classic")
    assert app.store.flush()
    again = make_app()
    try:
        open_menu(again)
        tap_label(again, labels(again)[0])
        assert top_name(again) == "TableScene"
        resumed = again.table_controller()
        assert isinstance(resumed, MatchController)
        assert (hand(resumed), hand(resumed, 1), discards(resumed)) == position
        assert [s.level for s in resumed.seats] == ["medium", "hard"]
    finally:
        again.store.flush()


def test_escape_from_the_menu_reached_through_the_pause_does_not_bring_the_game_back(app):
    start_table(app)
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("pause.menu"))
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"
    assert app.table_controller() is None
    open_menu(app)
    assert labels(app)[0].startswith("Continue: Classic")


def test_left_and_right_step_the_focused_computers_level_down_and_up(app):
    controller = start_table(app)
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_DOWN)  # Computer 2: Medium
    press(app, pygame.K_RIGHT)
    assert labels(app)[1] == "Computer 2: Hard" and controller.seats[1].level == "hard"
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert labels(app)[1] == "Computer 2: Easy" and controller.seats[1].level == "easy"
    press(app, pygame.K_LEFT)  # round to the top
    assert controller.seats[1].level == "hard"
    press(app, pygame.K_UP)
    press(app, pygame.K_RIGHT)  # on Resume: no value to change
    assert top_name(app) == "PauseScene" and controller.seats[1].level == "hard"


def test_settings_changed_from_the_pause_show_on_the_table_behind_it_at_once(app):
    start_table(app)
    table = app.stack.top
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("menu.settings"))
    tap_label(app, next(text for text in labels(app) if text.startswith("Four-colour deck")))
    tap_label(app, "Language: English")
    drawn = app.draws
    tap_label(app, "Retour")
    assert top_name(app) == "PauseScene"
    # Under the pause (before it closes), the table is already the one these settings make.
    assert table.painter.art.four_color and app.draws > drawn
    assert table.message() == "À vous de jouer"
    assert tr("table.hint") in [b.label for b in table.buttons]
    assert table.autopilot_button is not None and table.autopilot_button.label == "Mode auto : non"
    assert [s for s in app.stack.visible()] == [table, app.stack.top]
    tap_label(app, "Reprendre")
    assert top_name(app) == "TableScene" and table.painter.art.four_color
