"""Undo is named only where a turn can be taken back: solo play. The same-device and online forms do
not offer it, and the rules in force of a same-device table do not list it."""

from __future__ import annotations

import pygame

from game.client.controller import SeatConfig
from game.client.saving import start_match
from game.engine import PRESETS
from tests.client_support import labels, open_menu, press, tap_label, top_name


def open_form(app, mode: str) -> None:
    app.settings.last_preset = "classic"  # the one preset with Undo on
    open_menu(app)
    tap_label(app, mode)
    assert top_name(app) == "NewGameScene"


def test_the_solo_form_offers_undo(app):
    open_form(app, "Solo against the computer")
    assert [t for t in labels(app) if t.startswith("Undo:")]


def test_the_same_device_form_does_not_offer_undo(app):
    open_form(app, "Same device")
    assert not [t for t in labels(app) if t.startswith("Undo")]


def moves_rules(app, seats) -> str:
    """The rules in force as the move log's page lists them (M at the table)."""
    start_match(app, PRESETS["classic"], seats, seed=3)
    app.stack.apply_requests()
    for _ in range(20):
        app.frame(1 / 60)
        if top_name(app) == "HandoffScene":  # same device: the first person takes it
            press(app, pygame.K_RETURN)
    assert top_name(app) == "TableScene"
    table = app.stack.top
    app.draw()
    line = next(iter(table.painter._rules_lines.values()))  # what the table's corner shows
    press(app, pygame.K_m)
    assert top_name(app) == "MovesScene"
    return line + " | " + app.stack.top.rules_text()


def test_a_same_device_table_does_not_list_undo_among_the_rules(app):
    shown = moves_rules(app, [SeatConfig("human"), SeatConfig("human")])
    assert "Undo" not in shown and "Reshuffle" in shown  # the other rules are still listed


def test_a_solo_table_lists_undo(app):
    shown = moves_rules(app, [SeatConfig("human"), SeatConfig("computer")])
    assert shown.count("Undo") == 2
