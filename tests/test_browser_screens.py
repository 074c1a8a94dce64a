"""The browser client's screens against a scripted server (trial 35, the findings fixed by webfix2):
the page comes from a real room server on 127.0.0.1, its WebSocket is answered by Playwright with
exactly the frames each test names (`test_browser_frames.Script`'s way), at the trial's sizes.

- a finished match offers no next deal but a new game and the room's page; a result waiting for
  someone who left says so;
- "Clear my data" asks first while seated, and clears at once outside a game;
- only a playable card glows (its light stays inside its own edge);
- the table shows the latest moves, what happened to this seat kept among them;
- 844×390: nothing of the controls cut off, a gap between a chip's name and its count;
- the connection lost: the controls disabled, a line that says so and covers no opponent;
- 1920×1080: larger cards, the page wider;
- at each size the trial checks (1920×1080, 1280×800, 1024×768, 844×390, 390×844) nothing of the
  table is cut, a refusal and two latest moves shown; on a large screen the pile and the discard
  take the height the rest leaves (no wide felt between them and the hand);
- the result lists each hand's cards and the value the server counted.

A test of several sizes walks them on one page (resized: `browser_support.at_size`), a failure
naming each size that is wrong. Each test skips in one line without playwright, chromium or the
built client (``make web``).
"""

from __future__ import annotations

from typing import Any

import pytest

from game.client.i18n import catalogue
from tests.browser_support import (
    TIMEOUT_MS,
    ScriptedServer,
    browser,
    needs_browser,
    site,
    wait_state,
    walk_sizes,
)
from tests.test_browser_frames import ROOM, VIEW, status

__all__ = ["browser", "site"]  # the fixtures, shared from tests.browser_support

pytestmark = needs_browser

HAND = ["7H", "9S", "7S", "KD", "4C", "9H", "2D"]
TABLE = {
    **VIEW,
    "hand": HAND,
    "hand_counts": [7, 27],
    "discard": ["7D"],
    "legal": ["play 7H", "play 7S", "draw"],
}


def update(view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "type": "update",
        "room": ROOM,
        "view": view,
        "events": events or [],
        "timer": None,
        "autopilot": False,
        "v": 2,
    }


