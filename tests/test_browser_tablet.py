"""The browser client on a tablet on its side, a laptop and a short screen (1024×768, 1280×800,
1366×768, 1024×600, 800×600, and a desktop's 1920×1080), in English and in French:

- a hand of 8 and of 20 cards, and the worst case (20 cards, a penalty, "Card!" to call on an
  opponent, five controls): nothing of the table leaves the screen, the page does not scroll, every
  card of the hand can be clicked (a point of it hits it), no two controls overlap. A table taller
  than its screen packs itself (ui_table.ts's ``fitTable``: the table's ``squeezed`` class, then a
  smaller hand);
- a table that fits keeps its look: at 1024×768 a hand of 8 is not packed and keeps its cards' size;
- the result of a deal with four players on a short screen (1024×600, 800×600, a phone on its side's
  844×390): the next deal on the screen, the page does not scroll (ui_table.ts's ``fitResult`` packs
  a result taller than its screen: the result's ``squeezed`` class);
- hover: on a touch screen the button last tapped does not keep the hover's colour; a mouse still
  gets it.

A test of several sizes or hands seats one page (per language) and walks them on it (resized: the
client draws its page anew for each, `browser_support.at_size`); a failure names every size (and
hand) that is wrong.

The upright phones are tests/test_browser_phone.py's, the landscape phone tests/test_browser_screens.py's.
Each test skips in one line without playwright, chromium or the built client (``make web``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_support import (
    TIMEOUT_MS,
    at_size,
    browser,
    checking,
    drawn_anew,
    needs_browser,
    site,
    walk_sizes,
)
from tests.test_browser_frames import ROOM, status
from tests.test_browser_phone import (
    HAND8,
    HAND20,
    MOVES,
    PENALTY_SEEN,
    REFUSED,
    RESULT,
    SEATS,
    UNTAPPABLE,
    WORST,
    again,
    control_boxes,
    phone,
    seated,
    table,
)
from tests.test_browser_screens import OUTSIDE, SEEN, overlap, update

__all__ = ["browser", "site"]  # the fixtures, shared from tests.browser_support

pytestmark = needs_browser

SCREENS = [(1024, 768, "en"), (1280, 800, "fr"), (1366, 768, "en"), (1024, 600, "fr"), (800, 600, "fr"),
           (1920, 1080, "en")]
"""A tablet on its side (or a small laptop), two laptops, a netbook, an old monitor, a desktop, each
in one language: what overflows there is the height, which the language does not change (French,
the longer words, where the screen is narrowest)."""
LANGS = ["en", "fr"]


def sizes(lang: str, screens: list[tuple[int, int, str]] = SCREENS) -> list[tuple[int, int]]:
    """The screens of ``screens`` checked in ``lang``."""
    return [(w, h) for w, h, each in screens if each == lang]


def screen(browser: Any, server: Any, width: int, height: int, lang: str) -> Any:
    """A desktop browser's context (a mouse, scale 1) of ``width``×``height`` speaking ``lang``."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=lang, storage_state={"cookies": [], "origins": [
            {"origin": f"http://127.0.0.1:{server.port}",
             "localStorage": [{"name": "huit.name", "value": "Benoît-Alexandre"}]}]})
    context.set_default_timeout(TIMEOUT_MS)
    return context


def whole(page: Any, width: int, height: int, seen: list[str]) -> None:
    """All of ``seen`` on the screen, no scroll, every card hit where it shows, no controls overlapping."""
    assert page.evaluate(OUTSIDE, [seen, width, height]) == []
    assert page.evaluate(UNTAPPABLE, [width, height]) == []
    controls = control_boxes(page)
    for i, (one, a) in enumerate(controls):
        for other, b in controls[i + 1:]:
            assert not overlap(a, b), (one, other)


@pytest.mark.parametrize("lang", LANGS)
def test_a_tablet_or_a_laptop_shows_the_whole_table_and_every_card_can_be_clicked(browser, site, lang):
    """Each screen of ``lang`` in `SCREENS`, a hand of 8 then of 20 (one page, resized: a failure
    names its screen and its hand)."""
    (width, height), *_ = sizes(lang)
    context = screen(browser, site, width, height, lang)
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(HAND8), MOVES)]
        page, script = seated(context, site, frames, "playing")
        failures: list[str] = []
        for cards in (HAND8, HAND20):
            again(page, script, update(table(cards), MOVES), len(cards))
            script.send(REFUSED)
            page.wait_for_selector("[data-testid='notice']")
            for width, height in sizes(lang):
                with checking(failures, f"{width}x{height}, {len(cards)} cards"):
                    at_size(page, width, height)
                    assert page.locator("[data-testid='hand'] .card").count() == len(cards)
                    assert page.locator("[data-testid='notice']").count() == 1
                    whole(page, width, height, list(SEEN))
                    assert len(control_boxes(page)) >= 7  # the bar's three, Draw, "Card!", Sort, Autopilot
                    # The cards stay a card a hand can read and hit: no smaller than the layout's least.
                    widths = page.eval_on_selector_all("[data-testid='hand'] .card",
                                                       "cs => cs.map(c => c.offsetWidth)")
                    assert min(widths) >= 56, widths
        assert not failures, "\n".join(failures)
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_tablet_or_a_laptop_under_a_penalty_with_a_hand_of_20_shows_the_whole_table(browser, site, lang):
    """Each screen of ``lang`` in `SCREENS`, and a phone on its side (844×390), where only the hand
    gives way (its own compact table). One page, resized: a failure names its screen."""
    walk = [*sizes(lang), (844, 390)]
    context = screen(browser, site, *walk[0], lang)
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(HAND20, **WORST), MOVES)]
        page, _ = seated(context, site, frames, "playing")

        def shown_whole(width: int, height: int) -> None:
            assert page.locator(".controls .btn").count() == 5
            whole(page, width, height, PENALTY_SEEN)

        walk_sizes(page, walk, shown_whole)
    finally:
        context.close()


