"""A hostile server never crashes the game: what it sends is read strictly and every field a
screen shows is checked before it is used.

The connection drops frames with numbers JSON has not (``NaN``, ``Infinity``, ``1e400``), as a
real websocket server sends them. Then each new message of protocol version 2 (``profile``,
``lobby``, ``queued``, ``leaderboard``, ``history``, the room status with its kind, ranking,
seats' tags and avatars, votes and results, ``error``) is given to the screens that read it
with each of its fields in turn replaced by a hostile value (NaN, the infinities, huge and
negative numbers, lists, objects, a lone surrogate, long text, the wrong type) or left out,
and the screen is updated and drawn.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from websockets.sync.server import serve

from game.client.remote import RemoteController
from game.client.scenes.leaderboard import LeaderboardScene
from game.client.scenes.server_lobby import ServerLobbyScene, clock_text
from game.client.scenes.table import TableScene
from game.client.scenes.vote import VoteScene
from game.client.scenes.waiting_room import WaitingRoomScene
from game.net.client import RoomConnection, Server, read_message
from game.net.messages import ServerMessage, from_server
from game.net.wire import view_to_json
from tests.client_support import make_app, press, run_until, top_name
from tests.every_screen import QuietConnection
from tests.support import make_match
from tests.test_table_contract import online

# (A lone surrogate never gets this far: the connection drops its frame, see below.)
HOSTILE: list[Any] = [float("nan"), float("inf"), float("-inf"), 10**30, -10**30, -1, 2**64, 0.5, True, None,
                      "", "x" * 300, [], [1, "a", None, [2]], {}, {"a": [1]}]
MISSING = object()  # the field left out
SERVER = Server("club.example", 8765, False)


def variants(template: dict[str, Any], paths: list[tuple[Any, ...]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``template`` with the field at each path replaced by each hostile value, or left out."""
    for path in paths:
        for value in [*HOSTILE, MISSING]:
            message = copy.deepcopy(template)
            *parents, last = path
            target: Any = message
            for step in parents:
                target = target[step]
            if value is MISSING:
                if not isinstance(target, dict):
                    continue
                target.pop(last, None)
            else:
                target[last] = value
            yield f"{'.'.join(map(str, path))} = {value!r:.40}", message


@pytest.fixture
def app():
    application = make_app()
    yield application
    application.store.flush()
    pygame.display.quit()


def said(data: dict[str, Any]) -> ServerMessage:
    """A server's message as the screens take it in: read as the connection reads it."""
    message = from_server(data)
    assert message is not None, data
    return message


def show(app, scene) -> None:
    app.start(scene)
    app.stack.apply_requests()
    app.frame(1 / 60)


# ---- the connection ------------------------------------------------------------------------------
def test_numbers_json_has_not_and_lone_surrogates_are_refused():
    for text in ('{"type": "pong", "n": NaN}', '{"type": "pong", "n": Infinity}',
                 '{"type": "pong", "n": -Infinity}', '{"type": "pong", "n": 1e400}',
                 '{"type": "pong", "n": -1e400}', "[NaN]",
                 '{"type": "profile", "name": "\\ud800"}', '{"\\udfff": 1}', '["x\\uDC00"]', b'["\\ud800"]'):
        with pytest.raises(ValueError):
            read_message(text)
    assert read_message('{"type": "pong", "n": 1.5e3, "m": 12}') == {"type": "pong", "n": 1500.0, "m": 12}
    assert read_message('{"name": "Ana \\ud83d\\ude00", "s": "\\\\ud800"}') == {"name": "Ana 😀",
                                                                               "s": "\\ud800"}


