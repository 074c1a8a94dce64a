"""Real sessions of protocol 2, recorded frame by frame: the recorder and the replay.

``python -m tests.protocol_sessions`` plays each scripted session (`protocol_sessions.SESSIONS`:
those at a table in `protocol_game_sessions`, those reaching a seat in
`protocol_seating_sessions`, the refusals in `protocol_refusal_sessions`) against a real
server (on 127.0.0.1, with a seeded generator for the deals, computers that act at
once and a `ManualClock` that moves only when a script says so) and writes it to
``tests/data/protocol/NAME.jsonl``, one line per event:

- ``{"server": {...}, "clock": T}`` first: the server's options and the clock's start;
- ``{"peer": P, "open": {"address": A}}``: a connection opens (``address``: the one a
  trusted proxy names, or null);
- ``{"peer": P, "send": TEXT}`` / ``{"peer": P, "send_binary": HEX}``: a client frame;
- ``{"peer": P, "recv": TEXT}``: a server frame, as the peer received it;
- ``{"peer": P, "close": true}``: the client closes; ``{"advance": S}``: the clock moves.

`tests/test_protocol_replay.py` replays each file's client frames against today's
server and holds every server frame to the recorded one, byte for byte. What is
random by design (room ids, seat keys and players' tags come from `secrets`, never from
the seeded generator: they must not be guessable) is written as ``ROOM-1``, ``KEY-1``,
``TAG-1``… in order of first appearance (`Placeholders`; a tag also where a text names
it, as a history's ``Ana #TAG-1``); the replay puts this run's values back into the
client frames it sends. Nothing else is normalised.

Re-record (only when the protocol changes on purpose) and review the diff.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from game.net.clock import ManualClock
from game.net.hosting import ServerThread

DATA = Path(__file__).parent / "data" / "protocol"
CLOCK_START = 1_000_000.0
QUIET = 0.12  # seconds of silence after which a peer has heard all a step caused
PROXY = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]}  # peers may come from afar
BASE: dict[str, Any] = {"think_scale": 0.0, "rate": 10_000.0, "burst": 100_000.0, **PROXY}
HUMAN = {"kind": "human"}


def start(db: Path, options: dict[str, Any], clock: ManualClock) -> ServerThread:
    """A server on a free loopback port with ``options`` and a generator seeded with 0."""
    thread = ServerThread(db, "127.0.0.1", 0, clock=clock, rng=random.Random(0), **options)
    thread.start()
    assert thread.error is None, thread.error
    return thread


def open_peer(port: int, address: str | None) -> ClientConnection:
    """A raw WebSocket to the server; ``address`` is sent as a trusted proxy would name it."""
    headers = {"X-Forwarded-For": address} if address else None
    return connect(f"ws://127.0.0.1:{port}/", open_timeout=5, max_size=None, additional_headers=headers,
                   legacy=True, proxy=None)


class Placeholders:
    """Room ids, seat keys and tags (random by design) as ``ROOM-n``/``KEY-n``/``TAG-n``, both ways."""

    def __init__(self) -> None:
        self.real: dict[str, str] = {}  # real value -> placeholder
        self.tags: dict[str, str] = {}  # real tag -> placeholder (replaced inside texts too)
        self.counts = {"ROOM": 0, "KEY": 0, "TAG": 0}

    def _learn(self, value: Any, kind: str) -> None:
        if isinstance(value, str) and value not in self.real:
            self.counts[kind] += 1
            self.real[value] = f"{kind}-{self.counts[kind]}"

    def server_frame(self, text: str) -> str:
        """A server frame with every room id and key it names as its placeholder."""
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if isinstance(message, dict):
            if message.get("type") in ("joined", "room", "update"):
                self._learn(message.get("room"), "ROOM")
            if message.get("type") == "joined":
                self._learn(message.get("key"), "KEY")
            if message.get("type") == "lobby":
                for listed in message.get("rooms") or []:
                    self._learn(listed.get("room"), "ROOM")
            self._learn_tags(message)
        for real, placeholder in self.real.items():
            text = text.replace(f'"{real}"', f'"{placeholder}"')
        for real, placeholder in self.tags.items():
            text = text.replace(f'#{real}"', f'#{placeholder}"').replace(f'"{real}"', f'"{placeholder}"')
        return text

    def _learn_tags(self, value: Any) -> None:
        """Every ``tag`` field anywhere in a message (a profile, seats, the lobby, a leaderboard)."""
        if isinstance(value, dict):
            tag = value.get("tag")
            if isinstance(tag, str) and tag and tag not in self.tags:
                self.counts["TAG"] += 1
                self.tags[tag] = f"TAG-{self.counts['TAG']}"
            for item in value.values():
                self._learn_tags(item)
        elif isinstance(value, list):
            for item in value:
                self._learn_tags(item)

    def client_frame(self, text: str) -> str:
        """A recorded client frame with this run's real values put back."""
        for real, placeholder in self.real.items():
            text = text.replace(f'"{placeholder}"', f'"{real}"')
        return text

    def recorded(self, text: str) -> str:
        """A client frame as it is written down (the inverse of `client_frame`)."""
        for real, placeholder in self.real.items():
            text = text.replace(f'"{real}"', f'"{placeholder}"')
        return text


