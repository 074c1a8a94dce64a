"""The hot-seat cover: "Pass the device to <name>", with that person's avatar, hides the table
until that player is ready (before the very first turn of a game too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from .. import keymap, ui
from ..avatar_art import avatar_image
from ..i18n import tr
from ..keymap import Nav
from ..layout import line_height
from ..scene import Scene

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


GRACE = 0.4  # seconds during which the cover ignores input


class HandoffScene(Scene):
    """Opaque: while it shows, nothing of the table (and no hand) is drawn."""

    opaque = True

    def __init__(self, app: SceneApp, table: TableBelow, seat: int) -> None:
        super().__init__(app)
        self.table = table
        self.seat = seat
        self.name = table.names()[seat]
        self.armed = False  # a release only counts after a press seen here
        self.shown = 0.0  # seconds on screen: input in the first moments is the last player's

    def update(self, dt: float) -> None:
        """Count the time the cover has been up."""
        self.shown += dt

    def next_frame(self) -> float | None:
        """The end of the grace period (input counts from then on); then nothing until input."""
        return GRACE - self.shown if self.shown < GRACE else None

    def handle_event(self, event: pygame.event.Event) -> bool:
        """A tap, or Enter/Space (pressed and released here), hands the table over. Esc pauses."""
        if self.shown < GRACE:
            return True
        if event.type == pygame.KEYDOWN:
            key = keymap.nav(event)
            if key is Nav.BACK:
                self.app.push("Pause", table=self.table)
            elif key is Nav.ACTIVATE:
                self.armed = True
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.armed = True
            return True
        if event.type in (pygame.KEYUP, pygame.MOUSEBUTTONUP) and self.armed:
            if event.type == pygame.MOUSEBUTTONUP or keymap.nav(event) is Nav.ACTIVATE:
                self.ready()
            return True
        return False

    def ready(self) -> None:
        """Show the table from the new player's seat (the table starts a fresh selection for it)."""
        self.table.controller.accept_handoff(self.seat)
        self.app.sound.play("turn")
        self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """A plain cover with the avatar and name of the player who takes the device."""
        surface.fill((14, 48, 36))
        w, h = surface.get_size()
        scale = ui.scale_for((w, h))
        side = self.table.art.back().get_height()
        picture = avatar_image(self.table.avatars()[self.seat], side)
        surface.blit(picture, picture.get_rect(center=(w // 2, int(h * 0.33))))
        margin = int(24 * scale)
        title = pygame.Rect(margin, int(h * 0.58), w - 2 * margin, 2 * line_height(int(44 * scale)))
        used = ui.fit(surface, tr("handoff.title", name=self.name), title, int(44 * scale), bold=True,
                      color=ui.GOLD, lines=2, valign="top")
        hint_h = 2 * line_height(int(22 * scale))
        hint = pygame.Rect(margin, used.bottom + int(16 * scale), w - 2 * margin, hint_h)
        ui.fit(surface, tr("handoff.hint", name=self.name), hint, int(22 * scale), lines=2, valign="top")
