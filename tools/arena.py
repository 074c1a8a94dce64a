"""The arena: ``python -m tools.arena --preset duel --players 2 --a hard --b medium --games 2000``.

Plays seeded deals between level A (one seat) and level B (every other seat). Each
deal is played once per seat rotation, A taking each seat in turn, so the luck of
the deal and the advantage of a seat cancel out. ``points`` is scored by match wins
(whole matches to the target); the other presets by round wins. Prints A's win rate
(ties count half) with a Wilson 95% interval, and the median and p95 think time per
decision (moves with a single legal action are not decisions). A benchmark, not a
test: it prints figures and asserts nothing. ``--playouts N`` gives Hard a fixed
number of playouts per decision instead of a time budget, so that two versions can
be compared on the same seeds whatever else loads the machine; ``--horizon N`` sets
how many actions Hard's playouts look ahead (0: to the end of the round).
``pimc`` seats the plain PIMC yardstick of `tools.pimc` on either side (same budget; with
``--playouts N``, N iterations per decision).
``--playouts-b N`` and ``--budget-b S`` give B's seats their own playouts or budget (by default
A's), so that one run pits Hard with k times the simulations against Hard with 1 on the same
seeds (``--a hard --b hard-before --playouts 1000 --playouts-b 500``).
``hard-told`` seats Hard told the real hands at every decision (the pile's order still unknown):
not a player, a ceiling, what planning for the hidden cards could at best bring (arena only: it
reads the arena's own match).
``--helpers N`` gives each Hard N helper processes (`game.ai.parallel`), as the game
does on the machine's other cores: on two cores, ``--jobs 1 --helpers 1`` measures Hard
as a player on that machine meets it.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import time
from dataclasses import dataclass, field

from game.ai.hard import Hard
from game.ai.knowledge import Knowledge
from game.ai.players import ARENA_LEVELS, LEVELS, ComputerPlayer, player_for
from game.ai.playout import HORIZON
from game.engine import PRESETS, Match, PlayerView, Rules, Status
from game.engine import events as ev
from tools.regret import TheRealCards

# What --a and --b seat: the levels, the arena-only levels (today's Hard as ``hard-before``, the
# information-set search ``ismcts``), the yardstick of tools.pimc and Hard told the hands.
SEATS = (*LEVELS, *ARENA_LEVELS, "pimc", "hard-told")
CPU_CLOCK = "HUIT_ARENA_CPU_CLOCK"  # set by `--cpu-clock`; the deals' processes inherit it
MAX_ROUNDS = 60  # a points match that has not ended by then is called a tie
# A round can go round for ever with every move forced (four players each drawing the only
# card left, an eight, and naming a suit the next one lacks): after this many actions it is
# called a tie.
MAX_ACTIONS = 5000


class ToldHard(Hard):
    """Hard told the real hands at each decision (``hard-told``): its guesses are the arena's real
    round, the pile shuffled since no player can know its order (`tools.regret.TheRealCards`). Not a
    player but a ceiling: how far planning for the hidden cards could at best take Hard. It reads
    ``match``, which `play_match` sets, so it exists in the arena only."""

    match: Match | None = None

    def guesser(self, view: PlayerView, knowledge: Knowledge | None) -> TheRealCards:
        """The real round of the match being played, instead of guesses."""
        if self.match is None:
            raise RuntimeError("hard-told plays only in the arena's matches")
        return TheRealCards(self.match.round)


@dataclass
class Tally:
    """Results and think times of one side."""

    games: int = 0
    wins: float = 0.0
    times: list[float] = field(default_factory=list)
    playouts: list[int] = field(default_factory=list)  # Hard's playouts per searched decision

    def add(self, other: Tally) -> None:
        """Merge another tally into this one."""
        self.games += other.games
        self.wins += other.wins
        self.times += other.times
        self.playouts += other.playouts


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_match(rules: Rules, seats: list[ComputerPlayer], seed: int,
               times: dict[int, list[float]] | None = None,
               playouts: dict[int, list[int]] | None = None) -> Match:
    """Play one match between computer players (feeding them the public events).

    A round still going after `MAX_ACTIONS` actions is left unfinished (a tie)."""
    players = len(seats)
    match = Match(rules, players, seed)
    for player in seats:
        if isinstance(player, ToldHard):
            player.match = match
    rng = random.Random(seed * 7919 + 1)

    def tell(events: list[ev.Event]) -> None:
        for seat, player in enumerate(seats):
            for event in events:
                player.observe(seat, event.for_seat(seat), rules, players)

    tell(match.start_events)
    rounds = 1
    while True:
        actions = 0
        while match.status == Status.PLAYING and actions < MAX_ACTIONS:
            actions += 1
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            start = time.perf_counter()
            action = seats[seat].choose(view, rng)
            if times is not None and len(view.legal) > 1:
                times.setdefault(seat, []).append(time.perf_counter() - start)
            searched = getattr(seats[seat], "last_playouts", 0)
            if playouts is not None and searched:
                playouts.setdefault(seat, []).append(searched)
            tell(match.apply(action, seat))
        if match.status != Status.ROUND_OVER or not match.target or rounds >= MAX_ROUNDS:
            return match
        tell(match.next_round())
        rounds += 1


# What `play_deal` takes: preset, players, A's level, B's level, seed, A's budget, A's fixed
# playouts, horizon, helpers, B's budget, B's fixed playouts, B's horizon.
Deal = tuple[str, int, str, str, int, float, int | None, int | None, int, float, int | None, int | None]


def play_deal(args: Deal) -> tuple[Tally, Tally]:
    """Every seat rotation of one seeded deal: A at seat r, B elsewhere."""
    preset, players, a, b, seed, budget, fixed, horizon, helpers, budget_b, fixed_b, horizon_b = args
    rules = PRESETS[preset]
    side_a, side_b = Tally(), Tally()
    for rotation in range(players):
        seats = [seat_player(a, budget, fixed, horizon, helpers) if s == rotation
                 else seat_player(b, budget_b, fixed_b, horizon_b, helpers)
                 for s in range(players)]
        times: dict[int, list[float]] = {}
        searched: dict[int, list[int]] = {}
        match = play_match(rules, seats, seed, times, searched)
        winners = match.winners if match.status == Status.MATCH_OVER else ()
        if not winners and match.round.result is not None:
            winners = match.round.result.winners
        share = 1.0 / len(winners) if winners else 1.0 / players  # a tie shares the win
        side_a.games += 1
        side_a.wins += share if rotation in winners or not winners else 0.0
        side_b.games += players - 1
        side_b.wins += sum(share for s in range(players) if s != rotation and (s in winners or not winners))
        for seat, spent in times.items():
            (side_a if seat == rotation else side_b).times.extend(spent)
        for seat, counts in searched.items():
            (side_a if seat == rotation else side_b).playouts.extend(counts)
    return side_a, side_b


def seat_player(level: str, budget: float, fixed: int | None, horizon: int | None,
                helpers: int) -> ComputerPlayer:
    """The player of one of `SEATS`: a level of `player_for`, or the PIMC yardstick (``fixed``
    iterations per decision if given, else ``budget`` seconds)."""
    if level == "pimc":
        from tools.pimc import Pimc

        player: ComputerPlayer = Pimc(None, iterations=fixed) if fixed else Pimc(budget)
    elif level == "hard-told":
        player = (ToldHard(None, max_playouts=fixed, horizon=horizon) if fixed
                  else ToldHard(budget, horizon=horizon, helpers=helpers))
    else:
        player = player_for(level, budget, playouts=fixed, horizon=horizon, helpers=helpers)
    if os.environ.get(CPU_CLOCK) and hasattr(player, "clock"):
        player.clock = time.thread_time  # `--cpu-clock`: the budget counts the search thread's CPU time
    return player


def run(preset: str, players: int, a: str, b: str, games: int, budget: float, seed: int,
        jobs: int, playouts: int | None = None, horizon: int | None = HORIZON,
        helpers: int = 0, *, playouts_b: int | None = None,
        budget_b: float | None = None, horizon_b: int | None = None) -> tuple[Tally, Tally]:
    """Play ``games`` games (rounded up to whole rotations) and return both tallies.

    ``playouts``: Hard plays that many playouts per decision, with no time budget.
    ``horizon``: actions Hard's playouts look ahead (None: to the end of the round).
    ``helpers``: processes that search beside each Hard under its time budget.
    ``playouts_b``, ``budget_b``: B's own playouts (0: B thinks on its budget) and budget;
    None: A's. ``horizon_b``: B's own horizon (0: to the end of the round); None: A's."""
    deals = max(1, math.ceil(games / players))
    fixed_b = playouts if playouts_b is None else (playouts_b or None)
    spent_b = budget if budget_b is None else budget_b
    seen_b = horizon if horizon_b is None else (horizon_b or None)
    tasks: list[Deal] = [(preset, players, a, b, seed + i, budget, playouts, horizon, helpers,
                          spent_b, fixed_b, seen_b) for i in range(deals)]
    side_a, side_b = Tally(), Tally()
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.imap_unordered(play_deal, tasks)
            for ta, tb in results:
                side_a.add(ta)
                side_b.add(tb)
    else:
        for task in tasks:
            ta, tb = play_deal(task)
            side_a.add(ta)
            side_b.add(tb)
    return side_a, side_b


