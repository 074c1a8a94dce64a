"""Table geometry computed from the window size alone (no pygame surfaces here).

Everything on the table scales with the window: card size from the height, the
hand fanned at the bottom (overlapping, then in two rows when it grows past what
one row can show with a finger-sized strip of each card), the action buttons beside
the hand (left of it for left-handed players), the game's information top left,
the move log top right under the Menu button (the autopilot toggle beside Menu), and
the other seats round the top:
a column on the left (going up), a row along the top, a column on the right (going
down), in the order of play. Each seat shows its avatar beside its name and card
count; the shown seat has the same (`TableLayout.me`) just above the hand, on the side
away from the buttons. The piles sit in the middle of the space left, inside
the ring that shows the direction of play, with the message line under them. Works
from 1024×600 to 3840×2160 and from 4:3 to 21:9.

Every text the table draws has its box here (a seat's name and card count, the
pile's count, the message, the timer, the information block, the move log), and
no two boxes that hold different things overlap: `TableLayout.regions` lists them
for the tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Rect = tuple[int, int, int, int]  # x, y, w, h
Point = tuple[float, float]

MIN_TOUCH = 40  # px: about 9 mm on a 22-inch 1080p screen (0.248 mm per pixel)
LOG_LINES = 3  # moves the table shows in its move log
INFO_OPTION_LINES = 3  # lines the rules in force may take in the information block

# How many of the other seats sit in the left column, along the top and in the right column.
SEAT_SPLIT: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 0), 1: (0, 1, 0), 2: (0, 2, 0), 3: (1, 1, 1), 4: (1, 2, 1), 5: (2, 1, 2), 6: (2, 2, 2),
}


def line_height(px: int) -> int:
    """The height a line of text at ``px`` needs (DejaVu's line spacing, rounded up)."""
    return math.ceil(px * 1.25)


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether two rectangles share any pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def union(*rects: Rect) -> Rect:
    """The smallest rectangle holding all of ``rects``."""
    left = min(r[0] for r in rects)
    top = min(r[1] for r in rects)
    right = max(r[0] + r[2] for r in rects)
    bottom = max(r[1] + r[3] for r in rects)
    return (left, top, right - left, bottom - top)


@dataclass(frozen=True)
class SeatSpot:
    """Where a seat sits: its whole box (the turn glow is drawn on its edge), its fan of backs
    (empty for the shown seat, whose hand is below), its avatar, and the boxes of its name line
    and its card-count line, beside the avatar."""

    box: Rect
    fan: Rect
    label: Rect
    count: Rect
    avatar: Rect

    @property
    def center(self) -> tuple[int, int]:
        """The middle of the seat's box (where it sits on the screen)."""
        x, y, w, h = self.box
        return (x + w // 2, y + h // 2)


@dataclass(frozen=True)
class Arrow:
    """One arc of the direction ring: its parametric angles on the ring's ellipse (radians,
    counter-clockwise from the right as seen on the screen) and the arrowhead at the end play
    moves towards."""

    start: float
    stop: float
    tip: Point  # the point of the arrowhead
    heading: Point  # unit vector (screen coordinates, y down) the arrowhead points along
    wings: tuple[Point, Point]


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
    autopilot_button: Rect  # the autopilot toggle, left of Menu
    left_handed: bool
    pile_label: Rect  # "79 left", under the draw pile
    pending: Rect  # "+4", under the suit badge
    ring: Rect  # the ellipse of the direction ring (it holds the piles and their labels)
    message_box: Rect  # whose turn it is, or a refusal (two lines at most)
    timer_box: Rect  # the turn timer, under the message
    log: Rect  # the last moves, under the Menu button
    text_px: int  # seat names, the pile's count, the information block
    small_px: int  # card counts, the rules in force, the move log
    message_px: int
    seat_box: tuple[int, int]  # width and height of a seat's box
    seat_columns: tuple[Rect, Rect, Rect]  # where the left column, the top row and the right column may go
    me: SeatSpot  # the shown seat's avatar, name and card count, above the hand
    sort_button: Rect  # the hand's Sort control, beside the shown seat's name plate
    reactions_button: Rect  # online, the reactions button (☺), beyond the Sort control

    @property
    def avatar_px(self) -> int:
        """The size of a seat's avatar: as high as its name and card-count lines together."""
        return line_height(self.text_px) + line_height(self.small_px)

    def seat_spots(self, others: int) -> list[SeatSpot]:
        """Spots for ``others`` seats, in play order from the left of the shown seat to its right:
        up the left column, along the top row, down the right column."""
        left, top, right = SEAT_SPLIT.get(others, _split(others))
        bw, bh = self.seat_box
        lcol, trow, rcol = self.seat_columns
        spots = [self._spot(lcol[0], y) for y in reversed(self._spread_y(lcol, left))]
        spots += [self._spot(x, trow[1]) for x in self._spread_x(trow, top)]
        spots += [self._spot(rcol[0] + rcol[2] - bw, y) for y in self._spread_y(rcol, right)]
        return spots

    def _spread_y(self, column: Rect, n: int) -> list[int]:
        """Tops of ``n`` boxes down ``column``: one sits level with the piles, more share the height."""
        if n == 0:
            return []
        bh = self.seat_box[1]
        _, y, _, h = column
        if n == 1:
            middle = self.draw_pile[1] + self.card[1] // 2
            return [max(y, min(y + h - bh, middle - bh // 2))]
        step = (h - bh) / (n - 1) if n > 1 else 0
        return [int(y + i * step) for i in range(n)]

    def _spread_x(self, row: Rect, n: int) -> list[int]:
        """Lefts of ``n`` boxes along ``row``, each centred in an equal share of it."""
        bw = self.seat_box[0]
        x, _, w, _ = row
        return [int(x + (i + 0.5) * w / n - bw / 2) for i in range(n)]

    def _spot(self, x: int, y: int) -> SeatSpot:
        bw, bh = self.seat_box
        sw, sh = self.small_card
        pad = max(3, int(6 * self.scale))
        fan_w = int(sw * 2.2)
        fan = (x + (bw - fan_w) // 2, y + pad, fan_w, sh)
        label_top = y + pad + sh + max(2, int(4 * self.scale))
        return _spot_lines((x, y, bw, bh), fan, label_top, pad, self.text_px, self.small_px)

    def direction_arrows(self, direction: int) -> list[Arrow]:
        """The two arcs of the direction ring, their arrowheads pointing the way play goes.

        The seats are laid out clockwise in the order of play (seat + 1 sits on the shown
        seat's left), so ``direction`` 1 turns clockwise on the screen, -1 counter-clockwise.
        """
        rx, ry, rw, rh = self.ring
        a, b = rw / 2, rh / 2
        cx, cy = rx + a, ry + b
        gap = 0.45  # radians left open on each side, level with the piles' middle
        size = max(7.0, 11 * self.scale)
        arrows = []
        for start in (gap, math.pi + gap):
            stop = start + math.pi - 2 * gap
            # Clockwise on the screen is clockwise in pygame's angles too (they count
            # counter-clockwise as drawn): it ends at the smaller angle.
            end = start if direction == 1 else stop
            tip_x, tip_y = cx + a * math.cos(end), cy - b * math.sin(end)
            # d/dθ of (a cos θ, -b sin θ) is (-a sin θ, -b cos θ): the counter-clockwise way.
            dx, dy = -a * math.sin(end), -b * math.cos(end)
            if direction == 1:
                dx, dy = -dx, -dy
            norm = math.hypot(dx, dy) or 1.0
            ux, uy = dx / norm, dy / norm
            tip = (tip_x + ux * size * 1.2, tip_y + uy * size * 1.2)
            back = (tip[0] - ux * size * 2.2, tip[1] - uy * size * 2.2)
            wings = ((back[0] - uy * size, back[1] + ux * size), (back[0] + uy * size, back[1] - ux * size))
            arrows.append(Arrow(start, stop, tip, (ux, uy), wings))
        return arrows

    def arc_points(self, arrow: Arrow, steps: int = 48) -> list[Point]:
        """Points along one arc of the ring, from its start angle to its stop angle (as drawn)."""
        rx, ry, rw, rh = self.ring
        a, b = rw / 2, rh / 2
        cx, cy = rx + a, ry + b
        return [(cx + a * math.cos(t), cy - b * math.sin(t))
                for t in (arrow.start + (arrow.stop - arrow.start) * i / steps for i in range(steps + 1))]

    def ring_points(self, direction: int = 1) -> list[Point]:
        """Points along the drawn arcs and arrowheads of the ring (for checking what it crosses)."""
        points: list[Point] = []
        for arrow in self.direction_arrows(direction):
            points += self.arc_points(arrow)
            points += [arrow.tip, *arrow.wings]
        return points

    def regions(self, others: int) -> dict[str, Rect]:
        """Every box of the table that holds its own thing, by name: no two may overlap."""
        out: dict[str, Rect] = {
            "info": self.info, "log": self.log, "menu": self.menu_button, "autopilot": self.autopilot_button,
            "hand": self.hand_area,
            "buttons": self.buttons, "ring": self.ring, "message": self.message_box, "timer": self.timer_box,
        }
        for i, spot in enumerate(self.seat_spots(others)):
            out[f"seat{i + 1}"] = spot.box
        out["me"] = self.me.box
        out["sort"] = self.sort_button
        out["reactions"] = self.reactions_button
        return out

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


def _spot_lines(box: Rect, fan: Rect, top: int, pad: int, text_px: int, small_px: int) -> SeatSpot:
    """A seat's spot whose avatar, then its name and card-count lines, start at ``top``."""
    x, _, bw, _ = box
    side = line_height(text_px) + line_height(small_px)
    text_x = x + pad + side + pad
    label = (text_x, top, x + bw - pad - text_x, line_height(text_px))
    count = (text_x, top + label[3], label[2], line_height(small_px))
    return SeatSpot(box, fan, label, count, (x + pad, top, side, side))


def _split(others: int) -> tuple[int, int, int]:
    """More than six other seats (no rules seat them yet): share them out as evenly as possible."""
    side = others // 3
    return (side, others - 2 * side, side)


def _enclosing_ellipse(rects: list[Rect], centre: Point, b: float, half_width: float) -> Rect:
    """The ellipse (as its bounding rect) centred on ``centre`` that holds every corner of
    ``rects``: ``b`` high (half), made taller until it is no wider than ``half_width`` (half)."""
    cx, cy = centre
    corners = [(abs(px - cx), abs(py - cy)) for x, y, w, h in rects
               for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    while True:
        a = max(dx / math.sqrt(1 - (dy / b) ** 2) for dx, dy in corners) * 1.04
        if a <= half_width or b > 4 * max(dy for _, dy in corners):
            return (int(cx - a), int(cy - b), int(2 * a), int(2 * b))
        b += 2


def compute(size: tuple[int, int], *, left_handed: bool = False) -> TableLayout:
    """The table layout for a window of ``size``."""
    w, h = size
    scale = max(0.7, min(w / 1280, h / 800, 3.0))
    ch = int(min(h * 0.2, w * 0.16))
    cw = int(ch / 1.4)
    sch = int(ch * 0.55)
    scw = int(sch / 1.4)
    margin = int(12 * scale)
    gap_y = max(4, int(8 * scale))
    text_px = max(13, int(16 * scale))
    small_px = max(11, int(text_px * 0.85))
    message_px = max(16, int(22 * scale))

    # The buttons and the hand along the bottom.
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

    # The corners: the game's information top left; Menu and the move log top right.
    side_w = int(w * 0.28)
    info_h = (line_height(int(text_px * 1.3)) + INFO_OPTION_LINES * line_height(small_px)
              + line_height(text_px) + gap_y)
    info = (margin, margin, side_w, info_h)
    menu_w = max(int(110 * scale), MIN_TOUCH * 2)
    menu_button = (w - menu_w - margin, margin, menu_w, bh)
    log = (w - side_w - margin, margin + bh + gap_y // 2, side_w, LOG_LINES * line_height(small_px))
    auto_w = min(max(int(240 * scale), MIN_TOUCH * 3), menu_button[0] - gap_y - log[0])
    autopilot_button = (menu_button[0] - gap_y - auto_w, margin, auto_w, bh)

    # The seats' boxes, and where their columns and row may go.
    pad = max(3, int(6 * scale))
    avatar = line_height(text_px) + line_height(small_px)  # beside the name and card-count lines
    seat_w = max(int(scw * 2.2) + 2 * pad, int(210 * scale)) + avatar + pad
    seat_h = pad + sch + max(2, int(4 * scale)) + line_height(text_px) + line_height(small_px) + pad
    lowest = buttons[1] - gap_y  # the columns stop above the buttons (and the hand)
    left_top = info[1] + info[3] + gap_y
    right_top = log[1] + log[3] + gap_y
    left_col = (margin, left_top, seat_w, lowest - left_top)
    right_col = (w - margin - seat_w, right_top, seat_w, lowest - right_top)
    row_left = max(info[0] + info[2], margin + seat_w) + gap_y
    row_right = min(log[0], w - margin - seat_w) - gap_y
    half = min(w / 2 - row_left, row_right - w / 2)
    top_row = (int(w / 2 - half), margin, int(2 * half), seat_h)

    # The middle: the piles and their labels inside the ring, then the message and the timer,
    # centred in the height between the top row and the hand, clear of the side columns.
    gap = int(cw * 0.35)
    badge = int(ch * 0.42)
    label_h = line_height(text_px)
    pad_y = max(6, int(ch * 0.12))
    message_h = 2 * line_height(message_px)
    timer_h = line_height(int(message_px * 1.2))
    block_top = margin + seat_h + gap_y
    block_bottom = hand_y - gap_y
    half_width = min(w / 2 - (left_col[0] + seat_w), right_col[0] - w / 2) - gap_y
    pile_y = 0
    for _ in range(2):  # place, measure the ring, and centre the whole middle in the height left
        draw_pile = (w // 2 - cw - gap, pile_y, cw, ch)
        discard = (w // 2 + gap, pile_y, cw, ch)
        suit_badge = (discard[0] + cw + gap // 3, pile_y + (ch - badge) // 2 - label_h // 2, badge, badge)
        pile_label = (draw_pile[0] - gap // 2, pile_y + ch + 4, cw + gap, label_h)
        pending = (suit_badge[0] - badge // 5, suit_badge[1] + badge + 2, badge + 2 * (badge // 5), label_h)
        centre = (w / 2, pile_y + (ch + 4 + label_h) / 2)
        ring = _enclosing_ellipse([draw_pile, discard, suit_badge, pile_label, pending], centre,
                                  (ch + 4 + label_h) / 2 + pad_y, half_width)
        used = ring[3] + gap_y + message_h + timer_h
        ring_top = block_top + max(0, (block_bottom - block_top - used) // 2)
        pile_y += ring_top - ring[1]
    message_w = int(2 * half_width)
    message_box = (w // 2 - message_w // 2, ring[1] + ring[3] + gap_y, message_w, message_h)
    # The timer says "20 s": a narrow box, which leaves the corners under the message to the Sort
    # control and the reactions button beside the name plate.
    timer_box = (w // 2 - message_w // 8, message_box[1] + message_h, message_w // 4, timer_h)
    # The shown seat, like the others but without a fan: just above the hand, away from the buttons
    # (the side columns stop a button's height above the hand).
    me_h = min(bh, avatar + 2 * pad)
    me_x = w - margin - seat_w if left_handed else margin
    me_box = (me_x, hand_y - me_h, seat_w, me_h)
    me = _spot_lines(me_box, (me_x, hand_y - me_h, 0, 0), hand_y - me_h + (me_h - avatar) // 2, pad,
                     text_px, small_px)
    # Beside the name plate, on the side away from the buttons: the Sort control, then (online)
    # the reactions button, a square, beyond it; both stand on the hand's top edge.
    side_gap = max(4, int(8 * scale))
    sort_h, sort_w = max(MIN_TOUCH, me_h), max(MIN_TOUCH * 3, int(190 * scale))
    sort_x = me_x - side_gap - sort_w if left_handed else me_x + seat_w + side_gap
    sort_button = (sort_x, hand_y - sort_h, sort_w, sort_h)
    react_x = sort_x - side_gap - bh if left_handed else sort_x + sort_w + side_gap
    reactions_button = (react_x, hand_y - bh, bh, bh)

    return TableLayout(
        size=size, scale=scale, card=(cw, ch), small_card=(scw, sch), draw_pile=draw_pile,
        discard=discard, suit_badge=suit_badge, hand_area=hand_area, buttons=buttons,
        button_size=(bw, bh), info=info, menu_button=menu_button, autopilot_button=autopilot_button,
        left_handed=left_handed,
        pile_label=pile_label, pending=pending, ring=ring, message_box=message_box,
        timer_box=timer_box, log=log, text_px=text_px, small_px=small_px, message_px=message_px,
        seat_box=(seat_w, seat_h), seat_columns=(left_col, top_row, right_col), me=me,
        sort_button=sort_button, reactions_button=reactions_button,
    )