class Recorder:
    """Drives one scripted session and writes down every frame."""

    def __init__(self, name: str, options: dict[str, Any]) -> None:
        self.name = name
        self.options = options
        self.clock = ManualClock(CLOCK_START)
        self.folder = tempfile.TemporaryDirectory()
        self.server = start(Path(self.folder.name) / "rooms.sqlite3", options, self.clock)
        self.lines: list[dict[str, Any]] = [{"server": options, "clock": CLOCK_START}]
        self.peers: dict[str, ClientConnection] = {}
        self.heard: dict[str, list[dict[str, Any]]] = {}  # each peer's frames, parsed
        self.names = Placeholders()

    # ---- what a script does ----------------------------------------------------------------------
    def open(self, peer: str, address: str | None = None) -> None:
        """Open a connection named ``peer`` (from ``address``, as a trusted proxy names it)."""
        self.peers[peer] = open_peer(self.server.port, address)
        self.heard[peer] = []
        self.lines.append({"peer": peer, "open": {"address": address}})
        self.settle()

    def raw(self, peer: str, text: str, until: Callable[[dict[str, Any]], bool] | None = None) -> None:
        """Send ``text`` as it is; then hear what it caused (up to ``until``'s frame, then quiet)."""
        text = self.names.client_frame(text)  # a script may name a room or key by its placeholder
        self.lines.append({"peer": peer, "send": self.names.recorded(text)})
        self.peers[peer].send(text)
        if until is not None:
            self.wait(peer, until)
        self.settle()

    def send(self, peer: str, until: Callable[[dict[str, Any]], bool] | None = None, **message: Any) -> None:
        """Send a message as the game does (``"v": 2`` added unless given)."""
        message.setdefault("v", 2)
        self.raw(peer, json.dumps(message), until)

    def binary(self, peer: str, data: bytes) -> None:
        """Send ``data`` as a binary frame."""
        self.lines.append({"peer": peer, "send_binary": data.hex()})
        self.peers[peer].send(data)
        self.settle()

    def close(self, peer: str) -> None:
        """Hear what is left, then close ``peer``'s connection."""
        self.settle()
        self.peers.pop(peer).close()
        self.lines.append({"peer": peer, "close": True})
        self.settle()

    def advance(self, seconds: float) -> None:
        """Move the server's clock by ``seconds``."""
        self.clock.advance(seconds)
        self.lines.append({"advance": seconds})
        self.settle()

    def last(self, peer: str, kind: str) -> dict[str, Any]:
        """The last frame of type ``kind`` that ``peer`` heard."""
        return next(m for m in reversed(self.heard[peer]) if m.get("type") == kind)

    def ph(self, peer: str, field: str) -> Any:
        """The placeholder of what ``peer``'s last ``joined`` said in ``field`` (a seat as it is)."""
        value = self.last(peer, "joined")[field]
        return self.names.real.get(value, value)

    # ---- hearing ---------------------------------------------------------------------------------
    def _recv(self, peer: str, timeout: float) -> dict[str, Any] | None:
        try:
            text = self.peers[peer].recv(timeout=timeout)
        except ConnectionClosed:
            return None
        assert isinstance(text, str)
        self.lines.append({"peer": peer, "recv": self.names.server_frame(text)})
        message = json.loads(text)
        self.heard[peer].append(message)
        return message if isinstance(message, dict) else {}

    def wait(self, peer: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Hear ``peer`` until a frame ``done`` accepts (five seconds at most), and return it."""
        end = time.monotonic() + 5
        while time.monotonic() < end:
            message = self._recv(peer, end - time.monotonic())
            if message is None:
                break
            if done(message):
                return message
        raise AssertionError(f"{self.name}: {peer} never heard what it waited for")

    def settle(self) -> None:
        """Read every peer until it has been quiet for `QUIET` seconds."""
        for peer in list(self.peers):
            try:
                while self._recv(peer, QUIET) is not None:
                    pass
            except TimeoutError:
                pass

    # ---- playing -------------------------------------------------------------------------------
    def view(self, peer: str) -> dict[str, Any] | None:
        """The view of ``peer``'s last update, if any."""
        updates = [m for m in self.heard[peer] if m.get("type") == "update"]
        return updates[-1]["view"] if updates else None

    def play(self, peers: list[str], done: Callable[[], bool], rng: random.Random, most: int = 400) -> None:
        """The peers play seeded random legal moves until ``done()`` (or ``most`` moves)."""
        for _ in range(most):
            if done():
                return
            for peer in peers:
                view = self.view(peer)
                if view is not None and view["status"] == "playing" and view["to_act"] == view["seat"]:
                    self.send(peer, type="action", action=rng.choice(view["legal"]))
                    break
            else:
                self.settle()
        if not done():
            raise AssertionError(f"{self.name}: the game did not get there")

    def finish(self) -> Path:
        """Close every peer, stop the server and write the recording; its path."""
        for peer in list(self.peers):
            self.close(peer)
        self.server.stop()
        self.folder.cleanup()
        DATA.mkdir(parents=True, exist_ok=True)
        path = DATA / f"{self.name}.jsonl"
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines),
                        encoding="utf-8")
        return path


