"""The vote on an abandon (an overlay on an online table): penalise the player who left, or not.

In a ranked online game, a person away for five minutes loses the seat to a computer;
the people still playing may then vote to penalise the abandon (the rule source's
"only if the remaining players penalise"). The table opens this overlay once per
abandoned seat (`TableControl.vote_due`): Penalise, Don't penalise, or Esc to leave
the question unanswered. The game goes on at the server meanwhile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.net.ranking import PENALTY

from .. import ui
from ..i18n import tr
from ..keymap import Nav
from ..layout import line_height
from ..remote import with_tags
from ..scene import Scene
from ..widgets import Button, button_input

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class VoteScene(Scene):
    """Overlay: the question and two buttons."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow, seat: int) -> None:
        super().__init__(app)
        self.table = table
        self.seat = seat
        names = with_tags(table.controller.seats, table.names())  # "Ana #3F2": which Ana left
        self.name = names[seat] if 0 <= seat < len(names) else "?"
        self.focus = 1  # "Don't penalise" first: the gentler answer is the default one
        self.buttons: list[Button[bool]] = []
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """Two buttons side by side under the question."""
        w, h = size
        scale = ui.scale_for(size)
        bw, bh = int(min(w * 0.3, 340 * scale)), max(44, int(56 * scale))
        gap = int(24 * scale)
        y = h // 2 + int(40 * scale)
        self.buttons = [Button(True, tr("vote.yes"), pygame.Rect(w // 2 - gap // 2 - bw, y, bw, bh)),
                        Button(False, tr("vote.no"), pygame.Rect(w // 2 + gap // 2, y, bw, bh))]

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on the buttons; Left/Right and Enter; Esc closes without a vote."""
        return button_input(event, self.buttons, self.answer, self.key)

    def key(self, key: Nav) -> None:
        """Any arrow or Tab moves to the other button, Enter answers, Esc closes without a vote."""
        if key is Nav.BACK:
            self.app.pop()
        elif key in (Nav.LEFT, Nav.RIGHT, Nav.NEXT, Nav.UP, Nav.DOWN):
            self.focus = 1 - self.focus
        elif key is Nav.ACTIVATE:
            self.answer(self.buttons[self.focus].intent)

    def answer(self, penalise: bool) -> None:
        """Send the vote and close."""
        self.app.sound.play("click")
        self.table.controller.vote(self.seat, penalise)
        self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table; on a panel, the title, the question, the buttons."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        w, h = surface.get_size()
        scale = ui.scale_for((w, h))
        margin = int(w * 0.12)
        px = int(38 * scale)
        title = pygame.Rect(margin, h // 2 - int(170 * scale), w - 2 * margin, line_height(px))
        pad = int(24 * scale)
        bottom = max(button.rect.bottom for button in self.buttons)
        ui.panel(surface, pygame.Rect(margin - pad, title.top - pad, w - 2 * margin + 2 * pad,
                                      bottom - title.top + 2 * pad), scale)
        ui.fit(surface, tr("vote.title", name=self.name), title, px, bold=True, color=ui.GOLD)
        small = int(24 * scale)
        question = pygame.Rect(margin, title.bottom + int(12 * scale), w - 2 * margin, 3 * line_height(small))
        ui.fit(surface, tr("vote.question", name=self.name, points=-PENALTY), question, small, lines=3,
               valign="top")
        for i, button in enumerate(self.buttons):
            button.hot = i == self.focus
            button.draw(surface, scale)
