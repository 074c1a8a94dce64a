"""Learn how Hard's playouts judge an unfinished round: ``python -m tools.fit_judge``.

Plays seeded rounds with the playouts' own policy (Medium's tips, with their random
moves), keeps a quarter of the positions where a card may be played, labels each with the
round's winner, and fits the weights of `game.ai.judge` by maximum likelihood (a
multinomial logit over the seats, Newton's method, a small ridge). Prints, on positions of
other rounds, the log-loss of the learnt judge beside the hand-size judge
(e^(−0.7 × cards)) and even odds. ``--write`` writes every preset's weights into
``game/ai/judge_weights.py``; without it nothing is written. A tool, not a test: the same
seeds give the same weights.

    python -m tools.fit_judge --preset duel --players 2 --rounds 3000
    python -m tools.fit_judge --all --write
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from pathlib import Path

from game.ai.judge import FEATURES, chances, seat_features
from game.ai.judge_weights import WEIGHTS
from game.ai.playout import SHARPNESS, Lacks, policy
from game.engine import PRESETS, Round
from game.engine.phases import PLAY

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "game" / "ai" / "judge_weights.py"
RIDGE = 1e-3  # keeps the fit defined where a feature never varies (no draw cards in duel)
KEEP = 0.25  # the share of play positions kept (neighbouring positions tell nearly the same)

# One position: each seat's features, and which seat won.
Position = tuple[list[tuple[float, ...]], int]


def positions(preset: str, players: int, rounds: int, seed: int) -> list[Position]:
    """Positions of ``rounds`` seeded rounds played by the playout policy; rounds that end in
    a tie (blocked, shared) are left out."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(rounds):
        r = Round(rules, players, random.Random(rng.random()), first=rng.randrange(players))
        lacks = Lacks(r)
        kept = []
        steps = 0
        while not r.over and steps < 3000:
            if r.phase is PLAY and rng.random() < KEEP:
                kept.append([seat_features(r, seat) for seat in range(players)])
            action = policy(r, rng, lacks)
            if lacks.active:
                lacks.before(r, action)
            r.apply(action, events=False)
            steps += 1
        result = r.result
        if result is None or result.tie or len(result.winners) != 1:
            continue
        winner = result.winners[0]
        out.extend((features, winner) for features in kept)
    return out


def log_loss(weights: Sequence[float], data: list[Position]) -> float:
    """The mean negative log-likelihood of the winners under ``weights`` (nats a position)."""
    return -sum(math.log(max(chances(weights, f)[w], 1e-300)) for f, w in data) / len(data)


def fit(data: list[Position], iterations: int = 12) -> list[float]:
    """The weights of greatest likelihood (with a small ridge), by Newton's method."""
    d = len(FEATURES)
    weights = [0.0] * d
    for _ in range(iterations):
        grad = [-RIDGE * w for w in weights]
        hess = [[RIDGE if i == j else 0.0 for j in range(d)] for i in range(d)]
        for features, winner in data:
            p = chances(weights, features)
            mean = [sum(p[s] * features[s][i] for s in range(len(p))) for i in range(d)]
            won = features[winner]
            for i in range(d):
                grad[i] += won[i] - mean[i]
            for s, row in enumerate(features):
                ps = p[s]
                if ps < 1e-12:
                    continue
                centred = [row[i] - mean[i] for i in range(d)]
                for i in range(d):
                    ci = ps * centred[i]
                    if ci:
                        line = hess[i]
                        for j in range(i, d):
                            line[j] += ci * centred[j]
        for i in range(d):  # the lower triangle mirrors the upper one
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return weights


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` for a symmetric positive definite ``a`` (Gaussian elimination, pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def hand_sizes() -> list[float]:
    """The weights of the hand-size judge (`playout.reward` without a learnt judge)."""
    return [-SHARPNESS] + [0.0] * (len(FEATURES) - 1)


def learn(preset: str, players: int, rounds: int, seed: int) -> list[float]:
    """Fit one preset at one player count and print how the judges compare."""
    start = time.perf_counter()
    train = positions(preset, players, rounds, seed)
    held = positions(preset, players, max(1, rounds // 2), seed + 1)
    weights = fit(train)
    print(f"{preset}, {players} players: {len(train)} positions ({len(held)} held out), "
          f"{time.perf_counter() - start:.0f} s; held-out log-loss: learnt {log_loss(weights, held):.4f}, "
          f"hand sizes {log_loss(hand_sizes(), held):.4f}, even odds {math.log(players):.4f}")
    print("  " + ", ".join(f"{name} {w:+.3f}" for name, w in zip(FEATURES, weights, strict=True)))
    return weights


def write(learnt: dict[str, dict[int, list[float]]]) -> None:
    """Write the weights ``learnt`` into `game.ai.judge_weights`, beside those it holds already."""
    weights: dict[str, dict[int, Sequence[float]]] = {p: dict(rows) for p, rows in WEIGHTS.items()}
    for preset, rows in learnt.items():
        weights.setdefault(preset, {}).update(rows)
    lines = [
        '"""The learnt weights of `game.ai.judge`, by preset and player count, in the order of',
        "`judge.FEATURES`. Written by ``python -m tools.fit_judge ... --write``; do not edit.",
        '"""',
        "",
        "WEIGHTS: dict[str, dict[int, tuple[float, ...]]] = {",
    ]
    for preset in sorted(weights):
        by_players = dict(sorted(weights[preset].items()))
        lines.append(f"    {preset!r}: {{")
        for players, row in by_players.items():
            lines.append(f"        {players}: ({', '.join(f'{w:.4f}' for w in row)}),")
        lines.append("    },")
    lines.append("}")
    WEIGHTS_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS_FILE}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="duel", choices=list(PRESETS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--all", action="store_true",
                        help="every preset at 2, 3 and 4 players (as far as it seats them)")
    parser.add_argument("--rounds", type=int, default=3000, help="rounds played per fit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write game/ai/judge_weights.py")
    args = parser.parse_args(argv)
    learnt: dict[str, dict[int, list[float]]] = {}
    if args.all:
        for preset, rules in PRESETS.items():
            for players in range(rules.min_players, min(rules.max_players, 4) + 1):
                learnt.setdefault(preset, {})[players] = learn(preset, players, args.rounds, args.seed)
    else:
        PRESETS[args.preset].check_players(args.players)
        learnt[args.preset] = {args.players: learn(args.preset, args.players, args.rounds, args.seed)}
    if args.write:
        write(learnt)


if __name__ == "__main__":
    main()
