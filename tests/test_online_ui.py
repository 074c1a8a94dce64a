"""Online play seen from the game: the lobby, the waiting room and a table driven by a real server.

One real App (dummy video driver) plays against a friend who is a raw websocket
client, both on a `ServerThread` bound to 127.0.0.1 with instant computers.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time

import pygame
import pytest
from websockets.sync.client import connect

from game.client.app import open_link
from game.client.intents import ChangeLevel
from game.client.remote import RemoteController
from game.net.client import parse_link
from game.net.hosting import ServerThread
from tests.client_support import click, close_online_app, make_app, press, top_name


@pytest.fixture
def server(tmp_path):
    thread = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0,
                          rng=random.Random(0))  # the same deals every run
    thread.start()
    assert thread.error is None
    yield thread
    thread.stop()


@pytest.fixture
def app():
    application = make_app(player_name="Ana")
    yield application
    close_online_app(application)


class Pace:
    """Keeps one side under the server's flood limit (20 messages a second, bursts of 40)."""

    def __init__(self) -> None:
        self.tokens, self.last = 30.0, time.monotonic()

    def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(30.0, self.tokens + (now - self.last) * 18)
        self.last = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / 18)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1


class Friend:
    """The other player: a plain websocket client speaking the protocol."""

    def __init__(self, port: int, hello: dict) -> None:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(connect(f"ws://127.0.0.1:{port}/", proxy=None, open_timeout=5))
        self.messages: list[dict] = []
        self.view: dict | None = None
        self.send(hello)

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps({**message, "v": 2}))

    def drain(self) -> None:
        """Take in every message already here (never waits)."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0))
            except TimeoutError:
                return
            self.messages.append(message)
            if message["type"] == "update":
                self.view = message["view"]

    def close(self) -> None:
        self.stack.close()


def until(app, done, seconds: float = 15.0) -> bool:
    """Run frames until ``done()``, yielding to the server's threads; False after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        app.frame(1 / 60)
        time.sleep(0.001)
    return done()


def button(app, text_start: str):
    """The GUI control whose label starts with ``text_start``."""
    for control in app.stack.top.controls:
        if getattr(control.element, "text", "").startswith(text_start):
            return control
    labels = [getattr(c.element, "text", "") for c in app.stack.top.controls]
    raise AssertionError(f"no {text_start!r} in {labels}")


def tap_button(app, text_start: str) -> None:
    click(app, button(app, text_start).element.rect.center)


def type_into(app, field: str, text: str) -> None:
    """Click a lobby text field, type ``text`` as real text input, press Enter."""
    entry = app.stack.top.entries[field]
    click(app, entry.rect.center)
    assert entry.is_focused
    if entry.get_text():  # a field the lobby filled (the last server used): select it all, then type over it
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode="",
                                                 scancode=0))
        press(app, pygame.K_BACKSPACE)
        assert entry.get_text() == ""
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    app.frame(1 / 60)
    assert entry.get_text() == text
    press(app, pygame.K_RETURN)


def open_lobby(app) -> None:
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(1 / 60)
    tap_button(app, "Play with a friend")
    assert top_name(app) == "LobbyScene"


def create_duel(app, port: int) -> str:
    """Through the lobby and the online new-game form: a duel with a friend's seat; the link."""
    open_lobby(app)
    type_into(app, "server", f"127.0.0.1:{port}")
    tap_button(app, "Create a room")
    assert top_name(app) == "NewGameScene"
    for _ in range(6):
        if "Duel" in button(app, "Rules").element.text:
            break
        tap_button(app, "Rules")
    for _ in range(4):
        if button(app, "Seat 2").element.text.endswith("Human  ◂ ▸"):
            break
        tap_button(app, "Seat 2")
    tap_button(app, "Create a room")
    assert top_name(app) == "WaitingRoomScene"
    # The room's page is built once both the seat (its link) and the room's status have come:
    # they come in two messages, and a frame may fall between them.
    assert until(app, lambda: app.stack.top.link is not None and app.stack.top.remote.status is not None)
    return app.stack.top.link


