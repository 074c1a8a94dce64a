"""Links, servers and a damaged rooms' database, seen from the game (issue 25, sections 1 and 5):
the room page's link shown first and copied, every form of a link typed, pasted or given on
the command line, the servers used kept in the settings with an optional default server,
and "Host on this computer" saying why the rooms' database cannot be used."""

from __future__ import annotations

import sqlite3

import pygame
import pygame_gui
import pytest

from game.client.app import App, open_link
from game.client.settings import MAX_SERVERS, Settings
from game.net.client import read_link
from game.net.sqlitestore import SQLiteRoomStore
from tests.client_support import make_app, top_name
from tests.test_online_ui import (  # app and server: the fixtures
    Friend,
    app,
    create_duel,
    open_lobby,
    remote,
    server,
    tap_button,
    type_into,
    until,
)

__all__ = ["app", "server"]  # the fixtures, shared with test_online_ui


def labels(app) -> list[str]:
    """The texts of the labels on the scene on top, top to bottom."""
    found = [e for e in app.stack.top.manager.get_root_container().elements
             if isinstance(e, pygame_gui.elements.UILabel)]
    return [e.text for e in sorted(found, key=lambda e: e.rect.y)]


def test_the_waiting_room_shows_the_room_page_first_and_copies_it(app, server, monkeypatch):
    create_duel(app, server.port)
    scene = app.stack.top
    room = scene.remote.room_id
    page = f"http://127.0.0.1:{server.port}/r/{room}"
    assert scene.page == page and scene.link == f"huit://127.0.0.1:{server.port}/{room}"
    shown = labels(app)
    assert page in shown and f"In the game: huit://127.0.0.1:{server.port}/{room}" in shown
    assert shown.index(page) < shown.index(f"In the game: huit://127.0.0.1:{server.port}/{room}")
    clipboard: list[str] = []
    monkeypatch.setattr(pygame.scrap, "put_text", clipboard.append)
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: clipboard[-1] if clipboard else "")
    tap_button(app, "Copy")
    assert clipboard == [page] and app.stack.top.note == "Link copied."
    assert read_link(clipboard[0])[:3] == ("127.0.0.1", server.port, room)


@pytest.mark.parametrize(("size", "lang"), [((1024, 600), "fr"), ((1920, 1080), "de")])
def test_the_longest_room_link_shows_whole_in_the_heading_s_gold(size, lang):
    # A room page at the longest address and port with a code of the widest letters does not fit
    # the heading: it steps down, but stays in the heading's gold rather than the plain white.
    from game.client.scenes.waiting_room import WaitingRoomScene
    from tests.every_screen import waiting_room

    app = App(size, settings=Settings(language=lang, speed="instant"), sound=False)
    app.start(WaitingRoomScene(app, waiting_room()))  # at 192.168.100.200:65535
    app.frame(1 / 60)
    link = next(e for e in app.stack.top.manager.get_root_container().elements
                if isinstance(e, pygame_gui.elements.UILabel) and e.text.startswith("http://192.168.100.200:65535/r/"))
    assert link.most_specific_combined_id in ("#heading_smaller", "#heading_smallest")
    assert link.text_colour == pygame.Color("#f0d060")
    assert link.font.size(link.text)[0] <= link.rect.width


@pytest.mark.parametrize("form", ["http://127.0.0.1:{port}/r/{room}", "huit://127.0.0.1:{port}/{room}/"])
def test_a_room_page_link_typed_in_the_lobby_joins_the_room(app, server, form):
    friend = Friend(server.port, {"type": "create", "preset": "duel", "options": {},
                                  "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Ben"})
    try:
        assert until(app, lambda: friend.drain() or bool(friend.messages))
        room = friend.messages[0]["room"]
        open_lobby(app)
        type_into(app, "link", form.format(port=server.port, room=room))
        assert until(app, lambda: top_name(app) == "TableScene")
        assert remote(app).view().seat == 1
        assert app.settings.servers == [f"127.0.0.1:{server.port}"]  # the server is remembered
    finally:
        friend.close()


