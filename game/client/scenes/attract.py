"""The attract game (a kiosk idle at its menu, `game.client.attract`): computers play, "Touch to play".

The scene holds a real table (the ``Table`` scene, made by name) driven by an
`ExhibitionController` (computers only, their usual think delays) and runs and draws it
itself, under a banner readable from afar: "Touch to play", and a line saying this is a
demonstration between computers. The table underneath never sees an event: the first
touch, click or key goes back to the menu at once (a touch's press is swallowed, its release
goes back, so nothing under the finger is tapped on the menu either). The App finds no game
to save here (the table is not in its stack), so the attract game is never saved nor counted.

Once a deal is over, the result stays `RESULT_PAUSE` seconds, then the next attract game is
dealt (other rules, `exhibition.SHOWS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import pygame

from game.engine import Status

from .. import registry, ui
from ..exhibition import exhibition
from ..i18n import tr
from ..layout import line_height
from ..scene import Scene

if TYPE_CHECKING:
    from ..scene import SceneApp

RESULT_PAUSE: Final = 5.0
"""Seconds a finished attract deal stays on the table before the next game is dealt."""
BANNER_ALPHA: Final = 225


class AttractScene(Scene):
    """A computers-only game on the table, under "Touch to play"; any touch or key leaves it."""

    def __init__(self, app: SceneApp, number: int = 0) -> None:
        super().__init__(app)
        self.number = number
        self.over_for = 0.0  # seconds the finished deal has been shown
        self.controller = exhibition(number)
        self.table = registry.make(app, "Table", {"controller": self.controller})
        self.resize(app.size)

    def enter(self) -> None:
        """The deal is animated, as on any table."""
        self.table.enter()

    def resize(self, size: tuple[int, int]) -> None:
        """The table and the banner for the new size."""
        self.table.resize(size)
        w, h = size
        band = int(h * 0.24)
        self.banner = pygame.Rect(0, h - band - int(h * 0.04), w, band)
        self.dirty = True

    # ---- input -------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """A touch's release, a click or a key: back to the menu; nothing reaches the table."""
        if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self.app.replace("Menu")
        return True

    # ---- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Run the table; after a deal's result, the next attract game."""
        self.table.update(dt)
        if self.table.dirty:
            self.dirty = True
        if self.controller.view().status != Status.PLAYING:
            self.over_for += dt
            if self.over_for >= RESULT_PAUSE:
                self.app.replace("Attract", number=self.number + 1)

    def next_frame(self) -> float | None:
        """When the table needs its next frame, or the next game is due."""
        then = self.table.next_frame()
        if self.controller.view().status != Status.PLAYING:
            left = max(0.0, RESULT_PAUSE - self.over_for)
            then = left if then is None else min(then, left)
        return then

    def draw(self, surface: pygame.Surface) -> None:
        """The table, then the banner across its lower part."""
        self.table.draw(surface)
        self.table.dirty = False
        w, h = surface.get_size()
        band = pygame.Surface(self.banner.size, pygame.SRCALPHA)
        band.fill((8, 30, 22, BANNER_ALPHA))
        surface.blit(band, self.banner.topleft)
        edge = max(2, int(3 * ui.scale_for((w, h))))
        pygame.draw.line(surface, ui.GOLD, self.banner.topleft, self.banner.topright, edge)
        pygame.draw.line(surface, ui.GOLD, self.banner.bottomleft, self.banner.bottomright, edge)
        big = int(self.banner.height * 0.46)
        title = pygame.Rect(int(w * 0.05), self.banner.top + int(self.banner.height * 0.08), int(w * 0.9),
                            line_height(big))
        ui.fit(surface, tr("attract.banner"), title, big, bold=True, color=ui.GOLD)
        small = int(self.banner.height * 0.16)
        under = pygame.Rect(int(w * 0.05), title.bottom, int(w * 0.9),
                            self.banner.bottom - title.bottom - int(self.banner.height * 0.04))
        ui.fit(surface, tr("attract.demo"), under, small, color=ui.CREAM)
