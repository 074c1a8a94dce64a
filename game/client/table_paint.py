"""Drawing the table from one seat's view: piles, hands, other seats, badges, buttons.

`TablePainter` reads only a `PlayerView` (plus names, levels and avatars of the seats
and what is in flight); it never sees the game state, so it cannot show a hidden card.
It records the faces it drew each frame (`faces_drawn`) so tests can check that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pygame

from game.engine import PlayerView, Rules
from game.engine.cards import SUIT_SYMBOLS
from game.engine.options import OPTION_BY_NAME
from game.engine.scoring import team_of

from . import ui
from .animation import Animator
from .art import CardArt, felt
from .avatar_art import avatar_image
from .competitive_art import ranked_words, swords_image
from .i18n import language, tr
from .intents import TableCommand
from .layout import INFO_OPTION_LINES, LOG_LINES, Arrow, SeatSpot, TableLayout, line_height
from .widgets import Button

SUIT_COLORS = {"S": (20, 20, 20), "H": (200, 30, 40), "D": (200, 30, 40), "C": (20, 20, 20),
               "R": (214, 48, 49), "B": (34, 102, 204), "G": (38, 150, 70), "Y": (230, 180, 20)}


CURSOR = (70, 215, 255)  # the keyboard cursor: cyan, never the gold of a playable card's glow
CURSOR_EDGE = (10, 30, 60)


class TablePainter:
    """Draws the table for one layout; art is scaled once per layout (window size).

    Every text goes in its layout box (`ui.fit`): a seat's name and count, the pile's
    count, the information block, the message, the timer, the move log.
    """

    def __init__(self, layout: TableLayout, *, four_color: bool = False) -> None:
        self.layout = layout
        self.art = CardArt(layout.card[0], four_color=four_color)
        self.small = CardArt(layout.small_card[0], four_color=four_color)
        self.background = felt(layout.size)  # already in the display's format; shared: never drawn on
        self.faces_drawn: list[object] = []
        self.arrows_drawn: list[Arrow] = []  # the direction ring's arrows this frame (for tests)
        self.avatars_drawn: list[tuple[int, pygame.Rect]] = []  # (seat, where) this frame (for tests)
        self.clock = 0.0
        self._rules_lines: dict[tuple[object, ...], str] = {}
        self.ranked: bool | None = None  # online: whether the room counts (the swords); None offline
        self.ranked_drawn: pygame.Rect | None = None  # where the swords went this frame (for tests)

    # ---- the whole table ---------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, view: PlayerView, *, names: list[str],
             levels: list[str | None], animator: Animator, hand_rects: list[pygame.Rect],
             playable: set[int], selected: int | None, buttons: Sequence[Button[Any]],
             message: str, thinking: int | None, timer: float | None, markers: bool,
             hide_hand: bool = False, moves: Sequence[str] = (), avatars: Sequence[int] = (),
             plate: bool = True, undo: bool = True, menu: bool = True) -> None:
        """Draw everything for ``view``; ``hide_hand`` shows the hand face down (hot-seat handoff);
        ``moves`` are the move log's last lines, oldest first; ``avatars`` one per seat (none: no
        avatars drawn); ``plate``: the shown seat's name plate above the hand; ``undo``: whether
        turns can be taken back here (else the rules in force do not list Undo); ``menu``: whether
        the Menu button is shown (not over a game only shown, a kiosk's attract game)."""
        self.faces_drawn = []
        self.arrows_drawn = []
        self.avatars_drawn = []
        surface.blit(self.background, (0, 0))
        self._info(surface, view, names, undo)
        self._others(surface, view, names, levels, animator, thinking, avatars)
        if plate:
            self._me(surface, view, names, animator, avatars)
        self._piles(surface, view, animator, markers)
        self._hand(surface, view, animator, hand_rects, playable, selected, markers, hide_hand)
        for button in buttons:
            button.draw(surface, self.layout.scale)
        if menu:
            self._menu_button(surface)
        self._log(surface, moves)
        self._message(surface, message, timer)

    # ---- parts -------------------------------------------------------------------------------
    def _ranked_mark(self, surface: pygame.Surface, box: pygame.Rect, px: int) -> bool:
        """Online, beside the title: the crossed swords and "Ranked", or "Friendly: not ranked".
        False when its words do not fit there whole (they go first on the rules' line; the swords
        stay beside the title when they fit)."""
        self.ranked_drawn = None
        words = ranked_words(self.ranked)
        if not words:
            return True
        side = int(box.h * 0.9) if self.ranked else 0
        if self.ranked and box.w >= side:
            self.ranked_drawn = pygame.Rect(box.x, box.centery - side // 2, side, side)
            surface.blit(swords_image(side), self.ranked_drawn)
            box = pygame.Rect(box.x + side + px // 3, box.y, box.w - side - px // 3, box.h)
        if ui.font(px, False).size(words)[0] > box.w:
            return False
        ui.fit(surface, words, box, px, align="left", color=ui.CREAM)
        return True

    def _info(self, surface: pygame.Surface, view: PlayerView, names: list[str], undo: bool = True) -> None:
        lay = self.layout
        x, y, w, _ = lay.info
        px, small = lay.text_px, lay.small_px
        title = tr(f"preset.{view.rules.name}")
        if view.round_number > 1 or view.target:
            title += "  ·  " + tr("table.round", n=view.round_number)
        title_h = line_height(int(px * 1.3))
        used = ui.fit(surface, title, (x, y, w, title_h), int(px * 1.3), bold=True, color=ui.GOLD,
                      align="left")
        beside = self._ranked_mark(surface, pygame.Rect(used.right + small // 2, y,
                                                        x + w - used.right - small // 2, title_h), small)
        y += title_h
        options_h = INFO_OPTION_LINES * line_height(small)
        first = [] if beside else [ranked_words(self.ranked)]  # no room beside the title: the rules' line
        key = (view.rules, language(), y, undo, *first)
        if key not in self._rules_lines:  # measured once per rules, language and layout
            shown = [*filter(None, first), *options_in_force(view.rules, undo=undo)]
            self._rules_lines[key] = rules_line(shown, pygame.Rect(x, y, w, options_h), small)
        on = self._rules_lines[key]
        if on:
            used = ui.fit(surface, on, (x, y, w, options_h), small, align="left", valign="top",
                          lines=INFO_OPTION_LINES, min_px=small)
            y = used.bottom + lay.small_px // 3
        if view.target:  # points only where they carry over: a Quick game shows none
            label = names[view.seat]
            if pooled(view):
                partner = team_of(view.seat, view.players, True)
                label = tr("table.pair", a=names[partner[0]], b=names[partner[1]])
            line = tr("fmt.pair", label=label, value=tr("table.points", n=view.standings[view.seat]))
            line += "  ·  " + tr("table.target", n=view.target)
            bottom = lay.info[1] + lay.info[3]
            ui.fit(surface, line, (x, y, w, min(line_height(px), bottom - y)), px, bold=True,
                   align="left")

    def _others(self, surface: pygame.Surface, view: PlayerView, names: list[str],
                levels: list[str | None], animator: Animator, thinking: int | None,
                avatars: Sequence[int]) -> None:
        lay = self.layout
        seats = [(view.seat + k) % view.players for k in range(1, view.players)]
        back = self.small.back()
        for seat, spot in zip(seats, lay.seat_spots(len(seats)), strict=True):
            count = view.hand_counts[seat] - len(animator.in_flight(("hand", seat)))
            fx, fy, fw, fh = spot.fan
            shown = min(count, 9)
            step = (fw - back.get_width()) / max(1, shown - 1) if shown > 1 else 0
            x0 = fx + (fw - (back.get_width() + step * (shown - 1))) / 2
            if view.to_act == seat:
                pulse = 0.5 + 0.5 * math.sin(self.clock * 6) if thinking == seat else 1.0
                self._turn_ring(surface, spot.box, pulse)
            for i in range(shown):
                surface.blit(back, (int(x0 + i * step), fy))
            level = levels[seat]
            label = names[seat] + (f" · {tr('level.' + level)}" if level else "")
            self._seat_lines(surface, spot, seat, label, count_line(view, seat, count), avatars,
                             turn=view.to_act == seat)

    def _me(self, surface: pygame.Surface, view: PlayerView, names: list[str], animator: Animator,
            avatars: Sequence[int]) -> None:
        """The shown seat's avatar, name and card count, as the other seats show theirs."""
        seat = view.seat
        count = len(view.hand) - len(animator.in_flight(("hand", seat)))
        spot = self.layout.me
        lay = self.layout
        plate = pygame.Surface(spot.box[2:], pygame.SRCALPHA)  # a name plate: not one more seat
        pygame.draw.rect(plate, (0, 0, 0, 60), plate.get_rect(), border_radius=int(14 * lay.scale))
        surface.blit(plate, spot.box[:2])
        if view.to_act == seat:
            self._turn_ring(surface, spot.box, 1.0)
        self._seat_lines(surface, spot, seat, names[seat], count_line(view, seat, count), avatars,
                         turn=view.to_act == seat, centred=False)

    def _turn_ring(self, surface: pygame.Surface, rect: tuple[int, int, int, int], strength: float) -> None:
        """The gold edge of the seat whose turn it is (``strength`` pulses while a computer thinks)."""
        lay = self.layout
        box = pygame.Rect(rect)
        ring = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(ring, (*ui.GOLD, int(90 + 120 * strength)), ring.get_rect(),
                         width=max(2, int(4 * lay.scale)), border_radius=int(14 * lay.scale))
        surface.blit(ring, box)

    def _seat_lines(self, surface: pygame.Surface, spot: SeatSpot, seat: int, label: str, count: str,
                    avatars: Sequence[int], *, turn: bool, centred: bool = True) -> None:
        """A seat's avatar with its name and card count beside it: the three together centred in
        the seat's box (``centred``), or from its left edge; without avatars, the lines centred."""
        lay = self.layout
        color = ui.GOLD if turn else ui.CREAM
        if seat >= len(avatars):
            ui.fit(surface, label, union_x(spot.avatar, spot.label), lay.text_px, bold=turn, color=color)
            ui.fit(surface, count, union_x(spot.avatar, spot.count), lay.small_px)
            return
        shift = 0
        if centred:  # the lines' ink is often narrower than their box: close the gap to the avatar
            ink = max(_ink_width(label, spot.label, lay.text_px, turn),
                      _ink_width(count, spot.count, lay.small_px))
            shift = max(0, (spot.label[2] - ink) // 2)
        ax, ay, side, _ = spot.avatar
        where = pygame.Rect(ax + shift, ay, side, side)
        surface.blit(avatar_image(avatars[seat], side), where)
        self.avatars_drawn.append((seat, where))
        lx, ly, lw, lh = spot.label
        ui.fit(surface, label, (lx + shift, ly, lw - shift, lh), lay.text_px, bold=turn, color=color,
               align="left")
        cx, cy, cw, ch = spot.count
        ui.fit(surface, count, (cx + shift, cy, cw - shift, ch), lay.small_px, align="left")

    def _piles(self, surface: pygame.Surface, view: PlayerView, animator: Animator, markers: bool) -> None:
        lay = self.layout
        dx, dy, cw, ch = lay.draw_pile
        if view.draw_count:
            depth = min(6, view.draw_count // 8 + 1)
            for i in range(depth):
                surface.blit(self.art.back(), (dx - i * 2, dy - i * 2))
        else:
            surface.blit(self.art.blank(), (dx, dy))
        ui.fit(surface, tr("table.pile", n=view.draw_count), lay.pile_label, lay.text_px)
        hidden = len(animator.in_flight(("discard",)))
        pile = view.discard[: len(view.discard) - hidden] if hidden else view.discard
        x, y, _, _ = lay.discard
        if len(pile) >= 2:
            under = pile[-2]
            surface.blit(self.art.face(under, markers=markers), (x - 4, y + 3))
            self.faces_drawn.append(under)
        if pile:
            surface.blit(self.art.face(pile[-1], markers=markers), (x, y))
            self.faces_drawn.append(pile[-1])
        top = pile[-1] if pile else None
        if view.suit is not None and (top is None or top.suit != view.suit):
            bx, by, bw, _ = lay.suit_badge
            surface.blit(self.art.suit_badge(view.suit, bw), (bx, by))
        if view.pending:
            ui.fit(surface, f"+{view.pending}", lay.pending, int(lay.pending[3] * 0.75), bold=True,
                   color=ui.RED)
        # The way play goes round the table, at every table of three or more (at two players
        # there is no order to show: a Reverse only gives the turn back).
        if view.players > 2:
            self._direction(surface, view.direction)

    def _direction(self, surface: pygame.Surface, direction: int) -> None:
        lay = self.layout
        box = pygame.Rect(lay.ring).inflate(int(60 * lay.scale), int(60 * lay.scale))  # room for the heads
        width = max(2, int(4 * lay.scale))
        color = (*ui.GOLD, 150)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        for arrow in lay.direction_arrows(direction):
            # A polyline on the layout's own points: pygame's arc reads angles differently on an
            # ellipse, and the arrowheads must sit exactly at the arcs' ends.
            arc = [(px - box.x, py - box.y) for px, py in lay.arc_points(arrow)]
            pygame.draw.lines(layer, color, False, arc, width)
            for point in arc[1:-1]:
                pygame.draw.circle(layer, color, point, width / 2)
            points = [(px - box.x, py - box.y) for px, py in (arrow.tip, *arrow.wings)]
            pygame.draw.polygon(layer, color, points)
            self.arrows_drawn.append(arrow)
        surface.blit(layer, box)

    def _hand(self, surface: pygame.Surface, view: PlayerView, animator: Animator,
              rects: list[pygame.Rect], playable: set[int], selected: int | None, markers: bool,
              face_down: bool) -> None:
        hidden = len(animator.in_flight(("hand", view.seat)))
        cards = view.hand[: len(view.hand) - hidden] if hidden else view.hand
        glow = self.art.glow()
        for i, card in enumerate(cards):
            if i >= len(rects):
                break
            rect = rects[i]
            if face_down:
                surface.blit(self.art.back(), rect)
                continue
            if i in playable:
                surface.blit(glow, glow.get_rect(center=rect.center))
            surface.blit(self.art.face(card, markers=markers), rect)
            self.faces_drawn.append(card)
        if selected is not None and 0 <= selected < min(len(cards), len(rects)) and not face_down:
            self._cursor(surface, rects[selected])

    def _cursor(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The keyboard cursor: a cyan frame with a dark edge round the card and a marker above it,
        unlike the gold glow of the playable cards (and seen on any face, either deck)."""
        scale = self.layout.scale
        ring = max(3, int(4 * scale))
        radius = int(rect.width * 0.08)
        outer = rect.inflate(2 * ring + 4, 2 * ring + 4)
        pygame.draw.rect(surface, CURSOR_EDGE, outer.inflate(4, 4), width=2, border_radius=radius + 4)
        pygame.draw.rect(surface, CURSOR, outer, width=ring, border_radius=radius + 2)
        pygame.draw.rect(surface, CURSOR_EDGE, rect.inflate(2, 2), width=2, border_radius=radius)
        size = max(8, int(12 * scale))
        tip_y = outer.top - 3
        x = rect.centerx
        marker = [(x, tip_y), (x - size, tip_y - size), (x + size, tip_y - size)]
        pygame.draw.polygon(surface, CURSOR, marker)
        pygame.draw.polygon(surface, CURSOR_EDGE, marker, width=2)

    def _menu_button(self, surface: pygame.Surface) -> None:
        button = Button(TableCommand.PAUSE, tr("table.menu"), pygame.Rect(self.layout.menu_button))
        button.draw(surface, self.layout.scale)

    def _log(self, surface: pygame.Surface, moves: Sequence[str]) -> None:
        """The last moves under the Menu button, the newest last (a tap opens them all)."""
        lay = self.layout
        x, y, w, _ = lay.log
        step = line_height(lay.small_px)
        shown = list(moves)[-LOG_LINES:]
        if not shown:
            return
        panel = pygame.Surface((w, len(shown) * step), pygame.SRCALPHA)
        panel.fill((0, 0, 0, 60))
        surface.blit(panel, (x, y))
        for i, line in enumerate(shown):
            newest = i == len(shown) - 1
            ui.fit(surface, line, (x + 4, y + i * step, w - 8, step), lay.small_px, align="right",
                   color=ui.CREAM if newest else (200, 205, 195), bold=newest)

    def _message(self, surface: pygame.Surface, message: str, timer: float | None) -> None:
        lay = self.layout
        px = lay.message_px
        if message:
            ui.fit(surface, message, lay.message_box, px, bold=True, lines=2, valign="top")
        if timer is not None:
            color = ui.RED if timer < 3.5 else ui.GOLD
            ui.fit(surface, tr("table.timer", n=max(0, math.ceil(timer))), lay.timer_box, int(px * 1.2),
                   bold=True, color=color)

    def draw_flights(self, surface: pygame.Surface, animator: Animator, markers: bool) -> None:
        """Draw the cards in flight, above everything else."""
        for flight in animator.flights:
            if not flight.started:
                continue
            x, y, w, h = flight.rect()
            if flight.card is None:
                image = self.art.back()
            else:
                image = self.art.face(flight.card, markers=markers)
                self.faces_drawn.append(flight.card)
            if image.get_size() != (w, h):
                image = pygame.transform.smoothscale(image, (max(1, w), max(1, h)))
            surface.blit(image, (x, y))


def pooled(view: PlayerView) -> bool:
    """Whether the table counts pairs' points: pair play to a target whose partners' points add up."""
    return bool(view.target) and view.rules.pairs and view.rules.pair_scores


def count_line(view: PlayerView, seat: int, count: int) -> str:
    """A seat's card count, its points where points are kept, and "!" when its missed "Card"
    call may be denounced: ``4 cards  ·  12 pts``."""
    text = tr("table.card_one") if count == 1 else tr("table.cards", n=count)
    if view.target:  # points only where they carry over
        key = "table.pair_points" if pooled(view) else "table.points"
        text += "  ·  " + tr(key, n=view.standings[seat])
    if seat in view.exposed:
        text += "  !"
    return text


def union_x(left: tuple[int, int, int, int], right: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """``right`` widened leftwards to start where ``left`` starts (the lines without an avatar)."""
    return (left[0], right[1], right[0] + right[2] - left[0], right[3])


def _ink_width(text: str, box: tuple[int, int, int, int], px: int, bold: bool = False) -> int:
    """How wide ``text`` is drawn in ``box`` (as `ui.fit` would size it)."""
    size, lines = ui.layout_text(text, pygame.Rect(box), px, bold=bold)
    f = ui.font(size, bold)
    return max(f.size(line)[0] for line in lines)


def options_in_force(rules: Rules, *, undo: bool = True) -> list[str]:
    """Short labels of the options that are on (and the timer), as the table lists them; Undo only
    where ``undo`` says turns can be taken back (not at a same-device or online table)."""
    # The switches that are on; numbers (hand size, targets...) are shown elsewhere or not at all.
    # `pair_scores` is on by default but counts only in pair play to a target: listed only then.
    counts = rules.pairs and bool(rules.target or rules.target_per_player)
    on = [tr(f"option.{k}") for k, v in rules.options().items() if v and OPTION_BY_NAME[k].kind == "bool"
          and (k != "pair_scores" or counts) and (k != "undo" or undo)]
    if rules.turn_seconds:
        on.append(tr("table.timer", n=rules.turn_seconds))
    return on


def rules_line(rules: list[str], box: pygame.Rect, px: int) -> str:
    """The rules in force joined by dots, as many as fit ``box`` whole, the rest counted
    ("+3 more": the move log's page lists them all)."""
    for shown in range(len(rules), -1, -1):
        text = " · ".join(rules[:shown])
        if shown < len(rules):
            more = tr("table.more_rules", n=len(rules) - shown)
            text = f"{text} · {more}" if text else more
        lines = ui.layout_text(text, box, px, lines=INFO_OPTION_LINES, min_px=px)[1]
        if " ".join(" ".join(lines).split()) == " ".join(text.split()):
            return text
    return ""


def suit_label(suit: str) -> str:
    """``♠ Spades`` / ``Red`` for a suit or colour."""
    symbol = SUIT_SYMBOLS.get(suit)
    return f"{symbol} {tr('suit.' + suit)}" if symbol else tr("suit." + suit)
