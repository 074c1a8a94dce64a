"""Screenshots of the browser client: ``python -m tools.web_shots [OUTDIR] [--size WxH ...] [--lang L]``.

Starts a room server on 127.0.0.1 (on a scratch database, computers playing at once, seeded deals)
serving the built client (``make web``; ``--build DIR`` another one), and drives Debian's chromium
headless through Playwright (``/usr/bin/chromium``, or ``$HUIT_CHROMIUM``) to take, at each size:

- ``web-seat-WxH.png``: a friend's link opened (``/play/ROOM``): the name, the avatars, the seats;
- ``web-table-WxH.png``: the same browser at the table of a 4-seat ``colors`` room against three
  computers, its turn to play (its playable cards glowing): one room for every size, so each shows
  the same hand.

Written into OUTDIR (default ``docs/images``), one line per file. The sizes by default: a phone in
portrait (390x844), a small laptop (1024x768) and a desktop (1920x1080).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from game.net.browser_pages import BUILT, BrowserFiles
from game.net.hosting import ServerThread

SIZES = ((390, 844), (1024, 768), (1920, 1080))
CHROMIUM = os.environ.get("HUIT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", "--hide-scrollbars"]
WAIT_MS = 15_000
HUMAN, MEDIUM = {"kind": "human"}, {"kind": "computer", "level": "medium"}


def size(text: str) -> tuple[int, int]:
    """``WxH`` (``x``, ``X`` or ``×``), each 200 to 4000 pixels."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, e.g. 390x844, not {text[:40]!r}") from None
    if not (200 <= width <= 4000 and 200 <= height <= 4000):
        raise argparse.ArgumentTypeError(f"expected 200 to 4000 pixels a side, not {text[:40]!r}")
    return width, height


def short_tmpdir() -> dict[str, str]:
    """The environment for chromium, its ``TMPDIR`` short enough for the socket it makes there (a
    Unix socket's path has at most 107 bytes: a deep temporary folder stops chromium at start)."""
    folder = tempfile.gettempdir()
    return {**os.environ, "TMPDIR": folder if len(folder) <= 40 else "/tmp"}


def create_room(port: int, preset: str, seats: list[dict[str, Any]], name: str) -> tuple[str, str]:
    """A room made over the protocol, its creator gone at once (its seat waits, keyed): (room, seat key)."""
    with connect(f"ws://127.0.0.1:{port}/", proxy=None, open_timeout=5) as ws:
        ws.send(json.dumps({"v": 2, "type": "create", "preset": preset, "options": {}, "seats": seats,
                            "name": name}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "joined":
                return str(message["room"]), str(message["key"])
            if message["type"] == "error":
                raise SystemExit(f"the server refused the room: {message.get('code')}")
    raise SystemExit("the server did not answer in time")


def storage(port: int, room: str, key: str, name: str) -> dict[str, Any]:
    """A browser's storage holding seat 0 of ``room`` (``huit.seat.ROOM``), a name and an avatar."""
    items = {f"huit.seat.{room}": json.dumps({"seat": 0, "key": key}), "huit.name": name, "huit.avatar": "4"}
    return {"cookies": [], "origins": [{"origin": f"http://127.0.0.1:{port}",
                                        "localStorage": [{"name": k, "value": v} for k, v in items.items()]}]}


def shoot(out: Path, sizes: Sequence[tuple[int, int]], lang: str, build: Path) -> list[Path]:
    """Take every screenshot (see the module); the files written."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    with tempfile.TemporaryDirectory() as scratch:
        server = ServerThread(Path(scratch) / "rooms.sqlite3", think_scale=0.0, rng=random.Random(7),
                              browser_root=build)
        server.start()
        if server.error is not None:
            raise SystemExit(f"the server did not start: {server.error}")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS,
                                                     env=short_tmpdir())
                try:
                    # One table for every size: the same hand at each (and a server's quota of computer
                    # seats per address, 12, would refuse a fourth room of three computers).
                    table = create_room(server.port, "colors", [HUMAN, MEDIUM, MEDIUM, MEDIUM], "Ana")
                    for width, height in sizes:
                        written += _one_size(browser, server.port, out, (width, height), lang, table)
                finally:
                    browser.close()
        finally:
            server.stop()
    return written


def _one_size(browser: Any, port: int, out: Path, viewsize: tuple[int, int], lang: str,
              table: tuple[str, str]) -> list[Path]:
    width, height = viewsize
    written = []
    viewport = {"width": width, "height": height}
    # The seat page: a duel's link, its creator seated, the second seat free.
    room, _ = create_room(port, "duel", [HUMAN, HUMAN], "Ana")
    context = browser.new_context(viewport=viewport, locale=lang)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"http://127.0.0.1:{port}/play/{room}?lang={lang}")
        page.wait_for_selector("#huit[data-state='seat']")
        page.fill("[data-testid='name-input']", "Ben")
        page.wait_for_load_state("networkidle")  # the avatars' pictures
        written.append(_save(page, out / f"web-seat-{width}x{height}.png"))
    finally:
        context.close()
    # The table: a colors room of the browser's seat and three computers, its turn (the seat taken
    # back by its key at each size: the computers wait for it).
    room, key = table
    kept = storage(port, room, key, "Ana")
    context = browser.new_context(viewport=viewport, locale=lang, storage_state=kept)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"http://127.0.0.1:{port}/play/{room}?lang={lang}")
        page.wait_for_selector("#huit[data-state='playing']")
        page.wait_for_selector("[data-testid='hand'] .card.glow, [data-testid='draw-button']")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(400)  # the last card's move settles
        written.append(_save(page, out / f"web-table-{width}x{height}.png"))
    finally:
        context.close()
    return written


def _save(page: Any, path: Path) -> Path:
    page.screenshot(path=str(path))
    print(path, flush=True)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.web_shots",
                                     description="screenshots of the browser client, driven in chromium")
    parser.add_argument("outdir", nargs="?", type=Path, default=Path("docs/images"))
    parser.add_argument("--size", type=size, action="append", default=None, metavar="WxH",
                        help="a window size (repeatable; default 390x844, 1024x768 and 1920x1080)")
    parser.add_argument("--lang", choices=("en", "fr", "es", "de"), default="en")
    parser.add_argument("--build", type=Path, default=BUILT,
                        help="the built client to serve (default: game/net/browser, as make web builds it)")
    args = parser.parse_args(argv)
    if not BrowserFiles(args.build).built():
        parser.error(f"the browser client is not built in {args.build}: run make web")
    args.outdir.mkdir(parents=True, exist_ok=True)
    shoot(args.outdir, args.size or SIZES, args.lang, args.build)
    return 0


if __name__ == "__main__":
    sys.exit(main())
