"""Clear data: after a confirmation, delete every save, the settings, the statistics, the seat keys and
the player key."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.saves.paths import ONLINE, PLAYER, ROOMS, SETTINGS, STATISTICS

from .. import i18n
from ..gui import GuiScene
from ..i18n import tr
from ..settings import Settings

if TYPE_CHECKING:
    from ..scene import SceneApp


def describe(deleted: list[Path]) -> str:
    """What was deleted, in words: "2 saved game(s), the settings" (backups go with their game)."""
    names = [p.name.split(".")[0] for p in deleted]
    games = len({p.name.split(".")[0] for p in deleted if p.name.split(".")[1:2] == ["huit"]})
    keys = len({p.name.split(".")[0] for p in deleted if p.parent.name == ONLINE})
    parts = []
    if games:
        parts.append(tr("clear.games", n=games))
    if SETTINGS.split(".")[0] in names:
        parts.append(tr("clear.settings"))
    if STATISTICS.split(".")[0] in names:
        parts.append(tr("clear.statistics"))
    if keys:
        parts.append(tr("clear.keys", n=keys))
    if PLAYER.split(".")[0] in names:
        parts.append(tr("clear.player"))
    if any(p.name == ROOMS for p in deleted):
        parts.append(tr("clear.rooms"))
    return tr("clear.done", what=", ".join(parts)) if parts else tr("clear.nothing")


class ClearDataScene(GuiScene):
    """The question, then what was deleted."""

    def __init__(self, app: SceneApp) -> None:
        self.done: str | None = None
        super().__init__(app)

    def build(self) -> None:
        """The question (or the answer) and two buttons (or one)."""
        w, h = self.app.size
        s = self.scale
        self.label(pygame.Rect(0, int(40 * s), w, int(60 * s)), tr("clear.title"), "#heading")
        text = self.done if self.done is not None else tr("clear.question")
        box = pygame.Rect(int(w * 0.15), int(130 * s), int(w * 0.7), int(160 * s))
        pygame_gui.elements.UITextBox(html.escape(text), box, self.manager, object_id="#desc")
        bw, bh = int(min(w * 0.3, 300 * s)), max(44, int(56 * s))
        y = int(130 * s + 160 * s + 40 * s)
        if self.done is None:
            self.button(pygame.Rect(w // 2 - bw - int(10 * s), y, bw, bh), tr("clear.cancel"), self.back)
            self.button(pygame.Rect(w // 2 + int(10 * s), y, bw, bh), tr("clear.confirm"), self.confirm)
        else:
            self.button(pygame.Rect((w - bw) // 2, y, bw, bh), tr("settings.back"), self.back)

    def confirm(self) -> None:
        """Delete, reset the settings to their defaults, and say what went."""
        self.app.stop_hosting()  # its database goes too: the rooms this device hosted
        deleted = self.app.store.clear()
        self.app.settings = Settings()
        i18n.set_language(self.app.settings.language)
        self.app.sound.set_volume(self.app.settings.volume)
        self.app.sound.set_muted(self.app.settings.muted)
        self.app.notice = ""
        self.done = describe(deleted)  # in the language now in force
        self.rebuild()

    def back(self) -> None:
        """Close (Esc or Cancel deletes nothing)."""
        self.app.pop()
