"""A data folder that cannot be written (a file where the folder should be, a read-only or a full
disk): the menu, the settings and the table say so, with a reason a person understands; and the
writes a full disk leaves half done are cleaned away at the next start."""

from __future__ import annotations

import errno
import html
import os
import random

import pygame
import pytest

from game.client.app import App
from game.client.controller import MatchController, SeatConfig
from game.client.i18n import tr
from game.client.saving import watch
from game.client.scenes.table import TableScene
from game.client.settings import Settings
from game.saves import DataStore, safefile
from tests.client_support import STEP, open_menu, press, run_until, tap_label, top_name
from tests.hostile_support import start_game
from tests.support import make_match


def app_on(root, lang: str = "en") -> App:
    app = App((1280, 800), settings=Settings(language=lang, speed="instant"), sound=False,
              store=DataStore(root))
    pygame.event.clear()
    return app


def shown_texts(app: App) -> str:
    """Every text of the top pygame_gui screen's widgets, as one string."""
    out = []
    for element in app.stack.top.manager.get_sprite_group().sprites():
        text = getattr(element, "html_text", None) or getattr(element, "text", None)
        if isinstance(text, str):
            out.append(html.unescape(text))
    return " ".join(out)


def refuse_writes(monkeypatch, code: int, *, leave_empty: bool = False) -> None:
    """Every write in the data folder fails as a disk would with ``code`` (root can write anywhere,
    so a read-only or full disk is played, not made); ``leave_empty``: after creating the file."""
    def refuse(path, data, private=False):
        if leave_empty:
            path.write_bytes(b"")
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(safefile, "_write_synced", refuse)


@pytest.fixture
def folder_is_a_file(tmp_path):
    path = tmp_path / "data"
    path.write_text("not a folder")
    return path


def test_a_file_where_the_data_folder_should_be_is_said_on_the_menu_and_in_the_settings(folder_is_a_file):
    app = app_on(folder_is_a_file)
    try:
        open_menu(app)
        text = shown_texts(app)
        assert (f"Huit cannot save anything in its data folder ({folder_is_a_file}): the data folder is a "
                "file, not a folder. Games, settings and statistics will not be kept.") in text
        assert "File exists" not in text
        tap_label(app, tr("menu.settings"))
        assert top_name(app) == "SettingsScene"
        assert "These settings cannot be kept: the data folder is a file, not a folder." in shown_texts(app)
        press(app, pygame.K_ESCAPE)
        assert top_name(app) == "MenuScene"
    finally:
        pygame.display.quit()


def test_a_read_only_disk_is_said_on_the_menu_the_settings_and_the_table(tmp_path, monkeypatch):
    refuse_writes(monkeypatch, errno.EROFS)
    app = app_on(tmp_path)
    try:
        open_menu(app)
        assert "in its data folder" in shown_texts(app) and ": the disk is read-only." in shown_texts(app)
        tap_label(app, tr("menu.settings"))
        assert "These settings cannot be kept: the disk is read-only." in shown_texts(app)
        match = make_match("classic", ["3H 9H 4D", "5H 6S 2C"], "7H", "KD QD JD TD")
        controller = MatchController(match, [SeatConfig("human"), SeatConfig("computer")],
                                     rng=random.Random(1), speed=0)
        watch(app, controller)
        app.start(TableScene(app, controller))
        app.frame(STEP)
        press(app, pygame.K_RETURN)
        press(app, pygame.K_RETURN)  # a move: the game is saved, and cannot be
        # The save is written on its own thread: as many frames as it takes.
        assert run_until(app, lambda: app.stack.top.toast.startswith("Could not save"))
        assert app.stack.top.toast == "Could not save: the disk is read-only"
    finally:
        pygame.display.quit()


def test_a_full_disk_is_said_in_french_and_leaves_no_half_written_file(tmp_path, monkeypatch):
    refuse_writes(monkeypatch, errno.ENOSPC, leave_empty=True)
    app = app_on(tmp_path, "fr")
    try:
        open_menu(app)
        said = shown_texts(app)
        assert " : le disque est plein. Parties, réglages et statistiques ne seront pas gardés." in said
        tap_label(app, tr("menu.settings"))
        assert "Ces réglages ne pourront pas être gardés : le disque est plein." in shown_texts(app)
        app.save_settings()
        assert app.store.flush()
        assert app.store.writer.problem is not None and app.store.writer.problem.key == "full"
        assert not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())  # the failed write cleaned up
    finally:
        pygame.display.quit()


def test_a_folder_that_can_be_written_says_nothing(tmp_path):
    app = app_on(tmp_path)
    try:
        open_menu(app)
        assert "cannot save" not in shown_texts(app)
        assert sorted(p.name for p in tmp_path.iterdir()) == []  # the look left nothing behind
    finally:
        pygame.display.quit()


def test_empty_writes_a_full_disk_left_are_cleaned_at_the_next_start(tmp_path):
    (tmp_path / "online").mkdir()
    leftovers = ["solo.huit.tmp", "settings.json.tmp", "statistics.json.bak.tmp", "online/r1.json.tmp"]
    for name in leftovers:
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "notes.tmp").write_bytes(b"")  # not the game's: kept
    (tmp_path / "hotseat.huit.tmp").mkdir()  # a folder is never the game's to delete
    shown = start_game(tmp_path)
    assert shown.scene == "MenuScene"
    assert not any((tmp_path / name).exists() for name in leftovers)
    assert (tmp_path / "notes.tmp").exists() and (tmp_path / "hotseat.huit.tmp").is_dir()