def describe_times(times: list[float]) -> str:
    """``median 12.3 ms, p95 480.1 ms`` for a list of seconds."""
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> None:
    """Run the arena and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tools.arena", description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="duel", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="hard", choices=SEATS)
    parser.add_argument("--b", default="medium", choices=SEATS)
    parser.add_argument("--games", type=int, default=200, help="games in all (whole seat rotations)")
    parser.add_argument("--budget", type=float, default=0.5,
                        help="Hard's (and PIMC's) think time per move, seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    parser.add_argument("--playouts", type=int, default=None,
                        help="Hard's playouts (PIMC's iterations) per decision instead of a time budget")
    parser.add_argument("--playouts-b", type=int, default=None,
                        help="B's playouts (iterations) per decision (default: --playouts; 0: B thinks "
                             "on its budget): Hard at k times the simulations against Hard at 1, same seeds")
    parser.add_argument("--budget-b", type=float, default=None,
                        help="B's think time per move, seconds (default: --budget)")
    parser.add_argument("--horizon", type=int, default=HORIZON,
                        help=f"actions Hard's playouts look ahead (0: to the end of the round; "
                             f"default {HORIZON})")
    parser.add_argument("--horizon-b", type=int, default=None,
                        help="B's horizon (0: to the end of the round; default: --horizon): a shorter "
                             "look-ahead against a longer one, same seeds")
    parser.add_argument("--helpers", type=int, default=0,
                        help="processes that search beside each Hard under its time budget, as the game "
                             "uses the other cores (default 0: one core per Hard; on 2 cores use "
                             "--jobs 1 --helpers 1)")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="Hard's budget (and ismcts') counts the search thread's CPU time, not the wall "
                             "clock: A/B runs of two searches on a machine others load (not PIMC's)")
    args = parser.parse_args(argv)
    if args.cpu_clock:
        os.environ[CPU_CLOCK] = "1"
    if args.helpers < 0:
        parser.error("--helpers must be 0 or more")
    if args.playouts_b is not None and args.playouts_b < 0:
        parser.error("--playouts-b must be 0 or more")
    rules = PRESETS[args.preset]
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(f"{args.preset} seats {rules.min_players} to {rules.max_players} players")
    start = time.perf_counter()
    side_a, side_b = run(args.preset, args.players, args.a, args.b, args.games, args.budget, args.seed,
                         args.jobs, args.playouts, args.horizon or None, args.helpers,
                         playouts_b=args.playouts_b, budget_b=args.budget_b,
                         horizon_b=args.horizon_b)
    low, high = wilson(side_a.wins, side_a.games)
    fair = 1 / args.players
    hard = f"{args.playouts} playouts a decision" if args.playouts else f"budget {args.budget:g} s"
    if args.helpers and not args.playouts:
        hard += f" with {args.helpers} helper process{'es' if args.helpers > 1 else ''}"
    if rules.target_for(args.players):  # Hard plays matches to a target to the round's end
        hard += ", playouts to the end of the round (a match to a target)"
    else:
        hard += f", horizon {args.horizon} actions" if args.horizon else ", playouts to the end of the round"
    print(f"{args.preset}, {args.players} players: {args.a} (A, one seat) vs {args.b} (B, the others), "
          f"Hard {hard}")
    fixed_b = args.playouts if args.playouts_b is None else (args.playouts_b or None)
    budget_b = args.budget if args.budget_b is None else args.budget_b
    if fixed_b != args.playouts or (not fixed_b and budget_b != args.budget):
        own = f"{fixed_b} playouts (iterations) a decision" if fixed_b else f"budget {budget_b:g} s"
        print(f"B's own search: {own}")
    if args.horizon_b is not None and args.horizon_b != args.horizon:
        print(f"B's own horizon: {args.horizon_b or 'to the end of the round'}"
              f"{' actions' if args.horizon_b else ''}")
    if "pimc" in (args.a, args.b):
        spent = f"{args.playouts} iterations" if args.playouts else f"budget {args.budget:g} s"
        print(f"PIMC (tools.pimc): uniform deals, UCB1 at the root, Medium playouts to the round's end, "
              f"{spent}")
    print(f"games {side_a.games}; A won {side_a.wins:g} = {side_a.wins / side_a.games:.1%} "
          f"(Wilson 95%: {low:.1%} to {high:.1%}; an even share is {fair:.0%})")
    print(f"think time per decision: A {describe_times(side_a.times)}; B {describe_times(side_b.times)}")
    for name, side in (("A", side_a), ("B", side_b)):
        if side.playouts:
            median = statistics.median(side.playouts)
            level = args.a if name == "A" else args.b
            print(f"{level} playouts per searched decision ({name}): median {median:g}, "
                  f"{len(side.playouts)} decisions")
    print(f"wall time {time.perf_counter() - start:.0f} s on {args.jobs} process(es)")


if __name__ == "__main__":
    main()
