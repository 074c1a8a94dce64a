"""A kiosk has no pointer: no widget is drawn hovered where a finger last was, and taps still work."""

from __future__ import annotations

import pygame
import pytest

from tests.client_support import make_app, open_menu, rect_of, tap, top_name


def touch_then_rest(app, label: str) -> pygame.Rect:
    """A finger goes down beside ``label``'s button and lifts off (SDL's emulated mouse stays on it)."""
    rect = rect_of(app, label)
    pygame.mouse.set_pos(rect.center)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(3):
        app.frame(1 / 60)
    return rect


@pytest.mark.parametrize("kiosk", [False, True])
def test_a_button_is_drawn_hovered_only_where_there_is_a_pointer(kiosk):
    app = make_app(kiosk=kiosk)
    try:
        open_menu(app)
        touch_then_rest(app, "Statistics")
        element = next(c.element for c in app.stack.top.controls if c.element.text == "Statistics")
        if not kiosk and pygame.mouse.get_pos() != rect_of(app, "Statistics").center:
            pytest.skip("this video driver does not move the pointer")
        assert element.hovered is not kiosk
    finally:
        pygame.display.quit()


def test_a_kiosk_button_still_answers_a_tap():
    app = make_app(kiosk=True)
    try:
        open_menu(app)
        tap(app, rect_of(app, "Statistics").center)
        assert top_name(app) == "StatisticsScene"
    finally:
        pygame.display.quit()
