"""The order the shown hand is laid out in: sorted by suit, by rank, or as dealt, and moved by hand.

`ShownHand` is what the table keeps. The engine's hand is never touched: this is a
presentation of the seat's view, kept by the table, one order per seat (at a same-device
table each person arranges their own cards).
The sort is a setting (`Settings.hand_sort`, one of `HAND_SORTS`), chosen from the table's
small "Sort" control, the S key, or Settings; it is remembered for the next games.

A card moved by dragging it (`HandDrag`) keeps its place: the moved order stays until the
next sort choice. Cards that leave the hand (played) close the gap; a card that arrives
(drawn) goes where the sort puts it among the others (as dealt: at the end), so a player's
arrangement is never thrown away by a draw; a new deal (no card in common) is laid out by
the sort. A saved game comes back sorted by the setting (the moved order is not saved).

`HandDrag` tells a tap from a drag: a press that moves less than `DRAG_THRESHOLD` pixels
(scaled with the table) before it is released is a tap, which plays the card as before; past
it, the card follows the pointer and its release reorders the hand. Released over the
discard pile, a dragged card is played if that play is legal (a drag to the pile is the
same wish as a tap); anywhere else off the hand it goes back to its place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import pygame

from game.engine import Card
from game.engine.cards import COLOR_RANKS, COLOR_SUITS, STANDARD_RANKS, STANDARD_SUITS

from .layout import Rect, TableLayout
from .settings import HAND_SORTS

DRAG_THRESHOLD: Final = 12
"""Pixels (at scale 1) a press must travel before it is a drag rather than a tap."""

_SUITS: Final = {s: i for i, s in enumerate(STANDARD_SUITS + COLOR_SUITS)}
_RANKS: Final = {r: i for i, r in enumerate(STANDARD_RANKS)} | {r: i for i, r in enumerate(COLOR_RANKS)}
_WILD_RANK: Final = 100  # jokers and colour wilds (no suit) after every other card


def _suit_index(card: Card) -> int:
    return _SUITS.get(card.suit, len(_SUITS)) if card.suit is not None else len(_SUITS)


def _rank_index(card: Card) -> int:
    return _RANKS.get(card.rank, _WILD_RANK) if card.suit is not None else _WILD_RANK + len(card.code)


def sort_key(card: Card, sort: str) -> tuple[int, int]:
    """Where ``card`` goes under ``sort`` (``suit``: suit then rank; ``rank``: rank then suit;
    jokers and colour wilds last either way). ``dealt`` has no key: it keeps the engine's order."""
    if sort == "rank":
        return (_rank_index(card), _suit_index(card))
    return (_suit_index(card), _rank_index(card))


def sorted_hand(hand: Sequence[Card], sort: str) -> tuple[Card, ...]:
    """``hand`` laid out by ``sort`` (stable: equal cards of a double deck keep their order)."""
    if sort not in ("suit", "rank"):
        return tuple(hand)
    return tuple(sorted(hand, key=lambda c: sort_key(c, sort)))


def next_sort(sort: str) -> str:
    """The sort after ``sort`` in `HAND_SORTS` (what the table's control and the S key step to)."""
    index = HAND_SORTS.index(sort) if sort in HAND_SORTS else -1
    return HAND_SORTS[(index + 1) % len(HAND_SORTS)]


class HandOrder:
    """The shown order of each seat's hand under one sort, and the orders players moved."""

    def __init__(self, sort: str) -> None:
        self.sort = sort if sort in HAND_SORTS else "dealt"
        self._moved: dict[int, tuple[Card, ...]] = {}

    def set_sort(self, sort: str) -> None:
        """A sort chosen: every moved order gives way to it."""
        self.sort = sort if sort in HAND_SORTS else "dealt"
        self._moved.clear()

    def shown(self, seat: int, hand: Sequence[Card]) -> tuple[Card, ...]:
        """The order ``seat``'s ``hand`` (the engine's order) is shown in."""
        moved = self._moved.get(seat)
        if moved is None:
            return sorted_hand(hand, self.sort)
        left = Counter(hand)
        kept: list[Card] = []
        for card in moved:
            if left[card] > 0:
                left[card] -= 1
                kept.append(card)
        if not kept:  # a new deal: nothing of the arrangement is left
            del self._moved[seat]
            return sorted_hand(hand, self.sort)
        for card in hand:  # the cards that arrived since, in the order they came
            if left[card] > 0:
                left[card] -= 1
                kept.insert(self._place(kept, card), card)
        out = tuple(kept)
        self._moved[seat] = out
        return out

    def _place(self, cards: list[Card], card: Card) -> int:
        """Where a card that arrives goes among ``cards``: before the first that sorts after it;
        as dealt, at the end."""
        if self.sort not in ("suit", "rank"):
            return len(cards)
        key = sort_key(card, self.sort)
        return next((i for i, c in enumerate(cards) if sort_key(c, self.sort) > key), len(cards))

    def move(self, seat: int, hand: Sequence[Card], source: int, target: int) -> None:
        """Move the card shown at ``source`` to ``target`` (indices in the shown order)."""
        shown = list(self.shown(seat, hand))
        if not 0 <= source < len(shown):
            return
        card = shown.pop(source)
        shown.insert(max(0, min(target, len(shown))), card)
        self._moved[seat] = tuple(shown)

    def moved(self, seat: int) -> bool:
        """Whether ``seat``'s order was moved by hand since the last sort choice."""
        return seat in self._moved


