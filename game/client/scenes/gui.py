"""A base for pygame_gui screens, usable by mouse, touch and keyboard alike.

Each screen builds its widgets for the window size (text scales with it) and lists
its controls in focus order. Up/Down (or Tab) move the focus, Enter activates,
Left/Right step a choice backwards/forwards, Esc goes back. Choices are big
buttons that cycle through their values on a tap, so no drop-down list is needed
on a touchscreen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from .. import ui
from ..scene import Scene

if TYPE_CHECKING:
    from ..app import App


SMALLER_STYLES = ("#option", "#fine")  # theme styles a button's text falls back to, in turn


def inner_width(element: pygame_gui.elements.UIButton) -> int:
    """The width a button leaves its text: less its border, shadow and text padding."""
    border = element.border_width
    side = border.get("left", 0) if isinstance(border, dict) else int(border)
    padding = int(getattr(element, "text_horiz_alignment_padding", 0))
    return int(element.rect.width - 2 * (side + element.shadow_width) - 2 * padding)


def text_width(element: pygame_gui.elements.UIButton) -> int:
    """How wide the button's text is in its own font."""
    font = element.font
    return int(font.size(element.text)[0]) if font is not None else 0


@dataclass
class Control:
    """A focusable button: what Enter (or a tap), Left and Right do."""

    element: pygame_gui.elements.UIButton
    activate: Callable[[], None]
    step: Callable[[int], None] | None = None


class GuiScene(Scene):
    """A pygame_gui screen with keyboard focus; subclasses implement `build`."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.controls: list[Control] = []
        self.focus = 0
        self.manager = ui.make_manager(app.size)
        self.background: pygame.Surface | None = None
        self.rebuild()

    # ---- building ----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Drop and recreate every widget (language or size changed)."""
        self.manager.clear_and_reset()  # type: ignore[no-untyped-call]  # pygame_gui leaves it unannotated
        self.controls = []
        self.build()
        self.focus = min(self.focus, max(0, len(self.controls) - 1))

    def build(self) -> None:
        """Create the widgets; subclasses override."""

    def resize(self, size: tuple[int, int]) -> None:
        """Rebuild at the new size with text scaled to it."""
        self.manager = ui.make_manager(size)
        self.background = None
        self.rebuild()

    @property
    def scale(self) -> float:
        """Text and control scale for this window."""
        return ui.scale_for(self.app.size)

    def button(self, rect: pygame.Rect, text: str, activate: Callable[[], None],
               step: Callable[[int], None] | None = None, *, object_id: str | None = None,
               focusable: bool = True) -> pygame_gui.elements.UIButton:
        """A button; focusable ones join the keyboard order."""
        element = pygame_gui.elements.UIButton(rect, text, self.manager, object_id=object_id)
        for smaller in SMALLER_STYLES:  # a long label steps down to a smaller face rather than be cut
            if text_width(element) <= inner_width(element):
                break
            element.kill()  # type: ignore[no-untyped-call]  # pygame_gui leaves it unannotated
            element = pygame_gui.elements.UIButton(rect, text, self.manager, object_id=smaller)
        if focusable:
            self.controls.append(Control(element, activate, step))
        return element

    def label(self, rect: pygame.Rect, text: str,
              object_id: str | None = None) -> pygame_gui.elements.UILabel:
        """A text label (``#title``, ``#heading``, ``#small`` styles in the theme)."""
        return pygame_gui.elements.UILabel(rect, text, self.manager, object_id=object_id)

    # ---- input -------------------------------------------------------------------------------
    def back(self) -> None:
        """Esc: subclasses decide (default: back to the menu)."""
        self.app.go_to_menu()

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys move the focus; everything else goes to pygame_gui."""
        if event.type == pygame.KEYDOWN and self.controls:
            key = event.key
            if key in (pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + 1) % len(self.controls)
                return True
            if key == pygame.K_UP:
                self.focus = (self.focus - 1) % len(self.controls)
                return True
            control = self.controls[self.focus]
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.app.sound.play("click")
                control.activate()
                return True
            if key in (pygame.K_LEFT, pygame.K_RIGHT) and control.step is not None:
                self.app.sound.play("click")
                control.step(-1 if key == pygame.K_LEFT else 1)
                return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return True
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for i, control in enumerate(self.controls):
                if control.element is event.ui_element:
                    self.focus = i
                    self.app.sound.play("click")
                    control.activate()
                    return True
        return False

    def update(self, dt: float) -> None:
        """Let pygame_gui run; posted UI events arrive with the next frame's events."""
        self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        """Felt, the widgets, and the keyboard focus ring."""
        if self.background is None or self.background.get_size() != surface.get_size():
            from ..art import felt

            self.background = felt(surface.get_size())
        surface.blit(self.background, (0, 0))
        self.draw_extra(surface)
        self.manager.draw_ui(surface)
        if self.controls:
            rect = self.controls[self.focus].element.rect.inflate(8, 8)
            pygame.draw.rect(surface, ui.GOLD, rect, width=max(2, int(3 * self.scale)),
                             border_radius=int(12 * self.scale))

    def draw_extra(self, surface: pygame.Surface) -> None:
        """Anything a screen draws under its widgets."""
