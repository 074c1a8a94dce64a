"""Frame and idle benchmarks: ``python -m tools.client_bench`` (frames), ``--idle`` (CPU at rest).

Frames (the default): plays a 4-seat and a 7-seat computer-only game at 1920×1080
(animations at normal speed, the table showing seat 0) and prints the median, p95
and p99 of the time each frame takes: events, fixed-step updates, drawing and
presenting. The game is saved after every action as in play (into a temporary
folder), so the frames include making each save.

Idle (``--idle``): runs the real loop (`App.run`) for ``--seconds`` on each of four
screens and prints the process's CPU seconds per wall second (all its threads: the
loop, the save writer, the computers' searches), with the frames run and drawn per
second, and the median and p95 of the time between two frames drawn while something
moves (16.7 ms at 60 frames a second; a loop without pacing draws as fast as it can): the
menu; a table waiting for the person to play (no turn timer); the same with a
60-second turn timer on screen; and a computer-only game at normal speed (cards
flying). Each screen runs in a fresh process (``--screen NAME``: one screen, its
figures on one line); a thread stops the loop after the time is up (it posts an
event so that a loop waiting for input wakes).

Both are headless by default (SDL's dummy driver); run them under Xvfb with
``SDL_VIDEODRIVER=x11`` to measure presenting to a real window too. They print
figures and assert nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.cli import CommandParser  # noqa: E402
from game.client.app import STEP, App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.settings import Settings  # noqa: E402
from game.client.window import SIZE_RULE, parse_size  # noqa: E402
from game.engine import PRESETS, Match, Status, preset  # noqa: E402
from game.saves import DataStore  # noqa: E402

IDLE_SCREENS = ("menu", "table waiting", "table timer", "table animating")
"""The screens ``--idle`` measures, in the order it prints them."""


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(preset_name: str, players: int, frames: int, size: tuple[int, int], seed: int) -> list[float]:
    """Frame times in milliseconds for a computer-only game (new deals as rounds end)."""
    from game.client.saving import watch
    from game.client.scenes.table import TableScene

    store = DataStore(tempfile.mkdtemp(prefix="huit-bench-"))
    app = App(size, settings=Settings(language="en", speed="normal"), sound=False, store=store)
    match = Match(PRESETS[preset_name], players, seed)
    seats = [SeatConfig("computer", "medium") for _ in range(players)]
    controller = MatchController(match, seats, rng=random.Random(seed), speed=4.0)
    watch(app, controller)
    table = TableScene(app, controller)
    app.start(table)
    times = []
    for _ in range(frames):
        if app.stack.top is not table:  # a result screen: deal again and carry on
            if controller.match.status == Status.MATCH_OVER and controller.match.target:
                controller.match = Match(PRESETS[preset_name], players, seed := seed + 1)
            else:
                controller.next_round()
            app.start(table)
        start = time.perf_counter()
        app.frame(STEP)
        times.append((time.perf_counter() - start) * 1000)
    store.flush()
    pygame.display.quit()
    return times[10:]  # the first frames build the art cache


# ---- idle -------------------------------------------------------------------------------------
def idle_app(screen: str, size: tuple[int, int], seed: int) -> App:
    """A real App showing ``screen`` (one of `IDLE_SCREENS`), ready to `run`."""
    from game.client.saving import start_match
    from game.client.scenes.table import TableScene

    store = DataStore(tempfile.mkdtemp(prefix="huit-idle-"))
    app = App(size, settings=Settings(language="en", speed="normal"), sound=False, store=store)
    if screen == "menu":
        app.go_to_menu()
        app.stack.apply_requests()
        for _ in range(3):  # draw the felt and the fan of eights before measuring
            app.frame(STEP)
        return app
    rules = preset("classic", {"turn_seconds": 60}) if screen == "table timer" else PRESETS["classic"]
    human = screen != "table animating"
    seats = [SeatConfig("human" if human and i == 0 else "computer", "medium") for i in range(4)]
    start_match(app, rules, seats, seed=seed)
    app.stack.apply_requests()
    if human:  # play the computers' turns (in game time, quickly) until the person is to play
        for _ in range(20_000):
            top = app.stack.top
            if isinstance(top, TableScene):
                view = top.view
                if view.to_act == view.seat and not top.animator.busy and top.toast_left <= 0:
                    break
            app.frame(STEP)
        else:
            raise RuntimeError(f"{screen}: the person never got the turn")
    else:
        for _ in range(30):  # build the art cache before measuring
            app.frame(STEP)
    return app


def measure_idle(screen: str, seconds: float, size: tuple[int, int],
                 seed: int) -> tuple[float, float, float, float, float]:
    """CPU seconds per wall second, frames run per second, frames drawn per second, and the
    median and p95 gap in milliseconds between two frames drawn while something moved (0: none
    did), while `App.run` shows ``screen`` for ``seconds``."""
    app = idle_app(screen, size, seed)
    frames0 = app.frames
    draws0 = getattr(app, "draws", app.frames)  # a loop that draws every frame has no separate count
    marks: dict[str, float] = {}
    drawn: list[tuple[float, bool]] = []  # when each frame was drawn, and whether something moved
    draw = app.draw

    def timed_draw() -> None:
        draw()
        drawn.append((time.perf_counter(), getattr(app, "moving", True)))

    app.draw = timed_draw  # type: ignore[method-assign]

    def stop() -> None:
        marks["wall"], marks["cpu"] = time.perf_counter(), time.process_time()
        marks["frames"], marks["draws"] = app.frames, getattr(app, "draws", app.frames)
        app.running = False
        pygame.event.post(pygame.event.Event(pygame.USEREVENT, bench="stop"))

    timer = threading.Timer(seconds, stop)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    timer.start()
    app.run()
    timer.join()
    wall = marks["wall"] - wall0
    gaps = [(b - a) * 1000 for (a, moving), (b, still_moving) in zip(drawn, drawn[1:], strict=False)
            if moving and still_moving and b <= marks["wall"]]
    cpu, frames, draws = marks["cpu"] - cpu0, marks["frames"] - frames0, marks["draws"] - draws0
    return (cpu / wall, frames / wall, draws / wall,
            percentile(gaps, 0.5) if gaps else 0.0, percentile(gaps, 0.95) if gaps else 0.0)


def main(argv: list[str] | None = None) -> None:
    """Print the frame-time table, or with ``--idle`` the CPU used at rest."""
    parser = CommandParser(prog="python -m tools.client_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=1200, help="frames per game (1200)")
    parser.add_argument("--size", type=parse_size, default="1920x1080",
                        help=f"window size (1920x1080): {SIZE_RULE}")
    parser.add_argument("--idle", action="store_true",
                        help="CPU seconds per wall second of the real loop on the menu and tables")
    parser.add_argument("--seconds", type=float, default=5.0, help="--idle: seconds per screen (5)")
    parser.add_argument("--screen", choices=IDLE_SCREENS, help=argparse.SUPPRESS)  # one screen, in a child
    args = parser.parse_args(argv)
    w, h = args.size
    driver = os.environ.get("SDL_VIDEODRIVER")
    if args.screen:
        print(*measure_idle(args.screen, args.seconds, (w, h), seed=1))
        return
    if args.idle:
        print(f"video driver: {driver}, window {w}x{h}, {args.seconds:g} s per screen")
        print(f"{'screen':<16} {'cpu s/s':>8} {'frames/s':>9} {'drawn/s':>8} {'moving gap p50/p95 ms':>22}")
        for screen in IDLE_SCREENS:
            child = subprocess.run([sys.executable, "-m", "tools.client_bench", "--screen", screen,
                                    "--seconds", str(args.seconds), "--size", f"{w}x{h}"],
                                   capture_output=True, text=True, check=True)
            cpu, frames, draws, median, p95 = (float(v) for v in child.stdout.split()[-5:])
            shown = f"{median:.1f} / {p95:.1f}" if p95 else "-"
            print(f"{screen:<16} {cpu:>8.3f} {frames:>9.1f} {draws:>8.1f} {shown:>22}", flush=True)
        return
    print(f"video driver: {driver}, window {w}x{h}, {args.frames} frames per game")
    print(f"{'game':<14} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for preset_name, players in (("classic", 4), ("points", 7)):
        times = measure(preset_name, players, args.frames, (w, h), seed=1)
        print(f"{preset_name + ' ' + str(players):<14} {statistics.median(times):>10.2f} "
              f"{percentile(times, 0.95):>8.2f} {percentile(times, 0.99):>8.2f} {max(times):>8.2f}",
              flush=True)


if __name__ == "__main__":
    main()
