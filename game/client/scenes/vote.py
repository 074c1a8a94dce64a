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
from ..remote import with_tags
from ..scene import Scene
from ..widgets import Button, button_input, draw_question

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
        names = with_tags(table.controller.seats, table.names())  # "Ana #3F2K9Q": which Ana left
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
        draw_question(surface, self.buttons, self.focus, tr("vote.title", name=self.name),
                      tr("vote.question", name=self.name, points=-PENALTY), margin=0.12, title_px=38,
                      rise=170, body_lines=3, body_to_buttons=False)
