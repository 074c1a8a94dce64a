"""A kiosk's attract mode (issue 31, section 5): idle at the menu, computers play under "Touch to
play"; the first touch, click or key goes back to the menu and reaches nothing underneath;
nothing is saved or counted; another game follows the result; the menu at rest still rests.
A real App in kiosk mode with a short attract delay, real events."""

from __future__ import annotations

import pygame
import pytest

from game.client import ui
from game.client.attract import KIOSK_IDLE
from game.client.controller import MatchController, SeatConfig
from game.client.exhibition import SHOWS, ExhibitionController, exhibition
from game.client.i18n import tr
from game.client.scenes.attract import RESULT_PAUSE
from game.client.table_paint import options_in_force
from game.engine import Status
from tests.client_support import STEP, make_app, open_menu, press, run_until, tap, top_name

DELAY = 5.0


@pytest.fixture
def kiosk():
    app = make_app(kiosk=True)
    app.attract_after = DELAY
    open_menu(app)
    yield app
    app.store.flush()
    pygame.display.quit()


def idle(app, seconds: float) -> None:
    """Let the kiosk rest ``seconds`` without input, as the loop does (one update for the rest)."""
    app.frame(seconds, rested=seconds, lazy=True)


def attract(app) -> None:
    """Rest at the menu until the attract game is on."""
    assert app.due() == pytest.approx(DELAY, abs=0.05)  # the menu at rest wakes once: when the game is due
    idle(app, DELAY)
    assert top_name(app) == "AttractScene"


def test_the_menu_at_rest_wakes_only_for_the_attract_game(kiosk):
    idle(kiosk, DELAY - 1)
    assert top_name(kiosk) == "MenuScene"
    assert kiosk.due() == pytest.approx(1.0, abs=0.05)
    idle(kiosk, 1.0)
    assert top_name(kiosk) == "AttractScene"


def test_the_attract_game_is_computers_playing_under_the_banner(kiosk):
    attract(kiosk)
    scene = kiosk.stack.top
    controller = scene.controller
    assert isinstance(controller, ExhibitionController)
    assert not any(s.is_human for s in controller.seats)
    with ui.recording() as drawn:
        kiosk.frame(STEP)
    texts = [d.text for d in drawn]
    assert tr("attract.banner") in texts and tr("attract.demo") in texts
    turns = controller.match.round.turn_no
    run_until(kiosk, lambda: controller.match.round.turn_no > turns + 2, frames=60 * 30)
    assert controller.match.round.turn_no > turns + 2  # they play, with their think delays
    assert kiosk.due() is not None and kiosk.due() < 1  # it moves (the glow, the flights)


@pytest.mark.parametrize("how", ["touch", "click", "key"])
def test_the_first_touch_click_or_key_goes_back_to_the_menu_at_once(kiosk, how):
    attract(kiosk)
    table = kiosk.stack.top.table
    played = []
    table.handle_event = lambda event: played.append(event) or True  # what would reach the game
    centre = kiosk.size[0] // 2, kiosk.size[1] // 2
    if how == "touch":
        tap(kiosk, centre, frames=1)
    elif how == "click":
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1))
        kiosk.frame(STEP)
    else:
        press(kiosk, pygame.K_RETURN, frames=1)
    assert top_name(kiosk) == "MenuScene"
    assert played == []
    kiosk.frame(STEP)
    assert top_name(kiosk) == "MenuScene"  # nothing under the finger was tapped on the menu either


def test_the_attract_game_never_replaces_a_save_nor_counts(kiosk):
    kiosk.store.games.write("solo", _saved_game())
    before = kiosk.store.games.read("solo")
    stats = kiosk.store.read_statistics().to_json()
    attract(kiosk)
    scene = kiosk.stack.top
    scene.controller.speed = 0  # play it out at once
    run_until(kiosk, lambda: scene.controller.match.status != Status.PLAYING, frames=60 * 60)
    kiosk.save_game()  # what a stop signal or the idle return does
    kiosk.shutdown()
    assert kiosk.store.games.read("solo") == before
    assert kiosk.store.read_statistics().to_json() == stats
    assert kiosk.table_controller() is None


def test_another_attract_game_follows_the_result(kiosk):
    attract(kiosk)
    scene = kiosk.stack.top
    scene.controller.speed = 0
    assert run_until(kiosk, lambda: scene.controller.match.status != Status.PLAYING, frames=60 * 60)
    assert kiosk.due() is not None and kiosk.due() <= RESULT_PAUSE
    idle(kiosk, RESULT_PAUSE)
    kiosk.frame(STEP)
    following = kiosk.stack.top
    assert top_name(kiosk) == "AttractScene" and following is not scene
    assert following.controller.match.players == SHOWS[1][1]


