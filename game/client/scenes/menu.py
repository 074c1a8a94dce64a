"""The main menu: continue a saved game, the three modes, statistics, settings, how to play, quit.

The modes are named as the rule sources name them: Solo against the computer and
Same device open the new-game form for that mode; Play with a friend opens the
online lobby.

Each mode with a saved game gets a "Continue" button saying what it resumes. A save
that cannot be read is reported here (and left untouched); when its backup can be
read, a button offers it, else the menu says why the backup cannot be used either.
Above them, the app's notice: a line per settings or statistics file that could not
be read (or only in part), and why; and a line when nothing can be saved in the data
folder (read-only, full, a file where the folder should be), looked at when the menu
opens and when a screen over it closes.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Final

import pygame
import pygame_gui

from game.saves import SaveError

from ..gui import GuiScene
from ..i18n import tr
from ..saving import SavedGame, resume, saved_games, why, write_problem_line

if TYPE_CHECKING:
    from ..scene import SceneApp


MIN_BUTTON: Final = 40
"""The least height of a menu button (a finger's width); below it the buttons go two by two."""


class MenuScene(GuiScene):
    """The first screen."""

    def __init__(self, app: SceneApp) -> None:
        self.unwritable = write_problem_line(app, "menu")  # before the first build
        super().__init__(app)

    def build(self) -> None:
        """Title, any messages, and a column of big buttons that fits the window (when it would
        not, the Continue lines keep a row each and the rest go two to a row)."""
        w, h = self.app.size
        s = self.scale
        self.label(pygame.Rect(0, int(h * 0.06), w, int(80 * s)), tr("app.title"), "#title")
        self.label(pygame.Rect(0, int(h * 0.06 + 80 * s), w, int(36 * s)), tr("app.subtitle"), "#subtitle")
        items: list[tuple[str, Callable[[], None]]] = []
        messages = self.app.notice.splitlines()
        if self.unwritable:
            messages.insert(0, self.unwritable)
        self.saves = saved_games(self.app)
        for saved in self.saves:
            if saved.payload is not None:
                items.append((tr("menu.continue_game", summary=saved.line),
                              partial(self.continue_game, saved)))
            elif saved.problem is not None:
                messages.append(tr("save.unreadable", mode=tr("save.mode." + saved.mode),
                                   why=why(saved.problem)))
                if saved.backup is not None:
                    items.append((tr("save.use_backup", summary=saved.line),
                                  partial(self.continue_game, saved, backup=True)))
                else:
                    messages += self.backup_problem(saved.mode)
        items += self.choices()
        y0 = int(h * 0.06 + 124 * s)
        if messages:
            box_h = int(min(h * 0.22, (30 + 34 * len(messages)) * s * 1.4))
            text = "<br>".join(html.escape(m) for m in messages)
            box = pygame.Rect(int(w * 0.1), y0, int(w * 0.8), box_h)
            pygame_gui.elements.UITextBox(text, box, self.manager, object_id="#desc")
            y0 += box_h + int(8 * s)
        bw = int(min(w * 0.9, 720 * s)) if len(self.saves) else int(min(w * 0.6, 420 * s))
        room = h - y0 - int(16 * s)
        continues = len(items) - len(self.choices())
        rows = [[item] for item in items]
        if room / (len(rows) * 1.25) < MIN_BUTTON:  # too many for one column: the rest two by two
            rest = items[continues:]
            rows = rows[:continues] + [rest[i:i + 2] for i in range(0, len(rest), 2)]
            bw = int(min(w * 0.9, 720 * s))
        bh = max(MIN_BUTTON, min(int(60 * s), int(room / (len(rows) * 1.25))))
        gap = int(bh * 0.25)
        for r, row in enumerate(rows):
            width = (bw - gap * (len(row) - 1)) // len(row)
            for c, (text, action) in enumerate(row):
                rect = pygame.Rect((w - bw) // 2 + c * (width + gap), y0 + r * (bh + gap), width, bh)
                self.button(rect, text, action)

    def choices(self) -> list[tuple[str, Callable[[], None]]]:
        """What the menu offers besides the saved games: the modes, then the rest."""
        items: list[tuple[str, Callable[[], None]]] = [
            (tr("menu.solo"), self.new_solo), (tr("menu.hotseat"), self.new_hotseat),
            (tr("menu.online"), self.online), (tr("menu.statistics"), self.statistics),
            (tr("menu.settings"), self.settings), (tr("menu.rules"), self.rules)]
        if not self.app.kiosk:
            items.append((tr("menu.quit"), self.app.quit))
        return items

    def backup_problem(self, mode: str) -> list[str]:
        """Why ``mode``'s backup cannot be offered either, if there is one (a line, or none)."""
        try:
            self.app.store.games.read(mode, backup=True)
        except SaveError as exc:
            return [tr("save.backup_unreadable", why=why(exc))]
        except Exception:  # a backup too damaged to describe: never a crash on the menu
            return []
        return []

    def continue_game(self, saved: SavedGame, backup: bool = False) -> None:
        """Put a saved game (or its backup) back on the table."""
        payload = saved.backup if backup else saved.payload
        assert payload is not None
        try:
            resume(self.app, payload, from_backup=backup)
        except ValueError as exc:  # checked on reading, but a table may still refuse it
            self.app.notice = tr("save.resume_failed", why=str(exc))
            self.rebuild()
            return
        self.app.notice = ""

    def new_game(self, mode: str = "solo") -> None:
        """Open the new-game form for ``mode`` (``solo`` or ``hotseat``)."""
        self.app.replace("NewGame", mode=mode)

    def new_solo(self) -> None:
        """Solo against the computer: the form seats one person and computers."""
        self.new_game("solo")

    def new_hotseat(self) -> None:
        """Same device: the form seats two or more people, who name their seats."""
        self.new_game("hotseat")

    def online(self) -> None:
        """Open the online lobby."""
        self.app.replace("Lobby")

    def statistics(self) -> None:
        """Open the statistics."""
        self.app.push("Statistics")

    def settings(self) -> None:
        """Open the settings."""
        self.app.push("Settings")

    def rules(self) -> None:
        """Open how to play."""
        self.app.push("Rules")

    def resume(self) -> None:
        """Back from settings: the language may have changed, and so may the disk."""
        self.unwritable = write_problem_line(self.app, "menu")
        self.rebuild()

    def back(self) -> None:
        """Esc on the menu does nothing (quit is a button, and kiosks have none)."""

    def draw_extra(self, surface: pygame.Surface) -> None:
        """A fan of the four eights as decoration (rendered once per window size), where no button is."""
        size = surface.get_size()
        if getattr(self, "_fan_size", None) != size:
            from game.engine import parse_cards

            from ..art import CardArt

            w, h = size
            art = CardArt(max(40, int(h * 0.09)))
            fan = pygame.Surface((w, int(h * 0.3)), pygame.SRCALPHA)
            ink: pygame.Rect | None = None
            for i, card in enumerate(parse_cards("8S 8H 8D 8C")):
                face = art.face(card)
                image = pygame.transform.rotozoom(face, 24 - 16 * i, 1.0)
                centre = (int(w * 0.5 + (i - 1.5) * face.get_width() * 0.55), int(h * 0.15))
                rect = image.get_rect(center=centre)
                fan.blit(image, rect)
                ink = rect if ink is None else ink.union(rect)
            assert ink is not None
            self._fan, self._fan_size = fan, size
            self.fan_rect = ink.move(0, int(size[1] * 0.75))
        # With many buttons (two Continue lines) the fan would show through them: leave it out.
        self.fan_shown = not any(c.element.rect.colliderect(self.fan_rect) for c in self.controls)
        if self.fan_shown:
            surface.blit(self._fan, (0, int(size[1] * 0.75)))
