"""The suit picker: big buttons to announce a suit (or colour) after playing a wild."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.engine import ChooseSuit, Phase

from .. import ui
from ..i18n import tr
from ..scene import Scene
from ..table_paint import suit_label

if TYPE_CHECKING:
    from ..app import App
    from .overlay import TableBelow

KEYS = {pygame.K_s: "S", pygame.K_h: "H", pygame.K_d: "D", pygame.K_c: "C",
        pygame.K_r: "R", pygame.K_b: "B", pygame.K_g: "G", pygame.K_y: "Y"}


class SuitPickerScene(Scene):
    """An overlay over the table; tap a suit, or use arrows and Enter, or its letter."""

    opaque = False

    def __init__(self, app: App, table: TableBelow) -> None:
        super().__init__(app)
        self.table = table
        self.suits = [a.suit for a in table.view.legal if isinstance(a, ChooseSuit)]
        self.focus = 0
        self.rects: list[pygame.Rect] = []
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """Four big buttons in a row, centred."""
        w, h = size
        side = int(min(w / (len(self.suits) + 1.5), h * 0.28))
        gap = side // 6
        total = len(self.suits) * side + (len(self.suits) - 1) * gap
        x0, y = (w - total) // 2, (h - side) // 2
        self.rects = [pygame.Rect(x0 + i * (side + gap), y, side, side) for i in range(len(self.suits))]

    def update(self, dt: float) -> None:
        """The game goes on underneath (a turn timer keeps running); close if the choice was made."""
        self.table.update(dt)
        view = self.table.view
        if view.phase != Phase.SUIT or view.to_act != view.seat:
            self.app.stack.pop()

    def next_frame(self) -> float | None:
        """The table runs underneath: its timing is this screen's."""
        return self.table.next_frame()

    def choose(self, suit: str) -> None:
        """Announce ``suit`` and close."""
        self.table.controller.submit(ChooseSuit(suit), self.table.view.seat)
        self.app.sound.play("click")
        self.app.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on a suit; arrows, Enter, or the suit's letter."""
        if event.type == pygame.MOUSEBUTTONUP:
            for suit, rect in zip(self.suits, self.rects, strict=True):
                if rect.collidepoint(event.pos):
                    self.choose(suit)
                    return True
            return True  # taps elsewhere are swallowed: a suit must be chosen
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_UP):
                self.focus = (self.focus - 1) % len(self.suits)
            elif event.key in (pygame.K_RIGHT, pygame.K_DOWN):
                self.focus = (self.focus + 1) % len(self.suits)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.choose(self.suits[self.focus])
            elif KEYS.get(event.key) in self.suits:
                self.choose(KEYS[event.key])
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table and draw the suit buttons."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        scale = ui.scale_for(surface.get_size())
        top = self.rects[0].top if self.rects else surface.get_height() // 3
        ui.text(surface, tr("suit.title"), (surface.get_width() // 2, top - int(70 * scale)),
                int(36 * scale), bold=True, color=ui.GOLD, anchor="midtop")
        art = self.table.art
        for i, (suit, rect) in enumerate(zip(self.suits, self.rects, strict=True)):
            pygame.draw.rect(surface, (250, 248, 240), rect, border_radius=rect.width // 8)
            if i == self.focus:
                pygame.draw.rect(surface, ui.GOLD, rect.inflate(10, 10), width=max(3, int(5 * scale)),
                                 border_radius=rect.width // 7)
            badge = art.suit_badge(suit, int(rect.width * 0.62))
            surface.blit(badge, badge.get_rect(center=(rect.centerx, rect.centery - rect.height // 10)))
            ui.text(surface, suit_label(suit), (rect.centerx, rect.bottom - int(rect.height * 0.2)),
                    max(14, rect.height // 9), bold=True, color=ui.INK, anchor="center", shadow=False)
