"""Saves seen from the game: Continue, unreadable saves, Clear data, Statistics, settings kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pygame
import pytest

from game.client import app as app_module
from game.client import launch
from game.client.controller import MatchController, SeatConfig
from game.client.saving import save_game, start_match
from game.client.settings import Settings
from game.engine import PRESETS
from game.saves import DataStore
from tests.client_support import click, make_app, press, run_until, top_name


def begin(app, rules, seats, seed):
    """Deal a game as the new-game form does, and show its table."""
    start_match(app, rules, seats, seed)
    app.stack.apply_requests()
    app.frame(1 / 60)


def table(app) -> MatchController:
    controller = app.table_controller()
    assert isinstance(controller, MatchController), app.stack.scenes
    return controller


def play_human_moves(app, moves: int, seed: int = 0) -> None:
    """The human seat plays ``moves`` legal actions through the table's queue."""
    chooser = random.Random(seed)
    for _ in range(moves):
        controller = table(app)
        if not run_until(app, lambda c=controller: c.match.status != "playing" or (
                c.seats[c.match.to_act].is_human and not c.queue
                and top_name(app) in ("TableScene", "SuitPickerScene")), 3000):
            break
        if controller.match.status != "playing":
            break
        controller.submit(chooser.choice(controller.match.legal_actions()), controller.match.to_act)
        app.frame(1 / 60)


def menu_buttons(app) -> list[str]:
    return [c.element.text for c in app.stack.top.controls]


def open_menu(app) -> None:
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)


def activate(app, text_start: str) -> None:
    """Tap the menu button whose label starts with ``text_start``."""
    for control in app.stack.top.controls:
        if control.element.text.startswith(text_start):
            click(app, control.element.rect.center)
            return
    raise AssertionError(f"no button {text_start!r} in {menu_buttons(app)}")


def solo_seats(*levels: str) -> list[SeatConfig]:
    return [SeatConfig("human")] + [SeatConfig("computer", lv) for lv in levels]


def test_quitting_mid_game_then_continue_resumes_exactly_that_game():
    first = make_app()
    begin(first, PRESETS["points"], solo_seats("easy", "medium"), seed=4)
    play_human_moves(first, 6)
    controller = table(first)  # stop on the human's turn, so nothing moves before the comparison
    assert run_until(first, lambda: controller.seats[controller.match.to_act].is_human
                     and not controller.queue)
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window is closed
    first.frame(1 / 60)
    assert not first.running
    first.shutdown()
    saved = table(first).to_save()
    pygame.display.quit()

    second = make_app()
    try:
        open_menu(second)
        label = menu_buttons(second)[0]
        match = saved.match
        number, score = match.round.number, match.scores[0]
        assert label.startswith(f"Continue: Points game, round {number}, you {score} – ")
        press(second, pygame.K_RETURN)  # Continue has the focus
        assert run_until(second, lambda: top_name(second) == "TableScene", 30)
        resumed = table(second)
        assert resumed.match == match
        assert resumed.rng.getstate() == saved.rng
        assert [s.level for s in resumed.seats] == ["medium", "easy", "medium"]
    finally:
        second.store.flush()
        pygame.display.quit()


def test_a_hot_seat_game_resumes_behind_the_handoff_cover(app):
    begin(app, PRESETS["classic"], [SeatConfig("human"), SeatConfig("human")], seed=2)
    play_human_moves(app, 3)
    open_menu(app)
    activate(app, "Continue: Same device: Classic")
    assert run_until(app, lambda: top_name(app) == "HandoffScene", 30)


def test_an_unreadable_save_is_reported_kept_and_its_backup_offered(app):
    store = app.store
    backup = MatchController(*_duel(1))
    store.games.write("solo", backup.to_save())
    store.flush()  # written one after the other (queued writes of one file keep only the newest)
    store.games.write("solo", MatchController(*_duel(2)).to_save())  # the first becomes the backup
    store.flush()
    path = store.games.path("solo")
    path.write_bytes(path.read_bytes()[:200])  # cut short, as by a full disk
    fresh = DataStore()
    app.store = fresh
    open_menu(app)
    text = " ".join(e.html_text for e in app.stack.top.manager.get_root_container().elements
                    if hasattr(e, "html_text"))
    assert "solo saved game could not be read: the file is incomplete or damaged" in text
    assert len(path.read_bytes()) == 200  # reading it changed nothing
    activate(app, "Use the backup: Duel, round 1")
    assert run_until(app, lambda: top_name(app) == "TableScene", 30)
    assert table(app).match == backup.match
    fresh.flush()
    assert len((path.parent / "solo.huit.corrupt").read_bytes()) == 200  # kept aside, never deleted
    assert fresh.games.read("solo").match == table(app).match