def remote(app) -> RemoteController:
    controller = app.table_controller()
    assert isinstance(controller, RemoteController)
    return controller


def play(app, friend: Friend, actions: int) -> int:
    """Both sides play legal moves: the app with its keys, the friend over its socket."""
    done = 0
    deadline = time.monotonic() + 60
    mine, theirs = Pace(), Pace()  # a game played at full speed would be refused as a flood
    while done < actions and time.monotonic() < deadline:
        app.frame(1 / 60)
        friend.drain()
        if top_name(app) == "SuitPickerScene":
            mine.wait()
            press(app, pygame.K_RETURN)
            done += 1
            continue
        if top_name(app) != "TableScene":
            break
        view = remote(app).view()
        if view.my_turn and view.legal:
            before = view.turn_no, len(view.hand), len(view.discard)
            mine.wait()
            press(app, pygame.K_RETURN)  # the first Enter picks the first playable card, else draws
            if top_name(app) == "TableScene" and app.stack.top.selected is not None:
                press(app, pygame.K_RETURN)  # the second plays it
            until(app, lambda b=before: (remote(app).view().turn_no, len(remote(app).view().hand),
                                         len(remote(app).view().discard)) != b, 2.0)
            done += 1
        elif friend.view and friend.view["to_act"] == friend.view["seat"] and friend.view["legal"]:
            legal = friend.view["legal"]
            action = next((a for a in legal if a.startswith("play")), legal[0])
            theirs.wait()
            friend.send({"type": "action", "action": action})
            turn = friend.view["turn_no"], len(friend.view["hand"])
            friend.view = None
            deadline_move = time.monotonic() + 10
            while friend.view is None and time.monotonic() < deadline_move:
                friend.drain()
                time.sleep(0.002)
            errors = [m for m in friend.messages if m["type"] == "error"]
            assert friend.view is not None, errors[-3:]
            assert (friend.view["turn_no"], len(friend.view["hand"])) != turn
            done += 1
    assert done >= actions or top_name(app) == "ResultScene", (done, top_name(app))
    return done


def test_a_duel_is_created_in_the_lobby_joined_by_its_link_and_played(app, server):
    link = create_duel(app, server.port)
    host, port, room = parse_link(link)
    assert (host, port) == ("127.0.0.1", server.port)
    tap_button(app, "Copy")
    assert app.stack.top.note in (
        "Link copied.", "The clipboard is not available here: copy the link by hand.")
    lines = app.stack.top.seat_lines()
    assert lines[0] == "Seat 1: Ana (this device)" and "waiting for a player" in lines[1]
    held = app.store.keys.get(room)
    assert held is not None and held.seat == 0 and held.link == link  # kept for My rooms
    friend = Friend(port, {"type": "join", "room": room, "name": "Ben"})
    try:
        assert until(app, lambda: top_name(app) == "TableScene")
        table = app.stack.top
        assert until(app, lambda: table.names() == ["Ana", "Ben"])  # with the next room status
        assert play(app, friend, 8) >= 8 or top_name(app) == "ResultScene"

        def same_turn() -> bool:
            app.frame(1 / 60)
            friend.drain()
            mine = remote(app).view()
            return friend.view is not None and friend.view["turn_no"] == mine.turn_no

        assert until(app, same_turn)
        mine = remote(app).view()
        assert mine.turn_no >= 2
        assert friend.view["hand_counts"] == list(mine.hand_counts)
        assert friend.view["discard"] == [c.code for c in mine.discard]
    finally:
        friend.close()


