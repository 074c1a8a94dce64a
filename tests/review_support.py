"""Deals for the review's tests: a match played by Medium at every seat, seeded, stopped where asked."""

from __future__ import annotations

import random

from game.ai.players import Medium
from game.engine import PRESETS, Match, Status

MAX_ACTIONS = 3000


def play_on(match: Match, rng: random.Random, *, actions: int | None = None) -> Match:
    """Let Medium play every seat of ``match`` (fresh players watching nothing: they decide from the
    views) to the end of the deal, or for ``actions`` actions."""
    bots = [Medium() for _ in range(match.players)]
    for count in range(MAX_ACTIONS):
        if match.status != Status.PLAYING or (actions is not None and count >= actions):
            break
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat), rng), seat)
    return match


def played(preset: str = "duel", players: int = 2, seed: int = 3) -> Match:
    """One whole deal of ``preset``."""
    return play_on(Match(PRESETS[preset], players, seed), random.Random(seed))
