"""Table buttons drawn as sprites: big, touch-sized, keyboard-focusable; and the overlays'
one way with input on them (`button_input`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import pygame

from . import keymap, ui
from .keymap import Nav

BUTTON_FILL = (31, 95, 70)
BUTTON_HOT = (201, 162, 39)
BUTTON_TEXT = ui.CREAM

IntentT = TypeVar("IntentT")


@dataclass
class Button(Generic[IntentT]):
    """A rectangle with a label that stands for one intent (a value of `game.client.intents`)."""

    intent: IntentT
    label: str
    rect: pygame.Rect
    hot: bool = False  # drawn highlighted (the main suggested action)

    def hit(self, pos: tuple[int, int]) -> bool:
        """Whether ``pos`` falls on the button."""
        return self.rect.collidepoint(pos)

    def draw(self, surface: pygame.Surface, scale: float) -> None:
        """Draw the button."""
        radius = max(6, int(10 * scale))
        shadow = self.rect.move(0, max(2, int(3 * scale)))
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
        pygame.draw.rect(surface, BUTTON_HOT if self.hot else BUTTON_FILL, self.rect,
                         border_radius=radius)
        pygame.draw.rect(surface, ui.GOLD, self.rect, width=max(1, int(2 * scale)),
                         border_radius=radius)
        color = ui.INK if self.hot else BUTTON_TEXT
        px = max(12, int(self.rect.height * 0.42))
        inner = self.rect.inflate(-2 * max(4, int(8 * scale)), -max(4, int(6 * scale)))
        ui.fit(surface, self.label, inner, px, bold=True, color=color, lines=2, shadow=False)


def tapped(buttons: Sequence[Button[IntentT]], pos: tuple[int, int]) -> Button[IntentT] | None:
    """The button under ``pos``, if any."""
    return next((button for button in buttons if button.hit(pos)), None)


def button_input(event: pygame.event.Event, buttons: Sequence[Button[IntentT]],
                 tap: Callable[[IntentT], None], key: Callable[[Nav], None]) -> bool:
    """An overlay's buttons and keys (the pause menu, the result screen, the vote): a tap acts on
    its release, with the intent of the button under it (``tap``), and a tap beside the buttons
    is swallowed; a key press goes to ``key`` as what it means on every screen (`keymap.nav`),
    any other key is swallowed too. Returns whether the event was used: every tap and key, so
    nothing reaches the table underneath."""
    if event.type == pygame.MOUSEBUTTONUP:
        button = tapped(buttons, event.pos)
        if button is not None:
            tap(button.intent)
        return True
    if event.type == pygame.KEYDOWN:
        nav = keymap.nav(event)
        if nav is not None:
            key(nav)
        return True
    return event.type == pygame.MOUSEBUTTONDOWN
