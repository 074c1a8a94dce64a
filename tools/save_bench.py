"""Save benchmark: ``python -m tools.save_bench`` times making and loading one saved game.

For a 4-seat ``classic`` and a 7-seat ``points`` game, one person (seat 0) and
computers, it plays a long deal (``draw_when_playable`` on, every seat drawing and passing
19 times in 20, so the deal grows long and the person's turns fill the undo history)
and stops just before the deal ends. There it prints the actions applied so far,
the undo steps kept, the file's size, and the median time to make the save's bytes
(``encode_game(controller.to_save())``, what the table does after every action), to
read it (``decode_game``: the envelope, the scan, the checks and the replay of the log;
what the menu does for each save) and to load it (``decode_game`` then
``MatchController.from_save``, whose computer players learn the deal again: what
Continue does). It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from game.client.controller import MatchController, SeatConfig
from game.engine import Draw, Match, Pass, Rules, Status, preset
from game.saves import decode_game, encode_game

GAMES = (("classic", 4, 400), ("points", 7, 700))
"""Preset, seats, and the actions the long deal is played to (when it lasts that long). Undo is
switched on (``points`` has it off by default)."""


def preset_rules(name: str) -> Rules:
    """The preset with undo on, and drawing allowed with a card that plays (so a deal lasts)."""
    return preset(name, {"undo": True, "draw_when_playable": True})


def long_deal(name: str, players: int, actions: int, seed: int) -> tuple[MatchController, int]:
    """A table stopped just before its deal ends, or after ``actions`` actions; and the actions."""
    seats = [SeatConfig("human")] + [SeatConfig("computer", "easy")] * (players - 1)
    chooser = random.Random(seed)
    best: tuple[MatchController, int] | None = None
    for attempt in range(20):
        controller = MatchController(Match(preset_rules(name), players, seed + attempt), seats,
                                     rng=random.Random(seed), speed=0.0)
        done = 0
        while done < actions:
            match = controller.match
            legal = match.legal_actions()
            stall = [a for a in legal if type(a) in (Draw, Pass)]
            action = chooser.choice(stall) if stall and chooser.random() < 0.95 else chooser.choice(legal)
            before = _saved(controller)
            controller.submit(action, match.to_act)  # every seat is driven from here: the queue goes first
            controller.update(0.0)
            done += 1
            if controller.match.status != Status.PLAYING:
                controller = MatchController.from_save(decode_game(before), speed=0.0)
                done -= 1
                break
        if best is None or done > best[1]:
            best = (controller, done)
        if done >= actions:
            break
    assert best is not None
    return best


def _saved(controller: MatchController) -> bytes:
    return encode_game(controller.to_save())


def timed(work: Callable[[], object], repeat: int) -> float:
    """The median time of ``work`` in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    """Print the figures of each game."""
    parser = argparse.ArgumentParser(prog="python -m tools.save_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per figure; the median is shown")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    args = parser.parse_args(argv)
    print(f"{'game':<10} {'actions':>7} {'undo':>5} {'size kB':>8} "
          f"{'save ms':>8} {'read ms':>8} {'load ms':>8}")
    for name, players, actions in GAMES:
        controller, done = long_deal(name, players, actions, args.seed)
        data = _saved(controller)
        save = timed(lambda c=controller: encode_game(c.to_save()), args.repeat)
        read = timed(lambda d=data: decode_game(d), args.repeat)
        load = timed(lambda d=data: MatchController.from_save(decode_game(d), speed=0.0), args.repeat)
        undo = len(controller._undo)
        print(f"{name + ' ' + str(players):<10} {done:>7} {undo:>5} {len(data) / 1000:>8.1f} "
              f"{save:>8.2f} {read:>8.2f} {load:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
