"""The controls around the shown seat never crowd each other: the Sort control above the hand, the
autopilot toggle, the action buttons (Hint among them), Menu, and online the reactions button (☺)
by the name plate, on real tables at 1024×600, 1280×800 and 1920×1080, for 2 and 7 seats."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import i18n
from game.client.controller import MatchController, SeatConfig
from game.client.layout import overlaps
from game.client.reactions import button_rect
from game.client.scenes.table import TableScene
from game.engine import Match, preset
from tests.client_support import make_app, run_until
from tests.support import make_match
from tests.test_stakes_ui import StakesRoom, table_for

SIZES = [(1024, 600), (1280, 800), (1920, 1080)]


def controls(table: TableScene) -> dict[str, pygame.Rect]:
    """Every control and box the shown seat's corner holds, by name, as the table placed them."""
    layout = table.layout
    out = {f"button {b.label}": b.rect for b in table.buttons}
    for name, button in (("sort", table.sort_button), ("autopilot", table.autopilot_button)):
        assert button is not None, name
        out[name] = button.rect
    out["reactions"] = button_rect(layout)  # drawn online; its place is kept everywhere
    out["menu"] = pygame.Rect(layout.menu_button)
    out["plate"] = pygame.Rect(layout.me.box)
    return out


def others(table: TableScene, players: int) -> dict[str, pygame.Rect]:
    """What the controls must stay clear of: the other seats, the corners, the middle, the hand."""
    layout = table.layout
    out = {f"seat {i + 1}": pygame.Rect(spot.box) for i, spot in enumerate(layout.seat_spots(players - 1))}
    out.update(info=pygame.Rect(layout.info), log=pygame.Rect(layout.log), ring=pygame.Rect(layout.ring),
               message=pygame.Rect(layout.message_box), timer=pygame.Rect(layout.timer_box))
    out.update({f"card {i}": rect for i, rect in enumerate(table.hand_rects)})
    return out


def solo_table(app, players: int) -> TableScene:
    """A solo game with undo allowed, the person's turn: Draw, Undo-ready and Hint on the column."""
    rules = preset("points" if players > 4 else "classic", {"undo": True})
    match = Match(rules, players, seed=3, first=0)
    seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * (players - 1)
    table = TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0))
    app.start(table)
    assert run_until(app, lambda: table.view.to_act == 0 and not table.animator.busy, 600)
    return table


def assert_clear(table: TableScene, players: int) -> None:
    mine, theirs = controls(table), others(table, players)
    size = table.app.size
    names = list(mine)
    for i, a in enumerate(names):
        assert pygame.Rect(0, 0, *size).contains(mine[a]), (a, mine[a])
        for b in names[i + 1:]:
            assert not overlaps(mine[a], mine[b]), (size, players, a, mine[a], b, mine[b])
        for b, rect in theirs.items():
            assert not overlaps(mine[a], rect), (size, players, a, mine[a], b, rect)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [2, 7])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sort_autopilot_hint_and_reactions_do_not_overlap_at_a_solo_table(size, players, lang):
    i18n.set_language(lang)
    app = make_app(size)
    try:
        table = solo_table(app, players)
        assert any(b.label == i18n.tr("table.hint") for b in table.buttons)
        assert_clear(table, players)
    finally:
        pygame.display.quit()
        i18n.set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_online_the_reactions_button_stands_clear_of_the_sort_control(size):
    app = make_app(size, player_name="Ana")
    try:
        room = StakesRoom(make_match("duel", ["3H 9C", "5S 9D"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
        table, _ = table_for(app, room)
        assert table.reactions is not None and table.reactions.open(table.view)
        assert_clear(table, 2)
    finally:
        pygame.display.quit()
