"""The browser client on an upright phone (360×740, 390×844, 412×915; a phone's scale, touch and
viewport), in English and in French, in each phase a player meets:

- at the table with a hand of 8 and of 20 cards against three opponents: nothing leaves the screen
  (the controls, the hand, the pile and the discard), the page does not scroll, every card of the
  hand can be tapped (a point of it hits it), no two controls overlap, and each opponent's name is
  whole (on two lines rather than cut: "Computer 3" and "Computer 4" stay apart); the pile and the
  discard in the middle when no suit nor penalty stands beside them;
- the seat form, upright and on its side (740×360, 844×390): a free seat's words keep their line, its
  button goes under them; the seats' buttons and Join on the screen without scrolling (a form taller
  than the screen: the avatars on one row; on its side, the name and avatars beside the seats);
- the result: the scores' table fits the width, no number broken, the next deal on the screen without
  scrolling (a result taller than the screen packs itself);
- eight players' result on a phone on its side (740×360, 844×390): it scrolls in its own box under its
  pinned next deal (a finished match: its row of buttons), which stays on the screen; scrolled to its
  foot, the last row of the scores and the last hand counted are whole above it;
- four hands of a `colors` room counted on a small phone on its side (640×360, then 740×360 and
  844×390): the hands' column at least 35% of the width, three cards at least to a line, none
  overlapping, each value on its card's line; the scores whole and the next deal on the screen.

A test of several sizes or hands seats one page (per language) and walks them on it (resized: the
client draws its page anew for each, `browser_support.at_size`); a failure names every size (and
hand) that is wrong.

The landscape phone's table and the larger screens are tests/test_browser_screens.py's. Each test skips in
one line without playwright, chromium or the built client (``make web``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_support import (
    TIMEOUT_MS,
    ScriptedServer,
    at_size,
    browser,
    checking,
    drawn_anew,
    needs_browser,
    site,
    wait_state,
    walk_sizes,
)
from tests.net_support import Peer
from tests.test_browser_frames import ROOM, VIEW, status
from tests.test_browser_screens import OUTSIDE, SEEN, box, overlap, update

__all__ = ["browser", "site"]  # the fixtures, shared from tests.browser_support

pytestmark = needs_browser

PHONES = [(360, 740), (390, 844), (412, 915)]
"""Upright phones: a small Android, an iPhone 12 to 14, a large Android (from the smallest up: a test
walks them in this order on one page, `browser_support.at_size`)."""

SEATS = [
    {"kind": "human", "name": "Benoît-Alexandre", "tag": "3F2K9Q", "connected": True},
    {"kind": "human", "name": "Anastasia", "tag": "7H4K9W", "connected": True},
    {"kind": "computer", "level": "medium"},
    {"kind": "computer", "level": "hard"},
]
HAND8 = ["7H", "9S", "7S", "KD", "4C", "9H", "2D", "8C"]
HAND20 = [*HAND8, "AS", "3H", "5D", "6C", "TS", "JH", "QD", "KC", "AH", "2S", "3C", "4D"]
MOVES = [{"type": "CardPlayed", "seat": 1, "card": "7D"}, {"type": "CardPlayed", "seat": 2, "card": "9D"}]
RESULT = {"winner": 1, "winners": [1], "tie": False, "blocked": False, "points": [0, 153, 40, 12],
          "hands": [["3S", "KD", "8H", "QC", "TD", "AS"], [], ["2C", "5D"], ["9H"]], "totals": [63, 0, 7, 9]}


def table(hand: list[str], **extra: Any) -> dict[str, Any]:
    """Seat 0's view of a four-player deal, its turn, with Draw and "Card!" offered."""
    return {**VIEW, "players": 4, "hand": hand, "hand_counts": [len(hand), 12, 5, 9], "discard": ["7D"],
            "scores": [0, 0, 0, 0], "legal": ["play 7H", "play 7S", "play 8C", "draw", "card"], **extra}