FITS = [(1024, 768, 142), (1280, 800, 148), (1920, 1080, 240)]
"""Screens a hand of 8 fits, and the width of a card there."""


def test_a_table_that_fits_is_not_packed(browser, site):
    """A hand of 8 fits the screens of `FITS`: the table keeps its look (not ``squeezed``, the cards'
    full size). One page, resized: a failure names its screen."""
    context = screen(browser, site, FITS[0][0], FITS[0][1], "en")
    try:
        page, _ = seated(context, site, [status(ROOM, players=4, seats=SEATS), update(table(HAND8), MOVES)],
                         "playing")

        def not_packed(width: int, height: int, card: int) -> None:
            assert page.locator(".table.squeezed").count() == 0
            assert page.locator("[data-testid='card-9S']").bounding_box()["width"] == card
            shown = page.eval_on_selector_all("[data-testid='latest'] li:not(:last-child)",
                                              "ls => ls.map(l => getComputedStyle(l).display)")
            assert shown == ["list-item"]

        walk_sizes(page, FITS, not_packed)
    finally:
        context.close()


SHORT = [(1024, 600, "en"), (800, 600, "fr"), (844, 390, "fr")]
"""Short screens for the result, each in one language."""


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_on_a_short_screen_shows_the_next_deal_without_scrolling(browser, site, lang):
    """Four players' scores and three hands counted: taller than the screens of `SHORT` (those in
    ``lang``), the result packs itself (the upright phone's 360×740: tests/test_browser_phone.py's
    result test). One page, resized: a failure names its screen."""
    walk = sizes(lang, SHORT)
    context = screen(browser, site, *walk[0], lang)
    try:
        deal = status(ROOM, players=4, seats=SEATS, state="round_over", results=[RESULT])
        final = update(table(HAND8, status="round_over", result=RESULT))
        page, _ = seated(context, site, [deal, final], "result")

        def next_deal_shown(width: int, height: int) -> None:
            b = page.locator("[data-testid='next-deal']").bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= width, b
            assert b["y"] >= 0 and b["y"] + b["height"] <= height, b
            assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1
            # The page's other controls, the scores and the title whole on the screen too, and every
            # hand counted in its own box (none scrolled out of it).
            seen = [".bar .btn", ".result h1", ".winner", ".scores", "[data-testid='counted']"]
            assert page.evaluate(OUTSIDE, [seen, width, height]) == []
            assert page.evaluate("() => { const c = document.querySelector('.counted');"
                                 " return c !== null && c.scrollHeight <= c.clientHeight + 1; }")

        walk_sizes(page, walk, next_deal_shown)
    finally:
        context.close()


BACKGROUND = "s => getComputedStyle(document.querySelector(s)).backgroundColor"
HOVERED_COLOUR = ("s => { const e = document.querySelector(s);"
                  " return e.matches(':hover') ? getComputedStyle(e).backgroundColor : null; }")
"""The element's background while it is :hover (read at once: no redraw between the two), else null."""


def hovered_colour(page: Any, selector: str, tries: int = 5) -> str:
    """The background of ``selector`` with the pointer on it. The page may draw itself again under a
    still pointer (a frame from the server), and the new element is not :hover until the pointer
    moves: the pointer is put on it again then, ``tries`` times at most."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # (the tests skip without it)

    for _ in range(tries):
        page.hover(selector)
        try:
            return str(page.wait_for_function(HOVERED_COLOUR, arg=selector, timeout=2000).json_value())
        except PlaywrightTimeout:
            page.mouse.move(0, 0)
    raise AssertionError(f"{selector} never under the pointer")

UNGUARDED_HOVER = """() => {
  // Every style rule that names :hover, unless it sits in a @media (hover: hover).
  const out = [];
  const walk = (rules, guarded) => {
    for (const rule of rules) {
      const hovers = rule instanceof CSSMediaRule && /\\(hover:\\s*hover\\)/.test(rule.conditionText);
      if (rule instanceof CSSMediaRule) walk(rule.cssRules, guarded || hovers);
      else if (!guarded && (rule.selectorText || "").includes(":hover")) out.push(rule.selectorText);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules, false);
  return out;
}"""


def test_a_tapped_button_does_not_keep_the_hover_colour_on_a_touch_screen(browser, site):
    context = phone(browser, site, 390, 844, "en")  # touch, a phone's viewport: (hover: none)
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(HAND8), MOVES)]
        page, _ = seated(context, site, frames, "playing")
        assert page.evaluate("matchMedia('(hover: none)').matches")
        untouched = page.evaluate(BACKGROUND, "[data-testid='autopilot']")
        # The hand sorted, the page drawn again under the finger: waited for, or the pointer could be
        # put on the button the redraw then replaces (a new element is not :hover until the pointer moves).
        drawn_anew(page, lambda: page.tap("[data-testid='sort']"))
        # A phone's browser leaves its pretend mouse where the finger was: the button is :hover.
        assert hovered_colour(page, "[data-testid='sort']") == untouched
        assert page.evaluate(UNGUARDED_HOVER) == []
    finally:
        context.close()


def test_a_mouse_still_gets_the_hover_colour(browser, site):
    context = screen(browser, site, 1280, 800, "en")
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(HAND8), MOVES)]
        page, _ = seated(context, site, frames, "playing")
        assert page.evaluate("matchMedia('(hover: hover)').matches")
        untouched = page.evaluate(BACKGROUND, "[data-testid='sort']")
        page.hover("[data-testid='sort']")
        assert page.evaluate(BACKGROUND, "[data-testid='sort']") != untouched
    finally:
        context.close()
