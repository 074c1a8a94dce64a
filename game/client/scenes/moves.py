"""The whole move log of the round, over the table (M, or a tap on the log under Menu).

The rules in force (all of them: the table's corner may only count some), then every
move of the round being played, oldest first, as the table's log words them
(`game.client.move_log`: only what every seat saw, never a drawn card). A long log
scrolls: the mouse wheel, ↑ ↓, Page Up/Down, Home/End, or dragging a finger; it
opens on the newest moves. A tap (without dragging), Esc, Enter or M closes it.
Like the pause menu, a local game waits underneath while it is open; an online one goes on
(`overlay.CoversTable`): the log grows as the others play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from .. import keymap, ui
from ..i18n import tr
from ..intents import TableCommand
from ..keymap import Nav
from ..layout import line_height
from ..overlay import CoversTable
from ..table_paint import options_in_force

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class MovesScene(CoversTable):
    """Overlay: a panel listing the round's moves."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        super().__init__(app)
        self.table = self.below = table
        self.top_line = 0  # index of the first line shown
        self._press: tuple[int, int] | None = None  # where a press began (a drag scrolls)
        self._dragged = False
        self._drag_from = 0
        self.resize(app.size)
        self.scroll_to_end()

    # ---- geometry ----------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """A centred panel: a title, the lines, and how to close it."""
        w, h = size
        scale = ui.scale_for(size)
        self.scale = scale
        self.px = max(14, int(19 * scale))
        self.title_px = max(18, int(30 * scale))
        self.hint_px = max(12, int(15 * scale))
        pw, ph = int(min(w * 0.8, 980 * scale)), int(h * 0.84)
        self.panel = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        pad = int(18 * scale)
        self.title_box = pygame.Rect(self.panel.x + pad, self.panel.y + pad, pw - 2 * pad,
                                     line_height(self.title_px))
        self.hint_box = pygame.Rect(self.panel.x + pad, self.panel.bottom - pad - line_height(self.hint_px),
                                    pw - 2 * pad, line_height(self.hint_px))
        rules_h = 3 * line_height(self.hint_px) if self.rules_text() else 0
        self.rules_box = pygame.Rect(self.title_box.x, self.title_box.bottom + pad // 3, self.title_box.w,
                                     rules_h)
        top = self.rules_box.bottom + pad // 2
        self.step = line_height(self.px) + max(2, int(4 * scale))
        self.list_box = pygame.Rect(self.panel.x + pad, top, pw - 2 * pad, self.hint_box.top - pad // 2 - top)
        self.rows = max(1, self.list_box.height // self.step)

    def rules_text(self) -> str:
        """Every rule in force (the table's information block may only count some of them)."""
        rules = options_in_force(self.table.view.rules, undo=self.table.controller.undo_offered)
        return tr("log.rules", rules=" · ".join(rules)) if rules else ""

    def lines(self) -> list[str]:
        """The round's moves in words (the language may have changed since)."""
        return self.table.move_lines()

    @property
    def last_top(self) -> int:
        """The highest `top_line` (the newest moves at the bottom of the panel)."""
        return max(0, len(self.lines()) - self.rows)

    def scroll(self, lines: int) -> None:
        """Move the view by ``lines`` (negative: towards the older moves)."""
        self.top_line = max(0, min(self.last_top, self.top_line + lines))

    def scroll_to_end(self) -> None:
        """Show the newest moves."""
        self.top_line = self.last_top

    # ---- input -------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Scroll by wheel, keys or drag; a tap, Esc, Enter or M closes."""
        if event.type == pygame.KEYDOWN:
            key = keymap.nav(event)
            if key in (Nav.BACK, Nav.ACTIVATE) or keymap.table_key(event) is TableCommand.MOVES:
                self.close()  # Esc, Enter, or the key that opened it (M)
                return True
            match key:
                case Nav.UP:
                    self.scroll(-1)
                case Nav.DOWN:
                    self.scroll(1)
                case Nav.PAGE_UP:
                    self.scroll(-self.rows)
                case Nav.PAGE_DOWN:
                    self.scroll(self.rows)
                case Nav.FIRST:
                    self.top_line = 0
                case Nav.LAST:
                    self.scroll_to_end()
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-3 * int(event.y))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._press, self._dragged, self._drag_from = event.pos, False, self.top_line
            return True
        if event.type == pygame.MOUSEMOTION and self._press is not None and event.buttons[0]:
            moved = event.pos[1] - self._press[1]
            if abs(moved) > self.step // 2:
                self._dragged = True
            if self._dragged:
                self.top_line = max(0, min(self.last_top, self._drag_from - round(moved / self.step)))
            return True
        if event.type == pygame.MOUSEBUTTONUP:
            dragged = self._dragged
            self._press, self._dragged = None, False
            if not dragged:
                self.close()
            return True
        return False

    def close(self) -> None:
        """Back to the table."""
        self.app.sound.play("click")
        self.app.pop()

    # ---- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table; the panel with the visible lines and a scroll bar when they do not all fit."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        scale = self.scale
        radius = int(14 * scale)
        pygame.draw.rect(surface, (12, 44, 33), self.panel, border_radius=radius)
        pygame.draw.rect(surface, ui.GOLD, self.panel, width=max(1, int(2 * scale)), border_radius=radius)
        ui.fit(surface, tr("log.title"), self.title_box, self.title_px, bold=True, color=ui.GOLD)
        rules = self.rules_text()
        if rules and self.rules_box.height:
            ui.fit(surface, rules, self.rules_box, self.hint_px, lines=3, valign="top", color=(200, 205, 195))
        lines = self.lines()
        self.top_line = max(0, min(self.last_top, self.top_line))
        if not lines:
            ui.fit(surface, tr("log.empty"), (self.list_box.x, self.list_box.y, self.list_box.w, self.step),
                   self.px)
        text_w = self.list_box.width - int(16 * scale)
        for row, line in enumerate(lines[self.top_line: self.top_line + self.rows]):
            number = self.top_line + row + 1
            box = pygame.Rect(self.list_box.x, self.list_box.y + row * self.step, text_w, self.step)
            ui.fit(surface, f"{number}. {line}", box, self.px, align="left")
        if len(lines) > self.rows:  # a scroll bar: where the shown lines sit in the whole log
            track = pygame.Rect(self.list_box.right - int(8 * scale), self.list_box.y, int(6 * scale),
                                self.rows * self.step)
            pygame.draw.rect(surface, (40, 80, 64), track, border_radius=track.width // 2)
            thumb_h = max(track.width * 2, track.height * self.rows // len(lines))
            thumb_y = track.y + (track.height - thumb_h) * self.top_line // max(1, self.last_top)
            pygame.draw.rect(surface, ui.GOLD, (track.x, thumb_y, track.width, thumb_h),
                             border_radius=track.width // 2)
        ui.fit(surface, tr("log.close"), self.hint_box, self.hint_px, color=(200, 205, 195))
