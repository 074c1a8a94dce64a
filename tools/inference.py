"""How close Hard's guesses come to the hidden hands: ``python -m tools.inference --preset classic``.

Plays seeded rounds between Medium players and, at each decision of seat 0 with a
choice, deals ``--guesses`` guesses of the other hands three ways: from the view alone,
with the public-event marks (`Knowledge` without its `Reading`), and with the reading
too. For each other hand it compares the guesses' mean count of each suit with the
hand's real counts (the L1 distance, in cards: 0 would be a perfect guess) and prints
the mean over all hands and decisions, with the time one guess takes (``--after-reshuffle``:
only the decisions after the round's first reshuffle, where the pile holds known cards). A benchmark, not
a test: the win rates of the arena swing by a few points over hundreds of games, while
this figure moves little between runs, so it tells quickly whether a change to the
inference helps. The real hands are read off the engine here, never by the players.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator

from game.ai.knowledge import Knowledge
from game.ai.players import Medium
from game.ai.reading import Reading
from game.ai.sampler import Guesser
from game.engine import PRESETS, Card, Match, PlayerView, Status
from game.engine import events as ev

AFTER = " after a reshuffle"
WAYS = ("view only", "marks", "marks and reading")


def suit_error(guesses: list[list[Card]], hand: list[Card]) -> float:
    """The L1 distance between the suit counts of ``hand`` and the guesses' mean counts."""
    real = Counter(card.suit for card in hand)
    mean: Counter[str | None] = Counter()
    for guess in guesses:
        mean.update(card.suit for card in guess)
    return sum(abs(real[s] - mean[s] / len(guesses)) for s in set(real) | set(mean))


def decisions(preset: str, players: int, deals: int, seed: int, after_reshuffle: bool = False,
              ) -> Iterator[tuple[Match, PlayerView, Knowledge, int]]:
    """Seat 0's decisions with a choice in ``deals`` seeded matches of Medium players (only those
    after a reshuffle in the round if ``after_reshuffle``), with seat 0's knowledge and the
    number of actions so far in the match."""
    rules = PRESETS[preset]
    for deal in range(deals):
        match = Match(rules, players, seed + deal)
        seats = [Medium() for _ in range(players)]
        rng = random.Random(seed + deal)

        def tell(events: list[ev.Event], seats: list[Medium] = seats) -> None:
            for s, player in enumerate(seats):
                for event in events:
                    player.observe(s, event.for_seat(s), rules, players)

        tell(match.start_events)
        reshuffled = False
        actions = 0
        while match.status == Status.PLAYING and actions < 3000:
            actions += 1
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            if seat == 0 and len(view.legal) > 1 and (reshuffled or not after_reshuffle):
                yield match, view, seats[0].knowledge[0], actions
            events = match.apply(seats[seat].choose(view, rng), seat)
            for event in events:
                if isinstance(event, ev.Reshuffled):
                    reshuffled = True
                elif isinstance(event, ev.RoundStarted):
                    reshuffled = False
            tell(events)


def measure(preset: str, players: int, deals: int, guesses: int, seed: int,
            after_reshuffle: bool = False) -> dict[str, tuple[float, float]]:
    """Mean suit error per hand and median seconds per guess, for each of `WAYS` (only at the
    decisions after a reshuffle if ``after_reshuffle``)."""
    rules = PRESETS[preset]
    errors: dict[str, list[float]] = {way: [] for way in WAYS}
    costs: dict[str, list[float]] = {way: [] for way in WAYS}
    for match, view, knowledge, actions in decisions(preset, players, deals, seed, after_reshuffle):
        marks_only = copy.copy(knowledge)
        marks_only.reading = Reading(0, rules, players)  # reads nothing
        for way, known in zip(WAYS, (None, marks_only, knowledge), strict=True):
            guesser = Guesser(view, known)
            draw = random.Random(actions)
            start = time.perf_counter()
            dealt = [guesser.sample(draw) for _ in range(guesses)]
            costs[way].append((time.perf_counter() - start) / guesses)
            for other in range(1, players):
                errors[way].append(suit_error([g.hands[other] for g in dealt], match.round.hands[other]))
    return {way: (statistics.mean(errors[way]), statistics.median(costs[way])) for way in WAYS
            if errors[way]}


def main(argv: list[str] | None = None) -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(prog="python -m tools.inference", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="classic", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--guesses", type=int, default=20, help="guesses per decision")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--after-reshuffle", action="store_true",
                        help="only the decisions after the round's first reshuffle")
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{args.preset} seats {rules.min_players} to {rules.max_players} players")
    results = measure(args.preset, args.players, args.deals, args.guesses, args.seed, args.after_reshuffle)
    print(f"{args.preset}, {args.players} players, {args.deals} rounds of Medium players, "
          f"{args.guesses} guesses a decision of seat 0{AFTER if args.after_reshuffle else ''}")
    if not results:
        print("no decision to measure (no reshuffle in these rounds?)")
    for way, (error, cost) in results.items():
        print(f"{way:>18}: suit error {error:.3f} cards per hand; {cost * 1e6:.0f} µs a guess")


if __name__ == "__main__":
    main()