def phone(browser: Any, server: Any, width: int, height: int, lang: str,
          name: str | None = "Benoît-Alexandre") -> Any:
    """A phone's browser context upright (scale 3, touch, a mobile viewport) speaking ``lang``."""
    items = [{"name": "huit.name", "value": name}] if name else []
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=3, is_mobile=True, has_touch=True,
        locale=lang, storage_state={"cookies": [], "origins": [
            {"origin": f"http://127.0.0.1:{server.port}", "localStorage": items}]})
    context.set_default_timeout(TIMEOUT_MS)
    return context


def seated(context: Any, server: Any, frames: list[dict[str, Any]], want: str) -> tuple[Any, ScriptedServer]:
    """The phone's page seated by a quick match the script answers with ``frames``: (page, script)."""
    page = context.new_page()
    script = ScriptedServer(page, ROOM, frames)
    page.goto(f"http://127.0.0.1:{server.port}/play", wait_until="load")
    wait_state(page, "lobby")
    page.click("[data-testid='quick-match']")
    assert wait_state(page, want) == want
    return page, script


def again(page: Any, script: ScriptedServer, frame: dict[str, Any], cards: int) -> None:
    """The update ``frame`` sent to a seated page as its table anew: its moves from ``frame``'s alone
    (``earlier``: the log begun again, as a page that rejoins gets it), a refusal shown before gone
    (``frame`` has events); returns once the page shows it (a hand of ``cards`` cards, no refusal)."""
    drawn_anew(page, lambda: script.send({**frame, "earlier": []}),
               "n => document.querySelectorAll(\"[data-testid='hand'] .card\").length === n"
               " && document.querySelector(\"[data-testid='notice']\") === null", cards)


UNTAPPABLE = """([w, h]) => {
  // Every card of the hand: a point of its visible strip (its top left, where the next card and the
  // next row leave it) is on the screen and hits that card, not a neighbour nor anything else.
  const out = [];
  for (const card of document.querySelectorAll("[data-testid='hand'] .card")) {
    const r = card.getBoundingClientRect();
    const x = r.left + 20, y = r.top + 14;
    const hit = x < w && y < h ? document.elementFromPoint(x, y) : null;
    if (!hit || hit.closest(".card") !== card) out.push(card.dataset.testid);
  }
  return out;
}"""

CUT = """selector => [...document.querySelectorAll(selector)]
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => e.textContent)"""


def control_boxes(page: Any) -> list[tuple[str, dict[str, float]]]:
    found = page.eval_on_selector_all(
        ".bar .btn, .controls .btn",
        "bs => bs.map(b => [b.dataset.testid || b.textContent, b.getBoundingClientRect().toJSON()])")
    return [(str(name), dict(b)) for name, b in found]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_upright_phone_shows_the_whole_table_and_every_card_can_be_tapped(browser, site, lang):
    """Each phone of `PHONES`, a hand of 8 then of 20 (one page, resized: a failure names its phone
    and its hand)."""
    context = phone(browser, site, *PHONES[0], lang)
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(HAND8), MOVES)]
        page, script = seated(context, site, frames, "playing")
        failures: list[str] = []
        for width, height in PHONES:  # from the smallest up (`browser_support.at_size`)
            for cards in (HAND8, HAND20):
                with checking(failures, f"{width}x{height}, {len(cards)} cards"):
                    at_size(page, width, height)
                    again(page, script, update(table(cards), MOVES), len(cards))
                    script.send(REFUSED)  # a refusal's line too
                    page.wait_for_selector("[data-testid='notice']")
                    table_whole(page, width, height, len(cards))
        assert not failures, "\n".join(failures)
    finally:
        context.close()


REFUSED = {"type": "error", "code": "illegal", "message": "refused", "reason": "must_follow",
           "values": {"suit": "D", "card": "9D", "wild": "eight"}, "v": 2}
"""A refusal: its line on the table too."""


