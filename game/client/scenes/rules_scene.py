"""How to play, per preset, in the player's language.

A rule set's page is its rules; a rule set with more pages (`rules_text.rules_pages`:
``classic`` has its source's strategy tips and short FAQ) shows a tab for each beside the
rule-set chooser (← → on a tab turn its pages), and the chosen tab is underlined. Turning
to another rule set shows its rules first.
"""

from __future__ import annotations

from functools import partial

import pygame
import pygame_gui

from game.engine import PRESETS

from .. import ui
from ..gui import GuiScene, step_through
from ..i18n import language, tr


def _pages(name: str) -> tuple[tuple[str, str], ...]:
    try:
        from ..rules_text import rules_pages
    except ImportError:  # the texts module is optional while it is being written
        return (("rules", tr(f"preset.{name}.line")),)
    pages = rules_pages(name, language())
    if not pages[0][1]:
        return (("rules", tr(f"preset.{name}.line")),) + pages[1:]
    return pages


class RulesScene(GuiScene):
    """A preset chooser, the tabs of its pages (where it has more than its rules), and a scrolling text."""

    preset_name = "duel"
    page = 0  # which of the rule set's pages is shown (0: its rules)

    def build(self) -> None:
        """Preset button and any tabs on top, the text below, Back at the bottom."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(42, int(50 * s))
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("rules.title"), "#heading")
        chooser = pygame.Rect(m, int(80 * s), int(w * 0.4), bh)
        self.button(chooser, f"{tr('preset.' + self.preset_name)}  ◂ ▸", lambda: self.step(1), self.step)
        pages = _pages(self.preset_name)
        self.page = min(self.page, len(pages) - 1)
        self.tabs: list[pygame.Rect] = []
        if len(pages) > 1:
            gap = m // 2
            left = chooser.right + m
            tw = (w - m - left - gap * (len(pages) - 1)) // len(pages)
            for i, (kind, _) in enumerate(pages):
                rect = pygame.Rect(left + i * (tw + gap), chooser.top, tw, bh)
                self.button(rect, tr(f"rules.page.{kind}"), partial(self.show, i), self.step_page)
                self.tabs.append(rect)
        top = int(80 * s) + bh + m // 2
        pygame_gui.elements.UITextBox(pages[self.page][1],
                                      pygame.Rect(m, top, w - 2 * m, h - top - bh - 2 * m), self.manager)
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("rules.back"), self.back)

    def step(self, delta: int) -> None:
        """The next preset's text (its rules)."""
        self.preset_name = step_through(list(PRESETS), self.preset_name, delta)
        self.page = 0
        self.rebuild()

    def show(self, page: int) -> None:
        """One of the rule set's pages (a tab)."""
        self.page = page
        self.rebuild()

    def step_page(self, delta: int) -> None:
        """Left/Right on a tab: the page before or after, the focus following it."""
        self.show((self.page + delta) % len(self.tabs))
        self.focus = 1 + self.page  # the tabs follow the rule-set chooser

    def draw_extra(self, surface: pygame.Surface) -> None:
        """The shown page's tab underlined in gold."""
        if len(self.tabs) > 1 and self.page < len(self.tabs):
            tab = self.tabs[self.page]
            thick = max(3, int(4 * self.scale))
            bar = pygame.Rect(tab.left + tab.width // 6, tab.bottom + thick, tab.width * 2 // 3, thick)
            pygame.draw.rect(surface, ui.GOLD, bar, border_radius=thick // 2)

    def back(self) -> None:
        """Close."""
        self.app.pop()
