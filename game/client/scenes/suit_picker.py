"""The suit picker: big buttons to announce a suit (or colour) after playing a wild."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from game.engine import ChooseSuit, Phase

from .. import keymap, ui
from ..i18n import tr
from ..keymap import Nav
from ..layout import line_height
from ..scene import Scene
from ..table_paint import suit_label

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class SuitPickerScene(Scene):
    """An overlay over the table; tap a suit, or use arrows and Enter, or its letter."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        super().__init__(app)
        self.table = table
        self.suits = [a.suit for a in table.view.legal if isinstance(a, ChooseSuit)]
        self.focus = 0
        self.rects: list[pygame.Rect] = []
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """Big buttons in a row, centred, on a panel that also holds the title."""
        w, h = size
        scale = ui.scale_for(size)
        side = int(min(w / (len(self.suits) + 1.5), h * 0.28))
        gap = side // 6
        total = len(self.suits) * side + (len(self.suits) - 1) * gap
        x0, y = (w - total) // 2, (h - side) // 2
        self.rects = [pygame.Rect(x0 + i * (side + gap), y, side, side) for i in range(len(self.suits))]
        self.title_px = int(36 * scale)
        pad = int(18 * scale)
        title_h = line_height(self.title_px)
        self.title_box = pygame.Rect(x0 - pad, y - pad - title_h, total + 2 * pad, title_h)
        # A timed turn: the clock goes on under the picker, so the panel shows it too.
        self.timer_px = int(28 * scale)
        timer_h = line_height(self.timer_px) if self.table.view.rules.turn_seconds else 0
        self.timer_box = pygame.Rect(x0, y + side + pad // 2, total, timer_h)
        # Opaque, and over all the table says under the piles (whose turn, the timer): no text of
        # the table shows through or peeks out from under it.
        self.panel = pygame.Rect(x0 - 2 * pad, self.title_box.top - pad, total + 4 * pad,
                                 title_h + side + timer_h + 3 * pad)

    def update(self, dt: float) -> None:
        """The game goes on underneath (a turn timer keeps running); close if the choice was made."""
        self.table.update(dt)
        view = self.table.view
        if view.phase != Phase.SUIT or view.to_act != view.seat:
            self.app.pop()

    def next_frame(self) -> float | None:
        """The table runs underneath: its timing is this screen's."""
        return self.table.next_frame()

    def choose(self, suit: str) -> None:
        """Announce ``suit`` and close."""
        self.table.controller.submit(ChooseSuit(suit), self.table.view.seat)
        self.app.sound.play("click")
        self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on a suit; arrows, Enter, or the suit's letter."""
        if event.type == pygame.MOUSEBUTTONUP:
            for suit, rect in zip(self.suits, self.rects, strict=True):
                if rect.collidepoint(event.pos):
                    self.choose(suit)
                    return True
            return True  # taps elsewhere are swallowed: a suit must be chosen
        if event.type == pygame.KEYDOWN:
            key, named = keymap.nav(event), keymap.suit_key(event)
            if key in (Nav.LEFT, Nav.UP):
                self.focus = (self.focus - 1) % len(self.suits)
            elif key in (Nav.RIGHT, Nav.DOWN):
                self.focus = (self.focus + 1) % len(self.suits)
            elif key is Nav.ACTIVATE:
                self.choose(self.suits[self.focus])
            elif named is not None and named in self.suits:
                self.choose(named)
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table and draw the panel with its title and the suit buttons."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        scale = ui.scale_for(surface.get_size())
        ui.panel(surface, self.panel, scale)
        colours = any(suit not in "SHDC" for suit in self.suits)
        title = tr("suit.title_colour") if colours else tr("suit.title")
        ui.fit(surface, title, self.title_box, self.title_px, bold=True, color=ui.GOLD)
        art = self.table.art
        for i, (suit, rect) in enumerate(zip(self.suits, self.rects, strict=True)):
            pygame.draw.rect(surface, (250, 248, 240), rect, border_radius=rect.width // 8)
            if i == self.focus:
                pygame.draw.rect(surface, ui.GOLD, rect.inflate(10, 10), width=max(3, int(5 * scale)),
                                 border_radius=rect.width // 7)
            badge = art.suit_badge(suit, int(rect.width * 0.62))
            surface.blit(badge, badge.get_rect(center=(rect.centerx, rect.centery - rect.height // 10)))
            px = max(14, rect.height // 9)
            label = pygame.Rect(rect.x + 4, rect.bottom - int(rect.height * 0.2) - line_height(px) // 2,
                                rect.width - 8, line_height(px))
            ui.fit(surface, suit_label(suit), label, px, bold=True, color=ui.INK, shadow=False)
        timer = self.table.controller.timer_left
        if timer is not None and self.timer_box.height:
            ui.fit(surface, tr("table.timer", n=max(0, math.ceil(timer))), self.timer_box, self.timer_px,
                   bold=True, color=ui.RED if timer < 3.5 else ui.GOLD)
