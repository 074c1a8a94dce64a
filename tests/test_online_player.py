"""This device's player on the servers it visits: a key of its own for each server, made from one
secret, and the name and avatar chosen on the device reaching every server, whichever screen
connects. A real App (dummy video driver) against real `ServerThread`s on 127.0.0.1; the other
players are raw websocket clients."""

from __future__ import annotations

import random

import pygame
import pytest

from game.client import ui
from game.client.remote import RemoteController
from game.client.scenes.server_lobby import ServerLobbyScene
from game.client.scenes.table import TableScene
from game.net.clock import ManualClock
from game.net.hosting import ServerThread
from game.net.profiles import player_id
from game.net.ranking import ABANDON_AFTER
from game.saves.player import KEY, server_address, server_key
from tests.client_support import close_online_app, make_app, press, run_until, top_name
from tests.net_support import Peer
from tests.support import make_match
from tests.test_online_ui import button, open_lobby, play_until_not_my_turn, tap_button, type_into, until
from tests.test_table_contract import ScriptedRoom


def serve(db) -> ServerThread:
    thread = ServerThread(db, host="127.0.0.1", port=0, think_scale=0, rng=random.Random(0), burst=100_000.0)
    thread.start()
    assert thread.error is None
    return thread


@pytest.fixture
def servers(tmp_path):
    threads = [serve(tmp_path / f"rooms{i}.sqlite3") for i in range(2)]
    yield threads
    for thread in threads:
        thread.stop()


@pytest.fixture
def app():
    application = make_app(player_name="Ana")
    yield application
    close_online_app(application)


def visit(app, port: int) -> dict:
    """Open the lobby of the server on ``port`` from Play online; the profile it answers."""
    open_lobby(app)
    app.stack.top.entries["server"].set_text("")  # the last server visited is put back
    type_into(app, "server", f"127.0.0.1:{port}")
    tap_button(app, "Public rooms and quick match")
    assert top_name(app) == "ServerLobbyScene"
    scene = app.stack.top
    assert until(app, lambda: scene.profile is not None)
    return scene.profile.to_json()


# ---- one secret, a key per server ----------------------------------------------------------------
def test_each_server_gets_a_key_of_its_own_and_the_same_server_always_the_same():
    secret = "s" * 32
    keys = {server_key(secret, host, port) for host, port in
            (("127.0.0.1", 8765), ("127.0.0.1", 8766), ("club.example", 8765), ("::1", 8765))}
    assert len(keys) == 4 and secret not in keys
    assert all(KEY.fullmatch(key) and len(key) == 32 for key in keys)  # the form servers take
    assert server_key(secret, "127.0.0.1", 8765) == server_key(secret, "127.0.0.1", 8765)
    assert server_key(secret, "Club.EXAMPLE", 8765) == server_key(secret, "club.example", 8765)
    assert server_key(secret, "0:0:0:0:0:0:0:1", 80) == server_key(secret, "::1", 80)
    assert server_key("t" * 32, "127.0.0.1", 8765) != server_key(secret, "127.0.0.1", 8765)
    assert server_address("[0:0::1]", 80) == "[::1]:80"
    assert server_address("LocalHost", 443) == "localhost:443"


def test_two_servers_know_this_device_as_two_different_players(app, servers):
    first, second = servers
    on_first = visit(app, first.port)
    secret = app.store.player.read().secret
    on_second = visit(app, second.port)
    key_first = app.store.player.read().key_for("127.0.0.1", first.port)
    key_second = app.store.player.read().key_for("127.0.0.1", second.port)
    assert key_first != key_second and secret not in (key_first, key_second)
    # What each server knows the player by is that server's key, and no other.
    assert first.server.profiles.get(player_id(key_first)).tag == on_first["tag"] and on_first["created"]
    assert second.server.profiles.get(player_id(key_second)).tag == on_second["tag"] and on_second["created"]
    # The same server again: the same player.
    again = visit(app, first.port)
    assert (again["tag"], again["created"]) == (on_first["tag"], False)
    # Whoever runs the first server (or listens to its plain ws://) holds that key: on the second
    # server it is a stranger, never this player; and the secret opens no player anywhere.
    impostor = Peer(second.port).hello(key=key_first)
    assert impostor["created"] is True and impostor["tag"] != on_second["tag"]
    for port in (first.port, second.port):
        assert Peer(port).hello(key=secret)["created"] is True
    assert isinstance(app.stack.top, ServerLobbyScene)


# ---- the name and avatar chosen on this device reach the server, whichever screen connects ---------
def rename(app, name: str) -> None:
    """Type a new name in Play online's Name field."""
    app.stack.top.entries["name"].set_text("")
    type_into(app, "name", name)
    assert app.settings.player_name == name


