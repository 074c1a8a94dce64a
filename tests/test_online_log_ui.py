"""Online, the move log outlives leaving the table: a rejoined seat gets the deal so far (``earlier``)."""

from __future__ import annotations

import pygame

from game.net.client import parse_link
from tests.client_support import press, top_name
from tests.test_online_ui import (  # noqa: F401  (the fixtures)
    Friend,
    app,
    create_duel,
    open_lobby,
    play,
    remote,
    server,
    tap_button,
    until,
)


def test_a_rejoined_room_shows_the_moves_played_before_leaving(app, server):  # noqa: F811
    link = create_duel(app, server.port)
    _, port, room = parse_link(link)
    friend = Friend(port, {"type": "join", "room": room, "name": "Ben"})
    try:
        assert until(app, lambda: top_name(app) == "TableScene")
        play(app, friend, 4)
        assert until(app, lambda: top_name(app) == "TableScene" and remote(app).view().my_turn)
        before = app.stack.top.move_lines()
        assert len(before) >= 4
        press(app, pygame.K_ESCAPE)
        open_lobby(app)  # leaving the table leaves the room; the key stays on this device
        tap_button(app, f"Back to room {room}")
        assert until(app, lambda: top_name(app) == "TableScene")
        table = app.stack.top
        assert until(app, lambda: table.move_lines() == before)
    finally:
        friend.close()
