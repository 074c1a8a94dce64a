"""Helpers for the real-browser tests (issue 35, docs/web.md): Playwright driving Debian's chromium
(``/usr/bin/chromium``, never a downloaded browser) headless, against a room server on 127.0.0.1.

`why_no_browser` and `why_no_build` give the one-line reason a test skips for. `Watch` records
everything a page does that a test must see: every request (each must go to the page's own server),
every WebSocket, every console error and every Content-Security-Policy violation.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from game.net.browser_pages import BUILT, BrowserFiles
from tools.web_shots import short_tmpdir

CHROMIUM = os.environ.get("HUIT_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive (Debian's package; ``.ci/system-packages`` installs it)."""
BUILD = Path(os.environ.get("HUIT_WEB_BUILD") or BUILT)
"""The built client the tests serve: the checkout's (``make web``), or ``$HUIT_WEB_BUILD``'s."""
ARGS = ("--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", "--disable-default-apps", "--disable-extensions")
"""Flags that keep chromium from calling home (this machine's network is closed: each call would fail
and slow the start) and from needing a GPU."""
TIMEOUT_MS = 15_000
"""The longest any one step of a browser test waits (a page, a state, a control)."""


def why_no_browser() -> str | None:
    """Why the real-browser tests cannot run here, in a line (None: they can)."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is missing (pip install -e '.[test]')"
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        return f"{CHROMIUM} is missing (Debian: apt-get install chromium; .ci/system-packages)"
    return None


def why_no_build(root: Path = BUILD) -> str | None:
    """Why the tests of the real browser client cannot run (None: it is built)."""
    if not BrowserFiles(root).built():
        return "the browser client is not built: run make web"
    return None


def why_not_here() -> str | None:
    """Why a real-browser test cannot run here, in a line (no browser, or no built client), or None."""
    return why_no_browser() or why_no_build()


WHY_NOT = why_not_here()
needs_browser = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
"""The mark of a test that drives the built client in a real chromium: it skips in one line where
either is missing (`why_not_here`)."""


@dataclass
class Watch:
    """What one page did: requests, WebSockets, console errors, CSP violations and page errors."""

    requests: list[str] = field(default_factory=list)
    sockets: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        """Record ``page``'s requests, sockets, console errors and uncaught errors from now on."""
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", lambda socket: self.sockets.append(socket.url))
        page.on("console", lambda message: self.errors.append(f"console: {message.text}")
                if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def foreign(self, port: int) -> list[str]:
        """Every request or socket not to 127.0.0.1:``port`` (``data:`` URLs are the page's own)."""
        return [url for url in self.requests + self.sockets
                if not url.startswith("data:") and urlsplit(url).netloc != f"127.0.0.1:{port}"]


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless chromium (Playwright's ``Browser``), closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=list(ARGS),
                                             timeout=TIMEOUT_MS * 2, env=short_tmpdir())
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser: Any, url: str, watch: Watch | None = None, *, width: int = 1024, height: int = 768,
              storage: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """A new browser context (its own storage, like another person's browser) and a page on ``url``,
    recorded by ``watch``; (the context, the page). ``storage``: a context's ``storage_state``
    to start from (the same browser reopened)."""
    context = browser.new_context(viewport={"width": width, "height": height}, storage_state=storage)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    if watch is not None:
        watch.attach(page)
    page.goto(url, wait_until="load")
    return context, page


def state(page: Any) -> str:
    """The client's state (``#huit[data-state]``)."""
    return str(page.get_attribute("#huit", "data-state") or "")


def wait_state(page: Any, *states: str, timeout_ms: int = TIMEOUT_MS) -> str:
    """Wait until the client is in one of ``states``; the state it is in."""
    wanted = " or ".join(f"@data-state='{s}'" for s in states)
    page.wait_for_selector(f"xpath=//main[@id='huit'][{wanted}]", state="attached", timeout=timeout_ms)
    return state(page)


PLAY_ORDER = ("[data-testid='suit-picker'] button.suit", "[data-testid='hand'] .card.glow",
              "[data-testid='call-card']", "[data-testid='end-turn']", "[data-testid='accept']",
              "[data-testid='draw-button']", "[data-testid='pass']", "[data-testid='vote-no']",
              "[data-testid='next-deal']")
"""What a browser player taps, the first that is there: a suit when asked, a playable card (they
glow), "Card!" when it may be said, End turn, accepting a penalty, Draw, Pass, a vote, the next deal."""


def step(page: Any, order: tuple[str, ...] = PLAY_ORDER) -> tuple[str, str | None]:
    """At the table, tap the first control of ``order`` the page shows now: (the client's state,
    the control tapped or None). One call into the page reads the state, finds the control and
    clicks it (the client's own click handler runs, as for a person's tap): Playwright's checks
    before a click cost round trips, and whole games are played here."""
    from playwright.sync_api import Error

    try:
        now, index = page.evaluate(_TAP, list(order))
    except Error:  # the page went away under the tap
        return "", None
    return str(now), (order[index] if index >= 0 else None)


_TAP = """order => {
  const now = document.getElementById("huit").dataset.state || "";
  if (now !== "playing") return [now, -1];
  const index = order.findIndex(s => document.querySelector(s) !== null);
  if (index >= 0) document.querySelector(order[index]).click();
  return [now, index];
}"""


def hand(page: Any) -> list[str]:
    """The cards of the browser's hand, in the game's notation (``card-<CODE>``)."""
    codes = page.eval_on_selector_all("[data-testid='hand'] [data-testid^='card-']",
                                      "cards => cards.map(card => card.dataset.testid.slice(5))")
    return [str(code) for code in codes]


# The fixtures the browser test files share (imported there by name, as pytest finds them).
@pytest.fixture(scope="module")
def browser(chromium_browser: Any) -> Any:
    """The headless chromium of this pytest process (`chromium_browser` in tests/conftest.py: one
    launch, some 2 s of CPU with Playwright's driver, for every browser test file; each test opens
    its pages in a context of its own, closed after it)."""
    return chromium_browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """A room server on 127.0.0.1 serving the built browser client."""
    from tests.net_support import start_server

    thread = start_server(tmp_path / "rooms.sqlite3", browser_root=BUILD)
    yield thread
    thread.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One room server on 127.0.0.1 for a test file whose pages talk to a `ScriptedServer`: it serves
    them the built client's files (a room a test makes there is its own, under a new code)."""
    from tests.net_support import start_server

    thread = start_server(tmp_path_factory.mktemp("site") / "rooms.sqlite3", browser_root=BUILD)
    yield thread
    thread.stop()


def at_size(page: Any, width: int, height: int) -> None:
    """``page`` resized to ``width``×``height`` and drawn again for it: the client draws its whole page
    anew on a resize (app.ts's ``render``, then ``fitTable``/``fitResult``), as on a page opened at
    that size. Returns once the page's elements are new ones and the window has that size.

    A phone's page (``is_mobile``) only grows: made narrower than what it shows, chromium widens its
    layout viewport to the old page's width and zooms out (innerWidth is not ``width``, and this
    waits in vain), where a page opened at that size fits it. A walk goes from the smallest size up;
    a desktop's page may be made smaller too."""
    if page.viewport_size != {"width": width, "height": height}:
        drawn_anew(page, lambda: page.set_viewport_size({"width": width, "height": height}),
                   "([w, h]) => innerWidth === w && innerHeight === h", [width, height])


def drawn_anew(page: Any, act: Any, until: str = "() => true", arg: Any = None) -> None:
    """Do ``act`` (send a frame, resize the page), then wait until the client has drawn its page again
    (every element of ``#huit`` a new one) and ``until`` (a function of ``arg``, in the page) holds."""
    page.evaluate(_DRAWN_BEFORE)
    act()
    page.wait_for_function(f"arg => {_DRAWN_AGAIN} && ({until})(arg)", arg=arg)


_DRAWN_BEFORE = ("() => { for (const e of document.getElementById('huit').children)"
                 " e.dataset.drawnBefore = ''; }")
_DRAWN_AGAIN = "document.querySelector('#huit > [data-drawn-before]') === null"


@contextmanager
def checking(failures: list[str], name: str) -> Iterator[None]:
    """A check of a walk over sizes (or hands, or languages): an assertion failing inside is kept in
    ``failures`` as ``name: why``, and the walk goes on, so that a test reports every size that is
    wrong; the test ends with ``assert not failures``. Any other error stops it, ``name`` noted."""
    try:
        yield
    except AssertionError as error:
        failures.append(f"{name}: {error}")
    except Exception as error:
        error.add_note(f"at {name}")
        raise


def walk_sizes(page: Any, sizes: Iterable[tuple[Any, ...]], check: Callable[..., None]) -> None:
    """``check(*size)`` at each of ``sizes`` (``(width, height, ...)``, from the smallest up for a
    phone: `at_size`), ``page`` resized for each; fails once at the end, naming every size whose
    check failed (`checking`)."""
    failures: list[str] = []
    for size in sizes:
        width, height = size[:2]
        with checking(failures, f"{width}x{height}"):
            at_size(page, width, height)
            check(*size)
    assert not failures, "\n".join(failures)


PROFILE = {"type": "profile", "name": "Ben", "tag": "3F2K9Q", "avatar": 4, "xp": {}, "created": False, "v": 2}
"""The player a scripted server says the page is."""


class ScriptedServer:
    """One page's WebSocket answered by the test (Playwright's ``route_web_socket``), so that a test
    says exactly which frames arrive and sees every frame sent (``sent``).

    ``hello`` is answered `PROFILE`; a lobby watch, ``lobby`` (when given); a quick match or a join,
    ``joined`` at seat 0 of ``room``, then ``frames``. ``socket`` is kept to send more or to close;
    with ``down`` set, every new connection is closed at once (the server gone)."""

    def __init__(self, page: Any, room: str, frames: list[dict[str, Any]],
                 lobby: dict[str, Any] | None = None) -> None:
        self.room, self.frames, self.lobby = room, frames, lobby
        self.sent: list[dict[str, Any]] = []
        self.socket: Any = None
        self.down = False
        page.route_web_socket("**/", self.open)

    def open(self, socket: Any) -> None:
        """A connection of the page: closed when the server is down, else answered."""
        if self.down:
            socket.close()
            return
        self.socket = socket
        socket.on_message(self.message)

    def send(self, frame: dict[str, Any]) -> None:
        """Send the page one frame."""
        self.socket.send(json.dumps(frame))

    def message(self, text: str | bytes) -> None:
        """Answer one frame of the page (see the class)."""
        frame = json.loads(text)
        self.sent.append(frame)
        kind = frame.get("type")
        if kind == "hello":
            self.send(PROFILE)
        elif kind == "lobby" and frame.get("watch") and self.lobby is not None:
            self.send(self.lobby)
        elif kind in ("queue", "join"):
            self.send({"type": "joined", "room": self.room, "seat": 0, "players": 2, "key": "k" * 32, "v": 2})
            for each in self.frames:
                self.send(each)
