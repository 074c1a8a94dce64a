"""A room made under "Play with a friend" seats people at first; seat buttons a tap steps show ◂ ▸."""

from __future__ import annotations

from tests.client_support import labels, tap_label, top_name
from tests.test_online_ui import app, open_lobby, server, tap_button, type_into  # noqa: F401  (fixtures)


def test_a_new_friend_room_seats_people_not_computers(app, server):  # noqa: F811
    app.settings.default_levels = ["human", "hard", "easy", "medium", "medium", "medium", "medium"]
    app.settings.last_preset, app.settings.last_players = "classic", {"classic": 3}
    open_lobby(app)
    type_into(app, "server", f"127.0.0.1:{server.port}")
    tap_button(app, "Create a room")
    assert top_name(app) == "NewGameScene"
    form = app.stack.top
    assert not form.public  # a private room, among friends
    assert [s.kind for s in form.seats()] == ["human", "human", "human"]
    seats = [t for t in labels(app) if t.startswith("Seat ")]
    assert seats == [f"Seat {n}: Human  ◂ ▸" for n in (1, 2, 3)]
    tap_label(app, "Seat 3: Human  ◂ ▸")  # a computer is still a tap away
    assert [s.kind for s in app.stack.top.seats()] == ["human", "human", "computer"]
    assert "Seat 3: Computer · Easy  ◂ ▸" in labels(app)
