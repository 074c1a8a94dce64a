"""The quick reactions' palette (online, R or the button by the shown seat): send one, or mute.

Eight reactions in two rows (a picture and its words in the player's language); a tap or a
digit (1 to 8) sends one and closes the palette; the bubble shows at the seat once the
server relayed it (`game.client.reactions`). Under them, who is heard: everyone's reactions
on or off, then each other person's; what is muted is kept in the settings (see
`ReactionBoard.set_muted`). ↑ ↓ ← → move the focus, Enter takes it, Esc closes. The online
game goes on underneath.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.net.messages import REACTIONS

from .. import keymap, ui
from ..i18n import tr
from ..keymap import Nav
from ..layout import MIN_TOUCH, line_height
from ..overlay import CoversTable
from ..reactions import GLYPHS, words
from ..widgets import Button, button_input

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..reactions import ReactionBoard
    from ..scene import SceneApp

COLUMNS = 4
CLOSE = "close"
EVERYONE = "everyone"


class ReactionsScene(CoversTable):
    """Overlay over an online table: a reaction to send, whose reactions to show."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow, board: ReactionBoard) -> None:
        super().__init__(app)
        self.table = self.below = table
        self.board = board
        self.focus = 0
        self.buttons: list[Button[str | int]] = []  # a reaction id, EVERYONE, a seat (int), CLOSE
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """The reactions in a grid, then a column of switches and Close."""
        w, h = size
        scale = ui.scale_for(size)
        names = self.table.names()
        controller = self.table.controller
        on, off = tr("new.on"), tr("new.off")
        switches: list[tuple[str | int, str]] = [
            (EVERYONE, tr("reactions.mute_all", value=off if self.board.settings.reactions_muted else on))]
        for seat, config in enumerate(controller.seats):
            if seat != controller.viewer and config.is_human:
                value = off if self.board.player_muted(seat) else on
                switches.append((seat, tr("reactions.mute", name=names[seat], value=value)))
        switches.append((CLOSE, tr("reactions.close")))
        rows = (len(REACTIONS) + COLUMNS - 1) // COLUMNS
        self.title_h = int(56 * scale)
        pad = int(16 * scale)
        grid_w = int(min(w * 0.9, 880 * scale))
        tile_w = (grid_w - (COLUMNS - 1) * pad) // COLUMNS
        bh = max(MIN_TOUCH, int(54 * scale))
        gap = int(bh * 0.22)
        count = rows + len(switches)
        # Seven seats make a long column: the rows share the height rather than run off the screen.
        bh = max(MIN_TOUCH, min(bh, int((h - self.title_h - 3 * pad) / (count * 1.22))))
        gap = int(bh * 0.22)
        height = self.title_h + count * (bh + gap)
        y = max(pad, (h - height) // 2) + self.title_h
        x0 = (w - grid_w) // 2
        self.buttons = []
        for i, reaction in enumerate(REACTIONS):
            row, col = divmod(i, COLUMNS)
            rect = pygame.Rect(x0 + col * (tile_w + pad), y + row * (bh + gap), tile_w, bh)
            self.buttons.append(Button(reaction, f"{GLYPHS[reaction]} {words(reaction)}", rect))
        y += rows * (bh + gap)
        sw = int(min(grid_w, 560 * scale))
        for i, (intent, label) in enumerate(switches):
            self.buttons.append(Button(intent, label, pygame.Rect((w - sw) // 2, y + i * (bh + gap), sw, bh)))
        self.title_y = self.buttons[0].rect.top - self.title_h
        self.focus = min(self.focus, len(self.buttons) - 1)

    # ---- input -------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on the tiles and switches; digits send; arrows, Enter and Esc as on every screen."""
        if event.type == pygame.KEYDOWN:
            place = keymap.reaction_key(event)
            if place is not None:
                if place < len(REACTIONS):
                    self.activate(REACTIONS[place])
                return True
        return button_input(event, self.buttons, self.activate, self.key)

    def key(self, key: Nav) -> None:
        """Arrows move the focus (left and right along the grid), Enter takes it, Esc closes."""
        count = len(self.buttons)
        match key:
            case Nav.BACK:
                self.activate(CLOSE)
            case Nav.LEFT | Nav.RIGHT:
                self.focus = (self.focus + (1 if key is Nav.RIGHT else -1)) % count
            case Nav.UP | Nav.DOWN:
                step = COLUMNS if self.focus < len(REACTIONS) else 1
                self.focus = (self.focus + (step if key is Nav.DOWN else -step)) % count
            case Nav.NEXT:
                self.focus = (self.focus + 1) % count
            case Nav.ACTIVATE:
                self.activate(self.buttons[self.focus].intent)

    def activate(self, intent: str | int) -> None:
        """Send a reaction (and close), flip a switch, or close."""
        self.app.sound.play("click")
        board = self.board
        if intent == CLOSE:
            self.app.pop()
        elif intent == EVERYONE:
            board.set_all_muted(not board.settings.reactions_muted)
            self.app.save_settings()
            self.resize(self.app.size)
        elif isinstance(intent, int):
            board.set_muted(intent, not board.player_muted(intent))
            self.app.save_settings()
            self.resize(self.app.size)
        else:
            board.controller.react(intent)
            self.app.pop()

    # ---- time --------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table; the title, the tiles and the switches on a panel."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        scale = ui.scale_for(surface.get_size())
        w, h = surface.get_size()
        pad = int(16 * scale)
        column = self.buttons[0].rect.unionall([b.rect for b in self.buttons])
        top = max(0, self.title_y - pad // 2)
        ui.panel(surface, pygame.Rect(column.x - pad, top, column.w + 2 * pad,
                                      min(h, column.bottom + pad) - top), scale)
        px = int(34 * scale)
        ui.fit(surface, tr("reactions.title"), (0, self.title_y, w, line_height(px)), px, bold=True,
               color=ui.GOLD)
        for i, button in enumerate(self.buttons):
            button.hot = i == self.focus
            button.draw(surface, scale)
