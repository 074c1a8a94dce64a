"""Tokens and stakes seen from the game, by real events into real scenes: the lobby shows each
public room's stake (a real server), a player without the stake is told why (a real server), the
waiting room says the stake and the balance, the result says the tokens won or lost, and
Statistics the balance the server last said."""

from __future__ import annotations

import pygame
import pytest

from game.client import stakes
from game.client.remote import RemoteController
from game.client.scenes.waiting_room import WaitingRoomScene
from game.net.messages import Error
from game.net.profiles import player_id
from game.net.roomstore import TokenLine
from game.net.sqlitestore import SQLiteRoomStore
from game.net.tokens import ESTABLISHED_GAMES, GRANT, STAKE, day_of
from tests.client_support import STEP, close_online_app, make_app, press, run_until, tap, top_name
from tests.net_support import Peer
from tests.support import make_match
from tests.test_lobby_ui import serve, server_lobby
from tests.test_online_ui import button, tap_button, until
from tests.test_stakes_ui import StakesRoom, drawn_texts, gui_texts
from tools.online_shots import StillConnection

HUMAN = {"kind": "human"}
CODE = "K7M-4AX-P9T-E3F-HWR"


class TokensRoom(StakesRoom):
    """The scripted ranked room, whose status says the stake, and once over the tokens moved."""

    tokens: list[int | None] | None = None

    def _room_status(self) -> None:
        super()._room_status()
        status = self.inbox[-1]
        status["stake"] = STAKE
        if self.tokens is not None and self.match.status == "match_over":
            status["tokens"] = self.tokens


@pytest.fixture
def app():
    application = make_app((1024, 600), player_name="Ana")
    yield application
    close_online_app(application)


@pytest.fixture
def server(tmp_path):
    thread = serve(tmp_path)
    thread.db = tmp_path / "rooms.sqlite3"
    yield thread
    thread.stop()


def test_the_lobby_shows_the_stake_of_each_public_room(app, server):
    server_lobby(app, server.port)
    ben = Peer(server.port)
    ben.hello("Ben")
    ben.create("duel", [HUMAN, HUMAN], public=True)
    assert until(app, lambda: any(getattr(c.element, "text", "").startswith("Duel · 1/2 · Ben #")
                                  for c in app.stack.top.controls))
    assert button(app, "Duel · 1/2").element.text.endswith(f" · stake {STAKE}")


def test_a_player_without_the_stake_is_told_why_when_asking_for_a_quick_match(app, server):
    scene = server_lobby(app, server.port)
    key = app.store.player.read().key_for("127.0.0.1", server.port)
    store = SQLiteRoomStore(server.db)  # beside the server: Ana lost all but 5 of her tokens today
    try:
        now = server.server.clock.now()
        who = player_id(key)
        store.rank([], [TokenLine(f"before{i}", 1, who, 5 - GRANT if i == 0 else 0, day_of(now), now, True,
                                  (f"someone{i % 3}",)) for i in range(ESTABLISHED_GAMES)])
    finally:
        store.close()
    for _ in range(8):
        if button(app, "Rules").element.text.startswith("Rules: Duel"):
            break
        tap_button(app, "Rules")
    tap_button(app, "Find a game")
    expected = ("You have 5 tokens free (not at stake in another game); a ranked game needs a stake of "
                f"{STAKE}. Your tokens are topped up each day; private rooms need none.")
    assert until(app, lambda: scene.message == expected), (scene.message, top_name(app))
    assert scene.quick is None  # no longer looking
    shown = [getattr(e, "html_text", "") for e in app.stack.top.manager.get_sprite_group().sprites()]
    assert expected in shown  # on screen