def _duel(seed: int):
    from game.engine import Match

    return Match(PRESETS["duel"], 2, seed), solo_seats("easy")


def test_a_new_game_sets_an_unreadable_save_aside(app):
    path = app.store.games.path("solo")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00" * 64)
    open_menu(app)
    assert not any(b.startswith("Continue") for b in menu_buttons(app))
    activate(app, "Solo against the computer")
    assert top_name(app) == "NewGameScene"
    activate(app, "Start")
    assert top_name(app) == "TableScene"
    app.store.flush()
    assert (path.parent / "solo.huit.corrupt").read_bytes() == b"\x00" * 64
    assert app.store.games.read("solo").match == table(app).match


def test_clear_data_asks_first_then_deletes_and_says_what(app):
    begin(app, PRESETS["duel"], solo_seats("easy"), seed=1)
    app.settings.speed = "fast"
    app.save_settings()
    app.store.flush()
    root = app.store.root
    open_menu(app)
    activate(app, "Settings")
    activate(app, "Clear data")
    assert top_name(app) == "ClearDataScene"
    activate(app, "Cancel")
    assert (root / "solo.huit").exists() and (root / "settings.json").exists()
    activate(app, "Clear data")
    activate(app, "Delete everything")
    scene = app.stack.top
    assert scene.done == "Deleted: 1 saved game(s), the settings."
    assert not (root / "solo.huit").exists() and not (root / "settings.json").exists()
    assert app.settings.speed == "normal"
    activate(app, "Back")  # back in the settings: unchanged defaults are not written again
    activate(app, "Back")
    app.store.flush()
    assert not (root / "settings.json").exists()
    assert not any(b.startswith("Continue") for b in menu_buttons(app))


def test_a_finished_solo_game_is_counted_and_shown_in_statistics(app):
    begin(app, PRESETS["duel"], solo_seats("easy"), seed=3)
    play_human_moves(app, 400)
    controller = table(app)
    assert run_until(app, lambda: controller.match.status == "match_over", 3000)
    app.frame(1 / 60)
    app.store.flush()
    assert not app.store.games.exists("solo")  # nothing left to continue
    stats = app.store.read_statistics()
    record = stats.records["duel"]["easy"]
    assert record.games == 1
    save_game(app, controller)  # saving again (on quit) does not count it twice
    assert app.store.read_statistics().records["duel"]["easy"].games == 1
    open_menu(app)
    activate(app, "Statistics")
    scene = app.stack.top
    assert top_name(app) == "StatisticsScene" and scene.preset_name == "duel"
    assert scene.rows == [("easy", record)]
    scene.draw(app.screen)
    press(app, pygame.K_RIGHT)  # the rules chooser has the focus
    assert scene.preset_name == "classic" and scene.rows == []


def test_abandoning_a_colors_game_costs_ranking_points(app):
    begin(app, PRESETS["colors"], solo_seats("medium"), seed=1)
    app.store.flush()
    begin(app, PRESETS["colors"], solo_seats("medium"), seed=2)
    app.store.flush()
    assert app.store.read_statistics().xp == -20


def test_settings_changed_in_the_settings_screen_are_kept_for_the_next_run(app):
    open_menu(app)
    activate(app, "Settings")
    activate(app, "Animation speed")
    activate(app, "Back")
    app.store.flush()
    assert Settings.from_json(DataStore().settings.read()).speed == "slow"  # the one after "instant"


def test_the_new_game_form_remembers_the_last_choices(app):
    app.settings.default_levels = ["human", "hard", "easy", "medium", "medium", "medium", "medium"]
    app.settings.last_preset, app.settings.last_players = "points", {"points": 3}
    open_menu(app)
    activate(app, "Solo against the computer")
    activate(app, "Start")
    controller = table(app)
    assert controller.match.rules.name == "points"
    assert [s.level for s in controller.seats[1:]] == ["hard", "easy"]
    app.store.flush()
    assert Settings.from_json(DataStore().settings.read()).last_players == {"points": 3}


def test_a_kiosk_going_idle_keeps_the_game_to_continue():
    kiosk = make_app(kiosk=True)
    try:
        begin(kiosk, PRESETS["classic"], solo_seats("medium"), seed=5)
        play_human_moves(kiosk, 2)
        kiosk.frame(200.0)
        assert top_name(kiosk) == "MenuScene"
        assert menu_buttons(kiosk)[0].startswith("Continue: Classic, round 1")
    finally:
        kiosk.store.flush()
        pygame.display.quit()


