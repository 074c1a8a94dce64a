"""Every screen of the game, reached as a player reaches it (a real `App` on the dummy driver), for
the tests that look at each screen: `screens(app)` steps through them and yields each one's name
with the screen shown on ``app``.

The screens: the menu (with two Continue lines: a 7-seat points game and a hot-seat game), the
new-game form for every preset at its most seats, alone and with as many people (named at length),
colours as a Points game in pairs, the avatar picker, the question before a saved game is replaced,
Settings (from the menu and from the pause menu), Play online (with a message and a room of mine),
a waiting room, Statistics (with records), How to play (and the classic rules' tabs), Clear data,
and over the table: 2 to 7 seats with the move log full, the longest refusal and a turn timer, a
pending +2, the pause menu with six computers, the results, the hot-seat cover, the suit picker,
the whole move log; online, the result of a 7-seat deal and the vote, the countdown to a takeover,
the online pause, the question before leaving a ranked game, who joins from a link; a deal's
review (whose, the hot-seat cover, the analysis under way, the costliest decisions named).
Also the scripted pieces they need: `QuietConnection`, `online_table`.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


from game.ai import player_for  # noqa: E402
from game.client import i18n, stakes  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.saving import mode_of  # noqa: E402
from game.client.scene import Scene  # noqa: E402
from game.engine import PRESETS, Match, Phase, Status, preset  # noqa: E402
from game.net.messages import Error, from_server  # noqa: E402
from game.saves import Statistics  # noqa: E402
from tests.support import act, make_match  # noqa: E402

STEP = 1 / 60
LEVELS = ("hard", "medium", "easy")


def advance(match: Match, until: Callable[[Match], bool], limit: int = 400) -> list:
    """Medium plays every seat until ``until``; the events, as the table would have received them."""
    medium, rng = player_for("medium"), random.Random(7)
    events = list(match.start_events)
    for _ in range(limit):
        if match.status != Status.PLAYING or until(match):
            break
        seat = match.to_act
        events += match.apply(medium.choose(match.view(seat), rng), seat)
    return events


def settle(app: App) -> None:
    """One frame of ``app`` (`App.frame`: events, updates) without its drawing: what a screen does
    by itself in its first frame (a turn begun, a picker opened) is done, and the screen is drawn
    only by whoever looks at it (`tests.test_text_fit.measure` draws the frame it measures: a frame
    drawn here too was drawn twice, at some 40 ms a frame at 4K, and nothing looked at the first)."""
    app.draw = lambda: None  # type: ignore[method-assign]
    try:
        app.frame(STEP)
    finally:
        del app.draw  # the class's own again


def seats(players: int) -> list[SeatConfig]:
    return [SeatConfig("human")] + [SeatConfig("computer", LEVELS[i % 3]) for i in range(players - 1)]


def table(app: App, match: Match, configs: list[SeatConfig], events: list) -> Scene:
    """A table for ``match`` whose move log has seen ``events``."""
    from game.client.scenes.table import TableScene

    controller = MatchController(match, configs, rng=random.Random(1), speed=0)
    controller.take_events()
    scene = TableScene(app, controller)
    scene.moves.observe(e.for_seat(0) for e in events)
    app.start(scene)
    app.stack.apply_requests()
    return scene


def my_turn(match: Match) -> bool:
    return match.to_act == 0 and match.round.phase == Phase.PLAY and match.round.turn_no > 6


def longest_refusal() -> str:
    """The longest sentence the table may show under the piles, in the current language."""
    texts = [text for key, text in i18n.catalogue(i18n.language()).items() if key.startswith("why.")]
    return max(texts, key=len).format(suit="♥", card="10♥", rank="un as", wild="un huit ou un joker",
                                      to_act="Ordinateur 7", seat="Ordinateur 7", n=10, action="draw")


class QuietConnection:
    """A connection that is up and says nothing: a room drawn from messages given by hand."""

    host, port, room, seat, status, problem = "192.168.100.200", 65535, None, None, "connected", None
    connected = True

    def poll(self) -> list[dict[str, object]]:
        return []

    def poll_messages(self) -> list[object]:
        return []

    def send(self, message: dict[str, object]) -> None:
        pass

    def close(self, *, leave: bool = False) -> None:
        pass


WIDE_ROOM = "WMW-WWM-MWW-WMW-WWM"  # a room code of the server's form (`room_codes`), its widest letters


def waiting_room():
    """A 6-seat room waiting for two friends (the longest link and seat lines: a room id of wide
    letters, an address of the longest form)."""
    from game.client.remote import RemoteController

    controller = RemoteController(QuietConnection(), speed=0)  # type: ignore[arg-type]
    seats = [{"kind": "human", "level": None, "name": "Maximilienne", "connected": True, "accepted": False},
             {"kind": "human", "level": None, "name": "", "connected": False, "accepted": False},
             {"kind": "computer", "level": "medium", "name": "", "connected": True, "accepted": False},
             {"kind": "human", "level": None, "name": "Benoît", "connected": False, "accepted": False},
             {"kind": "human", "level": None, "name": "", "connected": False, "accepted": False},
             {"kind": "computer", "level": "hard", "name": "", "connected": True, "accepted": False}]
    controller.receive({"type": "joined", "room": WIDE_ROOM, "seat": 0, "players": len(seats)})
    controller.receive({"type": "profile", "name": "Maximilienne", "tag": "3F2", "avatar": 1, "xp": {},
                        "created": False, "tokens": 999_999_999})  # the stake's line, at its longest
    controller.receive({"type": "room", "room": WIDE_ROOM, "preset": "action", "options": {},
                        "players": len(seats), "state": "waiting", "seats": seats, "waiting_for": [1, 4],
                        "results": [], "deal": 1, "kind": "public", "ranked": False, "stake": 999_999_999})
    return controller


LONG_NAME = "Maximilienne-Éléonore"


# Six people's long names, each with a tag: "Maximilienne #3F2" (the result's narrow column of
# names has room for a name of about fifteen letters, and the tag on a second line).
OTHERS = ("Maximilienne", "Jean-Baptiste", "Marie-Éléonore", "Anne-Charlotte", "Françoise-Léa",
          "Guillaume-Henri")


class OnlineRoom(QuietConnection):
    """A room server that has said it all: this device sits at seat 0, the other seats are people
    with long names (`OTHERS`) and their tags, and ``match``'s deal is over."""

    def __init__(self, match: Match, takeover: list[dict[str, object]] | None = None) -> None:
        from game.net.wire import result_to_json, view_to_json

        names = ("Ana", *OTHERS)
        seats = [{"kind": "human", "level": None, "name": names[i], "tag": f"{0xA00 + i:03X}", "avatar": i,
                  "connected": True, "accepted": False} for i in range(match.players)]
        self.inbox: list[dict[str, object]] = [
            {"type": "joined", "room": WIDE_ROOM, "seat": 0},
            {"type": "room", "room": WIDE_ROOM, "preset": match.rules.name, "options": {},
             "players": match.players, "state": str(match.status), "seats": seats, "waiting_for": [],
             "results": [result_to_json(r) for r in match.results], "deal": 1, "kind": "public",
             "ranked": True, "earned": [20] * match.players, "stake": 10,
             "tokens": [-999_999_999] * match.players, **({"takeover": takeover} if takeover else {})},
            {"type": "update", "room": WIDE_ROOM, "view": view_to_json(match.view(0)), "events": [],
             "timer": None}]

    def poll(self) -> list[dict[str, object]]:
        out, self.inbox = self.inbox, []
        return out

    def poll_messages(self) -> list:  # what RemoteController reads: the inbox as types
        return [message for message in map(from_server, self.poll()) if message is not None]


