"""The rules of the game being played, from the pause menu: the rule set and every house rule.

"Rules of this game" on the pause menu opens it over the table: the rule set's name and
line, the number of players, then each house rule the rule set offers with its value in
this game and its one-line explanation (`house_rules.summary_markup`), in a scrolling box;
Back (or Esc) returns to the pause menu. It reads the rules from the table's view only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ..gui import GuiScene
from ..house_rules import summary_markup
from ..i18n import tr
from ..overlay import CoversTable

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class RulesInPlayScene(CoversTable, GuiScene):
    """A title, the rules of the game in play, and Back."""

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        self.below = table  # online, the game goes on underneath
        view = table.view
        self.markup = summary_markup(view.rules, view.players)
        super().__init__(app)

    def build(self) -> None:
        """The title on top, the text below, Back at the bottom."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(42, int(50 * s))
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("rules_in_play.title"), "#heading")
        top = m // 2 + int(56 * s) + m // 2
        pygame_gui.elements.UITextBox(self.markup, pygame.Rect(m, top, w - 2 * m, h - top - bh - 2 * m),
                                      self.manager)
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("rules.back"), self.back)

    def back(self) -> None:
        """Back (or Esc): to the pause menu underneath."""
        self.app.pop()