def test_main_reads_settings_from_the_data_dir_flag(tmp_path, monkeypatch):
    folder = tmp_path / "kiosk-volume"
    DataStore(folder, background=False).settings.write(Settings(language="fr", speed="slow").to_json())
    seen = {}

    def fake_run(self):
        seen["app"] = self
        self.shutdown()

    monkeypatch.setattr(app_module.App, "run", fake_run)
    try:
        assert launch.main(["--data-dir", str(folder), "--size", "1024x600"]) == 0
        started = seen["app"]
        assert started.store.root == folder
        assert (started.settings.language, started.settings.speed) == ("fr", "slow")
        assert started.notice == ""
    finally:
        from game.client import i18n

        i18n.set_language("en")
        pygame.display.quit()


def test_the_cores_flag_limits_what_the_computer_players_use(tmp_path, monkeypatch):
    from game.ai import parallel as helpers

    monkeypatch.setattr(helpers.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5, 6, 7}, raising=False)
    monkeypatch.setattr(helpers, "_ALLOWED", None)
    monkeypatch.setattr(app_module.App, "run", lambda self: self.shutdown())
    try:
        assert helpers.default_helpers() == helpers.MAX_HELPERS
        assert launch.main(["--data-dir", str(tmp_path), "--cores", "2"]) == 0
        assert helpers.default_helpers() == 1
        assert launch.main(["--data-dir", str(tmp_path), "--cores", "1"]) == 0
        assert helpers.default_helpers() == 0  # Hard searches alone on the game's own core
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("bad", ["0", "-2", "two"])
def test_a_bad_cores_flag_is_refused_with_the_reason(bad, capsys):
    with pytest.raises(SystemExit):
        launch.main(["--cores", bad])
    assert "--cores" in capsys.readouterr().err


def test_unreadable_settings_are_reported_on_the_menu(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "settings.json").write_bytes(b"HUIT settings 99\n{}\n{}")
    seen = {}
    monkeypatch.setattr(app_module.App, "run", lambda self: seen.setdefault("app", self))
    try:
        launch.main(["--data-dir", str(folder), "--lang", "en"])
        assert "newer version of Huit" in seen["app"].notice
    finally:
        pygame.display.quit()


def test_clear_data_is_offered_only_away_from_a_game(app):
    begin(app, PRESETS["duel"], solo_seats("easy"), seed=1)
    from game.client.scenes.settings_scene import SettingsScene

    app.stack.push(SettingsScene(app))
    app.stack.apply_requests()
    assert not any(b.startswith("Clear data") for b in menu_buttons(app))
    open_menu(app)
    activate(app, "Settings")
    assert any(b.startswith("Clear data") for b in menu_buttons(app))


def test_a_damaged_undo_history_means_no_undo_not_a_crash():
    from game.engine import Match

    controller = MatchController(Match(PRESETS["classic"], 2, 3), solo_seats("easy"), rng=random.Random(1))
    controller._undo = [10**6]  # an undo point past the match's log, as a damaged save could hold
    assert controller.can_undo
    assert controller.undo() is False and not controller.can_undo


def test_the_statistics_screen_survives_an_unknown_last_preset(app):
    app.settings.last_preset = "crazy"
    open_menu(app)
    activate(app, "Statistics")
    press(app, pygame.K_RIGHT)
    assert app.stack.top.preset_name in PRESETS
    assert Settings.from_json({"last_preset": "crazy"}).last_preset == "classic"


def test_continue_resumes_a_format_one_save_written_by_an_earlier_version(app):
    folder = Path(__file__).parent / "data" / "format1"
    path = app.store.games.path("solo")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((folder / "solo_points_second_deal.huit").read_bytes())
    open_menu(app)
    assert menu_buttons(app)[0].startswith("Continue: Points game, round 2, you 0 – ")
    press(app, pygame.K_RETURN)  # Continue has the focus
    assert run_until(app, lambda: top_name(app) == "TableScene", 30)
    resumed = table(app)
    expected = json.loads((folder / "expected.json").read_text())["solo_points_second_deal"]["loaded"]
    assert str(resumed.match) == expected["describe"]
    assert [c.code for c in resumed.match.round.pile] == expected["pile"]
    play_human_moves(app, 1)
    app.store.flush()
    assert path.read_bytes().startswith(b"HUIT game 2\n")  # saved again after a move, in the new format
    assert app.store.games.read("solo").match == resumed.match
