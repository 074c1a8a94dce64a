"""Choosing a person's avatar: the sixteen people's avatars in a grid, each with its name.

Pushed by the new-game form over itself. A tap (or Enter on the focused one) chooses
an avatar and goes back; the arrows move round the grid; Esc or Back leaves the
choice as it was. An avatar another person at the table already has is greyed, with
that person's name under it, and cannot be chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from game.play.avatars import CATALOGUE, PEOPLE

from .. import keymap
from ..avatar_art import avatar_image
from ..gui import GuiScene
from ..i18n import tr
from ..keymap import Nav

if TYPE_CHECKING:
    from ..scene import SceneApp


class AvatarPickerScene(GuiScene):
    """A grid of avatars for one person."""

    def __init__(self, app: SceneApp, name: str, current: int, taken: dict[int, str],
                 choose: Callable[[int], None]) -> None:
        self.name = name
        self.current = current
        self.taken = taken
        self.choose = choose
        self.columns = 8
        self.cells: list[tuple[pygame.Rect, int]] = []
        super().__init__(app)

    def build(self) -> None:
        """The title, the grid (eight across, or four on a narrow window) and Back."""
        w, h = self.app.size
        s = self.scale
        m = int(24 * s)
        bh = max(40, int(48 * s))
        self.label(pygame.Rect(0, m // 2, w, int(56 * s)), tr("avatar.title", name=self.name), "#heading")
        top = m // 2 + int(64 * s)
        bottom = h - bh - 2 * m
        gap = int(14 * s)
        self.columns = 8 if w / h >= 1.2 else 4
        rows = len(PEOPLE) // self.columns
        cell = int(min((w - 2 * m - (self.columns - 1) * gap) / self.columns,
                       (bottom - top - (rows - 1) * gap) / rows, 200 * s))
        x0 = (w - self.columns * cell - (self.columns - 1) * gap) // 2
        y0 = top + (bottom - top - rows * cell - (rows - 1) * gap) // 2
        self.cells = []
        for i, avatar in enumerate(PEOPLE):
            row, col = divmod(i, self.columns)
            rect = pygame.Rect(x0 + col * (cell + gap), y0 + row * (cell + gap), cell, cell)
            owner = self.taken.get(avatar)
            text = owner if owner is not None else tr(f"avatar.{CATALOGUE[avatar].name}")
            element = self.button(rect, text, partial(self.pick, avatar), self.move, object_id="#avatar")
            if owner is not None:
                element.disable()  # type: ignore[no-untyped-call]  # (pygame_gui leaves it unannotated)
            elif avatar == self.current:
                element.select()  # type: ignore[no-untyped-call]
            self.cells.append((rect, avatar))
        self.button(pygame.Rect(m, h - bh - m, int(220 * s), bh), tr("new.back"), self.back)
        if not getattr(self, "_built", False):
            self.focus = PEOPLE.index(self.current) if self.current in PEOPLE else 0
        self._built = True

    def pick(self, avatar: int) -> None:
        """Choose ``avatar`` (not one another person has) and go back to the form."""
        if avatar in self.taken:
            return
        self.app.pop()
        self.choose(avatar)

    def move(self, delta: int) -> None:
        """Left and Right: the previous or next avatar in the grid."""
        self.focus = (self.focus + delta) % len(PEOPLE)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Up and Down move a whole row in the grid (from the last row, Down goes to Back)."""
        key = keymap.nav(event) if event.type == pygame.KEYDOWN else None
        if key in (Nav.UP, Nav.DOWN):
            self.dirty = True
            step = self.columns if key is Nav.DOWN else -self.columns
            if self.focus == len(PEOPLE):  # Back: up to the last row
                self.focus = len(PEOPLE) - self.columns if step < 0 else 0
            elif 0 <= self.focus + step < len(PEOPLE):
                self.focus += step
            else:
                self.focus = len(PEOPLE) if step > 0 else self.focus
            return True
        return super().handle_event(event)

    def back(self) -> None:
        """Esc or Back: the form, the avatar unchanged."""
        self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """The screen, then each avatar over the upper part of its button (greyed when taken)."""
        super().draw(surface)
        for rect, avatar in self.cells:
            label_h = int(rect.height * 0.24)
            side = min(rect.width, rect.height - label_h) - max(6, rect.height // 10)
            image = avatar_image(avatar, side, avatar in self.taken)
            surface.blit(image, image.get_rect(midtop=(rect.centerx, rect.y + max(4, rect.height // 16))))
