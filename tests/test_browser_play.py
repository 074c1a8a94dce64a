"""Whole games in real browsers (issue 35, "How it is checked"): Debian's chromium, headless, driven by
Playwright through the client's ``data-testid`` hooks, against a real room server on 127.0.0.1.

- a 4-seat ``colors`` room with two browsers and two computers, played to the result;
- a duel between the pygame client (a real App, headless) and a browser, played to the result;
- a browser closed mid-game and reopened on the link takes its seat back (the seat key in its
  storage), with the same hand;
- a quick match from two browsers;
- refusals shown: a name the server refuses, a full room, a card that cannot be played, a seat key
  that no longer opens its seat (forgotten).

Each step is bounded (`browser_support.TIMEOUT_MS`, and each game by `GAME_SECONDS`); each test skips
in one line without playwright, chromium or the built client (``make web``).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pygame

from tests.browser_support import (
    Watch,
    browser,
    hand,
    needs_browser,
    open_page,
    server,
    state,
    step,
    wait_state,
)
from tests.net_support import Peer

__all__ = ["browser", "server"]  # the fixtures, shared from tests.browser_support

pytestmark = needs_browser

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "medium"}
GAME_SECONDS = 90.0
"""The longest one game may take to its result here (a few seconds on a quiet machine: docs/web.md)."""


def seat_storage(port: int, room: str, seat: int, key: str, name: str) -> dict[str, Any]:
    """A browser's storage holding a seat of ``room`` (as the client keeps it: ``huit.seat.ROOM``)."""
    items = {f"huit.seat.{room}": json.dumps({"seat": seat, "key": key}), "huit.name": name}
    return {"cookies": [], "origins": [{"origin": f"http://127.0.0.1:{port}",
                                        "localStorage": [{"name": k, "value": v} for k, v in items.items()]}]}


def take_seat(page: Any, name: str, seat: int | None = None) -> None:
    wait_state(page, "seat")
    page.fill("[data-testid='name-input']", name)
    # `take-seat-<n>` a free seat, `take-seat` any free one: the hooks web/README.md documents.
    page.click(f"[data-testid='take-seat-{seat}']" if seat is not None else "[data-testid='take-seat']")


