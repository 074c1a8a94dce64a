"""Drawing the table from one seat's view: piles, hands, other seats, badges, buttons.

`TablePainter` reads only a `PlayerView` (plus names and levels of the seats and
what is in flight); it never sees the game state, so it cannot show a hidden card.
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

from . import ui
from .animation import Animator
from .art import CardArt, felt
from .i18n import tr
from .intents import TableCommand
from .layout import TableLayout
from .widgets import Button

SUIT_COLORS = {"S": (20, 20, 20), "H": (200, 30, 40), "D": (200, 30, 40), "C": (20, 20, 20),
               "R": (214, 48, 49), "B": (34, 102, 204), "G": (38, 150, 70), "Y": (230, 180, 20)}


class TablePainter:
    """Draws the table for one layout; art is scaled once per layout (window size)."""

    def __init__(self, layout: TableLayout, *, four_color: bool = False) -> None:
        self.layout = layout
        self.art = CardArt(layout.card[0], four_color=four_color)
        self.small = CardArt(layout.small_card[0], four_color=four_color)
        self.background = felt(layout.size)
        if pygame.display.get_surface() is not None:
            self.background = self.background.convert()
        self.faces_drawn: list[object] = []
        self.clock = 0.0

    # ---- the whole table ---------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, view: PlayerView, *, names: list[str],
             levels: list[str | None], animator: Animator, hand_rects: list[pygame.Rect],
             playable: set[int], selected: int | None, buttons: Sequence[Button[Any]],
             message: str, thinking: int | None, timer: float | None, markers: bool,
             hide_hand: bool = False) -> None:
        """Draw everything for ``view``; ``hide_hand`` shows the hand face down (hot-seat handoff)."""
        self.faces_drawn = []
        surface.blit(self.background, (0, 0))
        self._info(surface, view, names)
        self._others(surface, view, names, levels, animator, thinking)
        self._piles(surface, view, animator, markers)
        self._hand(surface, view, animator, hand_rects, playable, selected, markers, hide_hand)
        for button in buttons:
            button.draw(surface, self.layout.scale)
        self._menu_button(surface)
        self._message(surface, message, timer)

    # ---- parts -------------------------------------------------------------------------------
    def _info(self, surface: pygame.Surface, view: PlayerView, names: list[str]) -> None:
        lay = self.layout
        x, y, w, _ = lay.info
        px = max(13, int(17 * lay.scale))
        title = tr(f"preset.{view.rules.name}")
        if view.round_number > 1 or view.target:
            title += "  ·  " + tr("table.round", n=view.round_number)
        ui.text(surface, title, (x, y), int(px * 1.3), bold=True, color=ui.GOLD)
        y += int(px * 1.9)
        on = options_in_force(view.rules)
        line = ""
        for item in on:
            candidate = f"{line} · {item}" if line else item
            if ui.font(int(px * 0.85)).size(candidate)[0] > w * 1.4 and line:
                ui.text(surface, line, (x, y), int(px * 0.85))
                y += int(px * 1.2)
                candidate = item
            line = candidate
        if line:
            ui.text(surface, line, (x, y), int(px * 0.85))
            y += int(px * 1.4)
        if view.rules.scoring != "none" or view.target:
            line = tr("fmt.pair", label=names[view.seat], value=tr("table.points", n=view.scores[view.seat]))
            if view.target:
                line += "  ·  " + tr("table.target", n=view.target)
            ui.text(surface, line, (x, y), px, bold=True)

    def _others(self, surface: pygame.Surface, view: PlayerView, names: list[str],
                levels: list[str | None], animator: Animator, thinking: int | None) -> None:
        lay = self.layout
        seats = [(view.seat + k) % view.players for k in range(1, view.players)]
        px = max(13, int(16 * lay.scale))
        back = self.small.back()
        for seat, spot in zip(seats, lay.seat_spots(len(seats)), strict=True):
            count = view.hand_counts[seat] - len(animator.in_flight(("hand", seat)))
            fx, fy, fw, fh = spot.fan
            shown = min(count, 9)
            step = (fw - back.get_width()) / max(1, shown - 1) if shown > 1 else 0
            x0 = fx + (fw - (back.get_width() + step * (shown - 1))) / 2
            if view.to_act == seat:
                pulse = 0.5 + 0.5 * math.sin(self.clock * 6) if thinking == seat else 1.0
                glow = pygame.Rect(spot.fan).inflate(int(24 * lay.scale), int(20 * lay.scale))
                ring = pygame.Surface(glow.size, pygame.SRCALPHA)
                pygame.draw.rect(ring, (*ui.GOLD, int(90 + 120 * pulse)), ring.get_rect(),
                                 width=max(2, int(4 * lay.scale)), border_radius=int(14 * lay.scale))
                surface.blit(ring, glow)
            for i in range(shown):
                surface.blit(back, (int(x0 + i * step), fy))
            cx, cy = spot.center
            level = levels[seat]
            label = names[seat] + (f" · {tr('level.' + level)}" if level else "")
            ui.text(surface, label, (cx, cy), px, bold=view.to_act == seat, anchor="midtop",
                    color=ui.GOLD if view.to_act == seat else ui.CREAM)
            count_text = tr("table.card_one") if count == 1 else tr("table.cards", n=count)
            if view.rules.scoring != "none" or view.target:
                count_text += "  ·  " + tr("table.points", n=view.scores[seat])
            if seat in view.exposed:
                count_text += "  !"
            ui.text(surface, count_text, (cx, cy + int(px * 1.3)), int(px * 0.9), anchor="midtop")

    def _piles(self, surface: pygame.Surface, view: PlayerView, animator: Animator, markers: bool) -> None:
        lay = self.layout
        dx, dy, cw, ch = lay.draw_pile
        if view.draw_count:
            depth = min(6, view.draw_count // 8 + 1)
            for i in range(depth):
                surface.blit(self.art.back(), (dx - i * 2, dy - i * 2))
        else:
            surface.blit(self.art.blank(), (dx, dy))
        px = max(13, int(16 * lay.scale))
        ui.text(surface, tr("table.pile", n=view.draw_count), (dx + cw // 2, dy + ch + 6), px,
                anchor="midtop")
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
            bx, by, bw, bh = lay.suit_badge
            ui.text(surface, f"+{view.pending}", (bx + bw // 2, by - int(8 * lay.scale)),
                    int(bh * 0.55), bold=True, color=ui.RED, anchor="midbottom")
        rules = view.rules
        if rules.reverse_ranks or rules.aces_reverse:
            self._direction(surface, view.direction)

    def _direction(self, surface: pygame.Surface, direction: int) -> None:
        lay = self.layout
        left = pygame.Rect(lay.draw_pile)
        right = pygame.Rect(lay.discard)
        box = left.union(right).inflate(int(lay.card[0] * 0.9), int(lay.card[1] * 0.45))
        width = max(2, int(4 * lay.scale))
        color = (*ui.GOLD, 150)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        local = layer.get_rect()
        for start in (0.35, math.pi + 0.35):
            pygame.draw.arc(layer, color, local, start, start + math.pi - 0.7, width)
            end = start + math.pi - 0.7 if direction == 1 else start
            ex = local.centerx + (local.width / 2) * math.cos(end)
            ey = local.centery - (local.height / 2) * math.sin(end)
            tangent = end + (math.pi / 2 if direction == 1 else -math.pi / 2)
            size = 10 * lay.scale
            tip = (ex + size * math.cos(tangent), ey - size * math.sin(tangent))
            wing1 = (ex + size * 0.8 * math.cos(tangent + 2.4), ey - size * 0.8 * math.sin(tangent + 2.4))
            wing2 = (ex + size * 0.8 * math.cos(tangent - 2.4), ey - size * 0.8 * math.sin(tangent - 2.4))
            pygame.draw.polygon(layer, color, [tip, wing1, wing2])
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
            if i == selected:
                ring = max(3, int(4 * self.layout.scale))
                pygame.draw.rect(surface, ui.GOLD, rect.inflate(6, 6), width=ring,
                                 border_radius=int(rect.width * 0.08))

    def _menu_button(self, surface: pygame.Surface) -> None:
        button = Button(TableCommand.PAUSE, tr("table.menu"), pygame.Rect(self.layout.menu_button))
        button.draw(surface, self.layout.scale)

    def _message(self, surface: pygame.Surface, message: str, timer: float | None) -> None:
        lay = self.layout
        px = max(16, int(22 * lay.scale))
        if message:
            ui.text(surface, message, lay.message, px, bold=True, anchor="midtop")
        if timer is not None:
            x, y = lay.message
            color = ui.RED if timer < 3.5 else ui.GOLD
            ui.text(surface, tr("table.timer", n=max(0, math.ceil(timer))), (x, y + int(px * 1.5)),
                    int(px * 1.2), bold=True, color=color, anchor="midtop")

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


def options_in_force(rules: Rules) -> list[str]:
    """Short labels of the options that are on (and the timer), as the table lists them."""
    # The switches that are on; numbers (hand size, targets...) are shown elsewhere or not at all.
    on = [tr(f"option.{k}") for k, v in rules.options().items() if v and OPTION_BY_NAME[k].kind == "bool"]
    if rules.turn_seconds:
        on.append(tr("table.timer", n=rules.turn_seconds))
    return on


def suit_label(suit: str) -> str:
    """``♠ Spades`` / ``Red`` for a suit or colour."""
    symbol = SUIT_SYMBOLS.get(suit)
    return f"{symbol} {tr('suit.' + suit)}" if symbol else tr("suit." + suit)
