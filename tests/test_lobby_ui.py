"""The server's lobby seen from the game: public rooms listed live and joined, quick match by
keyboard, leaving the queue, the avatar, the leaderboard, the vote on an abandon, online points
in Statistics. A real App (dummy video driver) against a real `ServerThread` on 127.0.0.1; the
other players are raw websocket clients."""

from __future__ import annotations

import json
import random
import time

import pygame
import pytest

from game.client import ui
from game.client.controller import SeatConfig
from game.client.remote import RemoteController
from game.net.clock import ManualClock
from game.net.hosting import ServerThread
from game.net.messages import from_server
from game.net.ranking import ABANDON_AFTER, PENALTY
from game.play.avatars import CATALOGUE
from tests.client_support import close_online_app, make_app, press, tap, top_name
from tests.net_support import Peer, play_until
from tests.test_online_ui import button, open_lobby, play_until_not_my_turn, tap_button, type_into, until

HUMAN = {"kind": "human"}
PROXY = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}  # the raw players come from afar


def serve(tmp_path, **options) -> ServerThread:
    thread = ServerThread(tmp_path / "rooms.sqlite3", host="127.0.0.1", port=0, think_scale=0,
                          rng=random.Random(0), burst=100_000.0, **options)
    thread.start()
    assert thread.error is None
    return thread


@pytest.fixture
def server(tmp_path):
    thread = serve(tmp_path)
    yield thread
    thread.stop()


@pytest.fixture
def app():
    application = make_app(player_name="Ana")
    yield application
    close_online_app(application)


def server_lobby(app, port: int):
    open_lobby(app)
    type_into(app, "server", f"127.0.0.1:{port}")
    tap_button(app, "Public rooms and quick match")
    assert top_name(app) == "ServerLobbyScene"
    scene = app.stack.top
    assert until(app, lambda: scene.profile is not None)
    return scene


def player(port: int, name: str, address: str | None = None) -> Peer:
    peer = Peer(port, address=address)
    assert peer.hello(name)["type"] == "profile"
    return peer


def focus_on(app, text_start: str) -> None:
    """Move the keyboard focus (Tab) to the control whose label starts with ``text_start``."""
    for _ in range(len(app.stack.top.controls) + 1):
        control = app.stack.top.controls[app.stack.top.focus]
        if getattr(control.element, "text", "").startswith(text_start):
            return
        press(app, pygame.K_TAB)
    raise AssertionError(f"no {text_start!r} to focus")


def test_the_lobby_shows_my_name_with_its_tag_and_a_public_room_live_whose_seat_i_take(app, server):
    scene = server_lobby(app, server.port)
    tag = scene.profile.tag
    assert f"You: Ana #{tag}" in [label.text for label in scene.manager.get_sprite_group().sprites()
                                  if hasattr(label, "text")]
    assert app.store.player.read().servers[f"127.0.0.1:{server.port}"].tag == tag
    ben = player(server.port, "Ben")
    ben.create("duel", [HUMAN, HUMAN], public=True)
    assert until(app, lambda: any(c.element.text.startswith("Duel · 1/2 · Ben #")
                                  for c in app.stack.top.controls))
    tap(app, button(app, "Duel · 1/2").element.rect.center)  # by touch
    assert until(app, lambda: top_name(app) == "TableScene")
    controller = app.table_controller()
    assert isinstance(controller, RemoteController)
    assert until(app, lambda: controller.kind == "public")
    assert controller.ranked is False  # both from this computer: never ranked
    assert [s.name for s in controller.seats] == [f"Ben #{ben.profile['tag']}", "Ana"]  # the others' tagged


def test_a_name_changed_in_play_online_reaches_the_server_on_the_next_visit(app, server):
    scene = server_lobby(app, server.port)
    key = app.store.player.read().key_for("127.0.0.1", server.port)  # the key this server knows
    assert scene.profile.name == "Ana"
    tap_button(app, "Back")
    assert top_name(app) == "LobbyScene"
    app.stack.top.entries["name"].set_text("Anabelle")
    tap_button(app, "Public rooms and quick match")
    again = app.stack.top
    assert until(app, lambda: again.profile is not None and again.profile.name == "Anabelle")
    assert Peer(server.port).hello(key=key)["name"] == "Anabelle"
    assert again.profile.tag == scene.profile.tag  # the same player, renamed


