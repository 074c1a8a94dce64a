"""Leaving a ranked online game under way: asked first, saying what is at stake.

The pause menu's "Main menu" (and the result screen's between two deals of a match) opens
this overlay when leaving would be an abandon (`TableControl.leaving_is_abandon`): the
game goes on without the player; away for `ABANDON_AFTER` seconds, their seat goes to a
computer, they earn nothing for the game, and the others may vote to take `PENALTY`
points from them; coming back in time (My rooms) keeps the seat. When every other player
is absent (the server says so: they stalled the game), it says instead that leaving is no
abandon, theirs is. Stay (the default, and Esc) goes back; Leave goes to the menu, the seat
waiting, keyed, for a return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.net.ranking import ABANDON_AFTER, PENALTY

from .. import ui
from ..i18n import tr
from ..keymap import Nav
from ..overlay import CoversTable
from ..widgets import Button, button_input, draw_question

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class LeaveRankedScene(CoversTable):
    """Overlay: what leaving costs, Stay and Leave."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        super().__init__(app)
        self.table = self.below = table
        self.focus = 0  # Stay first: the gentler answer is the default one
        self.buttons: list[Button[bool]] = []
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """Two buttons side by side under the explanation."""
        w, h = size
        scale = ui.scale_for(size)
        bw, bh = int(min(w * 0.36, 340 * scale)), max(44, int(56 * scale))
        gap = int(24 * scale)
        y = h // 2 + int(60 * scale)
        self.buttons = [Button(False, tr("leave.stay"), pygame.Rect(w // 2 - gap // 2 - bw, y, bw, bh)),
                        Button(True, tr("leave.leave"), pygame.Rect(w // 2 + gap // 2, y, bw, bh))]
        self.dirty = True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on the buttons; Left/Right and Enter; Esc stays."""
        return button_input(event, self.buttons, self.answer, self.key)

    def key(self, key: Nav) -> None:
        """Any arrow or Tab moves to the other button, Enter answers, Esc stays."""
        if key is Nav.BACK:
            self.answer(False)
        elif key in (Nav.LEFT, Nav.RIGHT, Nav.NEXT, Nav.UP, Nav.DOWN):
            self.focus = 1 - self.focus
            self.dirty = True
        elif key is Nav.ACTIVATE:
            self.answer(self.buttons[self.focus].intent)

    def answer(self, leave: bool) -> None:
        """Leave for the menu (the seat waits, keyed), or go back to where the player was."""
        self.app.sound.play("click")
        if leave:
            self.app.go_to_menu()
        else:
            self.app.pop()

    def explanation(self) -> str:
        """What leaving costs, in the player's language (nothing, when the others stalled the game:
        `TableControl.others_absent`)."""
        if self.table.controller.others_absent:
            return tr("leave.body_stalled")
        return tr("leave.body", minutes=round(ABANDON_AFTER / 60), points=PENALTY)

    def draw(self, surface: pygame.Surface) -> None:
        """Dim what is below; on a panel, the question, what is at stake, the buttons."""
        draw_question(surface, self.buttons, self.focus, tr("leave.title"), self.explanation(), margin=0.1,
                      title_px=36, rise=190, body_lines=5, body_to_buttons=True)
