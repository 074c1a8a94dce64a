"""How to play, per preset, in the player's language."""

from __future__ import annotations

import pygame
import pygame_gui

from game.engine import PRESETS

from ..i18n import language, tr
from .gui import GuiScene


def _text(name: str) -> str:
    try:
        from ..rules_text import rules_text
    except ImportError:  # the texts module is optional while it is being written
        return tr(f"preset.{name}.line")
    return rules_text(name, language()) or tr(f"preset.{name}.line")


class RulesScene(GuiScene):
    """A preset chooser and a scrolling text."""

    preset_name = "duel"

    def build(self) -> None:
        """Preset button on top, the text below, Back at the bottom."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(42, int(50 * s))
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("rules.title"), "#heading")
        self.button(pygame.Rect(m, int(80 * s), int(w * 0.4), bh),
                    f"{tr('preset.' + self.preset_name)}  ◂ ▸", lambda: self.step(1), self.step)
        top = int(80 * s) + bh + m // 2
        pygame_gui.elements.UITextBox(_text(self.preset_name),
                                      pygame.Rect(m, top, w - 2 * m, h - top - bh - 2 * m), self.manager)
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("rules.back"), self.back)

    def step(self, delta: int) -> None:
        """The next preset's text."""
        names = list(PRESETS)
        self.preset_name = names[(names.index(self.preset_name) + delta) % len(names)]
        self.rebuild()

    def back(self) -> None:
        """Close."""
        self.app.stack.pop()
