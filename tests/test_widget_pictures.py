"""Widgets' backgrounds drawn once per look (`game.client.widget_pictures`) are pygame_gui's own
pictures, pixel for pixel, in every state, text included; and the store stays within its bytes."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402
from pygame_gui.core.drawable_shapes import RoundedRectangleShape  # noqa: E402

from game.client import ui, widget_pictures  # noqa: E402

SIZE = (3840, 2160)


@pytest.fixture
def manager():
    pygame.init()
    pygame.display.set_mode(SIZE)
    widget_pictures.BACKGROUNDS.clear()
    yield ui.make_manager(SIZE)
    widget_pictures.BACKGROUNDS.clear()
    pygame.display.quit()


def pictures(shape) -> dict[str, bytes]:
    return {state: pygame.image.tobytes(drawn.surface, "RGBA") for state, drawn in shape.states.items()
            if drawn.generated}


def drawn_by_pygame_gui(shape) -> dict[str, bytes]:
    """The states of ``shape`` drawn so far, drawn again by pygame_gui's own code, no picture kept."""
    rounded = isinstance(shape, RoundedRectangleShape)
    own = widget_pictures.own_redraw_state() if rounded else type(shape).redraw_state
    drawn = list(pictures(shape))
    for state in drawn:
        own(shape, state)
    return {state: picture for state, picture in pictures(shape).items() if state in drawn}


@pytest.mark.parametrize(("rect", "object_id"), [
    ((0, 0, 1200, 150), None),        # a 4K button
    ((0, 0, 700, 130), "#option"),    # a choice, its face one step smaller
    ((0, 0, 2000, 90), "#fine"),      # wider than pygame_gui keeps
    ((0, 0, 300, 300), None),          # square, over 40,000 pixels
    ((0, 0, 180, 44), None),           # small (pygame_gui keeps these too, per screen)
])
def test_a_kept_background_is_pygame_gui_s_own_picture_in_every_state(manager, rect, object_id):
    first = pygame_gui.elements.UIButton(pygame.Rect(rect), "Solo contre l'ordinateur", manager,
                                         object_id=object_id)
    second = pygame_gui.elements.UIButton(pygame.Rect(rect), "Même appareil", manager, object_id=object_id)
    for shape in (first.drawable_shape, second.drawable_shape):
        for state in shape.states:
            shape.redraw_state(state)  # the first widget draws and keeps, the second copies
    assert widget_pictures.BACKGROUNDS.hits >= len(second.drawable_shape.states)
    kept = pictures(second.drawable_shape)
    assert set(kept) == set(second.drawable_shape.states)
    assert kept == drawn_by_pygame_gui(second.drawable_shape)
    assert pictures(first.drawable_shape) == drawn_by_pygame_gui(first.drawable_shape)


def test_text_boxes_fields_and_small_buttons_are_drawn_as_pygame_gui_draws_them(manager):
    box = pygame_gui.elements.UITextBox("<b>Huit</b> " * 200, pygame.Rect(0, 0, 1600, 900), manager)
    field = pygame_gui.elements.UITextEntryLine(pygame.Rect(0, 1000, 1400, 120), manager)
    field.set_text("Maximilienne-Éléonore")
    small = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 120, 40), "OK", manager)
    for _ in range(6):
        manager.update(0.0)
    for element in (box, field, small):
        assert pictures(element.drawable_shape) == drawn_by_pygame_gui(element.drawable_shape)


def test_the_store_keeps_within_its_bytes_dropping_the_least_recently_used():
    store = widget_pictures.Backgrounds(limit=4 * 100 * 100 * 4)  # four 100×100 pictures
    for i in range(4):
        store.put((i,), pygame.Surface((100, 100), pygame.SRCALPHA))
    assert store.get((0,)) is not None  # used: the oldest is now (1,)
    store.put((4,), pygame.Surface((100, 100), pygame.SRCALPHA))
    assert len(store) == 4 and store.bytes <= store.limit
    assert store.get((1,)) is None and store.get((0,)) is not None
    store.put((5,), pygame.Surface((200, 200), pygame.SRCALPHA))  # alone the whole limit: not kept
    assert store.get((5,)) is None
