"""Fair play seen from the game: the leaderboard tells a player not shown yet how many more
different opponents they need, their history says which games were too short to count and
which hit the daily limit against one opponent, and so does a ranked game's result. A real
App (dummy video driver) against a real `ServerThread` on 127.0.0.1, the games played by raw
websocket clients (one with the App's own player key); the result against a scripted room."""

from __future__ import annotations

import pygame
import pytest

from game.client import ui
from game.net.clock import ManualClock
from game.net.fair_play import MIN_OPPONENTS, PAIR_GAMES
from tests.client_support import close_online_app, make_app, press, run_until, top_name
from tests.net_support import Peer
from tests.support import make_match
from tests.test_lobby_ui import PROXY, player, serve, server_lobby
from tests.test_net_fair_play import eager, public_duel, small_hand_games
from tests.test_online_ui import tap_button, until
from tests.test_stakes_ui import StakesRoom, table_for
from tests.test_stakes_ui import drawn_texts as stakes_texts


@pytest.fixture
def app():
    application = make_app(player_name="Ana", size=(1920, 1080))
    yield application
    close_online_app(application)


def drawn_texts(app) -> list[str]:
    with ui.recording() as drawn:
        app.frame(1 / 60)
        app.draw()
    return [d.text for d in drawn]


def test_my_history_says_why_a_game_earned_nothing_and_the_board_how_many_opponents_i_need(app, tmp_path):
    clock = ManualClock()
    thread = serve(tmp_path, clock=clock, **PROXY)
    try:
        server_lobby(app, thread.port)
        key = app.store.player.read().key_for("127.0.0.1", thread.port)
        ana = Peer(thread.port, 1, address="203.0.113.1")  # the App's player, from afar
        assert ana.hello(key=key)["type"] == "profile"
        ben = player(thread.port, "Ben", "198.51.100.2")
        eager([ana, ben])
        public_duel(ana, ben, options={"hand_size": 3})
        room = thread.server.service.rooms[ana.room_id]
        short = earning = capped = 0
        for was_short in small_hand_games(ana, ben, room):
            if was_short:
                short += 1
            elif earning < PAIR_GAMES:
                earning += 1
            else:
                capped += 1
            if short and capped:
                break
        assert short and capped
        tap_button(app, "Leaderboard")
        assert top_name(app) == "LeaderboardScene"
        board = app.stack.top
        while board.preset_name != "duel":
            tap_button(app, "Rules")
        assert until(app, lambda: board.board is not None and board.board.own is not None)
        xp = board.board.own.xp
        assert board.board.top == [] and xp
        needs = (f"Different opponents still to meet before you join the board: {MIN_OPPONENTS - 1} "
                 f"(your points so far: {xp})")
        assert needs in drawn_texts(app)
        # The empty board says why it is empty: nobody met enough opponents (not "nobody played").
        assert any(t.startswith("Nobody is on this board yet") for t in drawn_texts(app))
        tap_button(app, "Top players")  # to the history
        assert until(app, lambda: board.games)
        texts = " ".join(drawn_texts(app))
        assert "too short to count" in texts and "daily limit against this opponent reached" in texts
    finally:
        thread.stop()


class FairPlayRoom(StakesRoom):
    """A scripted ranked room whose status, once the match is over, says why fair play took the
    points (``reasons``), as the server's does."""

    reasons: list[str | None] | None = None

    def _room_status(self) -> None:
        super()._room_status()
        if self.reasons is not None and self.match.status == "match_over":
            self.inbox[-1]["reasons"] = self.reasons


@pytest.mark.parametrize(("reason", "said"), [("short", "too short to count"),
                                              ("pair_cap", "daily limit against this opponent reached")])
def test_the_result_says_why_a_ranked_game_earned_nothing(reason, said):
    app = make_app((1024, 600), player_name="Ana")
    try:
        room = FairPlayRoom(make_match("duel", ["3H", "5S"], "7H", "KD QD JD TD 2C 3C 4D 5D"))
        room.earned, room.reasons = [0, 0], [reason, reason]
        table_for(app, room)
        press(app, pygame.K_RETURN)
        press(app, pygame.K_RETURN)  # Ana plays her only card: a game of one turn is over
        assert run_until(app, lambda: top_name(app) == "ResultScene", 600)
        assert run_until(app, lambda: f"Ranking: +0 points  ·  {said}" in stakes_texts(app), 30)
    finally:
        close_online_app(app)