def online_table(app: App, match: Match, takeover: list[dict[str, object]] | None = None) -> Scene:
    """An online table (`OnlineRoom`) showing ``match`` (``takeover``: who is away, for how long)."""
    from game.client.remote import RemoteController
    from game.client.scenes.table import TableScene

    controller = RemoteController(OnlineRoom(match, takeover), speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    scene = TableScene(app, controller)
    app.start(scene)
    app.stack.apply_requests()
    return scene


def server_lobby(app: App) -> Scene:
    """A server's lobby: more public rooms than fit, of long names; quick match looking; my name."""
    from game.client.remote import RemoteController
    from game.client.scenes.server_lobby import ServerLobbyScene
    from game.net.client import Server

    scene = ServerLobbyScene(app, Server("club-de-huit.example.org", 65535, True),
                             connection=QuietConnection())  # type: ignore[arg-type]
    scene.take(from_server({"type": "profile", "name": LONG_NAME, "tag": "3F2K9Q", "avatar": 15, "xp": {}}))
    seat = {"kind": "human", "name": LONG_NAME, "tag": "A0BXMZ", "avatar": 4}
    rooms = [{"room": f"room{i}", "preset": "action", "options": {}, "players": 6, "taken": 4, "free": 2,
              "computers": 0, "since": 1000.0 - 3599 * i, "seats": [seat] * 4 + [{"kind": "free"}] * 2,
              "stake": stakes.MAX_STAKE} for i in range(12)]
    scene.take(from_server({"type": "lobby", "rooms": rooms, "listed": 140, "now": 1000.0}))
    scene.quick = RemoteController(QuietConnection(), speed=0)  # type: ignore[arg-type]
    scene.quick.receive({"type": "queued", "preset": "action", "players": 6, "waiting": 5, "since": 0.0,
                         "now": 3599.0})
    scene.quick_since = 3599.0
    scene.preset_name, scene.quick_players, scene.wait = "action", 6, 300
    scene.message = i18n.tr("lobby.name_refused", why=i18n.tr("name.confusable"))  # the longest reason
    scene.rebuild()
    return scene


def leaderboard(app: App, view: str, fair: bool = False) -> Scene:
    """The top 100 of a rule set, every name the longest, or a history of long lines (``fair``: the
    asker not shown yet, and games whose points fair play took, with why)."""
    from game.client.scenes.leaderboard import LeaderboardScene
    from game.net.client import Server

    scene = LeaderboardScene(app, Server("club-de-huit.example.org", 65535, True), "action",
                             connection=QuietConnection())  # type: ignore[arg-type]
    top = [{"rank": i + 1, "name": LONG_NAME, "tag": "3F2K9Q", "avatar": 1, "xp": 999_999 - i,
            "games": 99_999,
            "you": i == 3} for i in range(100)]
    you = {"rank": None, "xp": 999_996, "games": 99_999, "opponents": 0, "needs": 99} if fair else \
        {"rank": 4, "xp": 999_996, "games": 99_999}
    scene.take(from_server({"type": "leaderboard", "preset": "action", "top": top, "you": you,
                            "players": 123_456}))
    games = [{"preset": "action", "players": 6, "xp": -20, "outcome": "penalty", "at": 1.7e9, "deal": 0,
              "opponents": [f"{LONG_NAME} #A0{i}" for i in range(5)]} for _ in range(50)]
    if fair:
        games = [{**g, "xp": 0, "outcome": "abandoned", "reason": ("short", "pair_cap")[i % 2]}
                 for i, g in enumerate(games)]
    scene.take(from_server({"type": "history", "games": games}))
    scene.view = view
    scene.rebuild()
    return scene


def screens(app: App) -> Iterator[str]:
    """Bring each screen up in turn; yield its name once it is on top (updated as its first frames
    would, but not drawn: the caller draws what it looks at, see `settle`)."""
    from game.client.scenes.avatar_picker import AvatarPickerScene
    from game.client.scenes.clear_data import ClearDataScene
    from game.client.scenes.handoff import HandoffScene
    from game.client.scenes.lobby import LobbyScene
    from game.client.scenes.menu import MenuScene
    from game.client.scenes.moves import MovesScene
    from game.client.scenes.newgame import NewGameScene
    from game.client.scenes.pause import PauseScene
    from game.client.scenes.replace_save import ReplaceSaveScene
    from game.client.scenes.result import ResultScene
    from game.client.scenes.rules_scene import RulesScene
    from game.client.scenes.settings_scene import SettingsScene
    from game.client.scenes.statistics import StatisticsScene
    from game.client.scenes.suit_picker import SuitPickerScene
    from game.client.scenes.waiting_room import WaitingRoomScene

    def start(scene: Scene) -> None:
        app.start(scene)
        app.stack.apply_requests()

    def push(scene: Scene) -> None:
        app.stack.push(scene)
        app.stack.apply_requests()
        settle(app)

    start(MenuScene(app))
    yield "menu"
    # Two Continue lines: a 7-seat points game far into its first deal, and a hot-seat game.
    match = Match(PRESETS["points"], 7, 5)
    advance(match, lambda m: m.round.turn_no > 30)
    app.store.games.write("solo", MatchController(match, seats(7), rng=random.Random(1)).to_save())
    hot = MatchController(Match(PRESETS["classic"], 4, 6), [SeatConfig("human", name="Ana"),
                          SeatConfig("human", name="Benoît"), SeatConfig("computer", "hard"),
                          SeatConfig("human", name="Chloé")], rng=random.Random(2))
    app.store.games.write(mode_of(hot), hot.to_save())
    app.store.flush()
    start(MenuScene(app))
    yield "menu with two Continue lines"
    # Nothing can be written in the data folder: the menu and the settings say why.
    from game.saves import WriteProblem

    app.store.write_problem = lambda: WriteProblem("settings.json", "not_a_folder", "File exists")  # type: ignore[method-assign]
    start(MenuScene(app))
    yield "menu with two Continue lines, nothing can be saved"
    start(SettingsScene(app))
    yield "settings, nothing can be saved"
    del app.store.write_problem
    for name, rules in PRESETS.items():
        app.settings.last_preset = name
        app.settings.last_players[name] = rules.max_players
        app.settings.default_levels = ["human", *LEVELS, *LEVELS]
        start(NewGameScene(app))
        yield f"new game ({name})"
    # Colours as a Points game in pairs: the kind of game, its target and pair_scores listed.
    app.settings.last_preset = "colors"
    app.settings.last_options["colors"] = {"target": 500, "pairs": True}
    app.settings.last_players["colors"] = 4
    start(NewGameScene(app))
    yield "new game (colours, a Points game in pairs)"
    # Each house rule's explanation, under the form's focus on it (the longest rule sets).
    for name in ("points", "colors", "action"):
        app.settings.last_preset = name
        form = NewGameScene(app)
        start(form)
        for index, control in enumerate(form.controls):
            if id(control.element) in form.helps:
                form.focus = index
                settle(app)
                yield f"new game ({name}), the explanation of {control.element.text}"
    # The same-device form at its most seats: every seat a person, with the longest names.
    for name in PRESETS:
        app.settings.last_preset = name
        app.settings.hotseat_levels = ["human"] * 7
        app.settings.people_names = ["Maximilienne-Géraldine A", "Benoît", "Chloé", "Dominique", "Éloïse",
                                     "Frédérique", "Gwenaëlle"]
        start(NewGameScene(app, mode="hotseat"))
        yield f"same-device form ({name})"
    push(AvatarPickerScene(app, "Maximilienne-Géraldine A", 4, {10: "Gwenaëlle", 7: "Frédérique"},
                           lambda avatar: None))
    yield "avatar picker"
    # The question before a saved game is replaced: a ranked colours game also costs points.
    colours = Match(PRESETS["colors"], 4, 3)
    advance(colours, lambda m: m.round.turn_no > 12)
    app.store.games.write("solo", MatchController(colours, seats(4), rng=random.Random(1)).to_save())
    app.store.flush()
    app.settings.last_preset = "colors"
    start(NewGameScene(app, mode="solo"))
    app.stack.top.start()  # type: ignore[union-attr]
    app.stack.apply_requests()
    assert type(app.stack.top) is ReplaceSaveScene, app.stack.scenes
    yield "replace the saved game"
    start(SettingsScene(app))
    yield "settings"
    start(ClearDataScene(app))
    yield "clear data"
    stats = Statistics()
    for level, outcomes in (("easy", "WWLT"), ("medium", "WLLW"), ("hard", "LWTL")):
        for o in outcomes:
            outcome = {"W": "win", "L": "loss", "T": "tie"}[o]
            stats.record("colors", level, outcome, 120 if o == "W" else None, 40 if o == "W" else 10)
    app.store.write_statistics(stats)
    scene = StatisticsScene(app)
    scene.preset_name = "colors"
    scene.rebuild()
    start(scene)
    yield "statistics"
    for name in ("points", "action"):  # the longest names in the chooser (the text itself scrolls)
        scene = RulesScene(app)
        scene.preset_name = name
        scene.rebuild()
        start(scene)
        yield f"how to play ({name})"
    scene = RulesScene(app)  # a rule set with more pages than its rules: their tabs, and each page
    scene.preset_name = "classic"
    scene.rebuild()
    start(scene)
    for page, kind in enumerate(("rules", "tips", "faq")):
        scene.show(page)
        settle(app)
        yield f"how to play (classic, {kind})"
    app.settings.player_name = "Ana"
    lobby = LobbyScene(app, i18n.tr("online.no_server"))
    lobby.entries["server"].set_text("192.168.1.20:8765")
    start(lobby)
    yield "online lobby"
    start(WaitingRoomScene(app, waiting_room()))
    yield "online waiting room"
    start(server_lobby(app))
    yield "server lobby"
    scene = app.stack.top
    scene.message = stakes.refusal_text(Error(code="no_tokens", message="", values={"stake": 999_999_999,
                                                                                    "tokens": 999_999_999}))
    scene.rebuild()
    yield "server lobby (no tokens for a stake)"
    for view, fair in (("top", False), ("history", False), ("top", True), ("history", True)):
        start(leaderboard(app, view, fair))
        app.frame(STEP)  # the first drawing counts the rows a page holds
        app.stack.top.rebuild()
        yield f"leaderboard ({view}{', fair play' if fair else ''})"
    app.settings.last_preset = "action"
    app.settings.last_players["action"] = PRESETS["action"].max_players
    start(NewGameScene(app, online=("club-de-huit.example.org", 65535, True), public=True))
    yield "new game (a public room)"

    # The table, 2 to 7 seats, with every switch on, a timer, the log full and the longest refusal.
    for players in range(2, 8):
        options = {k: True for k, v in PRESETS["points"].options().items() if isinstance(v, bool)}
        options["turn_seconds"] = 30
        rules = preset("points", options)
        match = Match(rules, players, players)
        events = advance(match, my_turn)
        scene = table(app, match, seats(players), events)
        settle(app)
        yield f"table ({players} seats)"
        scene.toast, scene.toast_left = longest_refusal(), 100.0  # type: ignore[attr-defined]
        yield f"table ({players} seats) with a refusal"
        scene.controller.set_autopilot(0, True)  # type: ignore[attr-defined]
        settle(app)
        scene.toast, scene.toast_left = scene.autopilot_started([0]), 100.0  # type: ignore[attr-defined]
        yield f"table ({players} seats), the autopilot switched on by the timer"
    # Colours at four, answering a +2 with a +2 in hand; and its whole move log.
    match = make_match("colors", ["R5 B+2 G7", "R6 G8 Y1", "R7 B5 Y2", "R+2 G9 Y3"], "R3", "B1 B2 B3 B4 B6",
                       options={"turn_seconds": 20, "counter_clockwise": False})  # seats 0, 1, 2, 3 in turn
    events = list(match.start_events) + act(match, "play R5", "play R6", "play R7", "play R+2")
    scene = table(app, match, seats(4), events)
    settle(app)
    yield "table (colours, a +2 pending)"
    push(MovesScene(app, scene))  # type: ignore[arg-type]
    yield "move log"
    # A missed "Card" call to denounce: the longest table button, "Card! (Computer 1)".
    match = make_match("colors", ["R5 R6", "Y4 Y6"], "R3", "R9 B2 G3 Y4 B6 G7 Y8 B9")
    events = list(match.start_events) + act(match, "play R5")
    table(app, match, [SeatConfig("computer", "hard"), SeatConfig("human")], events)
    settle(app)
    yield "table (a denounce button)"
    # A long log over seven seats.
    match = Match(PRESETS["points"], 7, 11)
    events = advance(match, lambda m: m.round.turn_no > 60)
    scene = table(app, match, seats(7), events)
    push(MovesScene(app, scene))  # type: ignore[arg-type]
    yield "move log (long)"
    push(PauseScene(app, scene))  # type: ignore[arg-type]
    yield "pause (six computers)"
    app.stack.pop()
    scene.controller.set_autopilot(0, True)  # type: ignore[attr-defined]
    push(PauseScene(app, scene))  # type: ignore[arg-type]
    yield "pause (six computers, you on the autopilot)"
    from game.client.scenes.rules_in_play import RulesInPlayScene

    push(RulesInPlayScene(app, scene))  # type: ignore[arg-type]
    yield "rules of this game (seven seats)"
    app.stack.pop()
    app.stack.apply_requests()
    push(SettingsScene(app))
    yield "settings from the pause menu"
    # A finished 7-seat deal.
    match = Match(PRESETS["points"], 7, 13)
    advance(match, lambda m: False, limit=100_000)
    scene = table(app, match, seats(7), [])
    push(ResultScene(app, scene))  # type: ignore[arg-type]
    yield "result (7 seats)"
    # A one-round classic game (no points) and a colours Points game in pairs (pair totals).
    # And a duel's (the deal's cards counted, no score kept: the longest heading of the counting).
    for rules, seed in ((PRESETS["classic"], 12), (preset("colors", {"pairs": True, "target": 500}), 4),
                        (PRESETS["duel"], 3)):
        match = Match(rules, 4 if rules.pairs else min(3, rules.max_players), seed)
        advance(match, lambda m: False, limit=100_000)
        scene = table(app, match, seats(match.players), [])
        push(ResultScene(app, scene))  # type: ignore[arg-type]
        yield f"result ({rules.name}, {'pairs to a target' if rules.pairs else 'one round'})"
        app.stack.pop()
        app.stack.apply_requests()
        settle(app)
        yield f"table ({rules.name}, after the round)"
    # The hot-seat cover.
    match = Match(PRESETS["duel"], 2, 2)
    configs = [SeatConfig("human", name="Maximilienne"), SeatConfig("human", name="Benoît")]
    scene = table(app, match, configs, [])
    push(HandoffScene(app, scene, 1))  # type: ignore[arg-type]
    yield "hand-off"
    yield from review_screens(app, push)
    # The vote on an abandon, over a table, about the longest name.
    from game.client.scenes.vote import VoteScene

    configs = [SeatConfig("human"), SeatConfig("human", name=LONG_NAME[:24])]
    scene = table(app, Match(PRESETS["duel"], 2, 3), configs, [])
    push(VoteScene(app, scene, 1))  # type: ignore[arg-type]
    yield "vote on an abandon"
    # Online, the other players' names with their tags: the result of a 7-seat deal, and the vote.
    match = Match(PRESETS["points"], 7, 13)
    advance(match, lambda m: False, limit=100_000)
    scene = online_table(app, match)
    push(ResultScene(app, scene))  # type: ignore[arg-type]
    yield "online result (7 seats, names with their tags)"
    app.stack.pop()
    push(VoteScene(app, scene, 6))  # type: ignore[arg-type]
    yield "online vote on an abandon (a name with its tag)"
    # The quick reactions: the palette (a switch per long name and its tag), a bubble at every seat.
    from game.client.scenes.reactions import ReactionsScene
    from game.net.messages import REACTIONS

    app.stack.pop()
    push(ReactionsScene(app, scene, scene.reactions))  # type: ignore[arg-type, attr-defined]
    yield "online reactions palette (7 seats, names with their tags)"
    app.stack.pop()
    app.stack.apply_requests()
    for reaction in REACTIONS:
        scene.reactions.bubbles = {seat: (reaction, 3.0) for seat in range(7)}  # type: ignore[attr-defined]
        scene.dirty = True
        yield f"online table, a bubble at every seat ({reaction})"
    # A kiosk's attract game under its banner.
    from game.client.scenes.attract import AttractScene

    start(AttractScene(app))
    yield "attract game (kiosk)"
    # What is at stake online: the countdown to a takeover on the table, the online pause, the
    # question before leaving a ranked game, who joins from a link.
    from game.client.scenes.leave_ranked import LeaveRankedScene
    from game.client.scenes.who_are_you import WhoAreYouScene

    match = Match(PRESETS["points"], 7, 13)
    advance(match, lambda m: m.round.to_act == 3, limit=400)
    scene = online_table(app, match, takeover=[{"seat": 6, "left": 252.0}])
    yield "online table (the countdown to a takeover, a name with its tag)"
    push(PauseScene(app, scene))  # type: ignore[arg-type]
    yield "online pause (the game goes on)"
    push(LeaveRankedScene(app, scene))  # type: ignore[arg-type]
    yield "leaving a ranked game"
    controller = scene.controller  # type: ignore[attr-defined]
    others = [i for i, s in enumerate(controller.seats) if s.is_human and i != controller.viewer]
    controller.status = dataclasses.replace(controller.status, absent=others)  # the others stalled it
    assert controller.others_absent
    push(LeaveRankedScene(app, scene))  # type: ignore[arg-type]
    yield "leaving a ranked game the others stalled (no abandon)"
    start(WhoAreYouScene(app, "huit://127.0.0.1:8765/q7Rk2mXa9LpZ"))
    yield "who joins (name and avatar)"
    app.settings.player_name = LONG_NAME[:24]
    start(WhoAreYouScene(app, "huit://127.0.0.1:8765/q7Rk2mXa9LpZ"))
    app.stack.top.message = "x " * 60  # type: ignore[attr-defined]
    app.stack.top.rebuild()
    yield "who joins (a long name, a message)"
    app.settings.player_name = ""
    # The suit picker, for suits and for colours.
    for name, hands, top in (("classic", ["8S 4H", "5D 6C"], "7H"), ("colors", ["W R4", "B5 G6"], "R3")):
        match = make_match(name, hands, top, "KD QD JD TD" if name == "classic" else "B1 B2 B3 B4",
                           options={"turn_seconds": 20})
        act(match, "play 8S" if name == "classic" else "play W")
        scene = table(app, match, seats(2), [])
        settle(app)
        settle(app)
        assert type(app.stack.top) is SuitPickerScene, app.stack.scenes
        yield f"suit picker ({name})"


class StillAnalysis:
    """An analysis that stands where it is told (the screen's texts measured in each of its states)."""

    def __init__(self, total: int, costs: list, *, done: bool = False, cancelled: bool = False) -> None:
        self.total, self.costs, self.done, self.cancelled, self.failed = total, costs, done, cancelled, False
        self.results = {c.moment: c for c in costs}
        self.progress = len(costs) / total
        self.whole = len(self.results) == total  # stopped short: its words, and Resume

    def take_results(self) -> None:
        pass

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


def review_screens(app: App, push: Callable[[Scene], None]) -> Iterator[str]:
    """A deal's review: whose (a hot-seat deal of seven, long names), the cover, the analysis under
    way, and stopped with the three costliest decisions named (suits: the longest actions)."""
    from game.client.review_data import story_to_json
    from game.client.scenes.review import ReviewScene
    from game.engine import ChooseSuit
    from game.review.analysis import Cost
    from game.review.story import story_of_deal
    from game.saves.reviews import ReviewRecord

    match = Match(PRESETS["points"], 7, 13)
    advance(match, lambda m: m.status != Status.PLAYING, limit=3000)
    names = tuple([LONG_NAME, "Benoît"] + [f"{LONG_NAME[:12]} {i}" for i in range(5)])
    records = [ReviewRecord("deal", "hotseat", seat, names, "points", match.round.number,
                            story_to_json(story_of_deal(match, seat).slim())) for seat in (0, 1, 2)]
    decided = story_of_deal(match, 0).slim().decisions() or [0]
    costs = [Cost(decided[i % len(decided)], ChooseSuit("D"), 0.1, ChooseSuit("C"), 0.99, 4)
             for i in range(3)]
    running = StillAnalysis(40, costs[:1])
    finished = StillAnalysis(40, costs, done=True, cancelled=True)
    scene = ReviewScene(app, records, analyse=lambda story: running)
    push(scene)
    yield "review (whose)"
    scene.choose(records[0])
    yield "review (cover)"
    scene.uncover()
    assert scene.analysis is running
    scene.index = decided[0]
    scene.rebuild()
    yield "review (analysing)"
    scene.analysis = finished
    scene.marked = costs
    scene.rebuild()
    yield "review (the costliest decisions)"
