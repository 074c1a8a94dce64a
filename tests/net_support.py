"""Helpers for online tests: a real server on 127.0.0.1 and plain websocket peers."""

from __future__ import annotations

import json
import random
import secrets
import socket
import ssl
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import connect

from game.net.hosting import ServerThread

FROM_AFAR = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}
"""Server options under which each peer comes from the ``address`` it gives (sent as its proxy's
X-Forwarded-For): players of different addresses, as ranked play needs."""


def ranked_server(db, clock, **options) -> ServerThread:
    """A room server on ``clock`` whose peers come from their own addresses (`FROM_AFAR`), with
    bursts no test reaches: the server ranked play is tested on."""
    return start_server(db, clock=clock, burst=100_000.0, **{**FROM_AFAR, **options})


def person(port: int, name: str, address: str, seed: int = 0) -> Peer:
    """A peer from ``address`` that said hello as ``name`` (a new player key)."""
    peer = Peer(port, seed, address=address)
    assert peer.hello(name)["type"] == "profile"
    return peer


def start_server(db, **options) -> ServerThread:
    """A room server on a free loopback port (computers think at once unless told). The browser
    client is served only by a server given its built folder (``browser_root``): the others behave
    the same whether or not this checkout has run ``make web`` (without it, a line in the log)."""
    options.setdefault("browser", "browser_root" in options)
    options.setdefault("think_scale", 0.0)
    options.setdefault("rng", random.Random(0))  # reproducible deals
    options.setdefault("rate", 10_000.0)  # bots play far faster than people; the flood test sets its own
    # bursts of twice the rate, as `serve --rate` gives (a burst of 40 at this rate would close a
    # test that sends a few hundred messages at once for flooding)
    options.setdefault("burst", 2 * options["rate"])
    thread = ServerThread(db, "127.0.0.1", 0, **options)
    thread.start()
    assert thread.error is None, thread.error
    return thread


class Peer:
    """One player's connection, speaking the protocol by hand."""

    def __init__(self, port: int, rng_seed: int = 0, *, tls: ssl.SSLContext | None = None,
                 headers: dict[str, str] | None = None, address: str | None = None,
                 source: str | None = None) -> None:
        self.port = port
        scheme = "wss" if tls is not None else "ws"
        # ``address``: the player's address as a trusted proxy names it (servers started with
        # ``proxy_headers=True, trusted_proxies=["127.0.0.1"]`` read it).
        if address:
            headers = {**(headers or {}), "X-Forwarded-For": address}
        # ``source``: the loopback address the connection really comes from (127.0.0.2...).
        sock = None if source is None else socket.create_connection(("127.0.0.1", port), timeout=5,
                                                                   source_address=(source, 0))
        # A generous opening: on a loaded CI machine a TLS handshake once took over 5 s.
        self.ws = connect(f"{scheme}://127.0.0.1:{port}/", open_timeout=15, max_size=None, legacy=True,
                          ssl=tls, additional_headers=headers, proxy=None, sock=sock)
        self.frames: list[str] = []  # every text frame received, as received
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.room_id = ""
        self.seat = -1
        self.key = ""
        self.rng = random.Random(rng_seed)
        self.count = 0
        self.player_key = ""
        self.profile: dict[str, Any] | None = None

    def send(self, **message: Any) -> None:
        message.setdefault("v", 2)
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        self.frames.append(text)
        message = json.loads(text)
        kind = message["type"]
        if kind == "update":
            self.view = message["view"]
        elif kind == "room":
            self.room = message
        elif kind == "joined":
            self.room_id, self.seat = message["room"], message["seat"]
            self.key = message.get("key", self.key)
        elif kind == "profile":
            self.profile = message
        return message

    def until(self, done: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Receive until a message satisfies ``done``; return it."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("the expected message never came")
            message = self.recv(left)
            if done(message):
                return message

    def drain(self, wait: float = 0.05) -> None:
        """Read whatever has arrived (``wait``: how long a silence ends it; 0: only what is here)."""
        try:
            while True:
                self.recv(wait)
        except TimeoutError:
            pass

    def create(self, preset: str, seats: list[dict[str, Any]], options=None, name="",
               **fields: Any) -> dict[str, Any]:
        self.send(type="create", preset=preset, options=options or {}, seats=seats, name=name, **fields)
        return self.until(lambda m: m["type"] in ("joined", "error"))

    def hello(self, name: str = "", key: str | None = None, **fields: Any) -> dict[str, Any]:
        """Say hello with a player key (a new one unless given); return the answer."""
        self.player_key = key or secrets.token_urlsafe(24)
        if name:
            fields["name"] = name
        self.send(type="hello", player=self.player_key, **fields)
        answer = self.until(lambda m: m["type"] in ("profile", "error"))
        if answer["type"] == "profile":
            self.profile = answer
        return answer

    def join(self, room: str, **fields: Any) -> dict[str, Any]:
        self.send(type="join", room=room, **fields)
        return self.until(lambda m: m["type"] in ("joined", "error"))

    @property
    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v["status"] == "playing" and v["to_act"] == self.seat

    def play_one(self) -> dict[str, Any]:
        """Play a random legal action and wait for its answer (an update with our ref, or an error)."""
        assert self.view is not None
        self.count += 1
        ref = f"a{self.count}"
        self.send(type="action", action=self.rng.choice(self.view["legal"]), ref=ref)
        return self.until(lambda m: m.get("ref") == ref)

    def close(self) -> None:
        self.ws.close()


def play_until(peers: list[Peer], done: Callable[[], bool], *, accept_deals: bool = True,
               seconds: float = 90.0) -> None:
    """Let the peers play random legal moves (and accept new deals) until ``done()``."""
    accepted: dict[int, int] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return
        progressed = False
        for peer in peers:
            peer.drain(0)
            view = peer.view
            if view is None:
                continue
            if peer.my_turn:
                peer.play_one()
                progressed = True
            elif (accept_deals and view["status"] != "playing" and not (view["status"] == "match_over"
                  and view["target"]) and accepted.get(peer.seat) != view["round_number"]):
                accepted[peer.seat] = view["round_number"]
                peer.send(type="accept_round")
                progressed = True
        if not progressed:
            time.sleep(0.002)
    raise AssertionError("the game did not get there")


def wait_for(done, seconds: float = 5.0) -> bool:
    """Poll ``done()`` every few milliseconds until it holds or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.01)
    return done()


def on_loop(thread: ServerThread, work: Callable[[], Any]) -> Any:
    """Run ``work()`` on a server thread's event loop (where its rooms live); return its result
    (awaited when it is a coroutine)."""
    import asyncio

    async def run() -> Any:
        result = work()
        return await result if asyncio.iscoroutine(result) else result

    return asyncio.run_coroutine_threadsafe(run(), thread._loop).result(20)