def seated(
    browser: Any,
    server: Any,
    frames: list[dict[str, Any]],
    width: int = 1024,
    height: int = 768,
    want: str = "playing",
) -> tuple[Any, Any, ScriptedServer]:
    """A page seated by a quick match the script answers with ``frames``: (context, page, script)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        storage_state={
            "cookies": [],
            "origins": [
                {
                    "origin": f"http://127.0.0.1:{server.port}",
                    "localStorage": [{"name": "huit.name", "value": "Ben"}],
                }
            ],
        },
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    script = ScriptedServer(page, ROOM, frames)
    page.goto(f"http://127.0.0.1:{server.port}/play", wait_until="load")
    wait_state(page, "lobby")
    page.click("[data-testid='quick-match']")
    assert wait_state(page, want) == want
    return context, page, script


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return dict(found)


BOXES = """selectors => Object.fromEntries(selectors.map(s => [s,
  [...document.querySelectorAll(s)].map(e => e.getBoundingClientRect()).filter(r => r.width && r.height)
    .map(r => ({x: r.x, y: r.y, width: r.width, height: r.height}))]))"""


def boxes(page: Any, *selectors: str) -> dict[str, list[dict[str, float]]]:
    """The boxes of every element each of ``selectors`` matches, all read in one go: a page that draws
    itself again meanwhile (an offline page retrying) cannot slip between two of them."""
    return dict(page.evaluate(BOXES, list(selectors)))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


RESULT = {
    "winner": 1,
    "winners": [1],
    "tie": False,
    "blocked": False,
    "points": [0, 153],
    "hands": [["3S", "KD", "8H"], []],
    "totals": [63, 0],
}


def test_a_finished_match_offers_no_next_round_but_a_new_game_and_the_room_page(browser, site):
    over = status(ROOM, state="match_over", results=[RESULT])
    context, page, _ = seated(
        browser, site, [over, update({**VIEW, "status": "match_over", "result": RESULT})], want="result"
    )
    try:
        assert page.locator("[data-testid='next-deal']").count() == 0
        assert "no next round" in page.inner_text("[data-testid='match-done']")
        assert page.get_attribute("[data-testid='play-again']", "href") == "/play"
        assert page.get_attribute("[data-testid='room-page']", "href") == f"/r/{ROOM}"
    finally:
        context.close()


@pytest.mark.parametrize(("target", "title"), [(100, "result.match_over"), (0, "result.title")])
def test_a_finished_matchs_header_says_what_the_games_result_says_not_the_last_round(
    browser, site, target, title
):
    over = status(ROOM, state="match_over", results=[RESULT])
    final = {**VIEW, "status": "match_over", "result": RESULT, "round_number": 4, "target": target}
    context, page, _ = seated(browser, site, [over, update(final)], want="result")
    try:
        header = page.inner_text(".bar .room")
        # The words of the game's own result screen at that point (game/client/scenes/result.py:
        # "Game over" once a match to a target is won, "Round over" after a game of one deal).
        assert catalogue("en")[title] in header, header
        assert catalogue("en")["table.round"].format(n=4) not in header, header
        assert page.inner_text(".result h1") == catalogue("en")[title]
    finally:
        context.close()


def test_a_result_waiting_for_someone_who_left_says_so(browser, site):
    deal = status(
        ROOM,
        state="round_over",
        results=[RESULT],
        seats=[
            {"kind": "human", "name": "Ben", "tag": "3F2K9Q", "connected": True, "accepted": True},
            {"kind": "human", "name": "Ana", "tag": "7H4K9W", "connected": False, "accepted": False},
        ],
    )
    context, page, _ = seated(
        browser, site, [deal, update({**VIEW, "status": "round_over", "result": RESULT})], want="result"
    )
    try:
        page.click("[data-testid='next-deal']")
        assert "Ana #7H4K9W has left the table" in page.inner_text("[data-testid='gone-1']")
        assert "Waiting for Ana" not in page.inner_text("#huit")
    finally:
        context.close()


def test_the_result_shows_each_hands_cards_and_the_value_counted(browser, site):
    deal = status(ROOM, state="round_over", results=[RESULT])
    context, page, _ = seated(
        browser, site, [deal, update({**VIEW, "status": "round_over", "result": RESULT})], want="result"
    )
    try:
        line = page.locator("[data-testid='counted-0']")
        assert page.locator("[data-testid='counted-0'] .mini").count() == 3
        text = line.inner_text()
        assert "Ben #3F2K9Q" in text and "= 63" in text
        assert "(3)" in text and "+ (10)" in text and "+ (50)" in text  # as the engine counts 3♠ K♦ 8♥
        assert page.locator("[data-testid='counted-1']").count() == 0  # the winner went out: no cards
        assert page.locator(".result.squeezed").count() == 0  # a result that fits its screen is not packed
    finally:
        context.close()


def test_clear_my_data_asks_first_while_seated_and_keeps_everything_on_cancel(browser, site):
    context, page, _ = seated(browser, site, [status(ROOM), update(TABLE)])
    try:
        page.click("[data-testid='settings']")
        page.click("[data-testid='clear-data']")
        question = page.inner_text("[data-testid='clear-question']")
        assert "seat" in question and "for good" in question
        assert page.evaluate("localStorage.getItem('huit.seat.' + 'K7M-4AX-P9T-E3F-HWR')") is not None
        page.click("[data-testid='clear-data-cancel']")
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('huit.seat.')).length") == 1
        page.click("[data-testid='clear-data']")
        page.click("[data-testid='clear-data-confirm']")
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('huit.')).length") == 0
    finally:
        context.close()


def test_clear_my_data_outside_a_game_clears_at_once(browser, site):
    context = browser.new_context(
        storage_state={
            "cookies": [],
            "origins": [
                {
                    "origin": f"http://127.0.0.1:{site.port}",
                    "localStorage": [{"name": "huit.name", "value": "Ben"}],
                }
            ],
        }
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        ScriptedServer(page, ROOM, [])
        page.goto(f"http://127.0.0.1:{site.port}/play", wait_until="load")
        wait_state(page, "lobby")
        page.click("[data-testid='clear-data']")
        assert page.locator("[data-testid='clear-question']").count() == 0
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('huit.')).length") == 0
    finally:
        context.close()


def test_only_a_playable_card_glows_and_its_light_stays_inside_it(browser, site):
    context, page, _ = seated(browser, site, [status(ROOM), update(TABLE)], width=390, height=844)
    try:
        glowing = page.eval_on_selector_all(
            "[data-testid='hand'] .card.glow", "cs => cs.map(c => c.dataset.testid)"
        )
        assert sorted(glowing) == ["card-7H", "card-7S"]
        # Nothing drawn outside the card's own box: no drop-shadow filter, the light an inset shadow.
        face = page.eval_on_selector(
            "[data-testid='card-7H'] .face, [data-testid='card-7H'] svg", "f => getComputedStyle(f).filter"
        )
        assert face in ("none", "")
        light = page.eval_on_selector(
            "[data-testid='card-7H']", "c => getComputedStyle(c, '::after').boxShadow"
        )
        assert "inset" in light
    finally:
        context.close()


def test_the_table_shows_what_happened_to_me_without_the_panel(browser, site):
    events = [
        {"type": "CardPlayed", "seat": 0, "card": "W+4"},
        {"type": "SuitChosen", "seat": 0, "suit": "H"},
        {"type": "Challenged", "by": 1, "seat": 0, "bluff": True},
        {"type": "CardsDrawn", "seat": 0, "count": 4, "reason": "challenge", "cards": None},
        {"type": "CardPlayed", "seat": 1, "card": "9H"},
    ]
    context, page, _ = seated(browser, site, [status(ROOM), update(TABLE, events)], width=390, height=844)
    try:
        lines = page.inner_text("[data-testid='latest']")
        assert "Ana #7H4K9W" in lines and "4 cards" in lines, lines  # Liar called on me, then my draw
        assert page.locator("[data-testid='latest'] li").count() == 2
        assert page.locator(".panel").count() == 0
    finally:
        context.close()


def test_the_landscape_phone_cuts_nothing_and_a_chip_keeps_a_gap(browser, site):
    seats = [
        {"kind": "human", "name": "Ben", "tag": "3F2K9Q", "connected": True},
        {"kind": "computer", "level": "medium"},
    ]
    context, page, _ = seated(
        browser, site, [status(ROOM, seats=seats), update(TABLE)], width=844, height=390
    )
    try:
        for testid in ("autopilot", "sort", "draw-button"):
            b = box(page, f"[data-testid='{testid}']")
            assert b["x"] >= 0 and b["x"] + b["width"] <= 844, (testid, b)
            fits = page.eval_on_selector(f"[data-testid='{testid}']", "e => e.scrollWidth <= e.clientWidth")
            assert fits, testid
        name, count = box(page, ".opp .opp-name"), box(page, ".opp .opp-count")
        assert count["x"] - (name["x"] + name["width"]) >= 5
    finally:
        context.close()


OFFLINE = [(844, 390), (390, 844)]
"""The sizes the offline table is checked at: a phone on its side and upright (a desktop's page, resized)."""


def test_offline_the_controls_are_disabled_and_the_line_covers_nothing(browser, site):
    """At each size of `OFFLINE` (one page, resized: a failure names its size)."""
    context, page, script = seated(browser, site, [status(ROOM), update(TABLE)], *OFFLINE[0])
    try:
        script.down = True  # the server unreachable: the page's new tries fail until the end
        script.socket.close()
        page.wait_for_selector("[data-testid='offline']")
        page.wait_for_timeout(1500)  # past the page's first tries again: it is still offline

        def offline_shown(width: int, height: int) -> None:
            assert "your move will be possible again" in page.inner_text("[data-testid='offline']")
            assert page.locator("[data-testid='hand'] .card.glow").count() == 0
            assert page.eval_on_selector("[data-testid='card-7H']", "c => c.disabled")
            assert page.eval_on_selector("[data-testid='draw-button']", "c => c.disabled")
            # Read at once: the page tries the server again now and then, and draws itself anew each time.
            named = [f"[data-testid='{name}']" for name in
                     ("offline", "hand", "settings", "moves", "draw", "discard", "autopilot", "card-2D")]
            found = boxes(page, ".opp", *named)
            assert all(found[selector] for selector in named), found
            line = found[named[0]][0]
            assert found[".opp"]
            for chip in found[".opp"]:
                assert not overlap(line, chip), "the line covers an opponent"
            for selector in named[1:6]:
                assert not overlap(line, found[selector][0]), selector
            for selector in named[6:]:  # nor does it push the hand or the controls off the screen
                assert found[selector][0]["y"] + 30 <= height, selector

        walk_sizes(page, OFFLINE, offline_shown)
    finally:
        context.close()


def test_a_large_screen_gets_larger_cards_and_a_wider_table(browser, site):
    context, page, _ = seated(browser, site, [status(ROOM), update(TABLE)], width=1920, height=1080)
    try:
        card = box(page, "[data-testid='card-9S']")
        assert card["width"] >= 180
        table = box(page, "[data-testid='table']")
        assert table["width"] >= 1700
        assert (
            float(page.eval_on_selector(".bar", "b => parseFloat(getComputedStyle(b).fontSize)")) >= 18
        )  # 16 px below this size
    finally:
        context.close()


SIZES = [(1920, 1080), (1280, 800), (1024, 768), (844, 390), (390, 844)]
"""The sizes the table is checked at: a desktop, two laptops, a phone on its side and upright."""

BUSY = {**TABLE, "legal": ["play 7H", "play 7S", "draw", "card"]}
"""The table with a control more than usual ("Card!")."""

MOVES = [{"type": "CardPlayed", "seat": 0, "card": "7D"}, {"type": "CardPlayed", "seat": 1, "card": "9D"}]

SEEN = (
    ".bar .btn", ".opp", ".turn", "[data-testid='latest'] li", "[data-testid='draw']",
    "[data-testid='discard']", "[data-testid='notice']", ".me-line", "[data-testid='hand'] .card",
    ".controls .btn",
)
"""What a player must see whole at the table."""

OUTSIDE = """([seen, w, h]) => {
  const out = [];
  for (const selector of seen) {
    const found = document.querySelectorAll(selector);
    if (!found.length) out.push(selector + ": missing");
    for (const e of found) {
      const r = e.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
        out.push(`${selector} ${e.dataset.testid || ""} at ${Math.round(r.left)},${Math.round(r.top)}-`
          + `${Math.round(r.right)},${Math.round(r.bottom)}`);
      }
    }
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > h || page.scrollWidth > w) {
    out.push(`the page scrolls: ${page.scrollWidth}x${page.scrollHeight}`);
  }
  return out;
}"""


def test_nothing_of_the_table_is_cut_at_any_size_with_a_refusal_and_the_latest_moves(browser, site):
    """At each size of `SIZES` (one page, resized: a failure names its size)."""
    frames = [status(ROOM), update(BUSY, MOVES)]
    context, page, script = seated(browser, site, frames, *SIZES[0])
    try:
        script.send({"type": "error", "code": "illegal", "message": "refused", "reason": "must_follow",
                     "values": {"suit": "D", "card": "9D", "wild": "eight"}, "v": 2})
        page.wait_for_selector("[data-testid='notice']")

        def nothing_cut(width: int, height: int) -> None:
            assert page.eval_on_selector_all("[data-testid='latest'] li", "ls => ls.length") == 2
            assert page.evaluate(OUTSIDE, [list(SEEN), width, height]) == []

        walk_sizes(page, SIZES, nothing_cut)
    finally:
        context.close()


LARGE = [(1920, 1080), (1280, 800)]
"""Large screens, whose height the pile and the hand take."""


def test_a_large_screen_uses_its_height_for_the_pile_and_the_hand(browser, site):
    """At each size of `LARGE` (one page, resized: a failure names its size)."""
    frames = [status(ROOM), update(TABLE, MOVES[:1])]
    context, page, _ = seated(browser, site, frames, *LARGE[0])
    try:
        def height_used(width: int, height: int) -> None:
            discard, pile = box(page, "[data-testid='discard']"), box(page, "[data-testid='draw']")
            hand = box(page, "[data-testid='hand']")
            felt = hand["y"] - max(discard["y"] + discard["height"], pile["y"] + pile["height"])
            # Between them only the refusal's line and the player's own line: no wide empty felt.
            assert felt <= 0.13 * height, felt
            assert discard["height"] >= 0.28 * height, discard
            assert box(page, "[data-testid='card-9S']")["height"] >= 0.25 * height

        walk_sizes(page, LARGE, height_used)
    finally:
        context.close()