def test_the_table_says_who_it_waits_for_and_a_seat_comes_back_from_my_rooms(app, server):
    link = create_duel(app, server.port)
    _, port, room = parse_link(link)
    friend = Friend(port, {"type": "join", "room": room, "name": "Ben"})
    assert until(app, lambda: top_name(app) == "TableScene")
    friend.close()
    controller = remote(app)
    assert until(app, lambda: controller.waiting_for == [1])
    if not controller.view().my_turn:
        assert app.stack.top.message() == "Waiting for Ben"
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "PauseScene"
    assert not [b for b in app.stack.top.buttons if isinstance(b.intent, ChangeLevel)]
    open_lobby(app)  # leaving the table leaves the room; the key stays on this device
    controller.connection.join_thread()  # the connection closes on its own thread
    assert controller.connection.status == "closed"
    tap_button(app, f"Back to room {room}")
    assert top_name(app) in ("WaitingRoomScene", "TableScene")
    assert until(app, lambda: top_name(app) == "TableScene")
    assert remote(app).view().seat == 0


def test_a_bad_link_is_explained_in_the_lobby(app):
    open_lobby(app)
    type_into(app, "link", "huit://somewhere/room")
    assert top_name(app) == "LobbyScene"
    assert app.stack.top.message.startswith("That link does not work: the link has no port")


def test_an_unreachable_server_is_explained_in_the_lobby(app):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    open_lobby(app)
    type_into(app, "link", f"huit://127.0.0.1:{port}/abc")  # connecting..., then refused at once
    assert until(app, lambda: top_name(app) == "LobbyScene")
    assert app.stack.top.message.startswith(f"The server at 127.0.0.1:{port} cannot be reached")


def test_a_refused_join_is_explained_and_a_dead_rooms_key_is_forgotten(app, server):
    from game.saves import SeatKey

    link = f"huit://127.0.0.1:{server.port}/gone"
    app.store.keys.remember(SeatKey(link, "gone", 1, "not-a-real-key"))
    app.store.flush()
    open_link(app, link)
    assert top_name(app) == "WaitingRoomScene"
    assert until(app, lambda: top_name(app) == "LobbyScene")
    assert app.stack.top.message == "That room does not exist (or it expired)."
    app.store.flush()
    assert app.store.keys.get("gone") is None


def test_a_link_on_the_command_line_opens_the_room_or_says_what_is_wrong(app, server):
    open_link(app, "huit://127.0.0.1:80/no spaces")
    assert top_name(app) == "LobbyScene" and "room id" in app.stack.top.message
    friend = Friend(server.port, {"type": "create", "preset": "duel", "options": {},
                                  "seats": [{"kind": "human"}, {"kind": "human"}]})
    try:
        deadline = time.monotonic() + 15
        while not friend.messages and time.monotonic() < deadline:
            friend.drain()
        room = friend.messages[0]["room"]
        open_link(app, f"huit://127.0.0.1:{server.port}/{room}")
        assert until(app, lambda: top_name(app) == "TableScene")
        assert remote(app).view().seat == 1
    finally:
        friend.close()


def test_host_on_this_computer_starts_a_server_and_fills_the_address(app, monkeypatch):
    from game.client import joining

    monkeypatch.setattr(joining, "host_port", lambda: 0)
    app.host_options = {"think_scale": 0}
    open_lobby(app)
    tap_button(app, "Host on this computer")
    assert app.hosting is not None and app.hosting.port
    address = app.stack.top.entries["server"].get_text()
    assert address.endswith(f":{app.hosting.port}")
    tap_button(app, "Stop hosting")
    assert app.hosting is None
    assert app.stack.top.entries["server"].get_text() == ""


def test_the_lobby_works_by_keyboard_alone(app, server):
    open_lobby(app)
    scene = app.stack.top
    scene.focus = scene.controls.index(next(c for c in scene.controls if c.element is scene.entries["link"]))
    press(app, pygame.K_RETURN)  # Enter on the field starts typing in it
    assert scene.entries["link"].is_focused
    for char in "huit://x":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    app.frame(1 / 60)
    press(app, pygame.K_TAB)  # Tab leaves the field for the next control (Paste)
    assert not scene.entries["link"].is_focused
    assert scene.controls[scene.focus].element.text == "Paste"
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # Join
    assert "That link does not work" in app.stack.top.message


