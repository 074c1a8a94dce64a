"""The main menu: new game, settings, how to play, quit."""

from __future__ import annotations

import pygame

from ..i18n import tr
from .gui import GuiScene


class MenuScene(GuiScene):
    """The first screen."""

    def build(self) -> None:
        """Title and a column of big buttons."""
        w, h = self.app.size
        s = self.scale
        self.label(pygame.Rect(0, int(h * 0.08), w, int(80 * s)), tr("app.title"), "#title")
        self.label(pygame.Rect(0, int(h * 0.08 + 80 * s), w, int(36 * s)), tr("app.subtitle"), "#subtitle")
        bw, bh = int(min(w * 0.6, 420 * s)), max(48, int(60 * s))
        items = [("menu.new", self.new_game), ("menu.settings", self.settings), ("menu.rules", self.rules)]
        if not self.app.kiosk:
            items.append(("menu.quit", self.app.quit))
        gap = int(bh * 0.3)
        y0 = int(h * 0.36)
        for i, (key, action) in enumerate(items):
            self.button(pygame.Rect((w - bw) // 2, y0 + i * (bh + gap), bw, bh), tr(key), action)

    def new_game(self) -> None:
        """Open the new-game form."""
        from .newgame import NewGameScene

        self.app.stack.replace(NewGameScene(self.app))

    def settings(self) -> None:
        """Open the settings."""
        from .settings_scene import SettingsScene

        self.app.stack.push(SettingsScene(self.app))

    def rules(self) -> None:
        """Open how to play."""
        from .rules_scene import RulesScene

        self.app.stack.push(RulesScene(self.app))

    def resume(self) -> None:
        """Back from settings: the language may have changed."""
        self.rebuild()

    def back(self) -> None:
        """Esc on the menu does nothing (quit is a button, and kiosks have none)."""

    def draw_extra(self, surface: pygame.Surface) -> None:
        """A fan of the four eights as decoration (rendered once per window size)."""
        size = surface.get_size()
        if getattr(self, "_fan_size", None) != size:
            from game.engine import parse_cards

            from ..art import CardArt

            w, h = size
            art = CardArt(max(40, int(h * 0.09)))
            fan = pygame.Surface((w, int(h * 0.3)), pygame.SRCALPHA)
            for i, card in enumerate(parse_cards("8S 8H 8D 8C")):
                face = art.face(card)
                image = pygame.transform.rotozoom(face, 24 - 16 * i, 1.0)
                fan.blit(image, image.get_rect(center=(int(w * 0.5 + (i - 1.5) * face.get_width() * 0.55),
                                                       int(h * 0.15))))
            self._fan, self._fan_size = fan, size
        surface.blit(self._fan, (0, int(size[1] * 0.75)))
