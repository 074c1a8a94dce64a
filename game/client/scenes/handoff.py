"""The hot-seat cover: "Pass the device to <name>" hides the table until that player is ready."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from .. import ui
from ..i18n import tr
from ..scene import Scene

if TYPE_CHECKING:
    from ..app import App
    from .table import TableScene


class HandoffScene(Scene):
    """Opaque: while it shows, nothing of the table (and no hand) is drawn."""

    opaque = True

    def __init__(self, app: App, table: TableScene, seat: int) -> None:
        super().__init__(app)
        self.table = table
        self.seat = seat
        self.name = table.names()[seat]
        self.armed = False  # a release only counts after a press seen here

    def handle_event(self, event: pygame.event.Event) -> bool:
        """A tap or key press hands the table to the waiting player."""
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.armed = True
            if event.type == pygame.KEYDOWN and event.key != pygame.K_F11:
                self.ready()
            return True
        if event.type == pygame.MOUSEBUTTONUP and self.armed:
            self.ready()
            return True
        return False

    def ready(self) -> None:
        """Show the table from the new player's seat."""
        self.table.controller.accept_handoff(self.seat)
        self.table.selected = None
        self.app.sound.play("turn")
        self.app.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """A plain cover with the name of the player who takes the device."""
        surface.fill((14, 48, 36))
        w, h = surface.get_size()
        scale = ui.scale_for((w, h))
        back = self.table.painter.art.back()
        surface.blit(back, back.get_rect(center=(w // 2, int(h * 0.36))))
        ui.text(surface, tr("handoff.title", name=self.name), (w // 2, int(h * 0.58)), int(44 * scale),
                bold=True, color=ui.GOLD, anchor="midtop")
        ui.text(surface, tr("handoff.hint", name=self.name), (w // 2, int(h * 0.58 + 70 * scale)),
                int(22 * scale), anchor="midtop")
