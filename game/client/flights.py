"""Card flights: what the engine's events look like on the table.

A card played flies from where it was tapped (or from its seat) to the discard pile; cards
drawn or dealt fly from the pile to the seat one after another; a reshuffle sends a few cards
from the discards back to the pile. Each flight may carry a sound played as it lands, so a
quick deal is not a burst of noise (one deal sound for every three cards). At speed 0
(instant) nothing flies and only the sounds are heard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.engine import Card, DrawReason, PlayerView
from game.engine import events as ev

from .animation import Animator, Flight, Rect

if TYPE_CHECKING:
    import pygame

    from .layout import TableLayout
    from .sound import SoundBoard

FLIGHT: Final = 0.32  # seconds a card takes to cross the table at normal speed
DEAL_GAP: Final = 0.05  # between two cards of a deal
DRAW_GAP: Final = 0.08  # between two cards drawn (slower than a deal: each one counts)
SHUFFLE_GAP: Final = 0.05
SHUFFLE_SHOWN: Final = 6  # cards shown going back to the pile, however many do


def seat_rect(layout: TableLayout, view: PlayerView, seat: int) -> Rect:
    """Where a card leaves from or lands at ``seat``: the end of the shown hand, or the middle
    of another seat's fan."""
    if seat == view.seat:
        return layout.hand_slots(max(1, len(view.hand)))[-1]
    others = [(view.seat + k) % view.players for k in range(1, view.players)]
    x, y, w, h = layout.seat_spots(len(others))[others.index(seat)].fan
    cw, ch = layout.card
    return (x + (w - cw) // 2, y + (h - ch) // 2, cw, ch)


def fly(events: list[ev.Event], *, animator: Animator, layout: TableLayout, view: PlayerView,
        speed: float, sound: SoundBoard, tapped: dict[Card, pygame.Rect]) -> None:
    """Add the flights (and sounds) that ``events`` call for; ``tapped`` holds where the cards
    just played were tapped (each is taken out as its flight starts there)."""
    for event in events:
        if isinstance(event, ev.CardPlayed):
            if speed <= 0:
                sound.play("play")
                continue
            at = tapped.pop(event.card, None)
            begin = seat_rect(layout, view, event.seat) if at is None else (at.x, at.y, at.w, at.h)
            animator.add(Flight(event.card, begin, layout.discard, FLIGHT / speed, dest=("discard",),
                                sound="play"))
        elif isinstance(event, ev.CardsDrawn):
            dealt = event.reason == DrawReason.DEAL
            name = "deal" if dealt else "draw"
            if speed <= 0:
                sound.play(name)
                continue
            end = seat_rect(layout, view, event.seat)
            gap = DEAL_GAP if dealt else DRAW_GAP
            for i in range(event.count):
                animator.add(Flight(None, layout.draw_pile, end, FLIGHT / speed, dest=("hand", event.seat),
                                    sound=name if i % 3 == 0 else None),
                             after=gap / speed if i or dealt else 0.0)
        elif isinstance(event, ev.Reshuffled):
            if speed <= 0:
                sound.play("shuffle")
                continue
            for i in range(min(SHUFFLE_SHOWN, event.count)):
                animator.add(Flight(None, layout.discard, layout.draw_pile, FLIGHT / speed, dest=("pile",),
                                    sound="shuffle" if i == 0 else None),
                             after=SHUFFLE_GAP / speed)