def test_a_room_page_link_on_the_command_line_opens_the_room(app, server):
    friend = Friend(server.port, {"type": "create", "preset": "duel", "options": {},
                                  "seats": [{"kind": "human"}, {"kind": "human"}]})
    try:
        assert until(app, lambda: friend.drain() or bool(friend.messages))
        room = friend.messages[0]["room"]
        open_link(app, f"http://127.0.0.1:{server.port}/r/{room}")
        assert until(app, lambda: top_name(app) == "TableScene")
        assert remote(app).view().seat == 1
    finally:
        friend.close()
    open_link(app, "https://127.0.0.1/rooms/x")
    assert top_name(app) == "LobbyScene" and "a room's web page" in app.stack.top.message


def test_after_joining_by_a_link_the_lobby_s_server_field_shows_that_server(app, server):
    friend = Friend(server.port, {"type": "create", "preset": "duel", "options": {},
                                  "seats": [{"kind": "human"}, {"kind": "human"}]})
    try:
        assert until(app, lambda: friend.drain() or bool(friend.messages))
        room = friend.messages[0]["room"]
        assert app.last_server == "" and app.settings.default_server == ""
        open_link(app, f"http://127.0.0.1:{server.port}/r/{room}")
        assert until(app, lambda: top_name(app) == "TableScene")
    finally:
        friend.close()
    open_lobby(app)  # "Play online" again: the server of the room just played, not an empty field
    assert app.stack.top.entries["server"].get_text() == f"127.0.0.1:{server.port}"


def test_the_servers_used_are_kept_and_recent_servers_steps_through_them(app, server):
    app.settings.servers = ["huits://club.example.org:443", "10.0.0.9:8765"]
    create_duel(app, server.port)
    assert app.settings.servers == [f"127.0.0.1:{server.port}", "huits://club.example.org:443",
                                    "10.0.0.9:8765"]
    saved, ignored = Settings.parse(app.store.settings.read())
    assert saved.servers == app.settings.servers and ignored == []
    app.last_server = ""
    open_lobby(app)
    tap_button(app, "Recent servers")
    assert app.stack.top.entries["server"].get_text() == f"127.0.0.1:{server.port}"
    tap_button(app, "Recent servers")
    assert app.stack.top.entries["server"].get_text() == "huits://club.example.org:443"
    tap_button(app, "Recent servers")
    tap_button(app, "Recent servers")  # round again
    assert app.stack.top.entries["server"].get_text() == f"127.0.0.1:{server.port}"


def test_the_list_of_servers_is_bounded_and_checked():
    many = [f"10.0.0.{i}:8765" for i in range(MAX_SERVERS)]
    assert Settings.parse({"servers": many})[0].servers == many
    assert Settings.parse({"servers": many + ["10.0.1.1:1"]})[1] == ["servers"]
    assert Settings.parse({"servers": ["10.0.0.1:8765", "nonsense"]})[1] == ["servers"]
    assert Settings.parse({"default_server": "huit://h:1/room/extra"})[1] == ["default_server"]
    assert Settings.parse({"default_server": "https://club.example.org"})[0].default_server == \
        "https://club.example.org"


def test_a_default_server_fills_the_server_field_and_huit_points_at_none():
    assert Settings().default_server == "" and Settings().servers == []
    application = make_app(default_server="huits://club.example.org:443")
    try:
        open_lobby(application)
        assert application.stack.top.entries["server"].get_text() == "huits://club.example.org:443"
        tap_button(application, "Create a room")
        assert top_name(application) == "NewGameScene"
        assert application.stack.top.online == ("club.example.org", 443, True)
    finally:
        pygame.display.quit()


def test_host_on_this_computer_says_why_a_damaged_rooms_database_cannot_be_used(app, monkeypatch):
    from game.client import joining

    monkeypatch.setattr(joining, "host_port", lambda: 0)
    db = app.store.root / "rooms.sqlite3"
    SQLiteRoomStore(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE log")
    raw.close()
    before = db.read_bytes()
    open_lobby(app)
    tap_button(app, "Host on this computer")
    assert app.hosting is None and top_name(app) == "LobbyScene"
    message = app.stack.top.message
    assert str(db) in message and "its log table is missing" in message
    assert db.read_bytes() == before
