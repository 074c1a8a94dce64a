"""Frame benchmark: ``python -m tools.client_bench`` times update + draw per frame.

Plays a 4-seat and a 7-seat computer-only game at 1920×1080 (animations at normal
speed, the table showing seat 0) and prints the median, p95 and p99 of the time
each frame takes: events, fixed-step updates, drawing and presenting. Headless by
default (SDL's dummy driver); run it under Xvfb with ``SDL_VIDEODRIVER=x11`` to
measure presenting to a real window too. The game is saved after every action as
in play (into a temporary folder), so the frames include making each save. It
prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.client.app import STEP, App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.settings import Settings  # noqa: E402
from game.engine import PRESETS, Match, Status  # noqa: E402
from game.saves import DataStore  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(preset: str, players: int, frames: int, size: tuple[int, int], seed: int) -> list[float]:
    """Frame times in milliseconds for a computer-only game (new deals as rounds end)."""
    from game.client.saving import watch
    from game.client.scenes.table import TableScene

    store = DataStore(tempfile.mkdtemp(prefix="huit-bench-"))
    app = App(size, settings=Settings(language="en", speed="normal"), sound=False, store=store)
    match = Match(PRESETS[preset], players, seed)
    seats = [SeatConfig("computer", "medium") for _ in range(players)]
    controller = MatchController(match, seats, rng=random.Random(seed), speed=4.0)
    watch(app, controller)
    table = TableScene(app, controller)
    app.start(table)
    times = []
    for _ in range(frames):
        if app.stack.top is not table:  # a result screen: deal again and carry on
            if controller.match.status == Status.MATCH_OVER and controller.match.target:
                controller.match = Match(PRESETS[preset], players, seed := seed + 1)
            else:
                controller.next_round()
            app.start(table)
        start = time.perf_counter()
        app.frame(STEP)
        times.append((time.perf_counter() - start) * 1000)
    store.flush()
    pygame.display.quit()
    return times[10:]  # the first frames build the art cache


def main(argv: list[str] | None = None) -> None:
    """Print the frame-time table."""
    parser = argparse.ArgumentParser(prog="python -m tools.client_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=1200)
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    driver = os.environ.get("SDL_VIDEODRIVER")
    print(f"video driver: {driver}, window {w}x{h}, {args.frames} frames per game")
    print(f"{'game':<14} {'median ms':>10} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for preset, players in (("classic", 4), ("points", 7)):
        times = measure(preset, players, args.frames, (w, h), seed=1)
        print(f"{preset + ' ' + str(players):<14} {statistics.median(times):>10.2f} "
              f"{percentile(times, 0.95):>8.2f} {percentile(times, 0.99):>8.2f} {max(times):>8.2f}",
              flush=True)


if __name__ == "__main__":
    main()
