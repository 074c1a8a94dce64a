"""The settings screen, seen from the game: real taps and keys change each setting, what it
changes takes effect at once, and a changed setting is there again at the next start."""

from __future__ import annotations

import pygame

from game.client import app as app_module
from game.client import i18n, launch
from game.client.i18n import tr
from game.client.settings import Settings
from game.saves import DataStore
from tests.client_support import (
    label_starting,
    labels,
    open_menu,
    press,
    tap_label,
    top_name,
)

ROWS = ("settings.language", "settings.speed", "settings.volume", "settings.mute", "settings.four_color",
        "settings.left_handed", "settings.undo")
"""The settings in the order the screen lists them (focus order)."""



def open_settings(app) -> None:
    open_menu(app)
    tap_label(app, tr("menu.settings"))
    assert top_name(app) == "SettingsScene"


def row(app, key: str) -> str:
    """The whole label of a setting's button, e.g. ``Volume: 80%``."""
    return label_starting(app, tr("fmt.pair", label=tr(key), value=""))


def value(app, key: str) -> str:
    """What a setting's button says it is set to (``80%``, ``on``, ``Instant``…)."""
    return row(app, key)[len(tr("fmt.pair", label=tr(key), value="")):]


def step(app, key: str, *, touch: bool = True) -> str:
    """Tap a setting once; its new value."""
    tap_label(app, row(app, key), touch=touch)
    return value(app, key)


def settings_file(app):
    return app.store.root / "settings.json"


def test_settings_open_from_the_menu_and_escape_returns_to_it(app):
    open_settings(app)
    shown = labels(app)
    for i, key in enumerate(ROWS):
        assert shown[i] == row(app, key)
    assert shown[-1] == tr("settings.back")
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"


def test_a_tap_steps_each_setting_round_its_values(app):
    open_settings(app)
    assert value(app, "settings.speed") == "Instant"
    assert [step(app, "settings.speed") for _ in range(4)] == ["Slow", "Normal", "Fast", "Instant"]
    assert value(app, "settings.volume") == "80%"
    assert [step(app, "settings.volume", touch=False) for _ in range(3)] == ["90%", "100%", "0%"]
    assert app.sound.volume == 0.0
    for key, before, after in (("settings.mute", "off", "on"), ("settings.four_color", "off", "on"),
                               ("settings.left_handed", "off", "on"), ("settings.undo", "on", "off")):
        assert value(app, key) == before
        assert step(app, key) == after
        assert step(app, key) == before


def test_left_and_right_step_the_focused_setting_both_ways(app):
    open_settings(app)
    press(app, pygame.K_DOWN)  # Language → Animation speed
    press(app, pygame.K_LEFT)
    assert value(app, "settings.speed") == "Fast"
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert value(app, "settings.speed") == "Slow"
    press(app, pygame.K_DOWN)  # → Volume
    for _ in range(3):
        press(app, pygame.K_LEFT)
    assert value(app, "settings.volume") == "50%"
    assert app.sound.volume == 0.5
    assert value(app, "settings.speed") == "Slow"  # the keys changed only the focused setting


def test_enter_flips_the_focused_setting_and_up_wraps_round_to_back(app):
    open_settings(app)
    for _ in range(ROWS.index("settings.four_color")):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert value(app, "settings.four_color") == "on"
    assert value(app, "settings.left_handed") == "off"
    for _ in range(ROWS.index("settings.four_color") + 1):
        press(app, pygame.K_UP)  # past Language, round to Back
    press(app, pygame.K_RETURN)
    assert top_name(app) == "MenuScene"
    assert app.settings.four_color


def test_mute_silences_the_clicks_and_unmute_brings_them_back(app):
    open_settings(app)
    assert step(app, "settings.mute") == "on"
    assert app.sound.muted
    assert step(app, "settings.mute") == "off"
    assert not app.sound.muted
    heard = app.sound.plays
    step(app, "settings.speed")
    assert app.sound.plays > heard
    assert step(app, "settings.mute") == "on"
    heard = app.sound.plays
    step(app, "settings.speed")
    step(app, "settings.volume")
    assert app.sound.plays == heard


def test_the_language_changes_the_screen_at_once_and_the_menu_after_it(app):
    open_settings(app)
    assert step(app, "settings.language") == "Français"
    assert i18n.language() == "fr"
    assert row(app, "settings.speed") == "Vitesse des animations : Instantanée"
    assert labels(app)[-1] == "Retour"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "MenuScene"
    assert labels(app)[:3] == ["Seul contre l'ordinateur", "Même appareil", "Jouer avec un ami"]
    tap_label(app, "Réglages")
    assert step(app, "settings.language") == "Español"  # each language by its own name, then round
    assert row(app, "settings.speed") == "Velocidad de las animaciones: Instantánea"
    assert step(app, "settings.language") == "Deutsch"
    assert row(app, "settings.speed") == "Animationstempo: Sofort"
    assert step(app, "settings.language") == "English"
    assert row(app, "settings.undo") == "Allow undo: on"


def test_changed_settings_are_kept_and_the_next_start_reads_them_back(app, monkeypatch):
    open_settings(app)
    step(app, "settings.speed")  # Slow
    for _ in range(3):
        step(app, "settings.volume")  # 0%
    step(app, "settings.volume")  # 10%
    for key in ("settings.mute", "settings.four_color", "settings.left_handed", "settings.undo"):
        step(app, key)
    step(app, "settings.language")  # last: the labels above are read in English
    tap_label(app, "Retour")
    assert top_name(app) == "MenuScene"
    assert app.store.flush()
    assert settings_file(app).is_file()

    started = {}
    monkeypatch.setattr(app_module.App, "run", lambda self: started.setdefault("app", self))
    i18n.set_language("en")  # the next start must find French in the file, not in memory
    assert launch.main(["--data-dir", str(app.store.root)]) == 0
    again = started["app"]
    kept = again.settings
    assert (kept.language, kept.speed, kept.volume) == ("fr", "slow", 0.1)
    assert (kept.muted, kept.four_color, kept.left_handed, kept.undo_allowed) == (True, True, True, False)
    assert again.sound.muted and again.sound.volume == 0.1
    assert top_name(again) == "MenuScene" and labels(again)[0] == "Seul contre l'ordinateur"
    again.store.flush()


def test_settings_changed_and_changed_back_are_not_written(app):
    open_settings(app)
    step(app, "settings.four_color")
    step(app, "settings.four_color")
    press(app, pygame.K_ESCAPE)
    assert app.store.flush()
    assert not settings_file(app).exists()
    open_settings(app)
    step(app, "settings.left_handed")
    press(app, pygame.K_ESCAPE)
    assert app.store.flush()
    assert Settings.from_json(DataStore(app.store.root).settings.read()).left_handed