def table_whole(page: Any, width: int, height: int, cards: int) -> None:
    """The phone's table at ``width``×``height`` with its refusal and a hand of ``cards``: see
    `test_an_upright_phone_shows_the_whole_table_and_every_card_can_be_tapped`."""
    assert page.locator("[data-testid='hand'] .card").count() == cards
    assert page.evaluate(OUTSIDE, [list(SEEN), width, height]) == []
    assert page.evaluate(UNTAPPABLE, [width, height]) == []
    controls = control_boxes(page)
    assert len(controls) >= 7  # the bar's three, Draw, "Card!", Sort, Autopilot
    for i, (one, a) in enumerate(controls):
        for other, b in controls[i + 1:]:
            assert not overlap(a, b), (one, other)
    # Each opponent's name whole: a name goes on two lines rather than lose its end.
    assert page.evaluate(CUT, ".opp .opp-name") == []
    names = page.eval_on_selector_all(".opp .opp-name", "ns => ns.map(n => n.textContent)")
    assert len(set(names)) == 3, names
    # The pile and the discard still a card's size a finger can see and hit.
    assert page.locator("[data-testid='draw']").bounding_box()["width"] >= 44
    assert page.locator("[data-testid='discard']").bounding_box()["width"] >= 44
    # No suit named nor penalty: the pile and the discard stand in the middle of the screen.
    pile, discard = box(page, "[data-testid='draw']"), box(page, "[data-testid='discard']")
    middle = (pile["x"] + discard["x"] + discard["width"]) / 2
    assert abs(middle - width / 2) <= 8, (middle, width)


SIDEWAYS = [(740, 360), (844, 390)]
"""Phones on their side, from the smallest up (`browser_support.at_size`)."""