def test_a_name_changed_in_play_online_shows_on_the_seat_of_a_room_created_there(app, servers):
    server = servers[0]
    assert visit(app, server.port)["name"] == "Ana"  # the server knows the player as Ana
    owl = 12
    app.settings.people_avatars = [owl]
    open_lobby(app)
    rename(app, "Anabelle")
    tap_button(app, "Create a room")  # the server field still holds the server visited
    assert top_name(app) == "NewGameScene"
    for _ in range(4):  # a friend's room seats people at first: seat 2 stepped to a computer
        if "Computer" in button(app, "Seat 2").element.text:
            break
        tap_button(app, "Seat 2")
    tap_button(app, "Create a room")  # with a computer: the table opens at once
    assert until(app, lambda: top_name(app) == "TableScene")
    controller = app.table_controller()
    assert until(app, lambda: controller.status is not None)
    assert controller.seats[0].name == "Anabelle" and app.stack.top.names()[0] == "Anabelle"
    seat = controller.status.seats[0]
    assert (seat["name"], seat["avatar"]) == ("Anabelle", owl)
    known = Peer(server.port).hello(key=app.store.player.read().key_for("127.0.0.1", server.port))
    assert (known["name"], known["avatar"], known["created"]) == ("Anabelle", owl, False)


def test_a_name_changed_in_play_online_shows_on_the_seat_taken_by_a_link(app, servers):
    server = servers[0]
    assert visit(app, server.port)["name"] == "Ana"
    ben = Peer(server.port)
    ben.hello("Ben")
    ben.create("duel", [{"kind": "human"}, {"kind": "human"}])
    open_lobby(app)
    rename(app, "Annie")
    type_into(app, "link", f"huit://127.0.0.1:{server.port}/{ben.room_id}")
    assert until(app, lambda: top_name(app) == "TableScene")  # the room is full: the deal
    assert until(app, lambda: app.table_controller().seats[1].name == "Annie")
    ben.until(lambda m: m["type"] == "room" and m["seats"][1].get("tag") is not None)
    assert ben.room["seats"][1]["name"] == "Annie"


def test_the_connection_changes_a_profile_only_where_it_differs():
    from game.net.client import profile_change

    hello = {"type": "hello", "player": "k" * 32, "name": "Ana", "avatar": 4}
    assert profile_change(hello, {"type": "profile", "name": "Ana", "avatar": 4, "tag": "3F2"}) is None
    assert profile_change(hello, {"type": "profile", "name": "Al", "avatar": 4}) == {"type": "profile",
                                                                                   "name": "Ana"}
    assert profile_change(hello, {"type": "profile", "name": "Ana", "avatar": 9}) == {"type": "profile",
                                                                                    "avatar": 4}
    nameless = {"type": "hello", "player": "k" * 32, "avatar": 4}  # a name the servers would refuse
    assert profile_change(nameless, {"type": "profile", "name": "Ana", "avatar": 4}) is None
    assert profile_change(hello, {"type": "profile"}) == {"type": "profile", "name": "Ana", "avatar": 4}


# ---- the other players' tags: on the table, the result and the vote, never on this device's own seat ----
class TaggedRoom(ScriptedRoom):
    """The scripted room server of the table's contract tests, whose players said hello: Ana (this
    device) and Ben, each with a tag."""

    def _room_status(self) -> None:
        super()._room_status()
        for seat, tag in zip(self.inbox[-1]["seats"], ("A0B", "3F2"), strict=True):
            seat["tag"] = tag


def test_the_table_and_the_result_name_the_other_player_with_their_tag_and_mine_alone(app):
    match = make_match("duel", ["3H", "5S"], "7H", "KD QD JD TD 2C 3C 4D 5D")
    room = TaggedRoom(match)
    controller = RemoteController(room, speed=1.0)  # type: ignore[arg-type]
    controller.update(0.0)  # joined, the room, the deal
    table = TableScene(app, controller)
    app.start(table)
    assert run_until(app, lambda: not table.animator.busy and table.view.my_turn, 600)
    assert table.names() == ["Ana", "Ben #3F2"]  # the plates write them as the result and the vote do
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # Ana plays her only card: the deal is over
    assert run_until(app, lambda: top_name(app) == "ResultScene", 600)
    result = app.stack.top
    assert result.names() == ["Ana", "Ben #3F2"]
    with ui.recording() as drawn:
        app.draw()
    texts = [d.text for d in drawn]
    assert "Ben #3F2" in texts and "Ana" in texts and "Ana #A0B" not in texts


def test_the_vote_names_the_player_who_left_with_their_tag(app, tmp_path):
    clock = ManualClock()
    thread = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0,
                          rng=random.Random(0), burst=100_000.0, clock=clock, proxy_headers=True,
                          trusted_proxies=["127.0.0.1"])  # the raw player comes from afar: ranked
    thread.start()
    try:
        visit(app, thread.port)
        while not button(app, "Rules").element.text.startswith("Rules: Duel"):
            tap_button(app, "Rules")
        tap_button(app, "Find a game")
        ben = Peer(thread.port, address="203.0.113.7")
        tag = ben.hello("Ben")["tag"]
        ben.send(type="queue", preset="duel", players=2)
        assert until(app, lambda: top_name(app) == "TableScene")
        controller = app.table_controller()
        assert until(app, lambda: controller.ranked is True)
        ben.until(lambda m: m["type"] == "update")
        seat = ben.seat
        play_until_not_my_turn(app)  # Ben leaves on his turn: the clock cannot run out on mine meanwhile
        ben.close()
        assert until(app, lambda: seat in (controller.status.waiting_for if controller.status else []))
        clock.advance(ABANDON_AFTER)
        assert until(app, lambda: top_name(app) == "VoteScene")
        assert app.stack.top.name == f"Ben #{tag}"
        with ui.recording() as drawn:
            app.draw()
        assert f"Ben #{tag} left the game" in [d.text for d in drawn]
    finally:
        thread.stop()