def test_frames_with_nan_infinity_or_a_lone_surrogate_are_dropped_and_the_connection_goes_on():
    frames = ['{"type": "lobby", "rooms": [], "now": NaN}', '{"type": "lobby", "rooms": [], "now": Infinity}',
              '{"type": "queued", "since": -Infinity}', '{"type": "lobby", "rooms": [], "now": 1e999}',
              '{"type": "profile", "name": "\\ud800", "tag": "3F2"}',
              '{"type": "lobby", "rooms": [], "now": 12.5}']

    def handler(ws) -> None:
        ws.recv(timeout=5)  # the lobby question
        for frame in frames:
            ws.send(frame)
        ws.recv(timeout=5)  # until the client goes

    with serve(handler, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        connection = RoomConnection("127.0.0.1", port, {"type": "lobby"})
        seen: list[dict[str, Any]] = []
        try:
            for _ in range(500):
                seen += connection.poll()
                if seen:
                    break
                threading.Event().wait(0.01)
            threading.Event().wait(0.1)
            seen += connection.poll()
        finally:
            connection.close()
            connection.join_thread()
            server.shutdown()
    assert seen == [{"type": "lobby", "rooms": [], "now": 12.5}]


# ---- the server's lobby ---------------------------------------------------------------------------
# Each test builds its screen once and gives it every case in turn (each screen built used to make
# every later one slower, pygame_gui's translations' path growing: `ui.once_each` ended that).
LOBBY = {"type": "lobby", "listed": 1, "now": 160.0, "rooms": [
    {"room": "abc", "preset": "duel", "options": {}, "players": 2, "taken": 1, "free": 1, "computers": 0,
     "since": 100.0, "seats": [{"kind": "human", "name": "Ben", "tag": "3F2", "avatar": 4},
                               {"kind": "free"}]}]}
PROFILE = {"type": "profile", "name": "Ana", "tag": "A0B", "avatar": 4, "xp": {"duel": 10}, "created": False}
QUEUED = {"type": "queued", "preset": "duel", "players": 2, "waiting": 1, "since": 0.0, "now": 5.0}
ERROR = {"type": "error", "code": "bad_name", "message": "no", "reason": "empty"}


def room_paths(prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return [prefix + p for p in (("room",), ("preset",), ("players",), ("taken",), ("since",),
                                 ("seats",), ("seats", 0), ("seats", 0, "name"), ("seats", 0, "tag"),
                                 ("seats", 0, "kind"), ("seats", 0, "avatar"))]


@pytest.mark.parametrize(("template", "paths"), [
    (LOBBY, [("rooms",), ("listed",), ("now",), ("rooms", 0), *room_paths(("rooms", 0))]),
    (PROFILE, [("name",), ("tag",), ("avatar",), ("xp",), ("xp", "duel"), ("created",)]),
    (ERROR, [("code",), ("message",), ("reason",)]),
], ids=["lobby", "profile", "error"])
def test_the_server_lobby_shows_hostile_messages_without_raising(app, template, paths):
    scene = ServerLobbyScene(app, SERVER, connection=QuietConnection())  # type: ignore[arg-type]
    show(app, scene)
    for case, message in variants(template, paths):
        scene.rooms, scene.profile, scene.message, scene.synced = [], None, "", False
        try:
            scene.take(said(copy.deepcopy(LOBBY)))
            scene.take(said(message))
            scene.update(1.0)
            app.frame(1 / 60)
        except Exception as exc:  # noqa: BLE001  (the case is named in the failure)
            raise AssertionError(f"{template['type']}: {case}: {exc!r}") from exc


def test_quick_match_shows_a_hostile_wait_without_raising(app):
    scene = ServerLobbyScene(app, SERVER, connection=QuietConnection())  # type: ignore[arg-type]
    show(app, scene)
    for case, message in variants(QUEUED, [("preset",), ("players",), ("waiting",), ("since",), ("now",)]):
        scene.quick = RemoteController(QuietConnection(), speed=0)  # type: ignore[arg-type]
        scene.quick_since = 0.0
        try:
            scene.quick.receive(message)
            scene.update(1.0)
            app.frame(1 / 60)
            assert 0 <= scene.quick_since < 10**7
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"queued: {case}: {exc!r}") from exc


def test_a_wait_of_any_number_reads_as_a_clock():
    assert clock_text(75) == "1:15"
    for seconds in (float("nan"), float("inf"), float("-inf"), -5, 10**30, 1e300):
        assert clock_text(seconds) in ("0:00", "6000:00")


# ---- the leaderboard -------------------------------------------------------------------------------
BOARD = {"type": "leaderboard", "preset": "duel", "players": 1, "you": {"rank": 1, "xp": 20, "games": 1},
         "top": [{"rank": 1, "name": "Ben", "tag": "3F2", "avatar": 4, "xp": 20, "games": 1, "you": False}]}
HISTORY = {"type": "history", "games": [{"preset": "duel", "players": 2, "xp": 20, "outcome": "win",
                                         "at": 1.7e9, "deal": 0, "opponents": ["Ben #3F2"]}]}


@pytest.mark.parametrize(("template", "paths", "view"), [
    (BOARD, [("preset",), ("players",), ("you",), ("you", "rank"), ("you", "xp"), ("top",), ("top", 0),
             ("top", 0, "rank"), ("top", 0, "name"), ("top", 0, "tag"), ("top", 0, "xp"), ("top", 0, "games"),
             ("top", 0, "you")], "top"),
    (HISTORY, [("games",), ("games", 0), ("games", 0, "preset"), ("games", 0, "xp"), ("games", 0, "outcome"),
               ("games", 0, "at"), ("games", 0, "opponents"), ("games", 0, "opponents", 0)], "history"),
], ids=["leaderboard", "history"])
def test_the_leaderboard_shows_hostile_answers_without_raising(app, template, paths, view):
    scene = LeaderboardScene(app, SERVER, "duel", connection=QuietConnection())  # type: ignore[arg-type]
    scene.view = view
    show(app, scene)
    for case, message in variants(template, paths):
        scene.board = scene.games = None
        try:
            scene.take(said(message))
            scene.rebuild()
            app.frame(1 / 60)
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{template['type']}: {case}: {exc!r}") from exc


# ---- a room: the waiting room, the table, the vote, the result --------------------------------------
RESULT = {"winner": 0, "winners": [0], "blocked": False, "tie": False, "points": [0, 10],
          "hands": [[], ["5S"]], "totals": [0, 10]}
ROOM = {"type": "room", "room": "r00m", "preset": "duel", "options": {}, "players": 2, "state": "round_over",
        "seats": [{"kind": "human", "level": None, "name": "Ana", "connected": True, "accepted": False,
                   "tag": "A0B", "avatar": 4},
                  {"kind": "human", "level": None, "name": "Ben", "connected": False, "accepted": False,
                   "tag": "3F2", "avatar": 5}],
        "waiting_for": [1], "results": [RESULT], "deal": 1, "kind": "public", "ranked": True,
        "votes": [{"seat": 1, "yes": 0, "no": 0, "voters": 1, "voted": [], "penalised": False}]}
ROOM_PATHS = [("state",), ("seats",), ("seats", 1), ("seats", 1, "name"), ("seats", 1, "tag"),
              ("seats", 1, "avatar"), ("seats", 1, "kind"), ("seats", 1, "level"), ("seats", 1, "connected"),
              ("waiting_for",), ("waiting_for", 0), ("results",), ("results", 0), ("results", 0, "winner"),
              ("results", 0, "winners"), ("results", 0, "points"), ("results", 0, "points", 1),
              ("results", 0, "totals", 0), ("results", 0, "hands"), ("kind",), ("ranked",), ("votes",),
              ("votes", 0), ("votes", 0, "seat"), ("votes", 0, "voted"), ("votes", 0, "penalised")]


def test_the_waiting_room_shows_a_hostile_room_without_raising(app):
    scene = WaitingRoomScene(app, RemoteController(QuietConnection(), speed=0))  # type: ignore[arg-type]
    show(app, scene)
    drawn: set[str] = set()
    for case, message in variants(ROOM, ROOM_PATHS):
        # A fresh controller takes the message as it reads (`from_server`): two variants that read
        # alike (a hostile value refused, or left out, the same way) show the same room.
        read = repr(from_server(message))
        if read in drawn:
            continue
        drawn.add(read)
        remote = RemoteController(QuietConnection(), speed=0)  # type: ignore[arg-type]
        remote.receive({"type": "joined", "room": "r00m", "seat": 0})
        scene.remote = remote
        try:
            remote.receive(message)
            scene.rebuild()
            app.frame(1 / 60)
            remote.notice(["Ana", "Ben"])
            assert remote.vote_due in (None, 1)
            assert all(len(r.points) == 2 for r in remote.results)
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"room: {case}: {exc!r}") from exc