def test_quick_match_by_keyboard_seats_me_with_the_next_player(app, server):
    scene = server_lobby(app, server.port)
    for _ in range(len(scene.preset_name) + 5):
        if button(app, "Rules").element.text.startswith("Rules: Duel"):
            break
        tap_button(app, "Rules")
    assert button(app, "Players").element.text.startswith("Players: 2")
    focus_on(app, "Find a game")
    press(app, pygame.K_RETURN)
    assert until(app, lambda: app.stack.top.quick is not None
                 and app.stack.top.quick.queue_status is not None)
    assert until(app, lambda: app.stack.top.looking_text().startswith("Looking for 2 players: 1 waiting"))
    assert button(app, "Stop looking")
    ben = player(server.port, "Ben")
    ben.send(type="queue", preset="duel", players=2)
    assert until(app, lambda: top_name(app) == "TableScene")
    controller = app.table_controller()
    assert isinstance(controller, RemoteController) and until(app, lambda: controller.kind == "quick")
    app.store.flush()
    assert app.store.keys.get(controller.room_id) is not None  # the seat's key is kept: My rooms


def test_stop_looking_leaves_the_queue_at_once(app, server):
    scene = server_lobby(app, server.port)
    tap_button(app, "Find a game")
    assert until(app, lambda: len(server.server.queues) == 1)
    tap_button(app, "Stop looking")
    assert until(app, lambda: len(server.server.queues) == 0)
    assert scene.quick is None and button(app, "Find a game")


def test_the_avatar_chosen_in_the_picker_reaches_the_server_and_is_the_solo_players(app, server):
    scene = server_lobby(app, server.port)
    key = app.store.player.read().key_for("127.0.0.1", server.port)  # the key this server knows
    tap_button(app, "Avatar")
    assert top_name(app) == "AvatarPickerScene"
    tap_button(app, "Owl")
    assert top_name(app) == "ServerLobbyScene" and button(app, "Avatar: Owl")
    owl = next(a.id for a in CATALOGUE if a.name == "owl")
    assert app.settings.people_avatars[0] == owl  # the solo player's avatar too
    assert scene.avatar == owl
    deadline = time.monotonic() + 5
    while Peer(server.port).hello(key=key)["avatar"] != owl and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Peer(server.port).hello(key=key)["avatar"] == owl


def test_the_leaderboard_shows_a_ranked_duel_and_my_empty_history(app, tmp_path):
    thread = serve(tmp_path, min_opponents=1, **PROXY)  # one game shows them (the rule: test_fair_play_ui)
    try:
        ana, ben = player(thread.port, "Ana", "203.0.113.1"), player(thread.port, "Ben", "203.0.113.2")
        for peer in (ana, ben):
            peer.send(type="queue", preset="duel", players=2)
        for peer in (ana, ben):
            peer.until(lambda m: m["type"] == "update")
        play_until([ana, ben], lambda: all(p.view["status"] == "match_over" for p in (ana, ben)),
                   accept_deals=False)
        server_lobby(app, thread.port)
        tap_button(app, "Leaderboard")
        assert top_name(app) == "LeaderboardScene"
        board = app.stack.top
        while board.preset_name != "duel":
            tap_button(app, "Rules")
        assert until(app, lambda: board.board is not None and len(board.board.top) == 2)
        with ui.recording() as drawn:
            app.frame(1 / 60)
            app.draw()
        texts = [d.text for d in drawn]
        assert any(t.startswith("Ana #") for t in texts) and any(t.startswith("Ben #") for t in texts)
        assert "You have no ranked game with these rules yet." in texts
        tap_button(app, "Top players")
        assert until(app, lambda: board.games == [])
        with ui.recording() as drawn:
            app.draw()
        assert "No ranked game yet." in [d.text for d in drawn]
        press(app, pygame.K_ESCAPE)
        assert top_name(app) == "ServerLobbyScene"
    finally:
        thread.stop()


def test_a_player_who_abandons_is_put_to_my_vote_and_penalised(app, tmp_path):
    clock = ManualClock()
    thread = serve(tmp_path, clock=clock, **PROXY)
    try:
        server_lobby(app, thread.port)
        for _ in range(8):
            if button(app, "Rules").element.text.startswith("Rules: Duel"):
                break
            tap_button(app, "Rules")
        tap_button(app, "Find a game")
        ben = player(thread.port, "Ben", "203.0.113.7")
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
        press(app, pygame.K_LEFT)  # from "Don't penalise" to "Penalise"
        press(app, pygame.K_RETURN)
        assert top_name(app) != "VoteScene"

        def penalised() -> bool:
            app.frame(1 / 60)
            votes = (controller.status.votes if controller.status else None) or []
            return bool(votes) and votes[0]["penalised"] is True

        assert until(app, penalised)
        assert Peer(thread.port).hello(key=ben.player_key)["xp"] == {"duel": -PENALTY}
        assert controller.vote_due is None  # asked once
    finally:
        thread.stop()


