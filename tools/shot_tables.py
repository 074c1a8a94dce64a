"""The tables the screenshots start from (`tools.shots`, `tools.online_shots`): a match advanced
by computer players from a seeded deal, shown as the table shows it, so that the pictures are the
same every run."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


from game.ai import player_for  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.controller import MatchController, SeatConfig  # noqa: E402
from game.client.scene import Scene  # noqa: E402
from game.engine import Match, Rules, Status  # noqa: E402
from game.engine.events import Event  # noqa: E402


def advance(match: Match, steps: int, rng: random.Random,
            stop: Callable[[Match], bool] | None = None) -> list[Event]:
    """Let computer players play ``steps`` actions (or until ``stop``) from every seat; the events."""
    medium = player_for("medium")
    events: list[Event] = list(match.start_events)
    for _ in range(steps):
        if match.status != Status.PLAYING or (stop is not None and stop(match)):
            break
        seat = match.to_act
        assert seat is not None
        events += match.apply(medium.choose(match.view(seat), rng), seat)
    return events


def table_for(app: App, rules: Rules, seats: list[SeatConfig], seed: int, steps: int,
              stop: Callable[[Match], bool] | None = None) -> Scene:
    """A table scene for a match advanced ``steps`` actions."""
    from game.client.scenes.table import TableScene

    match = Match(rules, len(seats), seed)
    events = advance(match, steps, random.Random(seed), stop)
    controller = MatchController(match, seats, rng=random.Random(seed), speed=0)
    controller.take_events()
    table = TableScene(app, controller)
    table.moves.observe(e.for_seat(controller.viewer) for e in events)  # the move log so far
    app.start(table)
    return table


def settle(app: App, frames: int = 3) -> None:
    """Run a few frames so pushed overlays appear and animations are done."""
    for _ in range(frames):
        app.frame(1 / 60)


def solo(players: int) -> list[SeatConfig]:
    """Seat 0 human, the rest computers of mixed levels."""
    levels = ["medium", "hard", "easy"]
    return [SeatConfig("human")] + [SeatConfig("computer", levels[i % 3]) for i in range(players - 1)]