SEAT_FORM = [(360, 740), *SIDEWAYS]
"""The seat form's phones: the smallest upright, then on its side (from the narrowest up: `at_size`)."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_seat_form_on_a_small_phone_upright_or_on_its_side_shows_every_seat_and_join(browser, site, lang):
    """Each phone of `SEAT_FORM` (one page, resized: a failure names its phone). On its side, the name
    and the avatars stand beside the seats, and Join stays at the screen's foot (app.css's
    ``.seat-form``): below one another, Join was 223 px below the screen at 844×390."""
    ana = Peer(site.port)
    try:
        ana.hello("Ana")
        joined = ana.create("classic", [{"kind": "human"}] * 3 + [{"kind": "computer", "level": "medium"}],
                            name="Ana")
        context = phone(browser, site, *SEAT_FORM[0], lang, name=None)
        try:
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{site.port}/play/{joined['room']}", wait_until="load")
            wait_state(page, "seat")
            failures: list[str] = []
            for width, height in SEAT_FORM:
                with checking(failures, f"{width}x{height}"):
                    at_size(page, width, height)
                    page.wait_for_selector("[data-testid='take-seat-1']")
                    seat_form_whole(page, width, height)
            assert not failures, "\n".join(failures)
        finally:
            context.close()
    finally:
        ana.close()


def seat_form_whole(page: Any, width: int, height: int) -> None:
    """The seat form at ``width``×``height``: see
    `test_the_seat_form_on_a_small_phone_upright_or_on_its_side_shows_every_seat_and_join`."""
    upright = height > width
    # "free: this seat is yours" (French: "libre : cette place est pour vous") whole, on one line upright
    # (its button goes under it); on its side it may take two beside its button.
    assert page.evaluate(CUT, ".seat-row .seat-who") == []
    heights = page.eval_on_selector_all(".seat-row .seat-who", "ws => ws.map(w => w.clientHeight)")
    assert max(heights) <= (30 if upright else 50), heights
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.evaluate("scrollTo(0, 0)")
    # The name and Join on the screen without scrolling. Upright, each free seat's button too (the
    # avatars on one row that scrolls sideways where the form is too tall: ui.ts's fitSeatForm); on its
    # side, Join stays at the screen's foot and the seats scroll under it: each seat's button, scrolled
    # into the middle of the screen, gets a tap (Join does not lie over it).
    for testid in ("name-input", "take-seat", *(("take-seat-1", "take-seat-2") if upright else ())):
        b = page.locator(f"[data-testid='{testid}']").bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= width, (testid, b)
        assert b["y"] >= 0 and b["y"] + b["height"] <= height, (testid, b)
    if upright:
        assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1
        return
    for testid in ("take-seat-1", "take-seat-2"):
        selector = f"[data-testid='{testid}']"
        page.evaluate("s => document.querySelector(s).scrollIntoView({block: 'center'})", selector)
        assert page.evaluate(ON_TOP, selector), testid
    page.evaluate("scrollTo(0, document.scrollingElement.scrollHeight)")
    join = page.locator("[data-testid='take-seat']").bounding_box()
    assert join["y"] + join["height"] <= height + 1 and page.evaluate(ON_TOP, "[data-testid='take-seat']")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_result_on_an_upright_phone_fits_its_width_and_breaks_no_number(browser, site, lang):
    """Each phone of `PHONES` (one page, resized: a failure names its phone)."""
    context = phone(browser, site, *PHONES[0], lang)
    try:
        deal = status(ROOM, players=4, seats=SEATS, state="round_over", results=[RESULT])
        final = update(table(HAND8, status="round_over", result=RESULT))
        page, _ = seated(context, site, [deal, final], "result")

        def fits(width: int, height: int) -> None:
            cells = page.eval_on_selector_all(".scores th, .scores td",
                                              "cs => cs.map(c => c.getBoundingClientRect().right)")
            assert max(cells) <= width - 8 + 0.5, max(cells)  # inside the page's padding
            assert page.evaluate("document.scrollingElement.scrollWidth") <= width
            # A number or a count on one line ("+153", "6 cards"), however narrow the phone.
            lines = page.eval_on_selector_all(
                ".scores td + td",
                "cs => cs.map(c => { const r = document.createRange(); r.selectNodeContents(c);"
                " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })")
            assert max(lines) == 1, lines
            # The next deal on the screen, the page not scrolled to reach it (ui_table.ts's fitResult).
            b = page.locator("[data-testid='next-deal']").bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= width
            assert b["y"] >= 0 and b["y"] + b["height"] <= height, b
            assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1

        walk_sizes(page, PHONES, fits)
    finally:
        context.close()


SIX = [*SEATS, {"kind": "computer", "level": "easy"},
       {"kind": "human", "name": "Marie-Christine", "tag": "9QQ2WX", "connected": True}]
"""Six seats: five opponents, two rows of chips on an upright phone."""


WORST = {"suit": "H", "pending": 4, "legal": ["accept", "challenge", "card", "denounce 1"]}
"""A suit named, a penalty pending, "Card!" to call on seat 1: five controls and a taller chip."""

PENALTY_SEEN = [*SEEN[:6], *SEEN[7:], ".opp .btn", "[data-testid='suit']", ".pending"]
"""What a player under a penalty must see: `SEEN` without the refusal's line, and what the penalty adds."""

