"""The modes as the menu names them, seen from the game: each mode's form, the question before a
saved game is replaced (kept or replaced, by touch, mouse and keyboard), people's names and
avatars remembered across a restart, and the hand-off cover before the first hot-seat turn."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import app as app_module
from game.client import launch
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import tr
from game.client.saving import mode_of
from game.engine import PRESETS, Match
from game.play.avatars import COMPUTERS, PEOPLE, computer_avatar
from tests.client_support import click, make_app, open_menu, press, run_until, tap, tap_label, top_name

STEP = 1 / 60


def form(app):
    assert top_name(app) == "NewGameScene", app.stack.scenes
    return app.stack.top


def open_mode(app, label: str, **choices) -> None:
    """From the menu, a tap on a mode (the settings given first, as if chosen last time)."""
    for name, value in choices.items():
        setattr(app.settings, name, value)
    open_menu(app)
    tap_label(app, label)


def save_solo_game(app, preset: str = "points", seed: int = 4) -> Match:
    """A solo game in the save slot, a few moves in: the match saved."""
    match = Match(PRESETS[preset], 3, seed)
    for _ in range(5):
        match.apply(match.legal_actions()[0], match.to_act)
    seats = [SeatConfig("human"), SeatConfig("computer", "easy"), SeatConfig("computer", "hard")]
    app.store.games.write("solo", MatchController(match, seats, rng=random.Random(1)).to_save())
    app.store.flush()
    return match


def control(app, text: str):
    for c in app.stack.top.controls:
        if getattr(c.element, "text", None) == text:
            return c
    shown = [getattr(c.element, "text", "") for c in app.stack.top.controls]
    raise AssertionError(f"no {text!r} on {top_name(app)}: {shown}")


def type_text(app, text: str) -> None:
    """Type ``text`` into the focused field, as the keyboard does (one TEXTINPUT per character)."""
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.frame(STEP)
    app.frame(STEP)


# ---- the menu's modes ----------------------------------------------------------------------------
def test_the_menu_names_the_modes_and_keeps_the_rest(app):
    open_menu(app)
    texts = [c.element.text for c in app.stack.top.controls]
    assert texts == ["Solo against the computer", "Same device", "Play with a friend", "Statistics",
                     "Settings", "How to play", "Quit"]


def test_solo_opens_the_form_for_one_person_against_computers(app):
    open_mode(app, "Solo against the computer", last_preset="classic", last_players={"classic": 4},
              default_levels=["human", "human", "hard", "easy", "medium", "medium", "medium"])
    scene = form(app)
    assert scene.mode == "solo" and scene.preset_name == "classic"
    assert [s.kind for s in scene.seats()] == ["human", "computer", "computer", "computer"]
    # The person at seat 2 last time is a computer here: one person only, solo.
    assert [s.level for s in scene.seats()[1:]] == ["medium", "hard", "easy"]
    assert "Seat 1: You" in [c.element.text for c in scene.controls]
    tap_label(app, "Seat 2: Computer · Medium  ◂ ▸")  # a computer steps through the levels only
    tap_label(app, "Seat 2: Computer · Hard  ◂ ▸")
    tap_label(app, "Seat 2: Computer · Easy  ◂ ▸")
    assert [s.kind for s in form(app).seats()].count("human") == 1
    tap_label(app, "Start", touch=False)
    controller = app.table_controller()
    assert top_name(app) == "TableScene" and mode_of(controller) == "solo"
    assert [s.level for s in controller.seats[1:]] == ["medium", "hard", "easy"]


def test_same_device_opens_the_form_for_two_or_more_people(app):
    open_mode(app, "Same device", last_preset="duel")
    scene = form(app)
    assert scene.mode == "hotseat"
    assert [s.kind for s in scene.seats()] == ["human", "human"]
    assert len(scene.entries) == 2  # every person names their seat
    tap_label(app, "Seat 2: Human  ◂ ▸")  # the second person becomes a computer: not a same-device game
    assert [s.kind for s in form(app).seats()] == ["human", "computer"]
    tap_label(app, "Start")
    assert top_name(app) == "NewGameScene"
    assert form(app).error == tr("new.need_people")
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"


def test_play_with_a_friend_opens_the_online_lobby(app):
    open_menu(app)
    tap_label(app, "Play with a friend")
    assert top_name(app) == "LobbyScene"


# ---- the question before a saved game is replaced -------------------------------------------------
def test_starting_over_a_saved_game_asks_first_and_keep_loses_nothing(app):
    saved = save_solo_game(app)
    open_mode(app, "Solo against the computer", last_preset="classic")
    tap_label(app, "Start")
    assert top_name(app) == "ReplaceSaveScene"
    question = app.stack.top
    assert question.lines[0] == "Your game (Points game, round 1, you 0 – 0 – 0) will be lost."
    assert [c.element.text for c in question.controls] == ["Keep my game", "Replace it"]
    assert question.focus == 0  # the choice that loses nothing
    tap_label(app, "Keep my game")  # by touch
    assert top_name(app) == "NewGameScene"
    tap_label(app, "Start", touch=False)
    press(app, pygame.K_ESCAPE)  # by keyboard: Esc keeps it too
    assert top_name(app) == "NewGameScene"
    tap_label(app, "Start")
    press(app, pygame.K_RETURN)  # Enter on the focused choice: Keep
    assert top_name(app) == "NewGameScene"
    tap_label(app, "Start")
    click(app, (2, 2))  # a click outside the panel
    assert top_name(app) == "NewGameScene"
    app.store.flush()
    assert app.store.games.read("solo").match == saved  # untouched
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"
    assert [c.element.text for c in app.stack.top.controls][0].startswith("Continue: Points game, round 1")


@pytest.mark.parametrize("how", ["touch", "mouse", "keyboard"])
def test_replace_it_starts_the_new_game_in_place_of_the_saved_one(app, how):
    saved = save_solo_game(app)
    open_mode(app, "Solo against the computer", last_preset="classic")
    tap_label(app, "Start")
    assert top_name(app) == "ReplaceSaveScene"
    if how == "keyboard":
        press(app, pygame.K_TAB)
        press(app, pygame.K_RETURN)
    else:
        tap_label(app, "Replace it", touch=how == "touch")
    assert top_name(app) in ("TableScene", "ResultScene")
    controller = app.table_controller()
    assert controller.match.rules.name == "classic"
    app.store.flush()
    kept = app.store.games.read("solo")
    assert kept.match != saved and kept.match.rules.name == "classic"


def test_the_question_names_the_ranking_points_a_colours_game_costs(app):
    save_solo_game(app, "colors", seed=2)
    open_mode(app, "Solo against the computer", last_preset="duel")
    tap_label(app, "Start")
    assert app.stack.top.lines[1] == "Leaving it counts against your Colours ranking (-20 points)."
    tap_label(app, "Replace it")
    app.store.flush()
    assert app.store.read_statistics().xp == -20


def test_no_question_without_a_save_in_that_mode(app):
    save_solo_game(app)
    open_mode(app, "Same device", last_preset="duel")
    tap_label(app, "Start")
    assert top_name(app) in ("TableScene", "HandoffScene")  # the solo save is another mode's


# ---- names and avatars ----------------------------------------------------------------------------
def test_people_name_their_seats_and_pick_avatars_and_find_them_after_a_restart(monkeypatch):
    first = make_app()
    try:
        open_mode(first, "Same device", last_preset="classic", last_players={"classic": 3},
                  hotseat_levels=["human", "human", "hard"] + ["medium"] * 4)
        scene = form(first)
        click(first, scene.entries[0].rect.center)  # the first person's field, by mouse
        type_text(first, "Ana")
        press(first, pygame.K_TAB)  # on to the next control: the second person's avatar
        press(first, pygame.K_RETURN)  # opens the picker
        assert top_name(first) == "AvatarPickerScene"
        picker = first.stack.top
        fox = PEOPLE.index(4)
        assert not picker.controls[fox].element.is_enabled  # Ana has the fox: greyed, not chosen
        tap(first, picker.controls[PEOPLE.index(13)].element.rect.center)  # the moon, by touch
        assert top_name(first) == "NewGameScene"
        scene = form(first)
        press(first, pygame.K_TAB)
        press(first, pygame.K_TAB)
        press(first, pygame.K_RETURN)  # the second person's field, by keyboard
        type_text(first, "Benoît")
        press(first, pygame.K_RETURN)
        tap_label(first, "Start")
        assert run_until(first, lambda: top_name(first) == "HandoffScene", 30)
        seats = first.table_controller().seats
        assert [(s.name, s.avatar) for s in seats[:2]] == [("Ana", 4), ("Benoît", 13)]
        assert seats[2].avatar is None and first.stack.top.table.avatars()[2] == computer_avatar(2)
        first.shutdown()
    finally:
        pygame.display.quit()

    started = {}
    monkeypatch.setattr(app_module.App, "run", lambda self: started.setdefault("app", self))
    assert launch.main(["--size", "1280x800"]) == 0
    second = started["app"]
    try:
        kept = second.settings
        assert (kept.people_names, kept.people_avatars[:2]) == (["Ana", "Benoît"], [4, 13])
        open_mode(second, "Same device")
        scene = form(second)
        assert [e.get_text() for e in scene.entries.values()] == ["Ana", "Benoît"]
        assert [s.avatar for s in scene.seats() if s.is_human] == [4, 13]
        press(second, pygame.K_ESCAPE)
        open_mode(second, "Solo against the computer")
        assert form(second).seats()[0].avatar == 4  # the first person plays solo too
    finally:
        second.store.flush()
        pygame.display.quit()


def test_an_empty_name_is_the_seat_default_and_left_right_step_through_free_avatars(app):
    open_mode(app, "Same device", last_preset="duel", people_avatars=[4, 10])
    scene = form(app)
    assert scene.entries[1].placeholder_text == "Player 2"
    avatar = next(i for i, c in enumerate(scene.controls) if c.element.text == "")  # the first person's
    scene.focus = avatar
    press(app, pygame.K_RIGHT)
    after_fox = PEOPLE[PEOPLE.index(4) + 1]
    assert form(app).people_avatars[:2] == [after_fox, 10]
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)  # past the fox, back to the one before it
    assert form(app).people_avatars[0] == PEOPLE[PEOPLE.index(4) - 1]
    tap_label(app, "Start")
    assert run_until(app, lambda: top_name(app) == "HandoffScene", 30)
    assert [s.name for s in app.table_controller().seats] == ["Player 1", "Player 2"]


def test_the_picker_moves_by_rows_and_esc_changes_nothing(app):
    open_mode(app, "Solo against the computer", people_avatars=[4])
    tap_label(app, "Seat 1: You")
    assert top_name(app) == "AvatarPickerScene"
    picker = app.stack.top
    assert picker.focus == PEOPLE.index(4)
    press(app, pygame.K_DOWN)
    assert picker.focus == PEOPLE.index(4) + picker.columns
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "NewGameScene" and form(app).people_avatars[0] == 4
    tap_label(app, "Seat 1: You")
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    assert form(app).people_avatars[0] == PEOPLE[PEOPLE.index(4) + 1]


# ---- the cover before the first hot-seat turn ------------------------------------------------------
def test_the_cover_comes_before_the_very_first_hot_seat_turn(app):
    open_mode(app, "Same device", last_preset="duel", people_names=["Ana", "Ben"])
    tap_label(app, "Start")
    assert run_until(app, lambda: top_name(app) == "HandoffScene", 30)
    cover = app.stack.top
    controller = app.table_controller()
    first = controller.match.to_act
    assert cover.seat == first and cover.name == ["Ana", "Ben"][first]
    table = cover.table
    table.painter.faces_drawn = []
    for _ in range(30):  # nothing of a hand is drawn while the cover is up
        app.frame(STEP)
    assert table.painter.faces_drawn == [] and top_name(app) == "HandoffScene"
    press(app, pygame.K_RETURN)
    assert top_name(app) == "TableScene" and controller.viewer == first
    app.frame(STEP)
    assert set(controller.match.round.hands[first]) <= set(table.painter.faces_drawn)


# ---- avatars at the table ------------------------------------------------------------------------
def test_every_seat_shows_its_avatar_and_the_shown_seat_its_card_count(app):
    from game.client import ui
    from game.client.scenes.table import TableScene

    match = Match(PRESETS["points"], 5, 3)
    seats = [SeatConfig("human", avatar=13)] + [SeatConfig("computer", "easy")] * 4
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    app.frame(STEP)
    with ui.recording() as drawn:
        table.draw(app.screen)
    shown = dict(table.painter.avatars_drawn)
    assert sorted(shown) == [0, 1, 2, 3, 4]
    assert table.avatars() == [13] + [computer_avatar(s) for s in range(1, 5)]
    assert len(set(table.avatars())) == 5 and set(table.avatars()[1:]) <= set(COMPUTERS)
    me = pygame.Rect(table.layout.me.box)
    count = tr("table.cards", n=len(match.round.hands[0]))
    mine = [d for d in drawn if d.text.startswith(count) and me.contains(d.rect)]
    assert mine and mine[0].rect.left > shown[0].right  # beside the avatar, as the others' are
    for seat, spot in zip(range(1, 5), table.layout.seat_spots(4), strict=True):
        box = pygame.Rect(spot.box)
        assert box.contains(shown[seat])
        label = next(d for d in drawn if d.text.startswith(f"Computer {seat + 1}"))
        assert label.rect.left > shown[seat].right and box.contains(label.rect)
