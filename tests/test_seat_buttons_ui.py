"""The new-game form's seat buttons share one size of text, whatever each label's length."""

from __future__ import annotations

import pygame_gui
import pytest

from game.client.i18n import set_language
from tests.client_support import make_app, open_menu, tap_label, top_name


@pytest.mark.parametrize("lang, size", [("en", (1024, 600)), ("es", (1280, 800)), ("de", (1920, 1080))])
def test_every_seat_button_of_the_same_device_form_has_one_font(lang, size):
    app = make_app(size, last_preset="points", last_players={"points": 5},
                   hotseat_levels=["human", "human", "hard", "human", "easy", "medium", "medium"])
    try:
        set_language(lang)
        open_menu(app)
        tap_label(app, {"en": "Same device", "es": "Mismo dispositivo", "de": "Am selben Gerät"}[lang])
        assert top_name(app) == "NewGameScene"
        form = app.stack.top
        seats = [c.element for c in form.controls
                 if isinstance(c.element, pygame_gui.elements.UIButton) and c.element.text
                 and c.element.text.split(":")[0][-1].isdigit()]
        assert len(seats) == 5
        assert len({e.font.size("Wg") for e in seats}) == 1, [e.text for e in seats]
        assert all(e.font.size(e.text)[0] <= e.rect.width for e in seats)
    finally:
        import pygame

        pygame.display.quit()
