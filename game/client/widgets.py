"""Table buttons drawn as sprites: big, touch-sized, keyboard-focusable; and the overlays'
one way with input on them (`button_input`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import pygame

from . import keymap, ui
from .keymap import Nav
from .layout import line_height

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


def draw_question(surface: pygame.Surface, buttons: Sequence[Button[IntentT]], focus: int, title: str,
                  body: str, *, margin: float, title_px: int, rise: int, body_lines: int,
                  body_to_buttons: bool) -> None:
    """A question over the table (the vote, leaving a ranked game): the table dimmed, then on one
    panel the title, the ``body`` (in ``body_lines`` lines at most, down to the buttons when
    ``body_to_buttons``) and the buttons, the ``focus``-th lit. Sizes are at 1080 lines' scale:
    ``margin`` a share of the width each side, ``rise`` how far above the middle the title stands."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surface.blit(shade, (0, 0))
    w, h = surface.get_size()
    scale = ui.scale_for((w, h))
    side = int(w * margin)
    px = int(title_px * scale)
    heading = pygame.Rect(side, h // 2 - int(rise * scale), w - 2 * side, line_height(px))
    pad = int(24 * scale)
    bottom = max(button.rect.bottom for button in buttons)
    ui.panel(surface, pygame.Rect(side - pad, heading.top - pad, w - 2 * side + 2 * pad,
                                  bottom - heading.top + 2 * pad), scale)
    ui.fit(surface, title, heading, px, bold=True, color=ui.GOLD)
    small = int(24 * scale)
    top = heading.bottom + int(12 * scale)
    height = (buttons[0].rect.top - int(12 * scale) - top if body_to_buttons
              else body_lines * line_height(small))
    ui.fit(surface, body, pygame.Rect(side, top, w - 2 * side, height), small, lines=body_lines, valign="top")
    for i, button in enumerate(buttons):
        button.hot = i == focus
        button.draw(surface, scale)
