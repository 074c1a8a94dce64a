"""Settings: language, animation speed, volume and mute, four-colour deck, left-handed, undo, the hand's
order, clear data.

Changes are kept for the next run when the screen closes. When nothing can be saved
in the data folder (read-only, full, a file where the folder should be) a line under
the title says so and why, as the menu does."""

from __future__ import annotations

import html
from functools import partial
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from .. import i18n
from ..gui import GuiScene
from ..i18n import tr
from ..overlay import CoversTable
from ..saving import write_problem_line
from ..settings import HAND_SORTS, SPEEDS

if TYPE_CHECKING:
    from ..overlay import TableBelow
    from ..scene import SceneApp

VOLUMES = tuple(round(v / 10, 1) for v in range(0, 11))


class SettingsScene(CoversTable, GuiScene):
    """Pushed over the menu or the pause overlay; Back pops it. From the pause menu it covers the
    table (``table``): an online game goes on underneath."""

    def __init__(self, app: SceneApp, table: TableBelow | None = None) -> None:
        self.below = table
        self.unwritable = write_problem_line(app, "settings")  # before the first build
        super().__init__(app)

    def build(self) -> None:
        """One big button per setting."""
        w, h = self.app.size
        s = self.scale
        st = self.app.settings
        bw, bh = int(min(w * 0.7, 560 * s)), max(42, int(50 * s))
        gap = int(bh * 0.22)
        self.label(pygame.Rect(0, int(24 * s), w, int(60 * s)), tr("settings.title"), "#heading")

        def onoff(value: bool) -> str:
            return tr("new.on") if value else tr("new.off")

        def pair(key: str, value: object) -> str:
            return tr("fmt.pair", label=tr(key), value=value)

        rows = [
            (pair("settings.language", i18n.LANGUAGE_NAMES.get(st.language, st.language)),
             self.step_language),
            (pair("settings.speed", tr("settings.speed." + st.speed)), self.step_speed),
            (pair("settings.volume", f"{round(st.volume * 100)}%"), self.step_volume),
            (pair("settings.mute", onoff(st.muted)), lambda d: self.toggle("muted")),
            (pair("settings.four_color", onoff(st.four_color)), lambda d: self.toggle("four_color")),
            (pair("settings.left_handed", onoff(st.left_handed)), lambda d: self.toggle("left_handed")),
            (pair("settings.undo", onoff(st.undo_allowed)), lambda d: self.toggle("undo_allowed")),
            (pair("settings.hand_sort", tr("sort." + st.hand_sort)), self.step_hand_sort),
        ]
        if not self.app.kiosk:
            rows.append((pair("settings.fullscreen", onoff(self.app.fullscreen)),
                         lambda d: self.app.toggle_fullscreen()))
        y = int(100 * s)
        if self.unwritable:
            box_h = int(64 * s)
            box = pygame.Rect(int(w * 0.08), int(84 * s), int(w * 0.84), box_h)
            pygame_gui.elements.UITextBox(html.escape(self.unwritable), box, self.manager, object_id="#desc")
            y = int(84 * s) + box_h + int(8 * s)
        bh = max(36, min(bh, (h - y - int(20 * s)) // (len(rows) + 2) - gap))
        for text, step in rows:
            self.button(pygame.Rect((w - bw) // 2, y, bw, bh), text, partial(step, 1), step)
            y += bh + gap
        wide = (bw - gap) * 3 // 5  # "Effacer les données…" needs more room than "Retour"
        if self.app.table_controller() is None:  # not under a game: it would be saved again at once
            self.button(pygame.Rect((w - bw) // 2, y + gap, wide, bh), tr("settings.clear"), self.clear_data)
        back = pygame.Rect((w - bw) // 2 + wide + gap, y + gap, bw - wide - gap, bh)
        self.button(back, tr("settings.back"), self.back)

    def step_language(self, delta: int) -> None:
        """Switch language; every screen reads the catalogue again."""
        langs = i18n.LANGUAGES
        st = self.app.settings
        st.language = langs[(langs.index(st.language) + delta) % len(langs)] if st.language in langs else "en"
        i18n.set_language(st.language)
        self.rebuild()

    def step_speed(self, delta: int) -> None:
        """Slow, normal, fast, instant."""
        names = list(SPEEDS)
        st = self.app.settings
        st.speed = names[(names.index(st.speed) + delta) % len(names)]
        self.rebuild()

    def step_hand_sort(self, delta: int) -> None:
        """As dealt, by suit, by rank: how the table lays out the hand (at once, under the pause menu)."""
        st = self.app.settings
        sorts = list(HAND_SORTS)
        index = sorts.index(st.hand_sort) if st.hand_sort in sorts else 0
        st.hand_sort = sorts[(index + delta) % len(sorts)]
        self.rebuild()

    def step_volume(self, delta: int) -> None:
        """Volume in tenths."""
        st = self.app.settings
        index = min(range(len(VOLUMES)), key=lambda i: abs(VOLUMES[i] - st.volume))
        st.volume = VOLUMES[(index + delta) % len(VOLUMES)]
        self.app.sound.set_volume(st.volume)
        self.app.sound.play("click")
        self.rebuild()

    def toggle(self, name: str) -> None:
        """Flip a yes/no setting."""
        st = self.app.settings
        setattr(st, name, not getattr(st, name))
        if name == "muted":
            self.app.sound.set_muted(st.muted)
        self.rebuild()

    def clear_data(self) -> None:
        """Ask before deleting everything the game keeps."""
        self.app.push("ClearData")

    def enter(self) -> None:
        """Remember the settings as they were, to write them only if they change."""
        self._opened = self.app.settings.to_json()

    def resume(self) -> None:
        """Back from Clear data: the settings are the defaults again, and nothing is on disk."""
        self._opened = self.app.settings.to_json()
        self.rebuild()

    def back(self) -> None:
        """Close the settings and keep them if they changed."""
        self.closing()
        self.app.pop()

    def closing(self) -> None:
        """Keep the settings if they changed (on Back, and when the game ends with this screen open)."""
        if self.app.settings.to_json() != getattr(self, "_opened", None):
            self.app.save_settings()
            self._opened = self.app.settings.to_json()
