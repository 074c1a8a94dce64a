"""Every text fits its box, in every language, at every shape of window (`CASES`: each window
size of its own shape in every language, the sizes that repeat a shape larger in one language each).

Each screen is rendered for real (`tests/every_screen.py` walks them: a real `App` on the dummy
driver, the scene reached as a player reaches it, or pushed as the table pushes it), and every
text measured:

* the pygame_gui screens: each button's and label's text, in its theme font, against
  the button's inner width (its width less border, shadow and padding); a text box
  that would need a scroll bar (only How to play may scroll); controls that leave
  the window or overlap each other;
* the table and its overlays: every `ui.fit` and `ui.text` call made while a frame is
  drawn (`ui.recording`): drawn with a box, inside it, whole (never cut short with
  "…"), and no smaller than `ui.MIN_PX`.

Screens: the menu (with two Continue lines: a 7-seat points game and a hot-seat game),
the new-game form for every preset at its most seats, alone and with as many people
(named at length), colours as a Points game in pairs, the avatar picker, the question
before a saved game is replaced, Settings (from the menu and from the pause menu), Play
online (with a message and a room of mine), a waiting room, Statistics (with records),
How to play (and the classic rules' tabs: rules, tips, questions), Clear data, and over
the table: 2 to 7 seats with the move log full, the longest refusal and a turn timer, a
pending +2, the pause menu with six computers, the result of a 7-seat deal, of a
one-round classic game and of a colours Points game in pairs (and the table after each),
the hot-seat cover, the suit picker for suits and for colours, and the whole move log; online,
the result of a 7-seat deal (with the ranking points earned) and the vote, each other player's
name with its tag; the countdown to a takeover on the table, the online pause, the question
before leaving a ranked game, and who joins from a link (a name and an avatar); a deal's review
(whose, the hot-seat cover, the analysis under way, the costliest decisions named).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from game.client import i18n, ui  # noqa: E402
from game.client.app import App  # noqa: E402
from game.client.gui import GuiScene  # noqa: E402
from game.client.scene import Scene  # noqa: E402
from game.client.settings import Settings  # noqa: E402
from tests.every_screen import STEP, screens  # noqa: E402

LANGUAGES = i18n.LANGUAGES
# Texts and controls grow with `ui.scale_for` (the smaller of width / 1280 and height / 800), so a
# window's layout is fixed by its size divided by its scale. Every language runs at each window of
# its own such shape, at the smallest scale of that shape (where the 11 px floor of `ui.MIN_PX`
# squeezes most): 1024×600 (1365 × 800 scaled), 1024×768 (1280 × 960), 1280×800 and 1366×768 (1423 ×
# 800). The rest repeat a shape at a larger scale (1920×1080 is 1366×768's at the reference size,
# 1600×1200 is 1024×768's, 3840×2160 is 1920×1080's doubled) or widen one (2560×1080 is 1920×1080
# with more room): each runs in one language, a different one each where it can, so that every size
# and every language still meet.
SIZES = [(1024, 600), (1024, 768), (1280, 800), (1366, 768)]
LARGER = [((1920, 1080), "en"), ((1600, 1200), "de"), ((2560, 1080), "fr"), ((3840, 2160), "es")]
CASES = [(size, lang) for size in SIZES for lang in LANGUAGES] + LARGER
SCROLLING = {"RulesScene", "RulesInPlayScene"}  # the screens whose text box is meant to scroll


# ---- measuring -----------------------------------------------------------------------------------
def gui_misfits(scene: Scene, size: tuple[int, int]) -> list[str]:
    """What does not fit on a pygame_gui screen: texts wider than their button or label, a text box
    that would scroll, controls outside the window or on top of each other."""
    window = pygame.Rect((0, 0), size)
    found = []
    elements = list(scene.manager.get_root_container().elements)  # type: ignore[attr-defined]
    buttons = []
    for element in elements:
        rect = element.rect
        if not window.contains(rect):
            found.append(f"{type(element).__name__} {getattr(element, 'text', '')!r} leaves the window")
        if isinstance(element, pygame_gui.elements.UIButton | pygame_gui.elements.UILabel):
            border = element.border_width
            side = border.get("left", 0) if isinstance(border, dict) else border
            inner = (rect.width - 2 * (side + element.shadow_width)
                     - 2 * element.text_horiz_alignment_padding)
            width, _ = element.font.size(element.text)
            if width > inner:
                found.append(f"{element.text!r}: {width} px of text in {inner} px")
        if isinstance(element, pygame_gui.elements.UIButton):
            buttons.append(element)
        if (isinstance(element, pygame_gui.elements.UITextBox) and element.scroll_bar is not None
                and type(scene).__name__ not in SCROLLING):
            found.append(f"text box needs a scroll bar: {element.html_text[:60]!r}")
    for i, a in enumerate(buttons):
        for b in buttons[i + 1:]:
            if a.rect.colliderect(b.rect):
                found.append(f"{a.text!r} and {b.text!r} overlap")
    return found


def drawn_misfits(drawn: list[ui.DrawnText]) -> list[str]:
    """The texts drawn without a box, outside it, cut short, or too small."""
    found = []
    for item in drawn:
        if item.box is None:
            found.append(f"{item.text!r} drawn without a box")
        elif not item.box.contains(item.rect):
            found.append(f"{item.text!r} ({item.rect}) outside its box {item.box}")
        elif item.elided:
            found.append(f"{item.text!r} cut short: {item.lines}")
        if item.px < ui.MIN_PX:
            found.append(f"{item.text!r} at {item.px} px")
    return found


def measure(app: App) -> tuple[list[str], int]:
    """Draw the top scene and list what does not fit; and how many texts were checked.

    A pygame_gui screen is measured as built (its widgets' texts and fonts) and only its own
    drawing under the widgets is run: running its widgets for a frame would add nothing to measure.
    """
    scene = app.stack.top
    with ui.recording() as drawn:
        if isinstance(scene, GuiScene):
            scene.draw_extra(app.screen)
        else:
            app.frame(STEP)
    found = drawn_misfits(drawn)
    checked = len(drawn)
    if isinstance(scene, GuiScene):
        found += gui_misfits(scene, app.size)
        checked += sum(1 for e in scene.manager.get_root_container().elements
                       if isinstance(e, pygame_gui.elements.UIButton | pygame_gui.elements.UILabel))
    if type(scene).__name__ == "SuitPickerScene":  # nothing of the table's peeks out from under its panel
        panel = scene.panel
        found += [f"{d.text!r} peeks out from under the panel" for d in drawn
                  if panel.colliderect(d.rect) and not panel.contains(d.rect)]
    fan = getattr(scene, "fan_rect", None)  # the menu's fan of eights never shows through a button
    if fan is not None and scene.fan_shown and any(c.element.rect.colliderect(fan) for c in scene.controls):
        found.append("the fan of eights is drawn under the buttons")
    return found, checked


# ---- reaching the screens -----------------------------------------------------------------------
@pytest.mark.parametrize(("size", "lang"), CASES, ids=[f"{w}x{h}-{lang}" for (w, h), lang in CASES])
def test_every_text_fits_its_box(size, lang):
    app = App(size, settings=Settings(language=lang, speed="instant"), sound=False)
    pygame.event.clear()
    problems: list[str] = []
    checked = 0
    try:
        for name in screens(app):
            found, count = measure(app)
            checked += count
            problems += [f"{name}: {p}" for p in found]
    finally:
        app.store.flush()
        pygame.display.quit()
        i18n.set_language("en")
    assert checked > 200
    assert not problems, "\n".join(problems)


def test_the_fit_check_catches_a_text_too_wide_for_its_box():
    surface = pygame.Surface((400, 100))
    with ui.recording() as drawn:
        ui.fit(surface, "A sentence far too long for a box this narrow, even on two lines", (0, 0, 120, 20),
               16)
        ui.text(surface, "no box", (0, 50), 16)
        ui.fit(surface, "Fits", (0, 0, 120, 40), 16)
    assert [bool(drawn_misfits([d])) for d in drawn] == [True, True, False]
