"""Screenshots of every scene without a screen: ``python -m tools.shots OUTDIR``.

Renders one PNG per scene and per preset at 1920×1080 and 1280×800: menu, new
game, settings, how to play, the table mid-game for each preset at 2, 4 and 7
seats (where the preset seats them), with the direction ring at 5 seats, the whole
move log over a table, the pause menu over seven seats, the autopilot (a table it plays
for, switched on by the turn timer, and a hot-seat pause menu giving it back), the suit
and colour pickers, the hot-seat handoff, a result with its score chart, a Quick game's
result with the deal's points counted card by card, a colours table just dealt, colours as a
Points game in pairs (the new-game form, a table, a result with the pairs' totals), the
classic tips and questions of How to play, the menu with saved games (one of them
unreadable, then two Continue lines), the same-device form with names and avatars, the
avatar picker, the question before a saved game is replaced, the menu and settings when
nothing can be saved (a file where the data folder should be),
Statistics with sample records, Clear data, and online play (the lobby, a waiting
room, a public room's waiting room as its owner sees it, a table waiting for a player; a
server's lobby with public rooms and quick match looking, its leaderboard and a ranked
history, the vote on an abandon). Each size uses its own temporary
data folder, never the player's. Games are advanced by computer players from seeded
deals, so the pictures are the same every run.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.ai import player_for  # noqa: E402
from game.cli import CommandParser  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.i18n import LANGUAGES  # noqa: E402
from game.client.scene import Scene  # noqa: E402
from game.client.settings import Settings  # noqa: E402
from game.client.window import SIZE_RULE, parse_size  # noqa: E402
from game.engine import PRESETS, Match, Phase, Rules, Status  # noqa: E402
from game.engine import preset as make_rules  # noqa: E402
from game.engine.events import Event  # noqa: E402
from game.net.messages import ServerMessage, from_server  # noqa: E402
from game.saves import DataStore, Statistics  # noqa: E402

SIZES = ((1920, 1080), (1280, 800))


def advance(match: Match, steps: int, rng: random.Random,
            stop: Callable[[Match], bool] | None = None) -> list[Event]:
    """Let computer players play ``steps`` actions (or until ``stop``) from every seat; the events."""
    medium = player_for("medium")
    events: list[Event] = list(match.start_events)
    for _ in range(steps):
        if match.status != Status.PLAYING or (stop is not None and stop(match)):
            break
        seat = match.to_act
        assert seat is not None
        events += match.apply(medium.choose(match.view(seat), rng), seat)
    return events


def table_for(app: App, rules: Rules, seats: list[SeatConfig], seed: int, steps: int,
              stop: Callable[[Match], bool] | None = None) -> Scene:
    """A table scene for a match advanced ``steps`` actions."""
    from game.client.scenes.table import TableScene

    match = Match(rules, len(seats), seed)
    events = advance(match, steps, random.Random(seed), stop)
    controller = MatchController(match, seats, rng=random.Random(seed), speed=0)
    controller.take_events()
    table = TableScene(app, controller)
    table.moves.observe(e.for_seat(controller.viewer) for e in events)  # the move log so far
    app.start(table)
    return table


def settle(app: App, frames: int = 3) -> None:
    """Run a few frames so pushed overlays appear and animations are done."""
    for _ in range(frames):
        app.frame(1 / 60)


def solo(players: int) -> list[SeatConfig]:
    """Seat 0 human, the rest computers of mixed levels."""
    levels = ["medium", "hard", "easy"]
    return [SeatConfig("human")] + [SeatConfig("computer", levels[i % 3]) for i in range(players - 1)]


def shoot(outdir: Path, sizes: tuple[tuple[int, int], ...] = SIZES, language: str = "en") -> list[Path]:
    """Render every screenshot into ``outdir``; return the files written."""
    from game.client.scenes.menu import MenuScene
    from game.client.scenes.newgame import NewGameScene
    from game.client.scenes.rules_scene import RulesScene
    from game.client.scenes.settings_scene import SettingsScene

    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for size in sizes:
        settings = Settings(language=language, speed="instant")
        store = DataStore(tempfile.mkdtemp(prefix="huit-shots-"), background=False)
        app = App(size, settings=settings, sound=False, store=store)
        tag = f"{size[0]}x{size[1]}"

        def save(name: str, app: App = app, tag: str = tag) -> None:
            settle(app)
            path = outdir / f"{name}_{tag}.png"
            pygame.image.save(app.screen, str(path))
            written.append(path)

        for name, scene_type in (("menu", MenuScene), ("newgame", NewGameScene),
                                 ("settings", SettingsScene), ("rules", RulesScene)):
            app.start(scene_type(app))
            save(name)
        for preset_name, rules in PRESETS.items():
            for players in (2, 4, 7):
                if not rules.min_players <= players <= rules.max_players:
                    continue
                table_for(app, rules, solo(players), seed=players * 7 + 1, steps=6 * players,
                          stop=lambda m: (m.to_act == 0 and m.round.phase == Phase.PLAY
                                          and m.round.turn_no > 3))
                save(f"table_{preset_name}_{players}")
        # The suit picker: play on until seat 0 must announce a suit.
        for seed in range(200):
            table_for(app, PRESETS["classic"], solo(3), seed=seed, steps=400,
                      stop=lambda m: m.to_act == 0 and m.round.phase == Phase.SUIT)
            settle(app)
            if type(app.stack.top).__name__ == "SuitPickerScene":
                save("suit_picker")
                break
        # The colour picker: play on until seat 0 must announce a colour after a Wild.
        for seed in range(200):
            table_for(app, PRESETS["colors"], solo(2), seed=seed, steps=400,
                      stop=lambda m: m.to_act == 0 and m.round.phase == Phase.SUIT)
            settle(app)
            if type(app.stack.top).__name__ == "SuitPickerScene":
                save("suit_picker_colors")
                break
        # The direction ring at 5 seats, and the whole move log over a table.
        table_for(app, make_rules("points", {"aces_reverse": True}), solo(5), seed=3, steps=60,
                  stop=lambda m: m.to_act == 0 and m.round.phase == Phase.PLAY and m.round.turn_no > 12)
        save("table_points_reverse_5")
        table = table_for(app, PRESETS["colors"], solo(4), seed=8, steps=60,
                          stop=lambda m: m.to_act == 0 and m.round.phase == Phase.PLAY
                          and m.round.turn_no > 20)
        from game.client.scenes.moves import MovesScene

        app.stack.push(MovesScene(app, table))  # type: ignore[arg-type]
        app.stack.apply_requests()
        save("moves")
        table = table_for(app, PRESETS["points"], solo(7), seed=7 * 7 + 1, steps=42)
        from game.client.scenes.pause import PauseScene

        app.stack.push(PauseScene(app, table))  # type: ignore[arg-type]
        app.stack.apply_requests()
        save("pause")
        autopilot_screens(app, save)
        hot = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Ben")]
        table_for(app, PRESETS["duel"], hot, seed=2, steps=1)
        save("handoff")
        table_for(app, PRESETS["points"], solo(4), seed=11, steps=100_000)
        save("result_points")
        table_for(app, PRESETS["classic"], solo(3), seed=12, steps=100_000)
        save("result_classic")
        table_for(app, PRESETS["points"], solo(7), seed=13, steps=100_000)
        save("result_points_7")
        # A Quick game's result with the deal's points counted card by card (colours, four seats),
        # and a colours table just dealt: play goes counter-clockwise, the arrows say so.
        table_for(app, PRESETS["colors"], solo(4), seed=5, steps=100_000)
        save("result_colors_quick")
        table_for(app, PRESETS["colors"], solo(4), seed=8, steps=0)
        save("table_colors_dealt")
        points_screens(app, save)
        saved_screens(app, save)
        mode_screens(app, save)
        unwritable_screens(app, save)
        online_screens(app, save)
        attract_screen(app, save)
        server_screens(app, save)
        ranked_screens(app, save)
        stakes_screens(app, save)
        tokens_screens(app, save)
        hand_screens(app, save)
        review_screens(app, save)
        pygame.display.quit()
    return written


def review_screens(app: App, save: Callable[[str], None]) -> None:
    """A deal's review (`scenes.review`): a 4-seat classic deal just analysed, on its costliest
    decision (the analysis waited for, at most a minute), one under way, and a hot-seat deal's
    choice of whose review and its cover."""
    import time

    from game.client.scenes.review import ReviewScene

    table_for(app, PRESETS["classic"], solo(4), seed=12, steps=100_000)
    settle(app)
    records = getattr(app.stack.top, "reviews", [])
    if not records:
        return
    scene = ReviewScene(app, records)
    app.stack.push(scene)
    app.stack.apply_requests()
    save("review_analysing")
    deadline = time.monotonic() + 60
    while scene.running and time.monotonic() < deadline:
        app.frame(1 / 60)
        time.sleep(0.02)
    if scene.marked:
        scene.show_step(scene.marked[0].moment)  # (its buttons as a player stepping there sees them)
    scene.dirty = True
    save("review")
    scene.exit()
    hot = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Benoît"),
           SeatConfig("computer", "hard")]
    table_for(app, PRESETS["classic"], hot, seed=12, steps=100_000)
    settle(app)
    records = getattr(app.stack.top, "reviews", [])
    if len(records) == 2:
        scene = ReviewScene(app, records)
        app.stack.push(scene)
        app.stack.apply_requests()
        save("review_pick")
        scene.choose(records[1])
        save("review_cover")


def hand_screens(app: App, save: Callable[[str], None]) -> None:
    """Issue 31's "what every card game has": the hand sorted by suit and by rank, a card being
    dragged within it, the pause menu's Rules of this game, the new-game form explaining a house
    rule, and the celebration of a won match."""
    from game.client.hand_order import HandDrag
    from game.client.scenes.newgame import NewGameScene
    from game.client.scenes.rules_in_play import RulesInPlayScene

    def table() -> Scene:
        return table_for(app, make_rules("points", {"hand_size": 8, "jacks_skip": True}), solo(3), seed=21,
                         steps=3, stop=lambda m: m.to_act == 0 and m.round.phase == Phase.PLAY)

    for sort in ("suit", "rank"):
        app.settings.hand_sort = sort
        table()
        save(f"hand_sorted_{sort}")
    app.settings.hand_sort = "dealt"
    scene = table()
    rect = scene.hand_rects[1]  # type: ignore[attr-defined]
    at = (rect.centerx + rect.w * 2, rect.centery - rect.h // 3)
    shown = scene.shown  # type: ignore[attr-defined]
    grab = (rect.w // 2, rect.h // 2)
    scene.hand.drag = HandDrag(1, shown[1], rect.center, grab, at, dragging=True)  # type: ignore[attr-defined]
    scene._refresh()  # type: ignore[attr-defined]  # the others make room, as a real drag does
    scene.dirty = True
    save("hand_drag")
    app.stack.push(RulesInPlayScene(app, scene))  # type: ignore[arg-type]
    app.stack.apply_requests()
    save("rules_in_play")
    app.settings.last_preset = "colors"
    form = NewGameScene(app)
    app.start(form)
    form.focus = next(i for i, c in enumerate(form.controls) if id(c.element) in form.helps)
    save("newgame_explained")
    app.settings.speed = "normal"  # the celebration: motion allowed
    for seed in range(40):  # a duel seat 0 wins
        won = table_for(app, PRESETS["duel"], solo(2), seed=seed, steps=100_000)
        if 0 in won.controller.match.view(0).winners:  # type: ignore[attr-defined]
            break
    app.frame(1 / 60)  # the table opens its result, with the celebration
    for _ in range(50):  # a second into it
        app.frame(1 / 50)
    save("celebration")
    app.settings.speed = "instant"


def autopilot_screens(app: App, save: Callable[[str], None]) -> None:
    """A table the autopilot plays for, just switched on by the turn timer; and the pause menu of a
    hot-seat table where it plays for another person."""
    from game.client.scenes.pause import PauseScene

    rules = make_rules("colors", {"turn_seconds": 15})
    table = table_for(app, rules, solo(4), seed=5, steps=40,
                      stop=lambda m: m.to_act == 0 and m.round.phase == Phase.PLAY and m.round.turn_no > 8)
    controller = table.controller  # type: ignore[attr-defined]
    for lost in range(2):  # two turns in a row run out (the computers play at once in between)
        if lost:
            controller.speed = 1.0  # the autopilot thinks a moment: the picture shows it thinking
        app.frame(16.0, rested=16.0)
        for _ in range(600):
            if (controller.match.to_act == 0 and not controller.plays_for(0)) or controller.autopilot(0):
                break
            app.frame(1 / 60)
    save("table_autopilot")
    hot = [SeatConfig("human", name="Ana"), SeatConfig("human", name="Benoît"),
           SeatConfig("computer", "hard"), SeatConfig("human", name="Chloé")]
    table = table_for(app, PRESETS["classic"], hot, seed=6, steps=0)
    table.controller.accept_handoff(0)  # type: ignore[attr-defined]
    table.controller.set_autopilot(1, True)  # type: ignore[attr-defined]
    settle(app)
    app.stack.push(PauseScene(app, table))  # type: ignore[arg-type]
    app.stack.apply_requests()
    save("pause_autopilot")


def unwritable_screens(app: App, save: Callable[[str], None]) -> None:
    """The menu and the settings when nothing can be written: a file where the data folder is."""
    from game.client.scenes.menu import MenuScene
    from game.client.scenes.settings_scene import SettingsScene

    store = app.store
    blocked = Path(tempfile.mkdtemp(prefix="huit-shots-")) / "Huit"
    blocked.write_text("a file where the data folder should be")
    app.store = DataStore(blocked, background=False)
    app.start(MenuScene(app))
    save("menu_unwritable")
    app.start(SettingsScene(app))
    save("settings_unwritable")
    app.store = store


def points_screens(app: App, save: Callable[[str], None]) -> None:
    """Colours as a Points game in pairs (the form, a table in its second deal, a result with
    the pairs' totals), and the classic rules' tips and questions pages of How to play."""
    from game.client.scenes.newgame import NewGameScene
    from game.client.scenes.rules_scene import RulesScene

    pairs = make_rules("colors", {"pairs": True, "target": 300})
    app.settings.last_preset, app.settings.last_players["colors"] = "colors", 4
    app.settings.last_options["colors"] = pairs.options()
    app.start(NewGameScene(app))
    save("newgame_points_pairs")
    seats = solo(4)
    match = Match(pairs, 4, 21)
    rng = random.Random(21)
    advance(match, 100_000, rng)
    match.next_round()
    advance(match, 100_000, rng, stop=lambda m: m.to_act == 0 and m.round.phase == Phase.PLAY
            and m.round.turn_no > 8)
    controller = MatchController(match, seats, rng=random.Random(21), speed=0)
    controller.take_events()
    from game.client.scenes.table import TableScene

    app.start(TableScene(app, controller))
    save("table_colors_pairs")
    table_for(app, pairs, seats, seed=22, steps=100_000)
    save("result_colors_pairs")
    for page, name in ((1, "rules_classic_tips"), (2, "rules_classic_faq")):
        scene = RulesScene(app)
        scene.preset_name, scene.page = "classic", page
        scene.rebuild()
        app.start(scene)
        save(name)


def saved_screens(app: App, save: Callable[[str], None]) -> None:
    """The menu with two saved games, one unreadable; Statistics; Clear data."""
    from game.client.saving import mode_of
    from game.client.scenes.clear_data import ClearDataScene
    from game.client.scenes.menu import MenuScene
    from game.client.scenes.statistics import StatisticsScene

    table = table_for(app, PRESETS["points"], solo(3), seed=21, steps=40)
    controller = table.controller  # type: ignore[attr-defined]
    app.store.games.write(mode_of(controller), controller.to_save())
    app.store.games.path("hotseat").write_bytes(b"HUIT game 1\n{}\ncut short")
    app.start(MenuScene(app))
    save("menu_saved_games")
    hot = MatchController(Match(PRESETS["classic"], 4, 6), [
        SeatConfig("human", name="Ana"), SeatConfig("human", name="Benoît"), SeatConfig("computer", "hard"),
        SeatConfig("human", name="Chloé")], rng=random.Random(2))
    app.store.games.write(mode_of(hot), hot.to_save())
    app.start(MenuScene(app))
    save("menu_two_continue_lines")
    seven, rng = Match(PRESETS["points"], 7, 13), random.Random(13)  # two deals in: a ranking, not 0 – 0 – …
    for _ in range(2):
        while seven.status == Status.PLAYING:
            seven.apply(rng.choice(seven.legal_actions()), seven.to_act)
        seven.next_round()
    app.store.games.write("solo", MatchController(seven, solo(7), rng=random.Random(3)).to_save())
    app.start(MenuScene(app))
    save("menu_continue_7_seats")
    stats = Statistics()
    sample = {"easy": "WWLWAWTW", "medium": "WLLWTAWW", "hard": "LWLLAWTL"}  # A: won by the autopilot
    for preset in ("classic", "colors"):
        for level, outcomes in sample.items():
            for i, o in enumerate(outcomes):
                outcome = {"W": "win", "A": "win", "L": "loss", "T": "tie"}[o]
                xp = (40 if o in "WA" else 10) if PRESETS[preset].ranking_xp else None
                stats.record(preset, level, outcome, 30 + 7 * i if o == "W" else None, xp, autopilot=o == "A")
    app.store.write_statistics(stats)
    for preset in ("classic", "colors"):
        scene = StatisticsScene(app)
        scene.preset_name = preset
        scene.rebuild()
        app.start(scene)
        save(f"statistics_{preset}")
    app.start(ClearDataScene(app))
    save("clear_data")


def mode_screens(app: App, save: Callable[[str], None]) -> None:
    """The same-device form with three people (names typed, avatars chosen) and a computer, the
    avatar picker over it, and the question before the solo game saved earlier is replaced."""
    from game.client.scenes.avatar_picker import AvatarPickerScene
    from game.client.scenes.newgame import NewGameScene

    app.settings.last_preset, app.settings.last_players["classic"] = "classic", 4
    app.settings.hotseat_levels = ["human", "human", "hard", "human", "medium", "medium", "medium"]
    app.settings.people_names = ["Ana", "Benoît", "Chloé"]
    app.settings.people_avatars = [5, 14, 7]
    form = NewGameScene(app, mode="hotseat")
    app.start(form)
    save("newgame_hotseat")
    app.stack.push(AvatarPickerScene(app, "Benoît", 14, {5: "Ana", 7: "Chloé"}, lambda avatar: None))
    app.stack.apply_requests()
    save("avatar_picker")
    app.start(NewGameScene(app, mode="solo"))
    save("newgame_solo")
    app.stack.top.start()  # type: ignore[union-attr]  # the solo game saved by saved_screens is there
    app.stack.apply_requests()
    save("replace_save")


def _said(data: dict[str, object]) -> ServerMessage:
    """A server's message, as the screens take it in (read as the connection reads it)."""
    message = from_server(data)
    assert message is not None, data
    return message


class _StillConnection:
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
        controller = RemoteController(_StillConnection(), speed=0)  # type: ignore[arg-type]
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


def attract_screen(app: App, save: Callable[[str], None]) -> None:
    """A kiosk's attract game: computers playing under "Touch to play"."""
    from game.client.scenes.attract import AttractScene

    app.start(AttractScene(app))
    for _ in range(240):  # four seconds of play: the deal is over, the computers are at it
        app.frame(1 / 60)
    save("attract")


SERVER_PEOPLE: Final = (("Ana", "3F2K9Q", 5), ("Benoît", "A07XMZ", 14), ("Chloé", "1C9RT4", 7),
                        ("Dmitri", "F40GHP", 2), ("Ana", "77BW2N", 11), ("Léa", "0D3JKV", 9),
                        ("Sam", "B12ZQ8", 0), ("Yuki", "5E8NRX", 3))
"""Players of the sample server: a name, its tag, an avatar (two Anas, told apart by their tags)."""


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
    lobby = ServerLobbyScene(app, server, connection=_StillConnection())  # type: ignore[arg-type]
    lobby.take(_said({"type": "profile", "name": "Ana", "tag": "3F2K9Q", "avatar": 5, "xp": {"duel": 140}}))
    rooms = [{"room": f"room{i}", "preset": preset, "options": {}, "players": players, "taken": taken,
              "free": players - taken, "computers": 0, "since": 1000.0 - since,
              "seats": people[1 + i:1 + i + taken] + [{"kind": "free"}] * (players - taken)}
             for i, (preset, players, taken, since) in enumerate(
                 (("duel", 2, 1, 40), ("colors", 4, 2, 200), ("points", 4, 3, 75), ("action", 6, 2, 610)))]
    lobby.take(_said({"type": "lobby", "rooms": rooms, "listed": len(rooms), "now": 1000.0}))
    lobby.rebuild()
    app.start(lobby)
    save("server_lobby")
    lobby.quick = RemoteController(_StillConnection(), speed=0)  # type: ignore[arg-type]
    lobby.quick.receive({"type": "queued", "preset": "colors", "players": 4, "waiting": 2, "since": 0.0,
                         "now": 25.0})
    lobby.quick_since = 25.0
    lobby.preset_name, lobby.quick_players = "colors", 4
    lobby.rebuild()
    save("server_lobby_quick_match")
    board = LeaderboardScene(app, server, "duel", connection=_StillConnection())  # type: ignore[arg-type]
    top = [{"rank": i + 1, "name": n, "tag": t, "avatar": a, "xp": 620 - 60 * i, "games": 31 - 3 * i,
            "you": (n, t) == ("Ana", "3F2")} for i, (n, t, a) in enumerate(SERVER_PEOPLE)]
    board.take(_said({"type": "leaderboard", "preset": "duel", "top": top,
                      "you": {"rank": 1, "xp": 620, "games": 31}, "players": len(top)}))
    board.rebuild()
    app.start(board)
    save("leaderboard")
    outcomes = ("win", "loss", "win", "tie", "penalty", "abandoned")
    board.take(_said({"type": "history", "games": [
        {"preset": "duel", "players": 2, "xp": {"win": 20, "loss": 10, "tie": 10, "penalty": -20,
                                                 "abandoned": 0}[outcome],
         "outcome": outcome, "at": 1.7e9 - 3600 * i, "deal": 0, "opponents": [f"{n} #{t}"]}
        for i, (outcome, (n, t, _)) in enumerate(zip(outcomes, SERVER_PEOPLE[1:], strict=False))]}))
    board.view = "history"
    board.rebuild()
    save("leaderboard_history")
    # Fair play: a player not on the board yet (one opponent met), and games it took the points of.
    others = [dict(row, rank=i + 1, you=False) for i, row in enumerate(top[1:])]
    board.take(_said({"type": "leaderboard", "preset": "duel", "top": others,
                      "you": {"rank": None, "xp": 60, "games": 5, "opponents": 1, "needs": 2},
                      "players": len(top) - 1}))
    reasons = ("pair_cap", "pair_cap", "short", "", "", "")
    board.take(_said({"type": "history", "games": [
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
        controller = RemoteController(_StillConnection(), speed=0)  # type: ignore[arg-type]
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
        controller = RemoteController(_StillConnection(), speed=0)  # type: ignore[arg-type]
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
                             connection=_StillConnection())  # type: ignore[arg-type]
    lobby.take(_said({"type": "profile", "name": "Ana", "tag": "3F2", "avatar": 5, "xp": {"duel": 140},
                      "tokens": balance}))
    rooms = [{"room": f"room{i}", "preset": preset, "options": {}, "players": players, "taken": taken,
              "free": players - taken, "computers": 0, "since": 1000.0 - since, "stake": stake,
              "seats": people[1 + i:1 + i + taken] + [{"kind": "free"}] * (players - taken)}
             for i, (preset, players, taken, since) in enumerate((("duel", 2, 1, 40), ("colors", 4, 2, 200)))]
    lobby.take(_said({"type": "lobby", "rooms": rooms, "listed": len(rooms), "now": 1000.0}))
    lobby.rebuild()
    app.start(lobby)
    save("tokens_lobby_stakes")
    lobby.message = lobby.error_text(_said({"type": "error", "code": "no_tokens", "message": "",  # type: ignore[arg-type]
                                             "reason": "no_tokens", "values": {"stake": stake, "tokens": 5}}))
    lobby.rebuild()
    save("tokens_lobby_refused")
    seats = [{"kind": "human", "level": None, "name": n, "tag": t, "avatar": a, "connected": True,
              "accepted": False} for n, t, a in SERVER_PEOPLE[:2]]

    def remote(state: str, waiting: list[int], **said: object) -> RemoteController:
        controller = RemoteController(_StillConnection(), speed=0)  # type: ignore[arg-type]
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


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots and list them."""
    parser = CommandParser(prog="python -m tools.shots", description=__doc__.split("\n")[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--lang", default="en", choices=LANGUAGES)
    parser.add_argument("--size", action="append", type=parse_size,
                        help=f"only this size (repeatable): {SIZE_RULE}")
    args = parser.parse_args(argv)
    sizes = tuple(args.size) if args.size else SIZES
    for path in shoot(args.outdir, sizes, args.lang):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
