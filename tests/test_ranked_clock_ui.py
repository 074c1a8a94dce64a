"""Online, the table shows the clock the server runs for whoever is to act (issue 32: a ranked
game's turn clock): a player kept waiting by a staller sees that the wait has an end."""

from __future__ import annotations

import pygame

from game.client import ui
from game.client.remote import RemoteController
from game.client.scenes.table import TableScene
from game.engine import PRESETS, Match
from game.net.wire import view_to_json
from tests.client_support import STEP, make_app
from tests.test_table_contract import ScriptedRoom


def shown_timer(app) -> list[str]:
    """The texts of the frame drawn now that look like the turn clock ("37 s")."""
    app.stack.top.dirty = True
    with ui.recording() as drawn:
        app.frame(STEP)
    return [item.text for item in drawn if item.text.endswith(" s") and item.text[:-2].isdigit()]


def test_online_the_table_shows_the_opponents_clock_on_their_turn():
    app = make_app((1024, 600))
    match = Match(PRESETS["duel"], 2, 3, first=1)  # the other player begins
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    assert table.view.to_act == 1 and table.view.seat == 0
    room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                       "events": [], "timer": 37.0, "autopilot": False})
    app.frame(STEP)
    assert shown_timer(app) == ["37 s"]  # the staller's time, counting down where everyone sees it
    room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                       "events": [], "timer": None, "autopilot": False})
    app.frame(STEP)
    assert shown_timer(app) == []  # no clock runs (a computer's turn, an untimed room): none shown
    pygame.display.quit()

