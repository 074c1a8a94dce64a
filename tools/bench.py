"""Engine benchmark: ``python -m tools.bench`` plays random legal actions to the end of rounds.

For each preset at 2 and 4 players (the presets that seat them) it deals seeded
rounds, plays uniformly random legal actions until the round ends, and prints
rounds/s and actions/s, the median of several timed repeats. Two modes: with
events (as the table plays) and without (as a computer player's playouts do).
A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from game.engine import PRESETS, Round, Rules


def play_rounds(
    rules: Rules, players: int, seconds: float, events: bool, seed: int,
) -> tuple[int, int, float]:
    """Play random rounds for about ``seconds``; return (rounds, actions, elapsed)."""
    rng = random.Random(seed)
    rounds = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        r = Round(rules, players, random.Random(rng.random()), first=rng.randrange(players))
        choice = rng.choice
        while not r.over:
            r.apply(choice(r.legal_actions()), events=events)
            actions += 1
        rounds += 1
    return rounds, actions, time.perf_counter() - start


def measure(rules: Rules, players: int, seconds: float, repeat: int, events: bool) -> tuple[float, float]:
    """Median rounds/s and actions/s over ``repeat`` timed runs."""
    rps, aps = [], []
    for i in range(repeat):
        rounds, actions, elapsed = play_rounds(rules, players, seconds, events, seed=i)
        rps.append(rounds / elapsed)
        aps.append(actions / elapsed)
    return statistics.median(rps), statistics.median(aps)


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per repeat (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats per line; the median is shown")
    parser.add_argument("--presets", nargs="*", default=list(PRESETS), choices=list(PRESETS))
    args = parser.parse_args(argv)
    print(f"{'preset':<8} {'players':>7} {'mode':<9} {'rounds/s':>10} {'actions/s':>11}")
    for name in args.presets:
        rules = PRESETS[name]
        for players in (2, 4):
            if not rules.min_players <= players <= rules.max_players:
                continue
            for events in (True, False):
                rps, aps = measure(rules, players, args.seconds, args.repeat, events)
                mode = "events" if events else "playout"
                print(f"{name:<8} {players:>7} {mode:<9} {rps:>10.0f} {aps:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
