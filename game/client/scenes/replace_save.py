"""Before a new game replaces a saved one: "Your game (Classic, round 2, you 0 – 42) will be lost."

Pushed by the new-game form when the mode it starts already has a saved game that
can be read. A panel over the form names the game that would be lost (and, for an
unfinished ranked game, the ranking points it costs) and offers two buttons: Keep
my game (the focus starts there; Esc and a tap outside the panel do the same) goes
back to the form with nothing lost, Replace it starts the new game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.saves import SavedTable

from .. import ui
from ..gui import GuiScene
from ..i18n import tr
from ..layout import line_height
from ..saving import abandon_cost, summary

if TYPE_CHECKING:
    from ..scene import SceneApp


class ReplaceSaveScene(GuiScene):
    """The question, over the form it came from."""

    opaque = False  # the form stays visible, dimmed, under the panel

    def __init__(self, app: SceneApp, mode: str, saved: SavedTable, replace: Callable[[], None]) -> None:
        self.mode = mode
        self.replace = replace
        self.lines = [tr("replace.lost", summary=summary(mode, saved, with_mode=False))]
        cost = abandon_cost(mode, saved)
        if cost:
            self.lines.append(tr("replace.xp", xp=-cost))
        self.text = "\n".join(self.lines)
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.text_boxes: list[pygame.Rect] = []
        self.text_px = 20
        super().__init__(app)

    def build(self) -> None:
        """A panel in the middle: the title, what would be lost, Keep and Replace."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(44, int(56 * s))
        pw = int(min(w * 0.8, 760 * s))
        title_h = int(50 * s)
        self.text_px = max(14, int(21 * s))
        line_h = 2 * line_height(self.text_px)  # each sentence may take two lines
        ph = m + title_h + len(self.lines) * line_h + m + bh + m
        self.panel = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        x, y = self.panel.x + m, self.panel.y + m
        self.label(pygame.Rect(x, y, pw - 2 * m, title_h), tr("replace.title"), "#heading")
        y += title_h
        self.text_boxes = []
        for _ in self.lines:
            self.text_boxes.append(pygame.Rect(x, y, pw - 2 * m, line_h))
            y += line_h
        y += m
        bw = (pw - 3 * m) // 2
        self.button(pygame.Rect(x, y, bw, bh), tr("replace.keep"), self.back)
        self.button(pygame.Rect(x + bw + m, y, bw, bh), tr("replace.replace"), self.confirm)
        self.focus = 0  # Keep: the choice that loses nothing

    def draw_extra(self, surface: pygame.Surface) -> None:
        """What would be lost, a sentence to a box (on two lines if need be)."""
        for line, box in zip(self.lines, self.text_boxes, strict=True):
            ui.fit(surface, line, box, self.text_px, lines=2, valign="center")

    def handle_event(self, event: pygame.event.Event) -> bool:
        """A tap outside the panel keeps the game, like Esc; the rest as on any screen."""
        if event.type == pygame.MOUSEBUTTONUP and not self.panel.collidepoint(event.pos):
            self.back()
            return True
        return super().handle_event(event)

    def back(self) -> None:
        """Keep the saved game: back to the form."""
        self.app.pop()

    def confirm(self) -> None:
        """Replace it: the new game starts (its table replaces the form and this question)."""
        self.replace()

    def draw(self, surface: pygame.Surface) -> None:
        """The form dimmed, the panel, its widgets and the keyboard focus."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        radius = int(16 * self.scale)
        pygame.draw.rect(surface, (15, 48, 36), self.panel, border_radius=radius)
        edge = max(2, int(3 * self.scale))
        pygame.draw.rect(surface, ui.GOLD, self.panel, width=edge, border_radius=radius)
        self.draw_extra(surface)
        self.manager.draw_ui(surface)
        rect = self.controls[self.focus].element.rect.inflate(8, 8)
        pygame.draw.rect(surface, ui.GOLD, rect, width=max(2, int(3 * self.scale)),
                         border_radius=int(12 * self.scale))
