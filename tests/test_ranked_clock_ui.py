"""A ranked online game that someone stalls, as the player kept waiting sees it (issue 32): the
table shows the clock the server runs for whoever is to act (the wait has an end), and leaving
while the server says the others are absent is explained as no abandon (theirs is)."""

from __future__ import annotations

import pygame

from game.client import ui
from game.client.remote import RemoteController
from game.client.scenes.table import TableScene
from game.engine import PRESETS, Match
from game.net.wire import view_to_json
from tests.client_support import STEP, close_online_app, make_app, press, tap, top_name
from tests.support import make_match
from tests.test_stakes_ui import StakesRoom, drawn_texts, table_for
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



def test_no_clock_is_shown_for_a_player_who_is_away():
    # The trial's case: the server runs no clock for a seat whose person left, so the table must
    # not count one down to a red "0 s" that never ends; it says whom it waits for instead.
    app = make_app((1024, 600))
    match = Match(PRESETS["duel"], 2, 3, first=1)
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    table = TableScene(app, controller)
    app.start(table)
    app.frame(STEP)
    room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                       "events": [], "timer": 37.0, "autopilot": False})
    app.frame(STEP)
    assert shown_timer(app) == ["37 s"]
    room._room_status()
    away = room.inbox[-1]
    away["seats"][1]["connected"] = False
    away["waiting_for"] = [1]
    app.frame(STEP)
    assert shown_timer(app) == []
    pygame.display.quit()


class StalledRoom(StakesRoom):
    """A ranked duel whose status says the other player (seat 1) is absent."""

    def _room_status(self) -> None:
        super()._room_status()
        self.inbox[-1]["absent"] = [1]


def leave_dialog_texts(app) -> list[str]:
    press(app, pygame.K_ESCAPE)
    menu = next(b for b in app.stack.top.buttons if b.label == "Back to menu")
    tap(app, menu.rect.center)
    assert top_name(app) == "LeaveRankedScene"
    return drawn_texts(app)


def test_leaving_a_game_the_other_side_stalls_is_explained_as_no_abandon():
    app = make_app((1024, 600), player_name="Ana")
    room = StalledRoom(make_match("duel", ["3H 9C", "5S 9D"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table, controller = table_for(app, room)
    assert controller.leaving_is_abandon and controller.others_absent
    texts = leave_dialog_texts(app)
    assert any("leaving now is no abandon" in t for t in texts)
    assert not any("5 minutes" in t for t in texts)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)  # Leave
    assert top_name(app) == "MenuScene" and room.status == "closed"
    close_online_app(app)


def test_while_the_other_side_plays_leaving_still_warns_of_the_abandon():
    app = make_app((1024, 600), player_name="Ana")
    room = StakesRoom(make_match("duel", ["3H 9C", "5S 9D"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table, controller = table_for(app, room)
    assert not controller.others_absent
    texts = leave_dialog_texts(app)
    assert any("5 minutes" in t for t in texts) and not any("no abandon" in t for t in texts)
    close_online_app(app)


class VotingRoom(StakesRoom):
    """A ranked duel whose other player (seat 1) abandoned; the status names who may vote."""

    electors: list[int] | None = None

    def _room_status(self) -> None:
        super()._room_status()
        if self.electors is not None:
            self.inbox[-1]["electors"] = self.electors


def test_a_player_who_lost_a_turn_to_the_clock_is_not_asked_to_vote():
    app = make_app((1024, 600), player_name="Ana")
    room = VotingRoom(make_match("duel", ["3H 9C", "5S 9D"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table, controller = table_for(app, room)
    room.votes = [{"seat": 1, "yes": 0, "no": 0, "voters": 0, "voted": [], "penalised": False}]
    room.electors = []  # Ana lost a turn to the clock in this game: the server says she does not vote
    room.tell()
    for _ in range(5):
        app.frame(STEP)
    assert controller.vote_due is None and top_name(app) == "TableScene"
    room.electors = [0]
    room.tell()
    for _ in range(5):
        app.frame(STEP)
    assert controller.vote_due == 1 and top_name(app) == "VoteScene"
    close_online_app(app)
