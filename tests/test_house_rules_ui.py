"""Each house rule explained in one line in the new-game form, and the pause menu's "Rules" and
"New game", by real events into real scenes."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import catalogues, ui
from game.client.controller import MatchController, SeatConfig
from game.client.house_rules import help_key, summary_markup
from game.client.i18n import LANGUAGES, tr
from game.client.scenes.table import TableScene
from game.engine import OPTIONS, PRESETS, Match, preset
from tests.client_support import (
    STEP,
    click,
    labels,
    make_app,
    open_menu,
    press,
    tap_label,
    top_name,
)
from tests.support import make_match


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_house_rule_has_a_one_line_explanation_in_every_language(lang):
    entries = catalogues.load(lang)
    for option in OPTIONS:
        text = entries.get(help_key(option.name), "")
        assert text.strip(), f"{lang}: option {option.name} has no explanation"
        assert "\n" not in text and len(text) <= 110, f"{lang}: {option.name}'s explanation is not one line"


def drawn_texts(app) -> list[str]:
    """The texts the next frame draws (the scene is redrawn from scratch)."""
    app.stack.top.dirty = True
    with ui.recording() as drawn:
        app.frame(STEP)
    return [d.text for d in drawn]


def open_form(app, name: str) -> None:
    app.settings.last_preset = name
    open_menu(app)
    press(app, pygame.K_RETURN)  # Solo: the new-game form on the last rule set
    assert top_name(app) == "NewGameScene"


def test_the_pointer_on_a_house_rule_shows_its_explanation_with_no_further_input(app):
    open_form(app, "points")
    form = app.stack.top
    jacks = next(c for c in form.controls if c.element.text.startswith("Jacks skip"))
    assert tr("option.jacks_skip.help") not in drawn_texts(app)
    pos = jacks.element.rect.center
    pygame.mouse.set_pos(pos)  # pygame_gui finds hover from where the pointer is
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    with ui.recording() as drawn:  # the frames that follow by themselves show it: nothing forced
        for _ in range(3):
            app.frame(STEP)
    assert tr("option.jacks_skip.help") in [d.text for d in drawn]


def test_the_keyboard_focus_on_a_house_rule_shows_its_explanation(app):
    open_form(app, "points")
    form = app.stack.top
    for _ in range(len(form.controls)):
        if form.controls[form.focus].element.text.startswith("Aces reverse"):
            break
        press(app, pygame.K_DOWN)
    assert form.controls[form.focus].element.text.startswith("Aces reverse")
    assert form.help_text() == tr("option.aces_reverse.help")
    assert tr("option.aces_reverse.help") in drawn_texts(app)


def test_the_explanations_are_in_french_in_the_french_form(app):
    from game.client import i18n

    try:
        i18n.set_language("fr")
        open_form(app, "colors")
        form = app.stack.top
        liar = next(i for i, c in enumerate(form.controls) if c.element.text.startswith("Contester"))
        form.focus = liar
        assert "« Menteur ! »" in form.help_text()
    finally:
        i18n.set_language("en")


def start_table(app) -> MatchController:
    match = make_match("points", ["3H 9H 4D 5D", "5H 6S 2C 7C"], "7H", "KD QD JD TD 2D 3D 4S 5S",
                       options={"jacks_skip": True})
    controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer", "medium")],
                                 rng=random.Random(1), speed=0)
    app.start(TableScene(app, controller))
    app.frame(STEP)
    return controller


def test_rules_on_the_pause_menu_lists_the_rule_set_and_house_rules_in_play(app):
    start_table(app)
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("pause.rules"))
    assert top_name(app) == "RulesInPlayScene"
    markup = app.stack.top.markup
    assert "Points game" in markup
    assert "Jacks skip: on" in markup and tr("option.jacks_skip.help") in markup
    assert "Aces reverse: off" in markup
    assert "Liar" not in markup  # an option the rule set does not offer
    tap_label(app, tr("rules.back"))
    assert top_name(app) == "PauseScene"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableScene"


def test_the_summary_shows_a_target_per_player_as_the_form_does():
    text = summary_markup(preset("points"), 3)
    assert "50 × 3" in text


def test_new_game_on_the_pause_menu_opens_the_form_and_the_game_stays_saved_until_replaced(app):
    controller = start_table(app)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # the first playable card is played: a game under way
    assert len(controller.match.round.discard) > 1
    press(app, pygame.K_ESCAPE)
    tap_label(app, tr("pause.new_game"))
    assert top_name(app) == "NewGameScene" and app.stack.top.mode == "solo"
    assert app.store.flush()
    assert app.store.games.read("solo") is not None  # kept: Continue brings it back
    tap_label(app, tr("new.start"))
    assert top_name(app) == "ReplaceSaveScene"  # asked before the game is lost, as from the menu
    tap_label(app, tr("replace.keep"))
    assert top_name(app) == "NewGameScene"
    tap_label(app, tr("new.back"))
    assert labels(app)[0].startswith("Continue: Points")


def test_online_the_pause_menu_offers_no_new_game(app):
    from tests.every_screen import online_table

    match = Match(PRESETS["duel"], 2, 3)
    online_table(app, match)
    app.frame(STEP)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    assert tr("pause.new_game") not in labels(app)
    assert tr("pause.rules") in labels(app)


def test_seven_seats_and_the_new_buttons_still_fit_the_pause_menu_at_1024x600():
    app = make_app((1024, 600))
    try:
        match = Match(PRESETS["points"], 7, 11)
        seats = [SeatConfig("human")] + [SeatConfig("computer", "medium")] * 6
        app.start(TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0)))
        app.frame(STEP)
        press(app, pygame.K_ESCAPE)
        buttons = app.stack.top.buttons
        assert max(b.rect.bottom for b in buttons) <= 600
        assert all(b.rect.height >= 40 for b in buttons)
        click(app, next(b for b in buttons if b.label == tr("pause.rules")).rect.center)
        assert top_name(app) == "RulesInPlayScene"
    finally:
        pygame.display.quit()
