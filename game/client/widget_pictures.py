"""pygame_gui's rounded widgets: each look's background drawn once, then reused.

pygame_gui draws a rounded widget's background (its border and fill, for each state: normal,
hovered, selected, active, disabled) four times larger than shown and scales it down, to smooth
the corners. That costs in proportion to the widget's area: at 4K a wide button takes some 25 ms
per state, so a screen of forty buttons took over a second to open and each of its next few
frames (pygame_gui draws one more state of every widget per update) as long again. pygame_gui
keeps such pictures itself only for widgets of under 40,000 pixels, and only per screen (each
screen has its own `UIManager`).

`install` wraps `RoundedRectangleShape.redraw_state`: a widget's background (everything but its
text and images) is kept in `BACKGROUNDS`, under all that it is drawn from (size, shadow, border
widths, corner radii, the state's colours), and copied on the next widget of the same look: the
buttons of a list, the same screen built again (a choice changed, the language, the window, the
screen opened again), each state of the next widget. The picture is pygame_gui's own (drawn by its code the
first time), so nothing looks different; only widgets drawn from plain colours without images are
kept (gradients and filled bars are drawn as before). The store is bounded in bytes (least
recently used goes first).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import pygame
from pygame_gui.core.drawable_shapes.rounded_rect_drawable_shape import RoundedRectangleShape

LIMIT_BYTES: Final = 64 * 1024 * 1024


class Backgrounds:
    """Widget backgrounds by look, least recently used first out past ``limit`` bytes."""

    def __init__(self, limit: int = LIMIT_BYTES) -> None:
        self.limit = limit
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._pictures: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pictures)

    def get(self, key: tuple[object, ...]) -> pygame.Surface | None:
        """The picture kept for ``key`` (never to be drawn on: copy it), or None."""
        picture = self._pictures.get(key)
        if picture is None:
            self.misses += 1
            return None
        self.hits += 1
        self._pictures.move_to_end(key)
        return picture

    def put(self, key: tuple[object, ...], picture: pygame.Surface) -> None:
        """Keep ``picture`` (a copy the caller no longer draws on) unless it alone is over a
        quarter of the limit; drop the least recently used past the limit."""
        size = picture.get_width() * picture.get_height() * picture.get_bytesize()
        if size > self.limit // 4 or key in self._pictures:
            return
        self._pictures[key] = picture
        self.bytes += size
        while self.bytes > self.limit:
            _, old = self._pictures.popitem(last=False)
            self.bytes -= old.get_width() * old.get_height() * old.get_bytesize()

    def clear(self) -> None:
        """Forget every picture."""
        self._pictures.clear()
        self.bytes = 0


BACKGROUNDS: Final = Backgrounds()

_original: Any = None  # pygame_gui's own redraw_state, once `install` has wrapped it


def look(shape: Any, state: str) -> tuple[object, ...] | None:
    """All that the background of ``shape`` in ``state`` is drawn from; None for a widget not drawn
    from plain colours alone (gradients, images, a filled bar), drawn as before."""
    width, height = shape.containing_rect.size
    if width <= 0 or height <= 0:
        return None
    theming = shape.theming
    if "filled_bar" in theming or "filled_bar_width_percentage" in theming or theming.get(f"{state}_images"):
        return None
    fill, border = theming.get(f"{state}_bg"), theming.get(f"{state}_border")
    if not isinstance(fill, pygame.Color) or not isinstance(border, pygame.Color):
        return None
    widths = shape.border_widths
    return (width, height, shape.shadow_width, *(widths[side] for side in ("left", "right", "top", "bottom")),
            tuple(shape.shape_corner_radius), tuple(fill), tuple(border), theming.get("border_overlap", 0))


def redraw_state(shape: Any, state: str, add_text: bool = True) -> None:
    """`RoundedRectangleShape.redraw_state`, with the widget's background kept by its `look`."""
    key = look(shape, state)
    if key is None:
        _original(shape, state, add_text)
        return
    kept = BACKGROUNDS.get(key)
    if kept is None:
        _original(shape, state, False)  # pygame_gui draws the background (and no text)
        BACKGROUNDS.put(key, shape.states[state].surface.copy())
    else:
        drawn = shape.states[state]
        if drawn.cached_background_id is not None:  # as pygame_gui does on drawing it anew
            shape.shape_cache.remove_user_from_cache_item(drawn.cached_background_id)
            drawn.cached_background_id = None
        drawn.surface = kept.copy()
    if add_text:
        shape.finalise_images_and_text(f"{state}_images", state, f"{state}_text", f"{state}_text_shadow",
                                       True)
    shape.states[state].has_fresh_surface = True
    shape.states[state].generated = True


def own_redraw_state() -> Any:
    """pygame_gui's own `RoundedRectangleShape.redraw_state`, as it was before `install` wrapped
    it (what a test compares the kept pictures with)."""
    return _original if _original is not None else RoundedRectangleShape.redraw_state


def install() -> None:
    """Wrap pygame_gui's rounded widgets' `redraw_state` (once; later calls do nothing)."""
    global _original
    if _original is None:
        _original = RoundedRectangleShape.redraw_state
        RoundedRectangleShape.redraw_state = redraw_state  # type: ignore[method-assign, assignment]
