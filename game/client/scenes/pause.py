"""The pause overlay (Esc or Menu): resume, change a computer's level, settings, the rules of this
game, a new game, menu.

"Rules" shows the rule set and house rules of the game in play (`RulesInPlay`). "New game"
(not online, where the room plays on) opens the new-game form of the same mode: the game is
saved as when going back to the menu, so Continue still brings it back, and the form's Start
asks before a new game replaces it (`ReplaceSave`), as it does from the menu. Settings and
Rules share a row, as do New game and the menu, so seven seats still fit at 1024×600.

↑ ↓ choose a button, Enter takes it, and on a computer's level ← → step the level down
or up (as on every menu). Each person the autopilot plays for has a row that turns it
off (and on again while the menu is open): at a hot-seat table the table's own toggle
speaks for the person holding the device, and this is how someone else's is reached.
Settings changed from here show on the table behind at once.

A local game waits underneath. An online room goes on at the server meanwhile (it
does not pause), and the table underneath runs on, dimmed: the countdown to a takeover
ticks, what the server says is shown as it comes (the screen is always what the game is). Online
computers keep the levels the room was created with (the controller says whether
levels can be changed: `TableControl.can_set_levels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.ai import LEVELS

from .. import ui
from ..i18n import tr
from ..intents import ChangeLevel, PauseChoice, PauseIntent, ToggleAutopilot
from ..keymap import Nav
from ..layout import MIN_TOUCH, line_height
from ..overlay import CoversTable
from ..widgets import Button, button_input

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp


class PauseScene(CoversTable):
    """Overlay; a local game (computer turns, timers) waits underneath, an online one goes on."""

    opaque = False

    def __init__(self, app: SceneApp, table: TableBelow) -> None:
        super().__init__(app)
        self.table = self.below = table
        self.focus = 0
        self.buttons: list[Button[PauseIntent]] = []
        controller = table.controller
        # The people on the autopilot when the menu opened keep their row while it is open.
        self.autopiloted = [s for s in controller.local_seats
                            if controller.can_autopilot and controller.autopilot(s)]
        self.resize(app.size)

    def resize(self, size: tuple[int, int]) -> None:
        """A centred column of buttons."""
        w, h = size
        scale = ui.scale_for(size)
        names = self.table.names()
        controller = self.table.controller
        specs: list[tuple[PauseIntent, str]] = [(PauseChoice.RESUME, tr("pause.resume"))]
        for seat, config in enumerate(controller.seats):
            if not config.is_human and controller.can_set_levels:
                specs.append((ChangeLevel(seat), tr("pause.level", name=names[seat],
                                                    level=tr("level." + config.level))))
            elif seat in self.autopiloted:
                value = tr("new.on" if controller.autopilot(seat) else "new.off")
                specs.append((ToggleAutopilot(seat), tr("pause.autopilot", name=names[seat], value=value)))
        specs += [(PauseChoice.SETTINGS, tr("menu.settings")), (PauseChoice.RULES, tr("pause.rules"))]
        if controller.can_rematch:  # online the room plays on: no new game from here
            specs.append((PauseChoice.NEW_GAME, tr("pause.new_game")))
        specs.append((PauseChoice.MENU, tr("pause.menu")))
        rows = _rows(specs)
        title_h = int(60 * scale)
        bw, bh = int(min(w * 0.5, 460 * scale)), max(44, int(54 * scale))
        # Seven seats make ten rows: they share the height rather than run off the screen.
        bh = max(MIN_TOUCH, min(bh, int((h - 2 * title_h) / (len(rows) * 1.25))))
        gap = int(bh * 0.25)
        y0 = max(title_h + int(12 * scale), (h - len(rows) * (bh + gap)) // 2 + int(30 * scale))
        self.buttons = []
        for i, row in enumerate(rows):
            cell = (bw - gap * (len(row) - 1)) // len(row)
            for j, (intent, label) in enumerate(row):
                rect = pygame.Rect((w - bw) // 2 + j * (cell + gap), y0 + i * (bh + gap), cell, bh)
                self.buttons.append(Button(intent, label, rect))
        self.title_y = y0 - title_h
        self.focus = min(self.focus, len(self.buttons) - 1)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Taps on buttons; arrows and Enter; Esc resumes."""
        return button_input(event, self.buttons, self.activate, self.key)

    def key(self, key: Nav) -> None:
        """↑ ↓ choose a button, Enter takes it, ← → step its value, Esc resumes."""
        match key:
            case Nav.BACK:
                self.activate(PauseChoice.RESUME)
            case Nav.UP | Nav.DOWN:
                self.focus = (self.focus + (1 if key is Nav.DOWN else -1)) % len(self.buttons)
            case Nav.ACTIVATE:
                self.activate(self.buttons[self.focus].intent)
            case Nav.LEFT | Nav.RIGHT:
                self.step(-1 if key is Nav.LEFT else 1)

    def step(self, delta: int) -> None:
        """← or →: change the value of the focused button (a computer's level down or up, a
        person's autopilot); nothing on the other buttons."""
        match self.buttons[self.focus].intent:
            case ChangeLevel(seat=seat):
                self.activate(ChangeLevel(seat, delta))
            case ToggleAutopilot() as toggle:
                self.activate(toggle)

    def activate(self, intent: PauseIntent) -> None:
        """Carry out a button."""
        self.app.sound.play("click")
        match intent:
            case PauseChoice.RESUME:
                self.app.pop()
            case ChangeLevel(seat=seat, step=step):
                controller = self.table.controller
                current = controller.seats[seat].level
                controller.set_level(seat, LEVELS[(LEVELS.index(current) + step) % len(LEVELS)])
                self.resize(self.app.size)
            case ToggleAutopilot(seat=seat):
                controller = self.table.controller
                controller.set_autopilot(seat, not controller.autopilot(seat))
                self.resize(self.app.size)
            case PauseChoice.SETTINGS:
                self.app.push("Settings", table=self.table)  # online, the game goes on under it
            case PauseChoice.MENU if self.table.controller.leaving_is_abandon:
                self.app.push("LeaveRanked", table=self.table)  # the seat is at stake: asked first
            case PauseChoice.RULES:
                self.app.push("RulesInPlay", table=self.table)
            case PauseChoice.NEW_GAME:
                mode = "hotseat" if len(self.table.controller.local_seats) >= 2 else "solo"
                self.app.go_to_menu()  # the game is saved, as from the menu
                self.app.replace("NewGame", mode=mode)
            case PauseChoice.MENU:
                self.app.go_to_menu()

    def resume(self) -> None:
        """Back from settings: labels may be in another language, and the table behind shows the
        settings as they are now (its language, the four-colour deck) at once."""
        self.table.apply_settings()
        self.resize(self.app.size)
        self.dirty = True

    def draw(self, surface: pygame.Surface) -> None:
        """Dim the table, draw the column on a panel."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 160))
        surface.blit(shade, (0, 0))
        scale = ui.scale_for(surface.get_size())
        px = int(40 * scale)
        w, h = surface.get_size()
        pad = int(20 * scale)
        column = self.buttons[0].rect.unionall([b.rect for b in self.buttons])
        top = max(0, self.title_y - pad // 2)
        ui.panel(surface, pygame.Rect(column.x - pad, top, column.w + 2 * pad,
                                      min(h, column.bottom + pad) - top), scale)  # the title off the cards
        box = (0, self.title_y, w, line_height(px))
        title = tr("pause.title_online" if self.table.controller.online else "pause.title")  # it goes on
        ui.fit(surface, title, box, px, bold=True, color=ui.GOLD)
        for i, button in enumerate(self.buttons):
            button.hot = i == self.focus
            button.draw(surface, scale)


SHARED_ROWS = ((PauseChoice.SETTINGS, PauseChoice.RULES), (PauseChoice.NEW_GAME, PauseChoice.MENU))
"""Buttons that share a row, two halves side by side, when both are offered."""


def _rows(specs: list[tuple[PauseIntent, str]]) -> list[list[tuple[PauseIntent, str]]]:
    """The buttons by row: one a row, but the pairs of `SHARED_ROWS` side by side."""
    rows: list[list[tuple[PauseIntent, str]]] = []
    for spec in specs:
        if rows and (rows[-1][-1][0], spec[0]) in SHARED_ROWS and len(rows[-1]) == 1:
            rows[-1].append(spec)
        else:
            rows.append([spec])
    return rows
