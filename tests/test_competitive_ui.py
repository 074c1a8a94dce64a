"""Room codes typed by hand in the lobby, and competitive rooms marked (issue 31, sections 2 and 3),
through real events: a code read aloud typed in lower case with dashes joins the room, a
look-alike is named instead of "no such room", and the crossed swords show on the public
rooms, quick match, the waiting room and the table of a ranked room, while a friendly table
says it does not count."""

from __future__ import annotations

import pygame
import pytest

from game.client import ui
from game.client.competitive_art import swords_image
from game.client.remote import RemoteController
from game.client.scenes.server_lobby import ServerLobbyScene
from game.client.scenes.table import TableScene
from game.client.scenes.waiting_room import WaitingRoomScene
from game.engine import PRESETS, Match
from game.net.client import Server
from game.net.replies import from_server
from game.net.wire import view_to_json
from tests.client_support import make_app, top_name
from tests.test_online_ui import (  # app and server: the fixtures
    Friend,
    app,
    open_lobby,
    remote,
    server,
    type_into,
    until,
)
from tools.online_shots import StillConnection

__all__ = ["app", "server"]
CODE = "K7M-4AX-P9T-E3F-HWR"
SEATS = [{"kind": "human", "level": None, "name": "Ana", "tag": "3F2", "connected": True, "accepted": False},
         {"kind": "human", "level": None, "name": "Ben", "tag": "A07", "connected": True, "accepted": False}]


def test_a_code_typed_by_hand_in_lower_case_with_dashes_joins_the_room(app, server):
    friend = Friend(server.port, {"type": "create", "preset": "duel", "options": {},
                                  "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ben"})
    try:
        assert until(app, lambda: friend.drain() or bool(friend.messages))
        code = friend.messages[0]["room"]
        open_lobby(app)
        type_into(app, "server", f"127.0.0.1:{server.port}")
        typed = code.lower().replace("-", " - ")  # "k7m - 4ax - …" as a person types what is read out
        type_into(app, "link", typed)
        assert until(app, lambda: top_name(app) == "TableScene"), app.stack.top.__dict__.get("message")
        assert remote(app).view().seat == 1 and remote(app).room_id == code
    finally:
        friend.close()


def test_a_look_alike_in_a_typed_code_is_named_not_sent(app, server):
    open_lobby(app)
    type_into(app, "server", f"127.0.0.1:{server.port}")
    type_into(app, "link", "k7m-4ax-p9t-e3f-hw0")
    assert top_name(app) == "LobbyScene"
    message = app.stack.top.message
    assert "A room code has no “0”" in message and "3 4 7 9 A C E F H J K M P R T W X Y" in message


def test_a_code_without_a_server_asks_for_the_server(app):
    open_lobby(app)
    assert app.stack.top.entries["server"].get_text() == ""
    type_into(app, "link", "k7m-4ax-p9t-e3f-hwr")
    assert top_name(app) == "LobbyScene"
    assert app.stack.top.message == "Type a server address (HOST:PORT), or host on this computer."


def _remote(kind: str, ranked: bool, state: str = "waiting") -> RemoteController:
    controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
    controller.receive({"type": "joined", "room": CODE, "seat": 0, "players": 2})
    controller.receive({"type": "room", "room": CODE, "preset": "duel", "options": {}, "players": 2,
                        "state": state, "seats": SEATS, "waiting_for": [], "results": [], "deal": 1,
                        "kind": kind, "ranked": ranked, "votes": []})
    return controller


def _shows_swords(app, box: pygame.Rect) -> bool:
    """Whether the frame on screen holds the swords' picture in ``box`` (their silver and gold)."""
    side = min(box.w, box.h)
    picture = swords_image(side)
    at = picture.get_rect(center=box.center)
    screen = app.screen
    hits = 0
    for x in range(0, side, max(1, side // 12)):
        for y in range(0, side, max(1, side // 12)):
            colour = picture.get_at((x, y))
            if colour.a == 255 and screen.get_at((at.x + x, at.y + y))[:3] == colour[:3]:
                hits += 1
    return hits >= 5


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_waiting_room_of_a_competitive_room_shows_the_swords_with_no_further_input(size):
    app = make_app(size)
    app.start(WaitingRoomScene(app, _remote("public", False)))
    app.frame(1 / 60)  # one frame, no event: the screen is current
    scene = app.stack.top
    assert len(scene.marks.boxes) == 1 and _shows_swords(app, scene.marks.boxes[0])
    app.start(WaitingRoomScene(app, _remote("private", False)))
    app.frame(1 / 60)
    assert app.stack.top.marks.boxes == []  # a room among friends: its note says it does not count


@pytest.mark.parametrize(("kind", "ranked", "words"), [("public", True, "Ranked"),
                                                      ("private", False, "Friendly: not ranked")])
def test_the_table_says_whether_the_game_counts(kind, ranked, words):
    app = make_app((1024, 600))
    controller = _remote(kind, ranked, "playing")
    match = Match(PRESETS["duel"], 2, 5)
    controller.receive({"type": "update", "room": CODE, "view": view_to_json(match.view(0)), "events": [],
                        "timer": None})
    app.start(TableScene(app, controller))
    with ui.recording() as drawn:
        app.frame(1 / 60)  # no event: the first frame already says it
    painter = app.stack.top.painter
    assert painter.ranked is ranked
    if ranked:
        assert painter.ranked_drawn is not None and _shows_swords(app, painter.ranked_drawn)
    else:
        assert painter.ranked_drawn is None
    assert any(words in item.text for item in drawn)


def test_the_public_rooms_and_quick_match_carry_the_swords():
    app = make_app((1024, 600))
    lobby = ServerLobbyScene(app, Server("huit.example.org", 443, True),
                             connection=StillConnection())  # type: ignore[arg-type]
    rooms = [{"room": f"room{i}", "preset": "duel", "options": {}, "players": 2, "taken": 1, "free": 1,
              "computers": 0, "since": 900.0, "seats": [{"kind": "human", "name": "Ben", "tag": "A07"},
                                                          {"kind": "free"}]} for i in range(2)]
    message = from_server({"type": "lobby", "rooms": rooms, "listed": 2, "now": 1000.0, "v": 2})
    assert message is not None
    lobby.take(message)
    lobby.rebuild()
    app.start(lobby)
    app.frame(1 / 60)
    boxes = app.stack.top.marks.boxes
    assert len(boxes) == 3  # two rooms and quick match's Find a game
    assert all(_shows_swords(app, box) for box in boxes)
