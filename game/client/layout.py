"""Table geometry computed from the window size alone (no pygame surfaces here).

Everything on the table scales with the window: card size from the height, the
hand fanned at the bottom (overlapping, then in two rows when it grows past what
one row can show with a finger-sized strip of each card), the other seats on an
arc over the top, the piles in the middle, the action buttons beside the hand
(left of it for left-handed players). Works from 1024×600 to 3840×2160 and from
4:3 to 21:9.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Rect = tuple[int, int, int, int]  # x, y, w, h

MIN_TOUCH = 40  # px: about 9 mm on a 22-inch 1080p screen (0.248 mm per pixel)


@dataclass(frozen=True)
class SeatSpot:
    """Where another seat sits: its name anchor, its small fan of backs, and its angle."""

    center: tuple[int, int]
    fan: Rect
    angle: float


@dataclass(frozen=True)
class TableLayout:
    """Positions and sizes of everything on the table for one window size."""

    size: tuple[int, int]
    scale: float
    card: tuple[int, int]
    small_card: tuple[int, int]
    draw_pile: Rect
    discard: Rect
    suit_badge: Rect
    hand_area: Rect
    buttons: Rect
    button_size: tuple[int, int]
    info: Rect
    menu_button: Rect
    message: tuple[int, int]
    left_handed: bool

    def seat_spots(self, others: int) -> list[SeatSpot]:
        """Spots for ``others`` seats, in play order from the left of the shown seat to its right."""
        w, h = self.size
        sw, sh = self.small_card
        cx, top = w / 2, self.discard[1]
        rx, ry = w * 0.40, max(top - sh * 0.9, h * 0.18)
        cy = top + self.card[1] * 0.15
        spots = []
        for i in range(others):
            # From 200° (left, a little low) over the top (90°) to -20° (right).
            t = (i + 1) / (others + 1)
            angle = math.radians(200 - 220 * t)
            x = cx + rx * math.cos(angle)
            y = cy - ry * math.sin(angle)
            y = max(y, sh * 0.75 + 8)
            fan_w = int(sw * 2.2)
            fan = (int(x - fan_w / 2), int(y - sh / 2), fan_w, sh)
            spots.append(SeatSpot((int(x), int(y + sh * 0.5 + 18 * self.scale)), fan, angle))
        return spots

    def hand_slots(self, count: int, lift: int = 0) -> list[Rect]:
        """Rects for ``count`` cards of the shown hand: one overlapped row, or two rows."""
        if count == 0:
            return []
        cw, ch = self.card
        ax, ay, aw, ah = self.hand_area
        min_step = max(MIN_TOUCH, int(cw * 0.4))
        rows = 1
        if count > 1 and (aw - cw) / (count - 1) < min_step:
            rows = 2
        per_row = math.ceil(count / rows)
        slots: list[Rect] = []
        for row in range(rows):
            n = min(per_row, count - row * per_row)
            step = min(int(cw * 0.92), (aw - cw) // max(1, n - 1)) if n > 1 else 0
            width = cw + step * (n - 1)
            x0 = ax + (aw - width) // 2
            # Two rows: the back row sits higher and is partly covered by the front row.
            y = ay + ah - ch - (int(ch * 0.45) * (rows - 1 - row))
            for i in range(n):
                slots.append((x0 + i * step, y, cw, ch))
        return slots


def compute(size: tuple[int, int], *, left_handed: bool = False) -> TableLayout:
    """The table layout for a window of ``size``."""
    w, h = size
    scale = max(0.7, min(w / 1280, h / 800, 3.0))
    ch = int(min(h * 0.2, w * 0.16))
    cw = int(ch / 1.4)
    sch = int(ch * 0.55)
    scw = int(sch / 1.4)
    margin = int(12 * scale)
    mid_y = int(h * 0.40)
    gap = int(cw * 0.35)
    draw_pile = (w // 2 - cw - gap, mid_y, cw, ch)
    discard = (w // 2 + gap, mid_y, cw, ch)
    badge = int(ch * 0.42)
    suit_badge = (discard[0] + cw + gap, mid_y + (ch - badge) // 2, badge, badge)
    bw = max(int(150 * scale), MIN_TOUCH * 3)
    bh = max(int(48 * scale), MIN_TOUCH)
    button_col = bw + 2 * margin
    hand_h = int(ch * 1.6)
    hand_y = h - hand_h - margin
    if left_handed:
        hand_area = (button_col, hand_y, w - button_col - margin, hand_h)
        buttons = (margin, hand_y - bh, bw, hand_h + bh)
    else:
        hand_area = (margin, hand_y, w - button_col - margin, hand_h)
        buttons = (w - bw - margin, hand_y - bh, bw, hand_h + bh)
    info = (margin, margin, int(w * 0.26), int(h * 0.3))
    menu_w = max(int(110 * scale), MIN_TOUCH * 2)
    menu_button = (w - menu_w - margin, margin, menu_w, bh)
    message = (w // 2, mid_y + ch + int(30 * scale))
    return TableLayout(
        size=size, scale=scale, card=(cw, ch), small_card=(scw, sch), draw_pile=draw_pile,
        discard=discard, suit_badge=suit_badge, hand_area=hand_area, buttons=buttons,
        button_size=(bw, bh), info=info, menu_button=menu_button, message=message,
        left_handed=left_handed,
    )