def finished_deal(app) -> tuple[TableScene, Any]:
    """An online duel of one card each, played to its result screen (a vote on the way answered by Esc)."""
    controller, room = online(make_match("duel", ["3H", "5S"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table = TableScene(app, controller)
    app.start(table)
    for _ in range(20):
        if top_name(app) == "ResultScene":
            break
        if top_name(app) == "VoteScene":
            press(app, pygame.K_ESCAPE)
        assert run_until(app, lambda: not table.animator.busy, 600)
        if top_name(app) == "TableScene" and table.view.my_turn:
            press(app, pygame.K_RETURN)
        else:
            app.frame(1 / 60)
    assert top_name(app) == "ResultScene"
    return table, room


def test_the_table_the_vote_and_the_result_show_a_hostile_room_without_raising(app):
    controller, room = online(make_match("duel", ["3H 4H 5H", "5S 6S 7S"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    table = TableScene(app, controller)
    app.start(table)
    for case, message in variants(ROOM, ROOM_PATHS):
        try:
            room.inbox.append(message)
            app.frame(1 / 60)
            app.frame(1 / 60)
            seat = controller.vote_due
            if top_name(app) != "VoteScene" and seat is not None:
                app.stack.push(VoteScene(app, table, seat))
                app.frame(1 / 60)
            if top_name(app) == "VoteScene":
                press(app, pygame.K_ESCAPE)
            assert top_name(app) == "TableScene"
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"room at the table: {case}: {exc!r}") from exc
    table, room = finished_deal(app)
    for case, message in variants(ROOM, ROOM_PATHS):
        try:
            room.inbox.append(message)
            app.frame(1 / 60)
            app.frame(1 / 60)
            assert top_name(app) == "ResultScene"
            app.stack.top.headline()
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"room at the result: {case}: {exc!r}") from exc


def test_a_next_deal_the_quota_refused_may_be_asked_for_again():
    controller = RemoteController(QuietConnection(), speed=0)  # type: ignore[arg-type]
    controller.accepted = True  # the player asked for the next deal
    controller.receive({"type": "error", "code": "too_many_computers", "message": "over the quota"})
    assert controller.accepted is False and controller.refusal is None  # not a fatal refusal


def test_a_room_that_deals_at_once_opens_its_table_only_once_the_seats_are_known(app):
    # One person and a computer: the server deals at creation and says joined, update, room in
    # that order; when the room status comes in a later poll, the waiting room must not open a
    # table that has no seats to draw (it did, and the table raised IndexError).
    match = make_match("classic", ["7H 8C", "9D 2S"], "5H")
    connection = QuietConnection()
    remote = RemoteController(connection, speed=0)  # type: ignore[arg-type]
    show(app, WaitingRoomScene(app, remote))
    remote.receive({"type": "joined", "room": "r00m", "seat": 0})
    remote.receive({"type": "update", "room": "r00m", "view": view_to_json(match.view(0)), "events": [],
                    "timer": None, "autopilot": False})
    for _ in range(3):
        app.frame(1 / 60)
    assert top_name(app) == "WaitingRoomScene" and not remote.ready
    seats = [{"kind": "human", "level": "medium", "name": "Lea", "connected": True, "accepted": False},
             {"kind": "computer", "level": "medium", "name": "", "connected": True, "accepted": False}]
    remote.receive({"type": "room", "room": "r00m", "preset": "classic", "options": {}, "players": 2,
                    "state": "playing", "seats": seats, "waiting_for": [], "results": [], "deal": 1,
                    "kind": "private", "ranked": False, "votes": []})
    assert run_until(app, lambda: top_name(app) == "TableScene")
    assert app.stack.top.names() == ["Lea", "Computer 2"]