def over(rec: Recorder, *peers: str) -> Callable[[], bool]:
    """A condition for `Recorder.play`: every one of ``peers`` has seen the deal end."""
    def done() -> bool:
        return all((v := rec.view(p)) is not None and v["status"] != "playing" for p in peers)
    return done


def ANY(message: dict[str, Any]) -> bool:  # noqa: N802 - a predicate used like a constant
    """Any answer at all."""
    return True


def of_type(kind: str) -> Callable[[dict[str, Any]], bool]:
    """A predicate for `Recorder.send`'s ``until``: a frame of the type ``kind``."""
    return lambda m: m.get("type") == kind


# ---- replaying ----------------------------------------------------------------------------------------
def lines(path: Path) -> Iterator[dict[str, Any]]:
    """A recording's entries, one per line of its file, in order."""
    for text in path.read_text(encoding="utf-8").splitlines():
        yield json.loads(text)


def replay(path: Path, db: Path) -> list[str]:
    """Replay a recording's client frames against a fresh server; the differences, if any (a server
    frame other than the recorded one, one missing, or one more than recorded at the end)."""
    entries = list(lines(path))
    head = entries[0]
    clock = ManualClock(head["clock"])
    server = start(db, head["server"], clock)
    names = Placeholders()
    peers: dict[str, ClientConnection] = {}
    problems: list[str] = []
    try:
        for number, entry in enumerate(entries[1:], start=2):
            peer = entry.get("peer")
            if "open" in entry:
                peers[peer] = open_peer(server.port, entry["open"]["address"])
            elif "send" in entry:
                peers[peer].send(names.client_frame(entry["send"]))
            elif "send_binary" in entry:
                peers[peer].send(bytes.fromhex(entry["send_binary"]))
            elif "close" in entry:
                peers.pop(peer).close()
            elif "advance" in entry:
                clock.advance(entry["advance"])
            elif "recv" in entry:
                try:
                    got = names.server_frame(peers[peer].recv(timeout=10))
                except (TimeoutError, ConnectionClosed):
                    problems.append(f"line {number}: {peer} heard nothing; expected {entry['recv'][:200]}")
                    break
                if got != entry["recv"]:
                    problems.append(f"line {number}: {peer} heard\n  {got[:400]}\nexpected\n  "
                                    f"{entry['recv'][:400]}")
                    break
        for peer, ws in peers.items():  # nothing more than recorded
            try:
                extra = ws.recv(timeout=QUIET)
            except (TimeoutError, ConnectionClosed):
                continue
            problems.append(f"{peer} heard more than recorded: {extra[:200]}")
    finally:
        for ws in peers.values():
            ws.close()
        server.stop()
    return problems
