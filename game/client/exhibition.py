"""Computers-only games, for show (a kiosk's attract mode, `game.client.attract`).

The engine and the `MatchController` play a match with no human seat as they play any other:
each computer decides from its own view, with its think delay (`game.play.TurnDriver`); the
table shows seat 0's view. What the menu's forms refuse (a game with nobody to play it) is
made here: `exhibition` deals one, in turn from `SHOWS`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from game.engine import Match, PlayerView, preset

from .controller import MatchController, SeatConfig

SHOWS: Final = (("classic", 4), ("action", 4), ("colors", 3), ("points", 5), ("duel", 2))
"""The rules and seats of the games shown, in turn."""
LEVELS: Final = ("medium", "easy", "medium", "medium", "easy")
"""The computers' levels, seat by seat (never Hard: its search would take the kiosk's cores)."""


class ExhibitionController(MatchController):
    """A `MatchController` whose every seat is a computer, for show: its view offers no move (the
    shown seat is a computer's: no buttons, no glow on its cards). Whoever shows it keeps it out of
    the saves (the attract scene holds its table itself) and never `saving.watch`es it. Being
    `for_show`, its table shows no Menu button; with no person, no autopilot and no Undo either."""

    for_show = True

    def view(self) -> PlayerView:
        """The shown seat's view, without its legal moves (nobody here may act)."""
        return replace(super().view(), legal=())


def exhibition(number: int, rng: random.Random | None = None) -> ExhibitionController:
    """The ``number``-th game shown (its rules in turn from `SHOWS`), dealt; computers only, at the
    normal speed whatever the settings say (instant would be no show)."""
    rng = rng if rng is not None else random.Random()
    name, players = SHOWS[number % len(SHOWS)]
    match = Match(preset(name), players, seed=rng.randrange(1 << 30))
    seats = [SeatConfig("computer", LEVELS[i % len(LEVELS)]) for i in range(players)]
    return ExhibitionController(match, seats, rng=rng, speed=1.0, undo_allowed=False)
