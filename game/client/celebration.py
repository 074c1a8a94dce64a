"""A short celebration on a won match: confetti and a few cards falling over the result screen.

Shown when the match is won here: by the solo player, by any person at a same-device table,
or online by this device's player (the winner's screen). It lasts `DURATION` seconds, is
drawn procedurally (no asset), and stops at the first input, which still reaches the buttons
under it: nothing waits for it. The project has no reduced-motion setting; the animation speed
"instant" (no card flies) is the one that asks for no motion, and it shows no celebration.
While it runs the result screen asks for a frame every `FRAME` seconds; afterwards it asks
for none, so the loop rests as before.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import pygame

from game.engine import PlayerView, Status
from game.engine.scoring import team_of

DURATION: Final = 2.6
"""Seconds the celebration lasts."""
FRAME: Final = 1 / 40
"""Seconds between its frames (smooth enough for falling paper, and half the display's rate)."""
PIECES: Final = 140
COLOURS: Final = ((240, 208, 96), (255, 120, 110), (120, 200, 255), (150, 230, 140), (220, 150, 255),
                  (255, 255, 255), (255, 180, 80))
GRAVITY: Final = 0.55  # in window heights per second², before air slows the paper


def won_here(view: PlayerView, local_people: Sequence[int], speed: float) -> bool:
    """Whether the match shown by ``view`` is over and really won by a person at this device
    (``local_people``: the seats of the people playing here), with motion allowed (``speed`` > 0).

    A real win is one side's: the winners are one seat, or partners in pair play. A tie is no
    win, even one a person here shares: no winners at all (a tie for the lowest hand), or winners
    from two sides (which the rules never give, but a server could say)."""
    winners = view.winners
    if speed <= 0 or view.status != Status.MATCH_OVER or not winners:
        return False
    if set(winners) != set(team_of(winners[0], view.players, view.rules.pairs)):
        return False  # shared between sides: a tie
    return any(s in winners for s in local_people)


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of confetti (or a card, ``card``): where it starts, in window fractions, how it
    drifts, spins and how big it is (in fractions of the window's height)."""

    x: float
    delay: float
    drift: float
    fall: float
    spin: float
    phase: float
    size: float
    colour: tuple[int, int, int]
    card: bool


class Celebration:
    """The confetti of one won match, for a window of ``size``; ``seed`` makes it repeatable."""

    def __init__(self, size: tuple[int, int], seed: int = 0) -> None:
        self.size = size
        self.elapsed = 0.0
        self.stopped = False
        self.drawn = 0  # pieces drawn by the last `draw` (for tests)
        rng = random.Random(seed)
        self.pieces = [Piece(x=rng.random(), delay=rng.random() * 0.9, drift=rng.uniform(-0.08, 0.08),
                             fall=rng.uniform(0.25, 0.5), spin=rng.uniform(3.0, 9.0),
                             phase=rng.random() * 6.3, size=rng.uniform(0.012, 0.022),
                             colour=rng.choice(COLOURS), card=i % 20 == 0)
                       for i in range(PIECES)]

    @property
    def running(self) -> bool:
        """Whether it is still to be drawn."""
        return not self.stopped and self.elapsed < DURATION

    def update(self, dt: float) -> None:
        """Time goes by."""
        self.elapsed += dt

    def stop(self) -> None:
        """Any input ends it at once."""
        self.stopped = True

    def draw(self, surface: pygame.Surface) -> None:
        """The pieces where they are now, shrinking away over the last half second."""
        self.drawn = 0
        if not self.running:
            return
        w, h = surface.get_size()
        fade = min(1.0, (DURATION - self.elapsed) / 0.5)
        for piece in self.pieces:
            t = self.elapsed - piece.delay
            if t <= 0:
                continue
            y = (-0.05 + piece.fall * t + GRAVITY * 0.25 * t * t) * h
            if y > h + 40:
                continue
            x = (piece.x + piece.drift * t) * w + math.sin(piece.phase + t * 2.5) * 0.02 * w
            angle = piece.phase + piece.spin * t
            side = max(3.0, piece.size * h * fade)
            if piece.card:
                self._card(surface, x, y, side * 2.2, angle, red=piece.colour[0] > 200)
            else:
                self._paper(surface, x, y, side, angle, piece.colour)
            self.drawn += 1

    @staticmethod
    def _paper(surface: pygame.Surface, x: float, y: float, side: float, angle: float,
               colour: tuple[int, int, int]) -> None:
        """A paper rectangle turning in the air: its width follows the turn (seen edge-on, thin)."""
        half_w = side * 0.5 * max(0.15, abs(math.cos(angle)))
        half_h = side * 0.3
        c, s = math.cos(angle * 0.4), math.sin(angle * 0.4)
        corners = [(x + dx * c - dy * s, y + dx * s + dy * c)
                   for dx, dy in ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h))]
        pygame.draw.polygon(surface, colour, corners)

    @staticmethod
    def _card(surface: pygame.Surface, x: float, y: float, height: float, angle: float, *, red: bool) -> None:
        """A small card turning as it falls: white face, gold edge, a red or black pip."""
        width = height / 1.4 * max(0.2, abs(math.cos(angle * 0.5)))
        rect = pygame.Rect(0, 0, int(width), int(height))
        rect.center = (int(x), int(y))
        radius = max(2, int(height * 0.08))
        pygame.draw.rect(surface, (250, 248, 240), rect, border_radius=radius)
        edge = max(1, int(height * 0.05))
        pygame.draw.rect(surface, (240, 208, 96), rect, width=edge, border_radius=radius)
        if rect.width > 6:
            colour = (200, 30, 40) if red else (20, 20, 20)
            pygame.draw.circle(surface, colour, rect.center, max(2, int(min(rect.width, rect.height) * 0.22)))
