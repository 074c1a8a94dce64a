"""The owner of a public room frees a seat from the waiting room, by touch; the person freed is
told, in their language, and sent back to the lobby. A real App (dummy video driver) against a
real `ServerThread` on 127.0.0.1; the other player is a raw websocket client."""

from __future__ import annotations

import pytest

from game.client.i18n import tr
from tests.client_support import close_online_app, make_app, tap, top_name
from tests.test_lobby_ui import player, serve, server_lobby
from tests.test_online_ui import button, tap_button, until

HUMAN = {"kind": "human"}


@pytest.fixture
def server(tmp_path):
    thread = serve(tmp_path)
    yield thread
    thread.stop()


@pytest.fixture
def app():
    application = make_app((1024, 600), player_name="Ana")
    yield application
    close_online_app(application)


def labels(app) -> list[str]:
    return [getattr(c.element, "text", "") for c in app.stack.top.controls]


def open_public_room(app, server) -> str:
    """Through the lobby: a public classic room of three seats, created by the app's player."""
    app.settings.last_preset, app.settings.last_players = "classic", {"classic": 3}
    server_lobby(app, server.port)
    tap_button(app, "Create a public room")
    tap_button(app, "Create")
    assert until(app, lambda: top_name(app) == "WaitingRoomScene")
    assert until(app, lambda: len(server.server.rooms) == 1)
    (room_id,) = server.server.rooms
    return room_id


def test_the_owner_frees_a_seat_by_touch_and_the_guest_is_told(app, server):
    room_id = open_public_room(app, server)
    scene = app.stack.top
    assert until(app, lambda: scene.remote.status is not None)
    assert not [t for t in labels(app) if t == "Free the seat"]  # nobody to free yet
    ben = player(server.port, "Ben")
    assert ben.join(room_id)["type"] == "joined"
    assert until(app, lambda: "Free the seat" in labels(app))
    free = button(app, "Free the seat").element.rect
    assert free.height >= 40 and free.width >= 40  # touch-sized
    tap(app, free.center)  # by touch: no pointer moves, nothing else happens
    told = ben.until(lambda m: m["type"] == "error")
    assert told["code"] == "seat_freed"
    room = server.server.rooms[room_id]
    assert until(app, lambda: "Free the seat" not in labels(app))
    assert room.seats[ben.seat].key_hash is None and room.seats[ben.seat].player is None
    assert top_name(app) == "WaitingRoomScene"
    assert app.stack.top.seat_lines()[1] == "Seat 2: free: waiting for a player"


def join_bens_room(app, server):
    """Ben's public classic room of three seats, taken from the lobby by the app's player: Ben, and
    the waiting room."""
    ben = player(server.port, "Ben")
    ben.create("classic", [HUMAN, HUMAN, HUMAN], public=True)
    server_lobby(app, server.port)
    assert until(app, lambda: any(t.startswith("Classic · 1/3") for t in labels(app)))
    tap(app, next(c for c in app.stack.top.controls
                  if getattr(c.element, "text", "").startswith("Classic · 1/3")).element.rect.center)
    assert until(app, lambda: top_name(app) == "WaitingRoomScene")
    scene = app.stack.top
    assert until(app, lambda: scene.remote.status is not None and len(scene.seat_lines()) == 3)
    return ben, scene


def test_a_guest_sees_no_free_button_and_hears_why_when_freed(app, server):
    ben, scene = join_bens_room(app, server)
    assert "Free the seat" not in labels(app)  # only the owner frees seats
    ben.drain()
    (room_id,) = server.server.rooms
    assert app.store.keys.read(room_id) is not None  # in My rooms while the seat is ours
    ben.send(type="free_seat", seat=scene.remote.viewer)
    assert until(app, lambda: top_name(app) == "LobbyScene")
    assert app.stack.top.message == tr("online.error.seat_freed.owner") == (
        "The room's owner freed your seat: find another game in the lobby.")  # who freed it, said
    assert app.store.keys.read(room_id) is None  # its key opens nothing now: not in My rooms
    assert server.server.rooms[room_id].seats[1].key_hash is None


def test_a_guest_leaving_a_waiting_public_room_keeps_no_key_to_it(app, server):
    # The trial's case: leaving frees a guest's seat at once, so My rooms must not offer it again.
    _, scene = join_bens_room(app, server)
    (room_id,) = server.server.rooms
    assert app.store.keys.read(room_id) is not None
    scene.back()
    assert until(app, lambda: top_name(app) == "LobbyScene")
    assert app.store.keys.read(room_id) is None