PENALTY = [(360, 740, HAND8), (360, 740, HAND20), (390, 844, HAND20)]
"""The phones and hands the penalty is checked with (from the smallest up: `browser_support.at_size`)."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_upright_phone_under_a_penalty_keeps_the_pile_and_the_denounce_in_their_place(browser, site, lang):
    """A suit named, a penalty pending, "Card!" to call on an opponent, five controls (with 20 cards at
    360×740 the table packs itself: ui_table.ts's fitTable). Each phone and hand of `PENALTY` (one
    page, resized and dealt again: a failure names its phone and its hand)."""
    context = phone(browser, site, *PENALTY[0][:2], lang)
    try:
        frames = [status(ROOM, players=4, seats=SEATS), update(table(PENALTY[0][2], **WORST), MOVES)]
        page, script = seated(context, site, frames, "playing")
        failures: list[str] = []
        for width, height, cards in PENALTY:
            with checking(failures, f"{width}x{height}, {len(cards)} cards"):
                at_size(page, width, height)
                again(page, script, update(table(cards, **WORST), MOVES), len(cards))
                assert page.evaluate(OUTSIDE, [PENALTY_SEEN, width, height]) == []
                assert page.evaluate(UNTAPPABLE, [width, height]) == []
                denounce, chip = box(page, "[data-testid='denounce-1']"), box(page, ".opp[data-seat='1']")
                assert chip["x"] <= denounce["x"]
                assert denounce["x"] + denounce["width"] <= chip["x"] + chip["width"]
                for part in ("draw", "discard"):  # the penalty's words squeeze neither of them
                    assert box(page, f"[data-testid='{part}']")["width"] >= 44, part
        assert not failures, "\n".join(failures)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_small_upright_phone_with_five_opponents_shows_the_whole_table(browser, site, lang):
    context = phone(browser, site, 360, 740, lang)
    try:
        view = {**table(HAND8), "players": 6, "hand_counts": [8, 12, 5, 9, 7, 3], "scores": [0] * 6}
        frames = [status(ROOM, players=6, seats=SIX), update(view, MOVES)]
        page, _ = seated(context, site, frames, "playing")
        assert page.locator(".opp").count() == 5
        assert page.evaluate(OUTSIDE, [[*SEEN[:6], *SEEN[7:]], 360, 740]) == []  # no refusal here
        assert page.evaluate(UNTAPPABLE, [360, 740]) == []
        assert page.evaluate(CUT, ".opp .opp-name") == []
    finally:
        context.close()


EIGHT_SEATS = [*SIX, {"kind": "computer", "level": "medium"},
               {"kind": "human", "name": "Zoé", "tag": "4K4K2W", "connected": True}]
EIGHT = {"winner": 1, "winners": [1], "tie": False, "blocked": False, "points": [0, 200, 0, 0, 0, 0, 0, 0],
         "hands": [HAND8[:6], [], HAND20[:2], ["9H"], HAND20[3:8], HAND20[8:11], HAND20[11:18], HAND20[1:5]],
         "totals": [40, 0, 22, 9, 35, 20, 60, 30]}
"""Eight players' result: seven hands counted (one of seven cards), taller than a phone on its side."""

PINNED = ".result > .btn, .result > .row"
"""What a result that scrolls in its own box holds at its foot: the next deal, or a finished match's row."""

FOOT = """pinned => {
  // The result's box scrolled to its foot, the hands counted scrolled to theirs: the pinned control,
  // the last row of the scores, the last hand counted, both boxes, and each part of that row and that
  // hand that does not get a tap at its middle (something lies over it).
  const result = document.querySelector(".result"), counted = document.querySelector(".counted");
  result.scrollTop = result.scrollHeight;
  counted.scrollTop = counted.scrollHeight;
  const rows = document.querySelectorAll(".scores tbody tr");
  const hands = counted.querySelectorAll(".counted-hand");
  const row = rows[rows.length - 1], hand = hands[hands.length - 1];
  const covered = [...row.cells, ...[...hand.children].filter(e => !e.classList.contains("sr"))].filter(e => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !(hit && e.contains(hit));
  }).map(e => e.textContent || e.className);
  const box = e => e.getBoundingClientRect().toJSON();
  return {pinned: box(document.querySelector(pinned)), row: box(row), hand: box(hand), result: box(result),
          counted: box(counted), covered};
}"""


ON_TOP = """s => { const p = document.querySelector(s), r = p.getBoundingClientRect();
  return p.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"""


