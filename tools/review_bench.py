"""The review's cost: ``python -m tools.review_bench --deals 10``.

For each preset, plays ``--deals`` seeded deals with Medium at every seat, takes seat 0's
story of each (`game.review.story.story_of_deal`) and times its whole analysis as the review
screen runs it (`game.review.background.Analysis`: ``--workers`` spawned processes, the
default playouts), from the start to the last result. Prints per preset the decisions judged
per deal and the median and p90 seconds per deal. Then, on one deal, how a frame loop of
60 frames a second fares while the same analysis runs in worker processes and, for
comparison, on a thread of the loop's own process (the interpreter's lock): the median and
worst frame. A benchmark: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time

from game.ai.players import Medium
from game.engine import PRESETS, Match, Status
from game.review.analysis import GUESSES, judge, judged
from game.review.background import WORKERS, Analysis
from game.review.story import Story, story_of_deal

MAX_ACTIONS = 3000
FRAME = 1 / 60


def played_deal(preset: str, seed: int) -> Match:
    """One deal of ``preset`` played by Medium at every seat (two seats in duel, else four)."""
    rules = PRESETS[preset]
    players = max(rules.min_players, 2 if preset == "duel" else min(4, rules.max_players))
    match = Match(rules, players, seed)
    rng = random.Random(seed)
    bots = [Medium() for _ in range(players)]
    for _ in range(MAX_ACTIONS):
        if match.status != Status.PLAYING:
            break
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), rng), seat)
    return match


def timed(story: Story, guesses: int, workers: int) -> float:
    """Seconds from starting the analysis to its last result."""
    begun = time.perf_counter()
    analysis = Analysis(story, guesses=guesses, workers=workers)
    while not analysis.done:
        analysis.take_results()
        time.sleep(0.005)
    analysis.close()
    return time.perf_counter() - begun


def frames_while(work: threading.Thread | Analysis) -> list[float]:
    """The frame times of a 60-frames-a-second loop (sleep to the next frame, then a small
    drawing's worth of Python) while ``work`` runs."""
    times: list[float] = []
    last = time.perf_counter()
    while (work.is_alive() if isinstance(work, threading.Thread) else not work.done):
        if isinstance(work, Analysis):
            work.take_results()
        sum(i * i for i in range(2000))  # a frame's own work
        time.sleep(max(0.0, FRAME - (time.perf_counter() - last)))
        now = time.perf_counter()
        times.append(now - last)
        last = now
    return times


def main(argv: list[str] | None = None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="deals per preset (10)")
    parser.add_argument("--guesses", type=int, default=GUESSES, help=f"guesses per decision ({GUESSES})")
    parser.add_argument("--workers", type=int, default=WORKERS, help=f"worker processes ({WORKERS})")
    parser.add_argument("--presets", nargs="*", default=list(PRESETS), help="presets (all five)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (1)")
    parser.add_argument("--no-frames", action="store_true", help="skip the frame-loop comparison")
    args = parser.parse_args(argv)
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.2f}, {args.guesses} guesses a decision, "
          f"{args.workers} workers")
    sample: Story | None = None
    for preset in args.presets:
        seconds, counts = [], []
        for deal in range(args.deals):
            story = story_of_deal(played_deal(preset, args.seed + deal), 0)
            counts.append(len(judged(story)))
            seconds.append(timed(story, args.guesses, args.workers))
            if sample is None or len(judged(story)) > len(judged(sample)):
                sample = story
        cut = sorted(seconds)[max(0, round(0.9 * len(seconds)) - 1)]
        print(f"{preset:8} decisions/deal median {statistics.median(counts):4.0f}   seconds/deal median "
              f"{statistics.median(seconds):5.2f}  p90 {cut:5.2f}  max {max(seconds):5.2f}")
    if sample is None or args.no_frames:
        return
    story = sample
    analysis = Analysis(story, guesses=args.guesses, workers=args.workers)
    in_processes = frames_while(analysis)
    analysis.close()
    thread = threading.Thread(target=lambda: [judge(story, i, guesses=args.guesses) for i in judged(story)])
    thread.start()
    on_thread = frames_while(thread)
    thread.join()
    for name, times in (("worker processes", in_processes), ("a thread", on_thread)):
        if times:
            print(f"frames while the analysis runs on {name:16}: {len(times)} frames, median "
                  f"{1000 * statistics.median(times):5.1f} ms, worst {1000 * max(times):6.1f} ms")


if __name__ == "__main__":
    main()
