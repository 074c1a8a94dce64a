"""Card flights: a card moving across the table, and the queue that plays them in turn.

The table draws from the latest view and hides the cards still in flight at their
destination, so a flight ends exactly where the view puts the card. The animator
blocks the controller while flights run, so every action is seen before the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine import Card

Rect = tuple[int, int, int, int]


def ease_out(t: float) -> float:
    """Cubic ease-out on 0..1."""
    t = min(max(t, 0.0), 1.0)
    return 1 - (1 - t) ** 3


@dataclass
class Flight:
    """One card moving from ``start`` to ``end`` after ``delay`` seconds, for ``duration``.

    ``card`` is None for a face-down card. ``dest`` says where the card lands, so the
    table can hide it there until it arrives: ``("discard",)``, ``("hand", seat)``,
    ``("pile",)``.
    """

    card: Card | None
    start: Rect
    end: Rect
    duration: float
    delay: float = 0.0
    dest: tuple[object, ...] = ("discard",)
    elapsed: float = 0.0
    sound: str | None = None
    sounded: bool = field(default=False)

    @property
    def started(self) -> bool:
        """Whether the card has left its start."""
        return self.elapsed >= self.delay

    @property
    def done(self) -> bool:
        """Whether the card has landed."""
        return self.elapsed >= self.delay + self.duration

    def rect(self) -> Rect:
        """Where the card is now."""
        t = 0.0 if self.duration <= 0 else (self.elapsed - self.delay) / self.duration
        k = ease_out(t)
        sx, sy, sw, sh = self.start
        ex, ey, ew, eh = self.end
        return (round(sx + (ex - sx) * k), round(sy + (ey - sy) * k),
                round(sw + (ew - sw) * k), round(sh + (eh - sh) * k))


class Animator:
    """The flights in progress; `busy` while any remains."""

    def __init__(self) -> None:
        self.flights: list[Flight] = []
        self.tail = 0.0  # when the last scheduled flight starts, relative to now

    @property
    def busy(self) -> bool:
        """Whether flights are still running (the controller waits)."""
        return bool(self.flights)

    def add(self, flight: Flight, *, after: float = 0.0) -> None:
        """Schedule ``flight`` ``after`` seconds after the previously scheduled one."""
        self.tail = max(0.0, self.tail) + after
        flight.delay += self.tail
        self.flights.append(flight)

    def update(self, dt: float) -> list[Flight]:
        """Advance every flight; return those that started this step (for their sounds)."""
        started = []
        for flight in self.flights:
            flight.elapsed += dt
            if flight.started and not flight.sounded:
                flight.sounded = True
                started.append(flight)
        self.flights = [f for f in self.flights if not f.done]
        self.tail = max(0.0, self.tail - dt)
        if not self.flights:
            self.tail = 0.0
        return started

    def clear(self) -> None:
        """Drop every flight (undo, resize, skipping animations)."""
        self.flights.clear()
        self.tail = 0.0

    def in_flight(self, dest: tuple[object, ...]) -> list[Flight]:
        """The flights heading for ``dest`` that have not landed."""
        return [f for f in self.flights if f.dest == dest]
