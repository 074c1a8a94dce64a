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

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.cli import CommandParser  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.i18n import LANGUAGES  # noqa: E402
from game.client.scene import Scene  # noqa: E402
from game.client.settings import Settings  # noqa: E402
from game.client.window import SIZE_RULE, parse_size  # noqa: E402
from game.engine import PRESETS, Match, Phase, Status  # noqa: E402
from game.engine import preset as make_rules  # noqa: E402
from game.saves import DataStore, Statistics  # noqa: E402

SIZES = ((1920, 1080), (1280, 800))


from tools.online_shots import (  # noqa: E402
    online_screens,
    ranked_screens,
    server_screens,
    stakes_screens,
    tokens_screens,
)
from tools.shot_tables import advance, settle, solo, table_for  # noqa: E402


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
    scene.refresh()  # type: ignore[attr-defined]  # the others make room, as a real drag does
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


def attract_screen(app: App, save: Callable[[str], None]) -> None:
    """A kiosk's attract game: computers playing under "Touch to play"."""
    from game.client.scenes.attract import AttractScene

    app.start(AttractScene(app))
    for _ in range(240):  # four seconds of play: the deal is over, the computers are at it
        app.frame(1 / 60)
    save("attract")




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
