"""The browser client in a real browser (issue 35): Debian's chromium, headless, driven by Playwright,
against a real room server on 127.0.0.1 (docs/web.md).

First the pages themselves, with a small client made here: a module script, its style sheet, a
catalogue, an avatar and a WebSocket all load under the server's Content-Security-Policy with no
console error, nothing goes to another host, and what the policy forbids (an inline style, a
request elsewhere) really is blocked. Then the real built client (``make web``): ``/play/ROOM``
loads, connects and asks for nothing anywhere else. Each test skips with one line when playwright,
chromium or (for the real client) the build is missing.
"""

from __future__ import annotations

import base64

import pytest

from tests.browser_support import (
    Watch,
    browser,
    open_page,
    server,
    wait_state,
    why_no_browser,
    why_no_build,
)
from tests.net_support import Peer, start_server
from tests.test_net_browser import fake_build

__all__ = ["browser", "server"]  # the fixtures, shared from tests.browser_support

NO_BROWSER = why_no_browser()
pytestmark = pytest.mark.skipif(NO_BROWSER is not None, reason=NO_BROWSER or "")

HUMAN = {"kind": "human"}
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
                         "awAAAABJRU5ErkJggg==")
"""A 1×1 PNG (a real one: chromium decodes it)."""

CLIENT = """
const main = document.getElementById("huit");
main.dataset.state = "connecting";
const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`);
socket.onopen = () => socket.send(JSON.stringify({v: 2, type: "hello", player: "k".repeat(32)}));
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  if (message.type === "profile") main.dataset.state = "lobby";
};
const picture = new Image();
picture.onload = () => { main.dataset.avatar = "loaded"; };
picture.src = "/web/avatars/fox.png";
document.body.append(picture);
fetch("/web/i18n/fr.json").then((answer) => answer.json()).then((texts) => { main.dataset.texts = texts.a; });
main.dataset.room = main.dataset.room || "-";
main.dataset.styled = getComputedStyle(main).color;
"""
HOSTILE = """
const main = document.getElementById("huit");
const sneaky = document.createElement("div");
sneaky.setAttribute("style", "color: red");  // an inline style: refused by style-src 'self'
document.body.append(sneaky);
fetch("http://127.0.0.2:9/leak").catch(() => { main.dataset.state = "error"; });  // another host
"""


@pytest.fixture
def fake(tmp_path):
    folder = fake_build(tmp_path / "browser", CLIENT)
    (folder / "avatars" / "fox.png").write_bytes(PIXEL)
    (folder / "avatars" / "leak.png").unlink()
    thread = start_server(tmp_path / "rooms.sqlite3", browser_root=folder)
    yield thread, folder
    thread.stop()


def test_a_client_loads_under_the_csp_with_no_error_and_nothing_from_elsewhere(browser, fake):
    thread, _ = fake
    ana = Peer(thread.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    watch = Watch()
    context, page = open_page(browser, f"http://127.0.0.1:{thread.port}/play/{ana.room_id}", watch)
    try:
        assert wait_state(page, "lobby") == "lobby"  # the script ran, its socket said hello and was answered
        page.wait_for_selector("#huit[data-avatar='loaded'][data-texts='c']", state="attached")
        assert page.get_attribute("#huit", "data-room") == ana.room_id
        assert page.get_attribute("#huit", "data-styled") == "rgb(17, 34, 51)"  # app.css applied
        assert watch.errors == []
        assert watch.foreign(thread.port) == []
        assert watch.sockets == [f"ws://127.0.0.1:{thread.port}/"]
        assert any(url.endswith("/web/avatars/fox.png") for url in watch.requests)
    finally:
        context.close()


def test_what_the_csp_forbids_is_blocked_in_a_real_browser(browser, tmp_path):
    folder = fake_build(tmp_path / "browser", HOSTILE)
    thread = start_server(tmp_path / "rooms.sqlite3", browser_root=folder)
    watch = Watch()
    try:
        context, page = open_page(browser, f"http://127.0.0.1:{thread.port}/play", watch)
        try:
            wait_state(page, "error")  # the request to another host failed
            assert page.evaluate("getComputedStyle(document.querySelector('body > div')).color") != \
                "rgb(255, 0, 0)"
            violations = [e for e in watch.errors if "Content Security Policy" in e]
            assert any("style" in e for e in violations) and any("connect-src" in e for e in violations)
            assert watch.foreign(thread.port) == []  # blocked before it was sent
        finally:
            context.close()
    finally:
        thread.stop()


# ---- the real client ---------------------------------------------------------------------------------
NO_BUILD = why_no_build()
needs_build = pytest.mark.skipif(NO_BUILD is not None, reason=NO_BUILD or "")


@needs_build
def test_the_built_client_opens_a_room_with_no_error_and_nothing_from_elsewhere(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    watch = Watch()
    context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play/{ana.room_id}", watch,
                              width=390, height=844)
    try:
        # Not seated (its storage is new): the room's seats to choose from, and nothing else.
        page.wait_for_selector("[data-testid='take-seat']")
        assert page.get_attribute("#huit", "data-state") == "seat"
        assert watch.errors == []
        assert watch.foreign(server.port) == []
        assert watch.sockets == [f"ws://127.0.0.1:{server.port}/"]
    finally:
        context.close()


@needs_build
def test_the_room_pages_button_opens_the_room_in_the_browser(browser, server):
    ana = Peer(server.port)
    ana.create("duel", [HUMAN, HUMAN], name="Ana")
    watch = Watch()
    context, page = open_page(browser, f"http://127.0.0.1:{server.port}/r/{ana.room_id}?lang=de", watch)
    try:
        page.click("a.browser")  # "Im Browser spielen"
        assert wait_state(page, "seat") == "seat"
        assert page.evaluate("location.pathname + location.search") == f"/play/{ana.room_id}?lang=de"
        assert page.get_attribute("html", "lang") == "de"
        assert watch.errors == [] and watch.foreign(server.port) == []
    finally:
        context.close()


@needs_build
def test_the_built_client_opens_the_quick_match_entry_with_no_error(browser, server):
    watch = Watch()
    context, page = open_page(browser, f"http://127.0.0.1:{server.port}/play?lang=de", watch)
    try:
        page.wait_for_selector("[data-testid='quick-match']")
        assert page.get_attribute("#huit", "data-state") == "lobby"
        assert watch.errors == [] and watch.foreign(server.port) == []
    finally:
        context.close()