def pinned_on_screen(page: Any, width: int, height: int) -> dict[str, float]:
    """The pinned control of a result that scrolls in its own box (ui_table.ts's fitResult adds
    ``scrolls``), scrolled to its top: inside the screen and the result's box, on top of what it
    pins over (a tap at its middle hits it), the page not scrolled. Its box."""
    assert page.locator(".result.scrolls").count() == 1  # eight players do not fit a phone on its side
    page.evaluate("() => { document.querySelector('.result').scrollTop = 0; }")
    pinned = box(page, PINNED)
    result = box(page, ".result")
    assert pinned["x"] >= 0 and pinned["x"] + pinned["width"] <= width, pinned
    foot = min(height, result["y"] + result["height"])
    assert pinned["y"] >= result["y"] and pinned["y"] + pinned["height"] <= foot + 0.5, (pinned, result)
    assert page.evaluate(ON_TOP, PINNED)
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1
    return pinned


def whole_at_the_foot(page: Any, width: int, height: int) -> None:
    """Scrolled to the foot of the result (and of the hands counted, which scroll in their own box
    beside the scores), the last row of the scores and the last hand counted are whole: inside their
    boxes, entirely above the pinned control, nothing over them; the pinned control still on the screen."""
    pinned_on_screen(page, width, height)
    foot = page.evaluate(FOOT, PINNED)
    pinned, result, counted = foot["pinned"], foot["result"], foot["counted"]
    assert pinned["y"] >= 0 and pinned["y"] + pinned["height"] <= height, pinned
    for name, part, inside in (("the last row of the scores", foot["row"], result),
                               ("the last hand counted", foot["hand"], counted)):
        top, bottom = part["y"], part["y"] + part["height"]
        assert top >= inside["y"] - 0.5 and bottom <= inside["y"] + inside["height"] + 0.5, \
            (name, "cut by its box", part, inside)
        assert bottom <= pinned["y"] + 0.5, (name, "under the pinned control", part, pinned)
    assert foot["covered"] == [], foot["covered"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_eight_players_result_on_a_phone_on_its_side_scrolls_under_its_pinned_next_deal(browser, site, lang):
    """Eight players' result is taller than a phone on its side (`SIDEWAYS`): it scrolls in its own box,
    the next deal pinned at its foot over the rows that pass under it; scrolled to the foot, nothing is
    left under it (the last row of the scores, the last hand counted whole above it). Then a finished
    match: its row of two buttons pinned the same way (at 844×390). One page, resized: a failure names
    its phone."""
    context = phone(browser, site, *SIDEWAYS[0], lang)
    try:
        deal = status(ROOM, players=8, seats=EIGHT_SEATS, state="round_over", results=[EIGHT])
        view = {**table(HAND8, status="round_over", result=EIGHT), "players": 8, "hand_counts": [1] * 8,
                "scores": [0] * 8}
        page, script = seated(context, site, [deal, update(view)], "result")
        assert page.locator("[data-testid='next-deal']").count() == 1
        walk_sizes(page, SIDEWAYS, lambda width, height: whole_at_the_foot(page, width, height))
        over = status(ROOM, players=8, seats=EIGHT_SEATS, state="match_over", results=[EIGHT])
        drawn_anew(page, lambda: (script.send(over), script.send(update({**view, "status": "match_over"}))),
                   "() => document.querySelector(\"[data-testid='play-again']\") !== null")
        assert page.locator(".result > .row [data-testid='play-again']").count() == 1
        whole_at_the_foot(page, *SIDEWAYS[-1])
    finally:
        context.close()


COLOURS_ROOM = {"preset": "colors"}
COLOURS_VIEW = {"rules": {"preset": "colors", "options": {}}, "discard": ["R7"]}
BLOCKED = {"winner": 1, "winners": [1], "tie": False, "blocked": True, "points": [0, 228, 0, 0],
           "hands": [["R3", "B+2", "Gskip", "Y7", "W", "R9"], ["G2"], ["B5", "Grev", "Y1", "G8", "W+4"],
                     ["R2", "Y4", "B9", "Gskip"]],
           "totals": [109, 2, 84, 35]}
"""A blocked deal of a `colors` room of four: every player's hand counted (one, four, five and six
cards), each card with its value (`(20)` for a skip, `(50)` for a wild) beside it."""

NARROW_SIDEWAYS = [(640, 360), *SIDEWAYS]
"""A small phone on its side (640×360), then `SIDEWAYS` (from the smallest up: `browser_support.at_size`)."""

HANDS = """() => {
  // The hands counted: their box, the result's, and each hand's cards and values.
  const box = e => e.getBoundingClientRect().toJSON();
  return {counted: box(document.querySelector(".counted")), result: box(document.querySelector(".result")),
          hands: [...document.querySelectorAll(".counted-hand")].map(h => ({
            id: h.dataset.testid, cards: [...h.querySelectorAll(".mini")].map(box),
            values: [...h.querySelectorAll(".value")].map(box)}))};
}"""


def hands_readable(page: Any, width: int, height: int) -> None:
    """Four players' result of a `colors` room on a phone on its side: the scores and the hands counted
    side by side, the hands' column at least 35% of the result's width (at 640×360 it was 96 px of
    624: a card or two to a line, each value apart from its card), each hand at least three cards
    to a line, none overlapping, each value on its card's line, all inside the column; the scores
    whole, no number broken; the next deal on the screen, on top, the page and the result not
    scrolled to reach it."""
    seen = page.evaluate(HANDS)
    counted, result = seen["counted"], seen["result"]
    assert counted["width"] >= 0.35 * result["width"], ("the hands' column", counted, result)
    assert len(seen["hands"]) == 4
    for hand in seen["hands"]:
        cards, values = hand["cards"], hand["values"]
        assert len(values) == len(cards), hand["id"]  # each card's value shown (they add up to the total)
        rows = len({round(c["y"]) for c in cards})
        assert rows <= -(-len(cards) // 3), (hand["id"], "rows", rows, len(cards))
        for i, card in enumerate(cards):
            assert card["width"] >= 20, (hand["id"], i, card)
            inside = counted["x"] - 0.5 <= card["x"] <= counted["x"] + counted["width"] - card["width"] + 0.5
            assert inside, (hand["id"], i, "outside the column", card, counted)
            assert not any(overlap(card, other) for other in cards[i + 1:]), (hand["id"], i, "overlaps")
            middle = values[i]["y"] + values[i]["height"] / 2
            assert card["y"] <= middle <= card["y"] + card["height"], (hand["id"], i, "value off its line")
    lines = page.eval_on_selector_all(
        ".scores td", "cs => cs.map(c => { const r = document.createRange(); r.selectNodeContents(c);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })")
    assert max(lines) == 1, lines
    seen_whole = [".bar .btn", ".result h1", ".winner", ".scores", "[data-testid='next-deal']"]
    assert page.evaluate(OUTSIDE, [seen_whole, width, height]) == []
    assert page.locator(".result.scrolls").count() == 0
    assert page.evaluate(ON_TOP, "[data-testid='next-deal']")
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height + 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_four_hands_counted_on_a_small_phone_on_its_side_keep_a_readable_column(browser, site, lang):
    """Four players' scores and hands of a `colors` room at 640×360, 740×360 and 844×390
    (`hands_readable`). One page, resized: a failure names its phone."""
    context = phone(browser, site, *NARROW_SIDEWAYS[0], lang)
    try:
        deal = status(ROOM, players=4, seats=SEATS, state="round_over", results=[BLOCKED], **COLOURS_ROOM)
        final = update(table(["R3", "B5"], status="round_over", result=BLOCKED, **COLOURS_VIEW))
        page, _ = seated(context, site, [deal, final], "result")
        walk_sizes(page, NARROW_SIDEWAYS, lambda width, height: hands_readable(page, width, height))
    finally:
        context.close()
