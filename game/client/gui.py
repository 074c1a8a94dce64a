"""A base for pygame_gui screens, usable by mouse, touch and keyboard alike.

Each screen builds its widgets for the window size (text scales with it) and lists
its controls in focus order. Up/Down (or Tab) move the focus, Enter activates,
Left/Right step a choice backwards/forwards, Esc goes back. Choices are big
buttons that cycle through their values on a tap, so no drop-down list is needed
on a touchscreen.

At rest (see `game.client.scene`): pygame_gui changes a screen's look on input
(a press, a key, text typed, a scroll bar dragged), when the pointer moves onto or
off a widget (hover, found in `UIManager.update`), and by itself only for a focused
text field's blinking cursor. What an event changes, pygame_gui mostly shows only at
its next `update`: a widget keeps its new picture (text typed, a pressed look, a new
widget's first picture) until then (`pending`). So a screen is dirty after any input
but a bare pointer move, after every update that finished such work, and when the
hovered widget or a cursor changes; it asks for frames while pygame_gui has such work
left (`next_frame` 0), and otherwise only while a text field has the focus
(`CURSOR_POLL`). A screen built (or built again) is updated once at once, so its
first frame shows whole widgets whatever its `draw` does.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

import pygame
import pygame_gui

from . import keymap, ui
from .keymap import Nav
from .scene import Scene

if TYPE_CHECKING:
    from .scene import SceneApp

T = TypeVar("T")

HEADING_DOWN: Final = ("#heading", "#heading_smaller", "#heading_smallest", None, "#small")
"""The styles `GuiScene.fitted_label` tries, largest first: the heading, then smaller in the heading's
gold (a long room link keeps its emphasis), then the plain label and the small one."""
CURSOR_POLL: Final = 0.1
"""A focused text field's cursor blinks every 0.4 s after a second's pause: look this often."""


SMALLER_STYLES = ("#option", "#fine")  # theme styles a button's text falls back to, in turn


def inner_width(element: pygame_gui.elements.UIButton | pygame_gui.elements.UILabel) -> int:
    """The width a button or label leaves its text: less its border, shadow and text padding."""
    border = element.border_width
    side = border.get("left", 0) if isinstance(border, dict) else int(border)
    padding = int(getattr(element, "text_horiz_alignment_padding", 0))
    return int(element.rect.width - 2 * (side + element.shadow_width) - 2 * padding)


def text_width(element: pygame_gui.elements.UIButton | pygame_gui.elements.UILabel) -> int:
    """How wide the button's or label's text is in its own font."""
    font = element.font
    return int(font.size(element.text)[0]) if font is not None else 0


Shown = TypeVar("Shown", pygame_gui.elements.UIButton, pygame_gui.elements.UILabel)


def first_that_fits(make: Callable[[str | None], Shown],
                    faces: Sequence[str | None]) -> tuple[Shown, str | None]:
    """The button or label ``make`` builds in the first of ``faces`` (theme styles; None: the
    element's own) whose font shows its text whole, else in the last; and that face. Each one too
    wide is killed."""
    for face in faces:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # pygame_gui's "too small": checked here
            element = make(face)
        if face == faces[-1] or text_width(element) <= inner_width(element):
            return element, face
        element.kill()  # type: ignore[no-untyped-call]  # (pygame_gui leaves it unannotated)
    raise ValueError("no face to build it in")


def step_through(values: Sequence[T], current: T, delta: int) -> T:
    """The value ``delta`` steps after ``current`` in ``values``, round the end (a choice button's
    tap or Left/Right: the rule sets, a level...)."""
    return values[(list(values).index(current) + delta) % len(values)]


def caret_to_end(entry: pygame_gui.elements.UITextEntryLine) -> None:
    """Put a text field's caret after its text (pygame_gui puts it first): typing adds to a
    name rather than going in front of it."""
    entry.edit_position = len(entry.get_text())
    shape = entry.drawable_shape
    if shape is not None and shape.text_box_layout is not None:
        shape.text_box_layout.set_cursor_position(entry.edit_position)  # type: ignore[no-untyped-call]
        shape.apply_active_text_changes()  # type: ignore[no-untyped-call]


def pending(manager: pygame_gui.UIManager) -> bool:
    """Whether pygame_gui holds a change of look for its next `update`: widgets added or shown
    (they are drawn only once an update has listed them), a widget whose new picture waits there
    (text typed, a new state, a widget just made), its shown state still to be drawn, or a blend
    between two states under way. The screen is redrawn after the update that shows it (the
    frame on screen is always a full redraw of what is now)."""
    group = manager.get_sprite_group()
    if group.should_update_visibility:
        return True
    for element in group.sprites():
        shape = getattr(element, "drawable_shape", None)
        if shape is None:
            continue
        active = shape.active_state
        if (shape.has_fresh_surface() or active.transition is not None
                or active.state_id in shape.states_to_redraw_queue):
            return True
    return False


@dataclass
class Control:
    """A focusable button: what Enter (or a tap), Left and Right do, and what it stands for
    (``key``: its text unless the screen names it), so that the focus stays on it when the
    screen is built again around it."""

    element: pygame_gui.elements.UIButton
    activate: Callable[[], None]
    step: Callable[[int], None] | None = None
    key: object = None


class GuiScene(Scene):
    """A pygame_gui screen with keyboard focus; subclasses implement `build`."""

    def __init__(self, app: SceneApp) -> None:
        super().__init__(app)
        self.controls: list[Control] = []
        self.focus = 0
        self.manager = ui.make_manager(app.size, pointer=not app.kiosk)  # a kiosk shows no pointer: no hover
        self.background: pygame.Surface | None = None
        self._look: tuple[object, ...] = ()
        self._seen = False  # pygame_gui saw an event that its next update finishes (hover...)
        self.focus_chosen = False  # the player moved the focus (see `rebuild`)
        self._smaller: set[int] = set()  # buttons whose label stepped down to a smaller face (see `retext`)
        self._faces: dict[int, str | None] = {}  # each button's face (`same_face`)
        self.rebuild()

    # ---- building ----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Drop and recreate every widget (language or size changed, or what is listed).

        Once the player has put the focus somewhere (a key, a tap), it stays on the control that
        stands for the same thing (its `Control.key`) if that is still there, wherever it moved:
        a list growing above it must not slide the focus onto another entry, where Enter would
        do something else. Otherwise it stays at its place in the order (a screen's first
        control is its default, also when the controls before it appear later)."""
        chosen = self.focus_chosen and self.focus < len(self.controls)
        focused = self.controls[self.focus].key if chosen else None
        self.manager.clear_and_reset()  # type: ignore[no-untyped-call]  # pygame_gui leaves it unannotated
        self.controls = []
        self._smaller = set()
        self._faces = {}
        self.build()
        keys = [control.key for control in self.controls]
        moved = self.focus >= len(keys) or keys[self.focus] != focused
        if focused is not None and focused in keys and moved:
            self.focus = keys.index(focused)
        self.focus = min(self.focus, max(0, len(self.controls) - 1))
        # pygame_gui gives a new widget its picture in its first update: done here, so that any
        # drawing of the screen (its own `draw` too) shows whole widgets, never blank boxes.
        self.manager.update(0.0)
        self.dirty = True

    def start_typing(self, entry: pygame_gui.elements.UITextEntryLine) -> None:
        """A text field takes the typing (Enter on it, or a character typed while the focus ring
        is on it), its caret after its text, and it alone: what is typed goes where the ring is."""
        self.manager.set_focus_set(entry)
        caret_to_end(entry)
        self.dirty = True

    def build(self) -> None:
        """Create the widgets; subclasses override."""

    def resize(self, size: tuple[int, int]) -> None:
        """Rebuild at the new size with text scaled to it."""
        self.manager = ui.make_manager(size, pointer=not self.app.kiosk)
        self.background = None
        self.rebuild()

    @property
    def scale(self) -> float:
        """Text and control scale for this window."""
        return ui.scale_for(self.app.size)

    def button(self, rect: pygame.Rect, text: str, activate: Callable[[], None],
               step: Callable[[int], None] | None = None, *, object_id: str | None = None,
               focusable: bool = True, key: object = None) -> pygame_gui.elements.UIButton:
        """A button; focusable ones join the keyboard order (``key``: what it stands for, if not
        its text: see `Control`)."""
        # A long label steps down to a smaller face rather than be cut.
        element, face = first_that_fits(
            lambda face: pygame_gui.elements.UIButton(rect, text, self.manager, object_id=face),
            (object_id, *SMALLER_STYLES))
        if face != object_id:
            self._smaller.add(id(element))
        self._faces[id(element)] = face
        if focusable:
            self.controls.append(Control(element, activate, step, text if key is None else key))
        return element

    def same_face(self, elements: Sequence[pygame_gui.elements.UIButton]) -> None:
        """Give these buttons one face, the smallest any of them stepped down to (`button`): a list
        of like buttons (the seats) reads as one list, not in two sizes."""
        faces = (None, *SMALLER_STYLES)
        used = {id(e): self._faces.get(id(e)) for e in elements}
        levels = {key: faces.index(face) for key, face in used.items() if face in faces}
        level = max(levels.values(), default=0)
        for old in elements:
            if levels.get(id(old), level) >= level:
                continue
            element = pygame_gui.elements.UIButton(old.relative_rect, old.text, self.manager,
                                                   object_id=faces[level])
            old.kill()  # type: ignore[no-untyped-call]  # pygame_gui leaves it unannotated
            self._smaller.add(id(element))
            self._faces[id(element)] = faces[level]
            for control in self.controls:
                if control.element is old:
                    control.element = element

    def retext(self, element: pygame_gui.elements.UIButton | pygame_gui.elements.UILabel, text: str) -> bool:
        """Change a button's or label's text in place, where building the screen again would give
        the same widget: a button only while the new text fits it in the face it was made with
        (`button` steps a long label down to a smaller one). Returns False when the screen must be
        built again for it.

        A screen whose texts follow the time (a wait counting seconds) changes them this way, not
        by `rebuild`: a tap under way (pressed, its release or pygame_gui's press notice not yet
        handled) lands on the widget it began on, which a rebuild would have replaced."""
        if element.text == text:
            return True
        if isinstance(element, pygame_gui.elements.UIButton):
            font = element.font
            wide = int(font.size(text)[0]) if font is not None else 0
            if id(element) in self._smaller or wide > inner_width(element):
                return False
        element.set_text(text)
        self.dirty = True
        return True

    def label(self, rect: pygame.Rect, text: str,
              object_id: str | None = None) -> pygame_gui.elements.UILabel:
        """A text label (``#title``, ``#heading``, ``#small`` styles in the theme)."""
        return pygame_gui.elements.UILabel(rect, text, self.manager, object_id=object_id)

    def fitted_label(self, rect: pygame.Rect, text: str,
                     styles: Sequence[str | None] = HEADING_DOWN) -> pygame_gui.elements.UILabel:
        """A label in the first of ``styles`` (None: the plain label) whose face shows ``text``
        whole in ``rect``, else in the last: for a text that varies in length, such as a room's
        link (a long server name steps the heading down)."""
        return first_that_fits(lambda style: self.label(rect, text, style), styles)[0]

    # ---- input -------------------------------------------------------------------------------
    def back(self) -> None:
        """Esc: subclasses decide (default: back to the menu)."""
        self.app.go_to_menu()

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys move the focus; everything else goes to pygame_gui. While a text field takes the
        typing, keys are its own but Enter and Esc (which end the typing: `typing_done`) and
        Tab and the arrows up and down (which end it and move on); a press on a control puts
        the focus ring on it (`focus_tapped`)."""
        if event.type < pygame.USEREVENT and (event.type != pygame.MOUSEMOTION or any(event.buttons)):
            # Input (pygame_gui's own notices, such as "hovered", change nothing by themselves);
            # a bare pointer move shows only through hover: see `update`.
            self.dirty = True
        typing = self._typing()
        if typing and event.type == pygame.KEYDOWN:
            return self.typing_key(typing[0], event)
        used = self._handle(event)
        self.focus_tapped(event)
        return used

    def typing_key(self, entry: pygame_gui.elements.UITextEntryLine, event: pygame.event.Event) -> bool:
        """A key while ``entry`` takes the typing (a screen may catch some first: a paste)."""
        ending = keymap.typing_end(event)
        if ending is not None:
            entry.unfocus()  # type: ignore[no-untyped-call]  # (pygame_gui leaves it unannotated)
            self.typing_done(entry, entered=ending is Nav.ACTIVATE)
            if ending in (Nav.NEXT, Nav.UP, Nav.DOWN):
                return self._handle(event)  # on to the next control
            return True
        self.manager.process_events(event)
        return True

    def typing_done(self, entry: pygame_gui.elements.UITextEntryLine, *, entered: bool) -> None:
        """``entry`` no longer takes the typing (``entered``: by Enter): keep what was typed."""

    def _handle(self, event: pygame.event.Event) -> bool:
        """Keys move the focus ring and act on its control; the rest goes to pygame_gui."""
        key = keymap.nav(event) if event.type == pygame.KEYDOWN else None
        if key is not None and self.controls:
            if key in (Nav.DOWN, Nav.NEXT):
                self.focus, self.focus_chosen = (self.focus + 1) % len(self.controls), True
                return True
            if key is Nav.UP:
                self.focus, self.focus_chosen = (self.focus - 1) % len(self.controls), True
                return True
            control = self.controls[self.focus]
            if key is Nav.ACTIVATE:
                self.app.sound.play("click")
                control.activate()
                return True
            if key in (Nav.LEFT, Nav.RIGHT) and control.step is not None:
                self.app.sound.play("click")
                control.step(-1 if key is Nav.LEFT else 1)
                return True
        if key is Nav.BACK:
            self.back()
            return True
        if event.type == pygame.TEXTINPUT and self.controls:  # typed with the ring on a text field
            ring = self.controls[self.focus].element
            if isinstance(ring, pygame_gui.elements.UITextEntryLine) and not ring.is_focused:
                self.start_typing(ring)
        self.manager.process_events(event)
        self._seen = True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for i, control in enumerate(self.controls):
                if control.element is event.ui_element:
                    self.focus, self.focus_chosen = i, True
                    self.app.sound.play("click")
                    control.activate()
                    return True
        return False

    def focus_tapped(self, event: pygame.event.Event) -> None:
        """A pressed control (a text field, which pygame_gui reports no press for) takes the
        keyboard focus ring too."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            for i, control in enumerate(self.controls):
                if control.element.rect.collidepoint(event.pos):
                    self.focus, self.focus_chosen = i, True

    def update(self, dt: float) -> None:
        """Let pygame_gui run; posted UI events arrive with the next frame's events. The screen is
        dirty when the update showed what pygame_gui had `pending` (what an event began), or when
        the hover or a cursor changed (`look`): a bare pointer move over nothing redraws nothing."""
        finishing = pending(self.manager)
        self.manager.update(dt)
        self._seen = False
        look = self.look()
        if finishing or look != self._look:
            self._look, self.dirty = look, True

    def _typing(self) -> list[pygame_gui.elements.UITextEntryLine]:
        """The focused text fields (their cursor blinks)."""
        focused = self.manager.get_focus_set() or ()  # type: ignore[no-untyped-call]  # unannotated
        return [e for e in focused if isinstance(e, pygame_gui.elements.UITextEntryLine) and e.is_focused]

    def look(self) -> tuple[object, ...]:
        """What pygame_gui changes without input: the hovered widgets, the text cursors."""
        widgets = self.manager.get_sprite_group().sprites()
        hovered = tuple(id(e) for e in widgets if getattr(e, "hovered", False))
        return hovered, tuple(bool(getattr(e, "cursor_on", False)) for e in self._typing())

    def next_frame(self) -> float | None:
        """At once after an event pygame_gui saw and while it has a change `pending`; every
        `CURSOR_POLL` while a text cursor blinks; else nothing until input."""
        if self._seen or pending(self.manager):
            return 0.0
        return CURSOR_POLL if self._typing() else None

    def draw(self, surface: pygame.Surface) -> None:
        """Felt, the widgets, and the keyboard focus ring."""
        if self.background is None or self.background.get_size() != surface.get_size():
            from .art import felt

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