def drop_index(x: int, slots: Sequence[Rect]) -> int:
    """The shown index a card dropped at ``x`` takes: the slot whose middle is nearest."""
    if not slots:
        return 0
    return min(range(len(slots)), key=lambda i: abs(slots[i][0] + slots[i][2] // 2 - x))


@dataclass
class HandDrag:
    """A press on a card of the hand, and where the pointer went since."""

    index: int  # the card's shown index when pressed
    card: Card
    start: tuple[int, int]
    grab: tuple[int, int]  # the pointer's offset in the card, so the card does not jump
    pos: tuple[int, int] = (0, 0)
    dragging: bool = False
    threshold: int = DRAG_THRESHOLD
    trail: list[tuple[int, int]] = field(default_factory=list)

    def motion(self, pos: tuple[int, int]) -> bool:
        """The pointer moved to ``pos``; True once this press is a drag."""
        self.pos = pos
        if not self.dragging:
            dx, dy = pos[0] - self.start[0], pos[1] - self.start[1]
            self.dragging = dx * dx + dy * dy > self.threshold * self.threshold
        return self.dragging

    def rect(self, size: tuple[int, int]) -> Rect:
        """Where the dragged card is drawn: under the pointer, held where it was grabbed."""
        return (self.pos[0] - self.grab[0], self.pos[1] - self.grab[1], size[0], size[1])


class ShownHand:
    """The shown seat's hand as the table lays it out: each seat's order under the sort, and a
    press or drag in progress. The table asks it for the cards in drawing order (`lay_out`) and
    hands it the pointer's press, moves and release; what a release means (a play, a move) it
    says as a `Drop`, which the table carries out."""

    def __init__(self, sort: str) -> None:
        self.order = HandOrder(sort)
        self.drag: HandDrag | None = None  # a press on a card of the hand, maybe a drag
        self.cards: tuple[Card, ...] = ()  # the hand in drawing order (with a drag's preview)
        self.drag_at: int | None = None  # where the dragged card is in `cards`

    @property
    def dragging(self) -> HandDrag | None:
        """The drag in progress, once the press moved past its threshold."""
        return self.drag if self.drag is not None and self.drag.dragging else None

    def lay_out(self, seat: int, hand: Sequence[Card], arriving: int,
                layout: TableLayout) -> tuple[Card, ...]:
        """``seat``'s ``hand`` (the engine's order; its last ``arriving`` cards still flying in) in
        the order it is drawn: the seat's order, the cards flying in at the end (where they land),
        and a card being dragged where it would drop."""
        held = tuple(hand[: len(hand) - arriving])
        shown = self.order.shown(seat, held) + tuple(hand[len(held):])
        drag = self.dragging
        self.drag_at = None
        if drag is None or drag.index >= len(shown) or shown[drag.index] != drag.card:
            self.cards = shown
            return shown
        preview = list(shown)
        card = preview.pop(drag.index)
        middle = drag.rect(layout.card)[0] + layout.card[0] // 2
        self.drag_at = drop_index(middle, layout.hand_slots(len(shown)))
        preview.insert(self.drag_at, card)
        self.cards = tuple(preview)
        return self.cards

    def press(self, pos: tuple[int, int], rects: Sequence[pygame.Rect], scale: float) -> bool:
        """A press at ``pos``: on a card (``rects``, in drawing order, the top one last), the start
        of a tap or of a drag."""
        self.drag = None
        for i in range(min(len(rects), len(self.cards)) - 1, -1, -1):
            rect = rects[i]
            if rect.collidepoint(pos):
                self.drag = HandDrag(i, self.cards[i], pos, (pos[0] - rect.x, pos[1] - rect.y), pos,
                                     threshold=max(6, int(DRAG_THRESHOLD * scale)))
                return True
        return False

    def release(self, pos: tuple[int, int]) -> HandDrag | None:
        """The pointer let go at ``pos``: the drag it ends, or None (no press, or a tap)."""
        drag, self.drag = self.drag, None
        return drag if drag is not None and drag.motion(pos) else None


@dataclass(frozen=True)
class Drop:
    """What a dragged card let go means: play the card shown at ``index`` (on the discard pile),
    or move it to ``target`` (over the hand)."""

    index: int
    target: int | None  # None: play it


def drop_of(drag: HandDrag, shown: Sequence[Card], held: int, layout: TableLayout) -> Drop | None:
    """What letting ``drag`` go means, ``shown`` being the hand without the preview (its first
    ``held`` cards in hand, the rest still flying in): None when the card left the hand meanwhile
    or was let go elsewhere (it goes back)."""
    near = sorted((abs(i - drag.index), i) for i, c in enumerate(shown) if c == drag.card)
    if not near:
        return None
    source = near[0][1]
    x, y, w, h = drag.rect(layout.card)

    def over(box: Rect) -> bool:
        return x < box[0] + box[2] and box[0] < x + w and y < box[1] + box[3] and box[1] < y + h

    if over(layout.discard):
        return Drop(source, None)
    if over(layout.hand_area) and source < held:
        return Drop(source, drop_index(x + w // 2, layout.hand_slots(len(shown))))
    return None


def sort_button_rect(layout: TableLayout) -> Rect:
    """The small Sort control: beside the shown seat's name plate, just above the hand, on the
    side away from the action buttons (`TableLayout.sort_button`, clear of everything else)."""
    return layout.sort_button
