"""The online screens of the screenshots command (`tools.shots`): the lobby, waiting rooms, a table
waiting for a player, a server's lobby with public rooms and quick match looking, its leaderboard and
ranked history, the vote on an abandon, the stakes and the tokens. Each screen is fed scripted server
messages through a connection that sends nothing (`StillConnection`)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any, Final

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


from game.client.app import App  # noqa: E402
from game.client.controller import SeatConfig  # noqa: E402
from game.engine import PRESETS, Match  # noqa: E402
from game.net.messages import ServerMessage, from_server  # noqa: E402
from tools.shot_tables import advance, table_for  # noqa: E402

SERVER_PEOPLE: Final = (("Ana", "3F2K9Q", 5), ("Benoît", "A07XMZ", 14), ("Chloé", "1C9RT4", 7),
                        ("Dmitri", "F40GHP", 2), ("Ana", "77BW2N", 11), ("Léa", "0D3JKV", 9),
                        ("Sam", "B12ZQ8", 0), ("Yuki", "5E8NRX", 3))
"""Players of the sample server: a name, its tag, an avatar (two Anas, told apart by their tags)."""


def reaction_screens(app: App, save: Callable[[str], None], controller: Any) -> None:
    """The quick reactions over an online table: the palette, then a bubble at two seats (one of
    them this device's own)."""
    from game.client.scenes.reactions import ReactionsScene
    from game.client.scenes.table import TableScene

    table = TableScene(app, controller)
    app.start(table)
    board = table.reactions
    assert board is not None
    app.stack.push(ReactionsScene(app, table, board))
    app.stack.apply_requests()
    save("online_reactions_palette")
    app.stack.pop()
    app.stack.apply_requests()
    controller.reactions.extend([(0, "well_played"), (3, "good_game")])
    save("online_reactions_bubbles")


def said(data: dict[str, object]) -> ServerMessage:
    """A server's message, as the screens take it in (read as the connection reads it)."""
    message = from_server(data)
    assert message is not None, data
    return message


class StillConnection:
    """A connection that is up and quiet: online screens drawn from messages given by hand."""

    host, port, room, seat, status, problem = "192.168.1.20", 8765, None, None, "connected", None

    def poll(self) -> list[dict[str, object]]:
        return []

    def poll_messages(self) -> list[ServerMessage]:
        return []

    def send(self, message: dict[str, object]) -> None:
        pass

    def close(self, *, leave: bool = False) -> None:
        pass

    @property
    def connected(self) -> bool:
        return True


def online_screens(app: App, save: Callable[[str], None]) -> None:
    """The lobby (hosting, a room of mine, a message), a waiting room, a table waiting for a player."""
    from game.client.joining import join_link
    from game.client.remote import RemoteController
    from game.client.scenes.lobby import LobbyScene
    from game.client.scenes.table import TableScene
    from game.client.scenes.waiting_room import WaitingRoomScene
    from game.net.wire import view_to_json
    from game.saves import SeatKey

    app.store.keys.remember(SeatKey("huit://192.168.1.20:8765/q7Rk2mXa9Lp", "q7Rk2mXa9Lp", 0, "k"))
    app.store.flush()
    app.settings.player_name = "Ana"
    lobby = LobbyScene(app, join_link(app, "huit://192.168.1.20/abc") or "")  # a link without its port
    lobby.entries["server"].set_text("192.168.1.20:8765")
    lobby.entries["link"].set_text("huit://192.168.1.20/abc")
    app.start(lobby)
    save("online_lobby")

    def remote(seats: list[dict[str, object]], waiting: list[int], state: str) -> RemoteController:
        controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
        controller.receive({"type": "joined", "room": "q7Rk2mXa9Lp", "seat": 0, "players": len(seats)})
        controller.receive({"type": "room", "room": "q7Rk2mXa9Lp", "preset": "points", "options": {},
                            "players": len(seats), "state": state, "seats": seats, "waiting_for": waiting,
                            "results": [], "deal": 1})
        return controller

    seats: list[dict[str, object]] = [
        {"kind": "human", "level": None, "name": "Ana", "connected": True, "accepted": False},
        {"kind": "human", "level": None, "name": "", "connected": False, "accepted": False},
        {"kind": "computer", "level": "hard", "name": "", "connected": True, "accepted": False},
        {"kind": "human", "level": None, "name": "Chloé", "connected": True, "accepted": False}]
    app.start(WaitingRoomScene(app, remote(seats, [1], "waiting")))
    save("online_waiting_room")
    owner = remote([seats[0], {**seats[3], "name": "Ben", "tag": "A07", "avatar": 14}, seats[2],
                    {**seats[3], "tag": "1C9", "avatar": 7},
                    {"kind": "human", "level": None, "name": "", "connected": False, "accepted": False}],
                   [4], "waiting")
    owner.receive({**(owner.status.source or {}), "kind": "public", "ranked": False})  # a public room's owner
    app.start(WaitingRoomScene(app, owner))
    save("online_waiting_room_owner")  # "Free the seat" beside each guest (issue 32)
    match = Match(PRESETS["points"], 4, 31)
    advance(match, 9, random.Random(31), stop=lambda m: m.to_act == 2)
    seats[1] = {"kind": "human", "level": None, "name": "Ben", "connected": False, "accepted": False}
    controller = remote(seats, [1], "playing")
    controller.receive({"type": "update", "room": "q7Rk2mXa9Lp", "view": view_to_json(match.view(0)),
                        "events": [], "timer": None})
    app.start(TableScene(app, controller))
    save("online_table_waiting")
    reaction_screens(app, save, controller)


def server_screens(app: App, save: Callable[[str], None]) -> None:
    """A server's lobby (public rooms, quick match looking), the leaderboard, my ranked games, and
    the vote on an abandon over a ranked table: drawn from the messages a server sends."""
    from game.client.remote import RemoteController
    from game.client.scenes.leaderboard import LeaderboardScene
    from game.client.scenes.server_lobby import ServerLobbyScene
    from game.client.scenes.vote import VoteScene
    from game.net.client import Server

    server = Server("huit.example.org", 443, True)
    people = [{"kind": "human", "name": n, "tag": t, "avatar": a} for n, t, a in SERVER_PEOPLE]
    lobby = ServerLobbyScene(app, server, connection=StillConnection())  # type: ignore[arg-type]
    lobby.take(said({"type": "profile", "name": "Ana", "tag": "3F2K9Q", "avatar": 5, "xp": {"duel": 140}}))
    rooms = [{"room": f"room{i}", "preset": preset, "options": {}, "players": players, "taken": taken,
              "free": players - taken, "computers": 0, "since": 1000.0 - since,
              "seats": people[1 + i:1 + i + taken] + [{"kind": "free"}] * (players - taken)}
             for i, (preset, players, taken, since) in enumerate(
                 (("duel", 2, 1, 40), ("colors", 4, 2, 200), ("points", 4, 3, 75), ("action", 6, 2, 610)))]
    lobby.take(said({"type": "lobby", "rooms": rooms, "listed": len(rooms), "now": 1000.0}))
    lobby.rebuild()
    app.start(lobby)
    save("server_lobby")
    lobby.quick = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
    lobby.quick.receive({"type": "queued", "preset": "colors", "players": 4, "waiting": 2, "since": 0.0,
                         "now": 25.0})
    lobby.quick_since = 25.0
    lobby.preset_name, lobby.quick_players = "colors", 4
    lobby.rebuild()
    save("server_lobby_quick_match")
    board = LeaderboardScene(app, server, "duel", connection=StillConnection())  # type: ignore[arg-type]
    top = [{"rank": i + 1, "name": n, "tag": t, "avatar": a, "xp": 620 - 60 * i, "games": 31 - 3 * i,
            "you": (n, t) == ("Ana", "3F2")} for i, (n, t, a) in enumerate(SERVER_PEOPLE)]
    board.take(said({"type": "leaderboard", "preset": "duel", "top": top,
                      "you": {"rank": 1, "xp": 620, "games": 31}, "players": len(top)}))
    board.rebuild()
    app.start(board)
    save("leaderboard")
    outcomes = ("win", "loss", "win", "tie", "penalty", "abandoned")
    board.take(said({"type": "history", "games": [
        {"preset": "duel", "players": 2, "xp": {"win": 20, "loss": 10, "tie": 10, "penalty": -20,
                                                 "abandoned": 0}[outcome],
         "outcome": outcome, "at": 1.7e9 - 3600 * i, "deal": 0, "opponents": [f"{n} #{t}"]}
        for i, (outcome, (n, t, _)) in enumerate(zip(outcomes, SERVER_PEOPLE[1:], strict=False))]}))
    board.view = "history"
    board.rebuild()
    save("leaderboard_history")
    # Fair play: a player not on the board yet (one opponent met), and games it took the points of.
    others = [dict(row, rank=i + 1, you=False) for i, row in enumerate(top[1:])]
    board.take(said({"type": "leaderboard", "preset": "duel", "top": others,
                      "you": {"rank": None, "xp": 60, "games": 5, "opponents": 1, "needs": 2},
                      "players": len(top) - 1}))
    reasons = ("pair_cap", "pair_cap", "short", "", "", "")
    board.take(said({"type": "history", "games": [
        {"preset": "duel", "players": 2, "xp": 0 if reason else (10, 20)[i % 2],
         "outcome": ("loss", "win")[i % 2], "at": 1.7e9 - 600 * i, "deal": 0, "opponents": ["Ben #7C1"],
         **({"reason": reason} if reason else {})}
        for i, reason in enumerate(reasons)]}))
    board.view = "top"
    board.rebuild()
    save("leaderboard_not_shown_yet")
    board.view = "history"
    board.rebuild()
    save("leaderboard_history_fair_play")
    configs = [SeatConfig("human", name="Ana"), SeatConfig("computer", "medium", name="Benoît #A07")]
    table = table_for(app, PRESETS["duel"], configs, seed=7, steps=6, stop=lambda m: m.to_act == 0)
    app.stack.push(VoteScene(app, table, 1))
    app.stack.apply_requests()
    save("vote_on_an_abandon")


def ranked_screens(app: App, save: Callable[[str], None]) -> None:
    """Competitive rooms marked (issue 31): a ranked public room's waiting room and table with the
    crossed swords, a friendly room's table saying so, and a room code typed by hand in the lobby
    with a look-alike in it."""
    from game.client.remote import RemoteController
    from game.client.scenes.lobby import LobbyScene
    from game.client.scenes.table import TableScene
    from game.client.scenes.waiting_room import WaitingRoomScene
    from game.net.wire import view_to_json

    code = "K7M-4AX-P9T-E3F-HWR"
    seats: list[dict[str, object]] = [
        {"kind": "human", "level": None, "name": "Ana", "tag": "3F2K9Q", "connected": True,
         "accepted": False},
        {"kind": "human", "level": None, "name": "Benoît", "tag": "A07XMZ", "connected": True,
         "accepted": False}]

    def remote(kind: str, ranked: bool, state: str, waiting: list[int]) -> RemoteController:
        controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
        controller.receive({"type": "joined", "room": code, "seat": 0, "players": 2})
        controller.receive({"type": "room", "room": code, "preset": "duel", "options": {}, "players": 2,
                            "state": state, "seats": seats, "waiting_for": waiting, "results": [], "deal": 1,
                            "kind": kind, "ranked": ranked, "votes": []})
        return controller

    app.start(WaitingRoomScene(app, remote("public", False, "waiting", [1])))
    save("ranked_waiting_room")
    match = Match(PRESETS["duel"], 2, 5)
    for kind, ranked in (("public", True), ("private", False)):
        controller = remote(kind, ranked, "playing", [])
        controller.receive({"type": "update", "room": code, "view": view_to_json(match.view(0)), "events": [],
                            "timer": None})
        app.start(TableScene(app, controller))
        save("ranked_table" if ranked else "friendly_table")
    lobby = LobbyScene(app)
    lobby.entries["server"].set_text("192.168.1.20:8765")
    lobby.entries["link"].set_text("k7m-4ax-p9t-e3f-hw0")
    app.start(lobby)
    lobby.join()
    save("lobby_code_lookalike")
def stakes_screens(app: App, save: Callable[[str], None]) -> None:
    """What is at stake online: who joins from a link (a name and an avatar; a mixed-script name refused
    with its reason), a ranked table counting
    down to a computer's takeover (on the other's turn and on mine), its pause ("The game goes on"),
    the question before leaving it, a ranked table the other side stalls (their clock, and leaving
    it: no abandon), and the result with the ranking points earned."""
    from game.client.remote import RemoteController
    from game.client.scenes.leave_ranked import LeaveRankedScene
    from game.client.scenes.pause import PauseScene
    from game.client.scenes.result import ResultScene
    from game.client.scenes.table import TableScene
    from game.client.scenes.who_are_you import WhoAreYouScene
    from game.net.wire import result_to_json, view_to_json

    name = app.settings.player_name
    app.settings.player_name = ""
    who = WhoAreYouScene(app, "huit://192.168.1.20:8765/q7Rk2mXa9Lp")
    app.start(who)
    save("who_are_you")
    who.name_text = "\u0410na"  # a Cyrillic А with a Latin "na": refused, and why, where it was typed
    who.join()
    save("who_are_you_name_refused")
    app.settings.player_name = name
    seats = [{"kind": "human", "level": None, "name": n, "tag": t, "avatar": a, "connected": i != 1,
              "accepted": False} for i, (n, t, a) in enumerate(SERVER_PEOPLE[:2])]

    def ranked(match: Match, timer: float | None = None, **said: object) -> RemoteController:
        controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
        controller.receive({"type": "joined", "room": "q7Rk2mXa9Lp", "seat": 0, "players": 2})
        controller.receive({"type": "room", "room": "q7Rk2mXa9Lp", "preset": "duel", "options": {},
                            "players": 2, "state": str(match.status), "seats": seats, "waiting_for": [1],
                            "results": [result_to_json(r) for r in match.results], "deal": 1,
                            "kind": "quick", "ranked": True, "votes": [], **said})
        controller.receive({"type": "update", "room": "q7Rk2mXa9Lp", "view": view_to_json(match.view(0)),
                            "events": [], "timer": timer})
        return controller

    match = Match(PRESETS["duel"], 2, 41)
    advance(match, 5, random.Random(41), stop=lambda m: m.to_act == 1)
    table = TableScene(app, ranked(match, takeover=[{"seat": 1, "left": 252.0}]))
    app.start(table)
    save("online_table_takeover")
    mine = Match(PRESETS["duel"], 2, 41)
    advance(mine, 6, random.Random(41), stop=lambda m: m.to_act == 0)
    app.start(TableScene(app, ranked(mine, takeover=[{"seat": 1, "left": 252.0}])))
    save("online_table_takeover_my_turn")  # "Your turn", then the countdown; ☺ beyond Sort
    app.stack.push(PauseScene(app, table))
    app.stack.apply_requests()
    save("online_pause")
    app.stack.push(LeaveRankedScene(app, table))
    app.stack.apply_requests()
    save("leave_ranked")
    # A ranked game the other side stalls (issue 32): the clock the server runs for them, on the
    # table, and leaving it, which the server says is no abandon (they are absent).
    stalled = Match(PRESETS["duel"].with_options(turn_seconds=40), 2, 41)
    advance(stalled, 5, random.Random(41), stop=lambda m: m.to_act == 1)
    table = TableScene(app, ranked(stalled, timer=23.0, waiting_for=[], absent=[1]))
    app.start(table)
    save("online_table_stalled_clock")
    app.stack.push(LeaveRankedScene(app, table))
    app.stack.apply_requests()
    save("leave_ranked_stalled")
    match = Match(PRESETS["duel"], 2, 43)
    advance(match, 10_000, random.Random(43), stop=lambda m: m.status != "playing")
    winner = match.results[-1].winner if match.results else None
    table = TableScene(app, ranked(match, earned=[20 if winner == 0 else 10, 20 if winner == 1 else 10],
                                   waiting_for=[]))
    app.start(table)
    app.stack.push(ResultScene(app, table))
    app.stack.apply_requests()
    save("result_points_earned")
    # Fair play took the points: the daily limit against this opponent was reached.
    table = TableScene(app, ranked(match, earned=[0, 0], reasons=["pair_cap", "pair_cap"], waiting_for=[]))
    app.start(table)
    app.stack.push(ResultScene(app, table))
    app.stack.apply_requests()
    save("result_pair_cap")


def tokens_screens(app: App, save: Callable[[str], None]) -> None:
    """Tokens and stakes (issue 32): the lobby's rooms with their stake, a competitive waiting room
    with the stake and the balance, a ranked result with the tokens won, Statistics' balance."""
    from game.client.remote import RemoteController
    from game.client.scenes.result import ResultScene
    from game.client.scenes.server_lobby import ServerLobbyScene
    from game.client.scenes.statistics import StatisticsScene
    from game.client.scenes.table import TableScene
    from game.client.scenes.waiting_room import WaitingRoomScene
    from game.net.client import Server
    from game.net.wire import result_to_json, view_to_json

    stake, balance = 10, 90
    people = [{"kind": "human", "name": n, "tag": t, "avatar": a} for n, t, a in SERVER_PEOPLE]
    lobby = ServerLobbyScene(app, Server("huit.example.org", 443, True),
                             connection=StillConnection())  # type: ignore[arg-type]
    lobby.take(said({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 5, "xp": {"duel": 140},
                      "tokens": balance}))
    rooms = [{"room": f"room{i}", "preset": preset, "options": {}, "players": players, "taken": taken,
              "free": players - taken, "computers": 0, "since": 1000.0 - since, "stake": stake,
              "seats": people[1 + i:1 + i + taken] + [{"kind": "free"}] * (players - taken)}
             for i, (preset, players, taken, since) in enumerate((("duel", 2, 1, 40), ("colors", 4, 2, 200)))]
    lobby.take(said({"type": "lobby", "rooms": rooms, "listed": len(rooms), "now": 1000.0}))
    lobby.rebuild()
    app.start(lobby)
    save("tokens_lobby_stakes")
    lobby.message = lobby.error_text(said({"type": "error", "code": "no_tokens", "message": "",  # type: ignore[arg-type]
                                             "reason": "no_tokens", "values": {"stake": stake, "tokens": 5}}))
    lobby.rebuild()
    save("tokens_lobby_refused")
    seats = [{"kind": "human", "level": None, "name": n, "tag": t, "avatar": a, "connected": True,
              "accepted": False} for n, t, a in SERVER_PEOPLE[:2]]

    def remote(state: str, waiting: list[int], **said: object) -> RemoteController:
        controller = RemoteController(StillConnection(), speed=0)  # type: ignore[arg-type]
        controller.receive({"type": "joined", "room": "q7Rk2mXa9Lp", "seat": 0, "players": 2})
        controller.receive({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 5, "xp": {},
                            "created": False, "tokens": balance})
        controller.receive({"type": "room", "room": "q7Rk2mXa9Lp", "preset": "duel", "options": {},
                            "players": 2, "state": state, "seats": seats, "waiting_for": waiting, "deal": 1,
                            "kind": "public", "ranked": False, "votes": [], "stake": stake, **said})
        return controller

    app.start(WaitingRoomScene(app, remote("waiting", [1], results=[])))
    save("tokens_waiting_room")
    match = Match(PRESETS["duel"], 2, 43)
    advance(match, 10_000, random.Random(43), stop=lambda m: m.status != "playing")
    winner = match.results[-1].winner if match.results else None
    won = [stake if winner == seat else -stake for seat in range(2)]
    controller = remote(str(match.status), [], results=[result_to_json(r) for r in match.results],
                        earned=[20 if winner == 0 else 10, 20 if winner == 1 else 10], tokens=won)
    controller.receive({"type": "update", "room": "q7Rk2mXa9Lp", "view": view_to_json(match.view(0)),
                        "events": [], "timer": None})
    table = TableScene(app, controller)
    app.start(table)
    app.stack.push(ResultScene(app, table))
    app.stack.apply_requests()
    save("tokens_result")
    app.settings.last_preset = "duel"  # the lobby kept what the server said: its points and tokens
    app.start(StatisticsScene(app))
    save("tokens_statistics")