def test_statistics_show_the_online_points_beside_the_local_ones(app):
    app.store.player.remember("club.example:8765", {"type": "profile", "name": "Ana", "tag": "3F2",
                                                     "avatar": 0, "xp": {"colors": 140, "duel": 20}})
    from game.client.scenes.statistics import StatisticsScene

    app.start(StatisticsScene(app))
    app.stack.apply_requests()
    scene = app.stack.top
    scene.preset_name = "colors"
    scene.rebuild()
    with ui.recording() as drawn:
        app.draw()
    texts = [d.text for d in drawn]
    assert "Online, club.example:8765: 140 points" in texts
    assert "Colours ranking: 0 experience points" in texts
    scene.preset_name = "points"
    scene.rebuild()
    with ui.recording() as drawn:
        app.draw()
    assert "Online: no ranked game with these rules yet" in [d.text for d in drawn]


def test_clear_data_deletes_the_player_key(app, server):
    server_lobby(app, server.port)
    key = app.store.player.read().secret
    app.go_to_menu()
    app.stack.apply_requests()
    deleted = app.store.clear()
    assert any(p.name == "player.json" for p in deleted)
    assert app.store.player.read() is None
    assert app.store.player.player().secret != key  # a new player from now on


def test_a_damaged_player_file_is_kept_aside_and_a_new_player_made(app):
    path = app.store.player.path
    path.write_text("HUIT player 1\n{nonsense")
    assert app.store.player.read() is None and app.store.player.problem is not None
    fresh = app.store.player.player()
    app.store.flush()
    assert len(fresh.secret) == 32 and path.with_name("player.json.corrupt").exists()
    assert fresh.secret not in repr(fresh) and fresh.secret not in repr(app.store.player)
    stored = json.loads(path.read_text().split("\n", 2)[2])
    assert stored["key"] == fresh.secret
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)  # owner-only, like seat keys


class Recorder:
    """A connection that is up and keeps what the screen sends."""

    host, port, room, seat, problem = "club.example", 8765, None, None, None
    status, connected = "connected", True

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.inbox: list[dict] = []

    def poll(self) -> list[dict]:
        out, self.inbox = self.inbox, []
        return out

    def poll_messages(self) -> list:
        return [message for message in map(from_server, self.poll()) if message is not None]

    def send(self, message) -> None:
        self.sent.append(message.to_json(version=False))

    def close(self, *, leave: bool = False) -> None:
        pass


def test_stepping_through_the_rule_sets_asks_the_server_once_it_rests_and_again_when_turned_away(app):
    from game.client.scenes.leaderboard import LeaderboardScene
    from game.net.client import Server

    connection = Recorder()
    app.start(LeaderboardScene(app, Server("club.example", 8765, False), "classic", connection=connection))
    app.stack.apply_requests()
    for _ in range(4):
        tap_button(app, "Rules")
    for _ in range(40):
        app.frame(1 / 60)
    assert connection.sent == [{"type": "leaderboard", "preset": "duel"}]
    connection.inbox.append({"type": "error", "code": "too_many_requests", "message": "slow down", "v": 2})
    for _ in range(90):
        app.frame(1 / 60)
    assert connection.sent[1:] == [{"type": "leaderboard", "preset": "duel"}]


def test_a_public_room_from_the_lobby_waits_for_people_in_every_seat_and_never_offers_undo(app, server):
    app.settings.last_preset, app.settings.last_players = "classic", {"classic": 2}  # undo on by default
    app.settings.default_levels = ["human", "hard"] + ["medium"] * 5  # a computer at seat 2 offline
    server_lobby(app, server.port)
    tap_button(app, "Create a public room")
    assert top_name(app) == "NewGameScene"
    form = app.stack.top
    assert form.seats() == [SeatConfig("human"), SeatConfig("human")]  # the stranger's seat is free
    labels = [getattr(c.element, "text", "") for c in form.controls]
    assert not [text for text in labels if text.startswith("Undo")]
    tap_button(app, "Create")
    assert until(app, lambda: len(server.server.rooms) == 1)
    (room,) = server.server.rooms.values()
    assert room.rules.undo is False and [s.kind for s in room.seats] == ["human", "human"]