def _waiting(tokens: int | None) -> RemoteController:
    controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
    controller.receive({"type": "joined", "room": CODE, "seat": 0, "players": 2})
    if tokens is not None:
        controller.receive({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 1, "xp": {},
                            "created": False, "tokens": tokens})
    controller.receive({"type": "room", "room": CODE, "preset": "duel", "options": {}, "players": 2,
                        "state": "waiting", "seats": [{"kind": "human", "level": None, "name": "Ana",
                                                       "tag": "3F2", "connected": True, "accepted": False},
                                                      {"kind": "human", "level": None, "name": "",
                                                       "connected": False, "accepted": False}],
                        "waiting_for": [1], "results": [], "deal": 0, "kind": "public", "ranked": False,
                        "votes": [], "stake": STAKE})
    return controller


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_waiting_room_says_the_stake_and_my_balance_and_follows_it(size):
    app = make_app(size)
    controller = _waiting(90)
    app.start(WaitingRoomScene(app, controller))
    app.frame(1 / 60)  # no event: the first frame says it
    assert f"Stake: {STAKE} tokens each · you hold 90" in gui_texts(app.stack.top)
    controller.receive({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 1, "xp": {},
                        "created": False, "tokens": 110})
    app.frame(1 / 60)
    assert f"Stake: {STAKE} tokens each · you hold 110" in gui_texts(app.stack.top)
    app.start(WaitingRoomScene(app, _waiting(None)))  # a server that does not say the balance
    app.frame(1 / 60)
    assert f"Stake: {STAKE} tokens each" in gui_texts(app.stack.top)


def test_the_result_says_the_tokens_won_and_statistics_the_balance(app):
    from game.client.joining import connect

    app.settings.last_preset = "duel"
    room = TokensRoom(make_match("duel", ["3H", "5S"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
    room.earned, room.tokens = [20, 10], [STAKE, -STAKE]
    room.tls = False  # type: ignore[attr-defined]
    room.inbox.insert(0, {"type": "profile", "name": "Ana", "tag": "A0B", "avatar": 1, "xp": {"duel": 40},
                          "created": False, "tokens": GRANT})
    controller = connect(app, room, "127.0.0.1", 8765)  # type: ignore[arg-type]
    controller.update(0.0)
    from game.client.scenes.table import TableScene

    table = TableScene(app, controller)
    app.start(table)
    assert run_until(app, lambda: not table.animator.busy, 600)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # Ana plays her only card: the game is won
    room.inbox.append({"type": "profile", "name": "Ana", "tag": "A0B", "avatar": 1, "xp": {"duel": 60},
                       "created": False, "tokens": GRANT + STAKE})
    assert run_until(app, lambda: top_name(app) == "ResultScene", 600)
    assert run_until(app, lambda: "Ranking: +20 points  ·  Tokens: +10" in drawn_texts(app), 30)
    app.frame(STEP)
    tap(app, app.stack.top.buttons[-1].rect.center)  # Menu
    tap_button(app, "Statistics")
    assert top_name(app) == "StatisticsScene"
    assert f"Tokens, 127.0.0.1:8765: {GRANT + STAKE}" in drawn_texts(app)


def test_a_lying_servers_figures_are_not_shown():
    liar = Error(code="no_tokens", message="x", values={"stake": "lots", "tokens": 10**12})
    assert stakes.refusal_text(liar).startswith("You have ? tokens free (not at stake in another game); a "
                                                "ranked game needs a stake of ?.")
    controller = _waiting(None)
    controller.receive({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 1, "xp": {},
                        "created": False, "tokens": True})
    assert stakes.balance(controller.player) is None


def test_the_balance_kept_on_this_device_survives_and_a_file_from_before_tokens_still_loads(tmp_path):
    from game.saves import DataStore

    store = DataStore(tmp_path, background=False)
    old = {"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 1, "xp": {"duel": 40}}
    store.player.remember("club.example:8765", old)  # a server from before tokens
    assert store.player.read().servers["club.example:8765"].tokens is None
    assert "tokens" not in store.player.path.read_text(encoding="utf-8")  # written as older games wrote it
    store.player.remember("club.example:8765", {**old, "tokens": 95})
    again = DataStore(tmp_path, background=False).player.read()
    assert again.servers["club.example:8765"].tokens == 95
    store.player.remember("club.example:8765", {**old, "tokens": 10**12})  # no count: left out
    assert DataStore(tmp_path, background=False).player.read().servers["club.example:8765"].tokens is None


def test_a_lobby_stake_past_what_a_line_can_hold_is_not_believed():
    from game.client.stakes import MAX_STAKE, listed_stake

    assert listed_stake(10) == 10 and listed_stake(MAX_STAKE) == MAX_STAKE
    assert listed_stake(MAX_STAKE + 1) is None and listed_stake(-1) is None and listed_stake("10") is None


def test_tokens_that_did_not_move_are_said_as_stakes_returned_not_plus_zero():
    from game.client.stakes import moved_text

    assert moved_text(10) == "Tokens: +10" and moved_text(-10) == "Tokens: -10"
    assert moved_text(0) == "Tokens: stakes returned"