def test_the_attract_game_does_not_end_by_the_idle_return(kiosk):
    attract(kiosk)
    scene = kiosk.stack.top
    for _ in range(int(KIOSK_IDLE) + 5):
        kiosk.frame(1.0)
    assert top_name(kiosk) == "AttractScene"
    assert kiosk.stack.top is scene or kiosk.stack.top.number > 0


def test_no_attract_game_over_a_dialog_until_the_idle_return_to_the_menu(kiosk):
    kiosk.push("Settings")
    kiosk.frame(STEP)
    idle(kiosk, DELAY * 3)
    assert top_name(kiosk) == "SettingsScene"
    idle(kiosk, KIOSK_IDLE)
    assert top_name(kiosk) == "MenuScene"  # the idle return, as before
    idle(kiosk, DELAY)
    assert top_name(kiosk) == "AttractScene"  # then the attract game, from the menu


def test_no_attract_game_with_the_delay_at_zero():
    app = make_app(kiosk=True)
    try:
        app.attract_after = 0
        open_menu(app)
        idle(app, KIOSK_IDLE + 1)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_no_attract_game_outside_kiosk_mode():
    app = make_app()
    try:
        app.attract_after = DELAY
        open_menu(app)
        assert app.due() is None
        idle(app, DELAY * 10)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_a_match_with_no_human_seat_plays_to_its_end_from_the_computers_views():
    for number in range(len(SHOWS)):
        controller = exhibition(number)
        controller.speed = 0
        for _ in range(20000):
            if controller.match.status != Status.PLAYING:
                break
            controller.update(STEP)
        assert controller.match.status != Status.PLAYING
        assert controller.view().legal == ()


def _saved_game():
    from game.engine import Match, preset

    return MatchController(Match(preset("classic"), 2, seed=4),
                           [SeatConfig("human"), SeatConfig("computer")]).to_save()


@pytest.mark.parametrize("value", ["-1", "soon", "99999999"])
def test_a_bad_attract_delay_is_refused_in_one_line(value, capsys):
    from game.client.launch import main

    with pytest.raises(SystemExit) as exited:
        main(["--kiosk", "--attract-after", value])
    assert exited.value.code == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--attract-after" in line and "whole number from 0 to 86400" in line


def test_the_attract_delay_flag_reaches_the_kiosk(tmp_path, monkeypatch):
    from game.client import app as app_module
    from game.client import launch

    seen = []
    monkeypatch.setattr(app_module.App, "run", lambda self: seen.append((self.kiosk, self.attract_after)))
    try:
        assert launch.main(["--kiosk", "--attract-after", "5", "--data-dir", str(tmp_path / "k")]) == 0
    finally:
        pygame.display.quit()
    assert seen == [(True, 5)]


@pytest.mark.parametrize("number", range(len(SHOWS)))
def test_the_attract_game_shows_no_menu_button_nor_undo(kiosk, number):
    """Nobody plays a game for show: no Menu button on its table, and Undo neither in the rules line
    nor on the move log's page (the classic rules allow it elsewhere)."""
    kiosk.replace("Attract", number=number)
    kiosk.stack.apply_requests()
    for _ in range(30):
        kiosk.frame(STEP)
    scene = kiosk.stack.top
    assert top_name(kiosk) == "AttractScene"
    controller = scene.controller
    assert controller.for_show and not controller.undo_offered
    assert scene.table.autopilot_button is None and scene.table.sort_button is None
    with ui.recording() as drawn:
        kiosk.draw()
    texts = [d.text for d in drawn]
    assert tr("table.menu") not in texts
    assert not any(tr("option.undo") in t for t in texts), texts
    assert tr("option.undo") not in options_in_force(controller.match.rules, undo=controller.undo_offered)


def test_a_game_people_play_still_shows_its_menu_button(kiosk):
    controller = MatchController(exhibition(0).match, [SeatConfig("human"), *[SeatConfig("computer")] * 3])
    assert not controller.for_show
    kiosk.push("Table", controller=controller)
    kiosk.stack.apply_requests()
    kiosk.frame(STEP)
    with ui.recording() as drawn:
        kiosk.draw()
    assert tr("table.menu") in [d.text for d in drawn]
