"""The built browser client against a scripted server (issue 35; code review 35, findings 4 and 5):
the page comes from a real room server on 127.0.0.1, but its WebSocket is answered by Playwright
(``page.route_web_socket``), so a test says exactly which frames arrive and sees every frame sent.

- a page seated by a quick match stops watching the public lobby (``lobby`` with ``watch: false``)
  and a late lobby list changes nothing on the table (no rebuild);
- the takeover countdown of an away seat counts down in its own line, with no rebuild of the page.

"No rebuild" is seen by a mark put on the hand's element: a rebuilt page has a new element without it.
Each test skips in one line without playwright, chromium or the built client (``make web``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.browser_support import (
    TIMEOUT_MS,
    ScriptedServer,
    browser,
    needs_browser,
    server,
    wait_state,
)
from tests.net_support import Peer

__all__ = ["browser", "server"]  # the fixtures, shared from tests.browser_support

pytestmark = needs_browser

HUMAN = {"kind": "human"}


def seconds_left(line: str) -> int:
    """The seconds a takeover line counts down to, read from its ``m:ss``."""
    minutes, seconds = re.search(r"(\d+):(\d\d)", line).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


ROOM = "K7M-4AX-P9T-E3F-HWR"
VIEW = {"seat": 0, "players": 2, "hand": ["7H", "9S", "KD"], "hand_counts": [3, 5], "discard": ["7S"],
        "suit": None,
        "draw_count": 30, "direction": 1, "to_act": 0, "phase": "play", "pending": 0,
        "legal": ["play 7H", "draw"], "called": False, "scores": [0, 0], "target": 0, "round_number": 1,
        "rules": {"preset": "classic", "options": {}}, "status": "playing"}


def status(room: str, **extra: Any) -> dict[str, Any]:
    """A ``room`` frame: a classic duel under way, Ben at seat 0 and Ana at seat 1."""
    return {"type": "room", "room": room, "preset": "classic", "options": {}, "players": 2,
            "state": "playing",
            "seats": [{"kind": "human", "name": "Ben", "tag": "3F2K9Q", "connected": True},
                      {"kind": "human", "name": "Ana", "tag": "7H4K9W", "connected": False}],
            "waiting_for": [], "results": [], "deal": 1, "kind": "quick", "ranked": True, "votes": [], "v": 2,
            **extra}


def update(room: str) -> dict[str, Any]:
    return {"type": "update", "room": room, "view": VIEW, "events": [], "timer": None, "autopilot": False,
            "v": 2}


def lobby() -> dict[str, Any]:
    return {"type": "lobby", "rooms": [{"room": "ABC", "preset": "classic", "players": 2, "seats": []}],
            "listed": 1, "now": 100.0, "v": 2}


def script(page: Any, room: str, **extra: Any) -> ScriptedServer:
    """The scripted server of one page: on the quick match (or a join), a classic duel under way in
    ``room`` (``extra``: more fields of its ``room`` frame); a lobby watch gets a list."""
    return ScriptedServer(page, room, [status(room, **extra), update(room)], lobby())


def mark_the_hand(page: Any) -> None:
    page.wait_for_selector("[data-testid='hand'] [data-testid='card-7H']")
    page.evaluate("document.querySelector(\"[data-testid='hand']\").dataset.mark = 'kept'")


def hand_kept(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector(\"[data-testid='hand']\")?.dataset.mark === 'kept'"))


def test_a_page_seated_by_quick_match_stops_watching_the_lobby_and_ignores_a_late_list(browser, server):
    context = browser.new_context(storage_state={"cookies": [], "origins": [{
        "origin": f"http://127.0.0.1:{server.port}",
        "localStorage": [{"name": "huit.name", "value": "Ben"}]}]})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        scripted = script(page, ROOM)
        page.goto(f"http://127.0.0.1:{server.port}/play", wait_until="load")
        wait_state(page, "lobby")
        page.wait_for_selector("[data-testid='lobby-room-0']")  # the list the page watches
        page.click("[data-testid='quick-match']")
        assert wait_state(page, "playing") == "playing"
        mark_the_hand(page)
        for _ in range(500):  # the frames the page sent on joining reach the script (at most 10 s)
            if sum(f.get("type") == "lobby" for f in scripted.sent) >= 2:
                break
            page.wait_for_timeout(20)
        watches = [f["watch"] for f in scripted.sent if f.get("type") == "lobby"]
        assert watches == [True, False]
        for _ in range(3):  # a late list, as a server that had not yet read the stop would send
            scripted.send(lobby())
        scripted.send({"type": "pong", "v": 2})
        page.wait_for_timeout(300)  # the frames are taken in (nothing to wait for: nothing changes)
        assert hand_kept(page), "the table was rebuilt for a lobby list"
        assert wait_state(page, "playing") == "playing"
    finally:
        context.close()


def test_the_takeover_countdown_counts_down_with_no_rebuild_of_the_page(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")  # a room the server keeps: its /play page exists
    storage = {"cookies": [], "origins": [{"origin": f"http://127.0.0.1:{server.port}", "localStorage": [
        {"name": "huit.name", "value": "Ben"},
        {"name": f"huit.seat.{ana.room_id}", "value": json.dumps({"seat": 0, "key": "k" * 32})}]}]}
    context = browser.new_context(storage_state=storage)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        script(page, ana.room_id, takeover=[{"seat": 1, "left": 100}])
        page.goto(f"http://127.0.0.1:{server.port}/play/{ana.room_id}", wait_until="load")
        assert wait_state(page, "playing") == "playing"
        mark_the_hand(page)
        first = page.inner_text("[data-testid='takeover']")
        # the count starts at 1:40; under load a second or more may pass before it is read
        assert "Ana" in first and 90 <= seconds_left(first) <= 100, first
        page.wait_for_function("t => document.querySelector(\"[data-testid='takeover']\").textContent !== t",
                               arg=first)
        assert seconds_left(page.inner_text("[data-testid='takeover']")) < seconds_left(first)
        assert hand_kept(page), "the page was rebuilt for the countdown"
    finally:
        context.close()
