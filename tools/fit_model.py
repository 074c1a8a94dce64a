"""Fit the opponent model of ``hard-weighted``: ``python -m tools.fit_model --level medium``.

Plays seeded rounds of one level on every seat (``medium``, ``easy``, or ``hard`` at
``--playouts N``) and records every free choice each player made (a card played, a suit
named), scored as `Reading.scored` replays them from the player's *real* hand (seat 0's
reading of the others). Then prints, for a grid of temperatures (the play scores' and
the suit preferences') and uniform shares, the mean log-likelihood per choice of the
model of `game.ai.weighted`, and the best. No network, no files: it prints.
"""

from __future__ import annotations

import argparse
import math
import random

from game.ai.players import ComputerPlayer, Medium, player_for
from game.ai.reading import Played
from game.ai.weighted import chosen_probability
from game.engine import PRESETS, Match, Status
from game.engine import events as ev

TEMPERATURES = (0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0)
SHARES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0)


def choices(preset: str, players: int, level: str, deals: int, seed: int,
            playouts: int) -> list[tuple[bool, list[float]]]:
    """Every free choice of seats 1.. in ``deals`` seeded rounds of ``level`` players, as
    (named a suit, the scores with the chosen option first), read by seat 0 from the real hands."""
    rules = PRESETS[preset]
    out: list[tuple[bool, list[float]]] = []
    for deal in range(deals):
        match = Match(rules, players, seed + deal)
        seats = [player_for(level, playouts=playouts) for _ in range(players)]
        watcher = Medium()  # seat 0's knowledge, whatever seat 0 plays
        rng = random.Random(seed + deal)

        def tell(events: list[ev.Event], seats: list[ComputerPlayer] = seats,
                 watcher: Medium = watcher) -> None:
            for s, player in enumerate(seats):
                for event in events:
                    player.observe(s, event.for_seat(s), rules, players)
            for event in events:
                watcher.observe(0, event.for_seat(0), rules, players)

        tell(match.start_events)
        actions = 0
        while match.status == Status.PLAYING and actions < 3000:
            actions += 1
            seat = match.to_act
            assert seat is not None
            reading = watcher.knowledge[0].reading
            before = [len(steps) for steps in reading.steps]
            tell(match.apply(seats[seat].choose(match.view(seat), rng), seat))
            for other in range(1, players):
                steps = reading.steps[other]
                if len(steps) <= before[other]:
                    continue
                newest = steps[-1]
                if isinstance(newest, Played) and newest.situation is None:
                    continue  # not a free choice
                if isinstance(newest, Played) and newest.drawn:
                    continue  # drawn and played at once: not a choice from the hand
                if match.round.hands is None:
                    continue
                scored = next(reading.scored(other, match.round.hands[other], 1), None)
                if scored is not None and len(scored[1]) > 1:
                    out.append(scored)
    return out


def loglik(data: list[tuple[bool, list[float]]], named: bool, temperature: float, share: float) -> float:
    """The mean log-likelihood per choice of the ``named`` (suit) or card choices of ``data``."""
    picked = [scores for kind, scores in data if kind == named]
    if not picked:
        return 0.0
    total = 0.0
    for scores in picked:
        chance, _ = chosen_probability(scores, temperature, share)
        total += math.log(max(chance, 1e-300))
    return total / len(picked)


def main(argv: list[str] | None = None) -> None:
    """Collect the choices and print the fit."""
    parser = argparse.ArgumentParser(prog="python -m tools.fit_model", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="medium", choices=("easy", "medium", "hard", "hard-before"))
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=100, help="Hard's playouts per decision")
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{args.preset} seats {rules.min_players} to {rules.max_players} players")
    data = choices(args.preset, args.players, args.level, args.deals, args.seed, args.playouts)
    print(f"{args.preset}, {args.players} players, {args.deals} rounds of {args.level}: "
          f"{sum(not n for n, _ in data)} card choices, {sum(n for n, _ in data)} suit choices "
          f"with alternatives")
    for named, what in ((False, "cards"), (True, "suits")):
        best = max((loglik(data, named, t, u), t, u) for t in TEMPERATURES for u in SHARES)
        print(f"{what}: best temperature {best[1]:g}, uniform share {best[2]:g}: "
              f"mean log-likelihood {best[0]:.3f} a choice")
        for share in SHARES:
            row = " ".join(f"{loglik(data, named, t, share):7.3f}" for t in TEMPERATURES)
            print(f"  share {share:4g}: {row}   (temperatures {', '.join(f'{t:g}' for t in TEMPERATURES)})")


if __name__ == "__main__":
    main()