def play_to_result(pages: list[Any], seconds: float = GAME_SECONDS, also: Any = None) -> None:
    """Every page taps what it may (`step`) until all show the result (``also()``: the other
    players' turn, called between taps; it returns whether they are done too)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        steps = [step(page) for page in pages]
        other_done = also() if also is not None else True
        states = [now for now, _ in steps]
        if all(now == "result" for now in states) and other_done:
            return
        assert "error" not in states, [page.inner_text("#huit")[:300] for page in pages]
        if all(tapped is None for _, tapped in steps):
            time.sleep(0.01)
    raise AssertionError(f"no result within {seconds} s: {[state(page) for page in pages]}")


def test_two_browsers_and_two_computers_play_a_colors_room_to_the_result(browser, server):
    ana_peer = Peer(server.port)
    assert ana_peer.create("colors", [HUMAN, HUMAN, MEDIUM, MEDIUM], name="Ana")["type"] == "joined"
    room, key = ana_peer.room_id, ana_peer.key
    ana_peer.close()  # Ana goes on in her browser, which holds her seat's key
    url = f"http://127.0.0.1:{server.port}/play/{room}"
    watches = [Watch(), Watch()]
    kept = seat_storage(server.port, room, 0, key, "Ana")
    ana_context, ana = open_page(browser, url, watches[0], storage=kept)
    ben_context, ben = open_page(browser, url, watches[1], width=390, height=844)
    try:
        take_seat(ben, "Ben", 1)
        assert wait_state(ana, "playing") == wait_state(ben, "playing") == "playing"
        play_to_result([ana, ben])
        # Each says who won in its own words ("You win!" on the winner's page, the name on the other).
        assert ana.inner_text("[data-testid='winner']") and ben.inner_text("[data-testid='winner']")
        for watch in watches:
            assert watch.errors == [] and watch.foreign(server.port) == []
    finally:
        ana_context.close()
        ben_context.close()


def test_a_browser_closed_mid_game_and_reopened_on_the_link_takes_its_seat_back(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    url = f"http://127.0.0.1:{server.port}/play/{ana.room_id}"
    context, page = open_page(browser, url)
    take_seat(page, "Ben", 1)
    wait_state(page, "playing")
    ana.until(lambda m: m["type"] == "update" and m["view"]["status"] == "playing")
    before = hand(page)
    assert before
    kept = context.storage_state()
    context.close()  # the browser is closed mid-game
    ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [1])
    watch = Watch()
    context, page = open_page(browser, url, watch, storage=kept)  # the same browser, the same link
    try:
        assert wait_state(page, "playing") == "playing"
        page.wait_for_selector("[data-testid='hand'] [data-testid^='card-']")
        assert hand(page) == before  # its own seat: the same cards
        ana.until(lambda m: m["type"] == "room" and m["waiting_for"] == [])
        assert watch.errors == []
    finally:
        context.close()


def test_a_quick_match_from_two_browsers(browser, server):
    pages, contexts = [], []
    try:
        for name in ("Ana", "Ben"):
            context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play")
            contexts.append(context)
            pages.append(page)
            wait_state(page, "lobby")
            page.fill("[data-testid='name-input']", name)
            page.select_option("[data-testid='preset']", "duel")
            page.select_option("[data-testid='players']", "2")
            page.click("[data-testid='quick-match']")
        for page in pages:
            assert wait_state(page, "playing") == "playing"
        rooms = [page.evaluate("location.pathname") for page in pages]
        assert rooms[0] == rooms[1] and rooms[0].startswith("/play/")  # seated together, in one room
    finally:
        for context in contexts:
            context.close()


def test_refusals_are_shown_in_words(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    url = f"http://127.0.0.1:{server.port}/play/{ana.room_id}"
    context, page = open_page(browser, url)
    try:
        take_seat(page, "Ben#1")  # a name the server refuses (a tag sign)
        notice = page.wait_for_selector("[data-testid='notice']").inner_text()
        assert notice and "bad_name" not in notice
        take_seat(page, "Ben")
        wait_state(page, "playing")
        view = ana.until(lambda m: m["type"] == "update")["view"]
        while view["to_act"] == view["seat"]:  # Ana plays until it is Ben's turn
            ana.play_one()
            view = ana.view
        page.wait_for_selector("[data-testid='hand'] .card.glow, [data-testid='draw-button']")
        dull = page.locator("[data-testid='hand'] .card:not(.glow)")
        assert dull.count() > 0  # the deals are the same every run (the server's seeded generator)
        dull.first.click()  # a card that cannot be played: the server's reason, in words
        notice = page.wait_for_selector("[data-testid='notice']").inner_text()
        assert notice and "not_legal" not in notice and "illegal" not in notice
    finally:
        context.close()
    carl_context, carl = open_page(browser, url)
    try:  # the room is full now
        take_seat(carl, "Carl")
        wait_state(carl, "error", "seat")
        assert carl.locator("[data-testid='error-text'], [data-testid='notice']").first.inner_text()
    finally:
        carl_context.close()


def test_tab_then_enter_plays_the_focused_card(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play/{ana.room_id}")
    try:
        take_seat(page, "Ben", 1)
        wait_state(page, "playing")
        view = ana.until(lambda m: m["type"] == "update")["view"]
        while view["to_act"] == view["seat"]:  # Ana plays until it is Ben's turn
            ana.play_one()
            view = ana.view
        page.wait_for_selector("[data-testid='hand'] .card.glow, [data-testid='draw-button']")
        for _ in range(20):  # Ben draws until a card of his can be played (the deal is the same every run)
            if page.locator("[data-testid='hand'] .card.glow").count():
                break
            page.click("[data-testid='draw-button']")
            page.wait_for_timeout(100)
        playable = page.locator("[data-testid='hand'] .card.glow").last
        code = str(playable.get_attribute("data-testid"))[len("card-"):]
        # From the pile (focused without a key: nothing is selected), Tab through the cards to it.
        page.focus("[data-testid='draw']")
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.testid") == f"card-{code}":
                break
        assert page.evaluate("document.activeElement.dataset.testid") == f"card-{code}"
        page.keyboard.press("Enter")
        played = ana.until(lambda m: m["type"] == "update"
                           and any(e.get("type") == "CardPlayed" and e.get("seat") == 1 for e in m["events"]))
        cards = [e["card"] for e in played["events"] if e.get("type") == "CardPlayed" and e.get("seat") == 1]
        assert cards == [code]
    finally:
        context.close()


def test_a_seat_key_that_no_longer_opens_the_seat_is_said_and_forgotten(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    kept = seat_storage(server.port, ana.room_id, 1, "x" * 32, "Ben")  # a key the server never gave
    watch = Watch()
    url = f"http://127.0.0.1:{server.port}/play/{ana.room_id}"
    context, page = open_page(browser, url, watch, storage=kept)
    try:
        assert wait_state(page, "seat") == "seat"  # back to choosing a seat
        notice = page.wait_for_selector("[data-testid='notice']").inner_text()
        assert notice and "bad_key" not in notice
        assert f"huit.seat.{ana.room_id}" not in page.evaluate("Object.keys(localStorage)")
        assert page.locator("[data-testid='take-seat-1']").count() == 1  # the seat is still free
        assert watch.errors == []
    finally:
        context.close()


# ---- the pygame client against a browser -----------------------------------------------------------------
def test_a_duel_between_the_pygame_client_and_a_browser(browser, server):
    from tests.client_support import close_online_app, make_app, press, top_name
    from tests.test_online_ui import create_duel, remote

    app = make_app((1024, 600), player_name="Ana")  # the smallest window: its frames cost least
    try:
        link = create_duel(app, server.port)
        room = link.rsplit("/", 1)[1]
        watch = Watch()
        context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play/{room}", watch)
        try:
            take_seat(page, "Ben", 1)
            wait_state(page, "playing")

            def pygame_turn() -> bool:  # its own keys: Enter picks a playable card (or draws), Enter plays
                app.frame(1 / 60)
                if top_name(app) == "SuitPickerScene":
                    press(app, pygame.K_RETURN)
                elif top_name(app) == "TableScene":
                    view = remote(app).view()
                    if view.my_turn and view.legal:
                        press(app, pygame.K_RETURN)
                        if top_name(app) == "TableScene" and app.stack.top.selected is not None:
                            press(app, pygame.K_RETURN)
                return top_name(app) == "ResultScene"

            play_to_result([page], also=pygame_turn)
            assert watch.errors == [] and watch.foreign(server.port) == []
        finally:
            context.close()
    finally:
        close_online_app(app)


def test_a_guest_who_picks_no_avatar_gets_one_nobody_at_the_table_has(browser, server):
    ana = Peer(server.port)
    ana.hello("Ana", avatar=4)  # the fox: the browser's own default
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play/{ana.room_id}")
    try:
        take_seat(page, "Kim", 1)  # no avatar tapped
        wait_state(page, "playing")
        seen = ana.until(lambda m: m["type"] == "room" and m["seats"][1].get("avatar") not in (None, 4))
        assert seen["seats"][0]["avatar"] == 4 and 0 <= seen["seats"][1]["avatar"] < 16
        assert page.evaluate("localStorage.getItem('huit.avatar')") is None  # a default, not a choice kept
    finally:
        context.close()