def test_a_finished_deal_waits_until_both_players_ask_for_the_next(app, server):
    # The friend creates a short duel (three cards each) played to a target no deal reaches (a game
    # of one deal offers no next one online), and the app joins it by its link.
    friend = Friend(server.port, {"type": "create", "preset": "duel",
                                  "options": {"hand_size": 3, "target": 900}, "name": "Ben",
                                  "seats": [{"kind": "human"}, {"kind": "human"}]})
    try:
        deadline = time.monotonic() + 15
        while not friend.messages and time.monotonic() < deadline:
            friend.drain()
        open_link(app, f"huit://127.0.0.1:{server.port}/{friend.messages[0]['room']}")
        assert until(app, lambda: top_name(app) == "TableScene")
        play(app, friend, 400)
        assert until(app, lambda: top_name(app) == "ResultScene")
        controller = remote(app)
        assert controller.view().result is not None and len(controller.results) == 1
        press(app, pygame.K_RETURN)  # New round: this seat is ready
        assert controller.accepted
        assert [b.label for b in app.stack.top.buttons][0] == "Waiting for the others…"
        names = app.stack.top.table.names()
        assert controller.notice(names) == "Waiting for Ben"
        # The server has counted this seat as ready (and still waits for Ben) before Ben answers.
        assert until(app, lambda: controller.status.seats[controller.viewer]["accepted"])
        assert top_name(app) == "ResultScene"
        friend.send({"type": "accept_round"})
        ok = until(app, lambda: top_name(app) == "TableScene")
        friend.drain()
        assert ok, [m for m in friend.messages if m["type"] != "update"][-3:]
        assert controller.view().round_number == 2 and controller.view().status == "playing"
        assert not controller.accepted
    finally:
        friend.close()


def test_leaving_the_waiting_room_leaves_the_room(app, server):
    create_duel(app, server.port)
    controller = app.stack.top.remote
    app.go_to_menu()  # as the kiosk timeout does
    app.stack.apply_requests()
    controller.connection.join_thread()
    assert controller.connection.status == "closed"


def test_typing_with_the_ring_on_a_text_field_types_into_it_after_its_text(app):
    app.settings.player_name = "Ana"
    open_lobby(app)
    scene = app.stack.top
    name = scene.entries["name"]
    scene.focus = scene.controls.index(next(c for c in scene.controls if c.element is name))
    assert not name.is_focused  # the ring only: no Enter first
    for char in " B.":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char, window=None))
    app.frame(1 / 60)
    assert name.is_focused and name.get_text() == "Ana B."
    press(app, pygame.K_TAB)  # on to the server's field: it takes what is typed next, alone
    server = scene.entries["server"]
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="h", window=None))
    app.frame(1 / 60)
    assert server.get_text().endswith("h") and not name.is_focused and name.get_text() == "Ana B."


def play_until_not_my_turn(app) -> None:
    """The app's player plays its turn with its keys (Enter picks the first playable card or draws,
    Enter again plays it), until it is another seat's turn: then the game waits on that seat."""
    for _ in range(20):
        app.frame(1 / 60)
        view = remote(app).view()
        if not view.my_turn or not view.legal:
            return
        before = view.turn_no, len(view.hand), len(view.discard)
        press(app, pygame.K_RETURN)
        if top_name(app) in ("TableScene", "SuitPickerScene") and (
                top_name(app) == "SuitPickerScene" or app.stack.top.selected is not None):
            press(app, pygame.K_RETURN)
        until(app, lambda b=before: (remote(app).view().turn_no, len(remote(app).view().hand),
                                     len(remote(app).view().discard)) != b, 2.0)
    raise AssertionError("my turn never ended")
