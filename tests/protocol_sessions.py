"""Real sessions of protocol 2, recorded frame by frame: the wire the server must keep.

``python -m tests.protocol_sessions`` plays each scripted session below against a real
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
        self.lines.append({"peer": peer, "send_binary": data.hex()})
        self.peers[peer].send(data)
        self.settle()

    def close(self, peer: str) -> None:
        self.settle()
        self.peers.pop(peer).close()
        self.lines.append({"peer": peer, "close": True})
        self.settle()

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.lines.append({"advance": seconds})
        self.settle()

    def last(self, peer: str, kind: str) -> dict[str, Any]:
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
    def done() -> bool:
        return all((v := rec.view(p)) is not None and v["status"] != "playing" for p in peers)
    return done


def ANY(message: dict[str, Any]) -> bool:  # noqa: N802 - a predicate used like a constant
    """Any answer at all."""
    return True


def _type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == kind


# ---- the sessions ----------------------------------------------------------------------------------
def duel() -> Recorder:
    """Two people in a private duel: create, join by link, a whole deal, autopilot, a reconnect
    with the key, the next deal, ping, leave."""
    rec = Recorder("duel", BASE)
    rec.open("ana")
    rec.send("ana", _type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             name="Ana", request="req-ana-0001", ref="c1")
    rec.open("ben")
    rec.send("ben", _type("joined"), type="join", room="ROOM-1", name="Ben", ref=7)
    rec.send("ana", type="ping", ref="p1")
    rng = random.Random(1)
    rec.play(["ana", "ben"], lambda: sum(m.get("type") == "update" for m in rec.heard["ana"]) >= 6, rng)
    rec.send("ana", _type("update"), type="autopilot", on=True, ref="auto")
    rec.send("ana", _type("update"), type="autopilot", on=False)
    rec.close("ben")
    rec.open("ben2")
    rec.send("ben2", _type("joined"), type="join", room=rec.ph("ben", "room"), seat=rec.ph("ben", "seat"),
             key=rec.ph("ben", "key"))
    rec.play(["ana", "ben2"], over(rec, "ana", "ben2"), rng)
    for peer in ("ana", "ben2"):
        rec.send(peer, type="accept_round")
    rec.play(["ana", "ben2"], lambda: (v := rec.view("ana")) is not None and v["round_number"] == 2
             and v["turn_no"] >= 4, rng)
    rec.send("ana", type="leave", ref="bye")
    rec.close("ana")
    return rec


def quick_computer() -> Recorder:
    """A player alone in quick match with computers allowed: hello, the lobby, queued, seated with a
    Medium computer after the wait, a whole deal; then a profile change, leaderboard and history."""
    rec = Recorder("quick_computer", BASE)
    rec.open("ana", "198.51.100.7")
    rec.send("ana", _type("profile"), type="hello", player="p" * 32, name="Ana", avatar=3)
    rec.send("ana", _type("lobby"), type="lobby")
    rec.send("ana", _type("queued"), type="queue", preset="duel", options={}, players=2, computers=True,
             wait=5, ref="q")
    rec.advance(5)
    rec.play(["ana"], over(rec, "ana"), random.Random(2))
    rec.send("ana", _type("profile"), type="profile", name="Anna", ref="rename")
    rec.send("ana", _type("leaderboard"), type="leaderboard", preset="duel")
    rec.advance(1)
    rec.send("ana", _type("history"), type="history", preset="duel")
    rec.advance(1)
    rec.send("ana", _type("history"), type="history")
    rec.open("eve", "198.51.100.8")
    rec.send("eve", _type("profile"), type="hello", player="e" * 40)
    rec.send("eve", _type("queued"), type="queue", preset="classic", players=3)
    rec.send("eve", _type("unqueued"), type="unqueue", ref=1)
    rec.send("eve", _type("unqueued"), type="unqueue")
    rec.send("eve", _type("lobby"), type="lobby", watch=True)
    rec.open("sam", "198.51.100.9")
    rec.send("sam", _type("profile"), type="hello", player="s" * 32, name="Sam")
    rec.send("sam", _type("joined"), type="create", preset="points", options={"target_per_player": 25},
             seats=[HUMAN, {"kind": "computer", "level": "easy"}, HUMAN], public=True)
    rec.advance(1)
    rec.send("eve", _type("joined"), type="join", room=rec.ph("sam", "room"))
    rec.advance(1)
    return rec


def ranked_abandon() -> Recorder:
    """Two players of a ranked quick duel; one stays away five minutes and loses the seat; the vote."""
    rec = Recorder("ranked_abandon", BASE)
    rec.open("ana", "203.0.113.1")
    rec.send("ana", _type("profile"), type="hello", player="a" * 32, name="Ana")
    rec.open("ben", "203.0.113.2")
    rec.send("ben", _type("profile"), type="hello", player="b" * 32, name="Ben", avatar=7)
    rec.send("ana", _type("queued"), type="queue", preset="duel", players=2)
    rec.send("ben", _type("room"), type="queue", preset="duel", players=2)
    a, b = rec.ph("ana", "seat"), rec.ph("ben", "seat")
    rec.send("ben", _type("error"), type="vote", seat=a, penalise=True)  # no_vote: nobody abandoned
    rec.close("ana")
    rec.advance(299)
    rec.advance(1)
    rec.open("back", "203.0.113.1")
    rec.send("back", _type("error"), type="join", room=rec.ph("ana", "room"), seat=a,
             key=rec.ph("ana", "key"))  # abandoned
    for bad in ({"seat": a, "penalise": "yes"}, {"seat": 5, "penalise": True},
                {"seat": str(a), "penalise": True}, {"penalise": True}, {"seat": b, "penalise": True}):
        rec.send("ben", _type("error"), type="vote", **bad)
    rec.send("ben", _type("room"), type="vote", seat=a, penalise=True, ref="v")
    rec.send("ben", _type("error"), type="vote", seat=a, penalise=False)  # already_voted
    rec.play(["ben"], over(rec, "ben"), random.Random(3))
    rec.send("back", _type("profile"), type="hello", player="a" * 32)
    rec.send("back", _type("history"), type="history")
    rec.send("ben", _type("leaderboard"), type="leaderboard", preset="duel")
    return rec


def errors() -> Recorder:
    """Every refusal a message can get from a server with the default limits."""
    rec = Recorder("errors", BASE)
    rec.open("x")
    for text in ("not json", "[1, 2]", '"text"', "{", '{"type": "ping", "v": 2', "nul\u0000",
                 "[" * 5000 + "]" * 5000):
        rec.raw("x", text, ANY)
    rec.binary("x", b'{"type": "ping", "v": 2}')
    rec.raw("x", json.dumps({"type": "ping", "v": 2, "pad": "x" * 9000}), ANY)
    rec.raw("x", json.dumps({"type": "ping", "v": 2, "pad": "é" * 4500}), ANY)
    for version in (None, 1, 3, "2", True, 2.0, 0, -1):
        message: dict[str, Any] = {"type": "ping"}
        if version is not None:
            message["v"] = version
        rec.raw("x", json.dumps(message), ANY)
    for kind in ("pong", "Ping", 3, None, "x" * 100):
        rec.send("x", ANY, type=kind)
    rec.raw("x", '{"v": 2}', ANY)
    for ref in ("x" * 65, "\u0007", "\ud800", True, 1.5, [1], {"a": 1}, 10**70):
        rec.send("x", ANY, type="ping", ref=ref)
    rec.send("x", _type("pong"), type="ping", ref="x" * 64)
    rec.send("x", _type("pong"), type="ping", ref=-12)
    # acting before joining
    for kind in ("action", "autopilot", "accept_round", "vote"):
        rec.send("x", ANY, type=kind, ref=kind)
    rec.send("x", ANY, type="action", action="draw")
    # no profile yet
    rec.send("x", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN], public=True)
    rec.send("x", ANY, type="queue", preset="duel", players=2)
    rec.send("x", ANY, type="profile", name="Zed")
    rec.send("x", ANY, type="history")
    # bad rules and seats
    for fields in ({"preset": "poker", "seats": [HUMAN, HUMAN]},
                   {"preset": 3, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": {"hand_size": 99}, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": {"nope": 1}, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": [], "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "seats": [HUMAN, HUMAN, HUMAN]},
                   {"preset": "duel", "seats": [{"kind": "computer", "level": "easy"}] * 2},
                   {"preset": "duel", "seats": []},
                   {"preset": "duel", "seats": "two"},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "robot"}]},
                   {"preset": "duel", "seats": [HUMAN, "human"]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "computer", "level": "godlike"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": 5}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "a\u0001"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "Ana #1"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "x" * 30}]},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "public": "yes"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": 7},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "\ud800"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "Bob\u200b"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "Bo♯b"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "request": "short"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "request": 12345678}):
        rec.send("x", ANY, type="create", **fields)
    # rooms, seats and keys
    rec.send("x", ANY, type="join", room="nope")
    rec.send("x", ANY, type="join", room=5)
    rec.send("x", ANY, type="join")
    rec.open("host")
    rec.send("host", _type("joined"), type="create", preset="classic", seats=[HUMAN, HUMAN, HUMAN],
             name="  Host  ")
    for fields in ({"seat": 0, "key": "wrong"}, {"seat": 0, "key": "bad key!"}, {"seat": "0", "key": "k"},
                   {"seat": 9, "key": "KEY-1"}, {"seat": 1, "key": "KEY-1"}, {"seat": 0, "key": 5},
                   {"seat": 0}, {"seat": "1"}, {"seat": 0, "name": "Zed"}, {"seat": 1, "name": 3},
                   {"seat": 1, "name": "   \t "}, {"seat": 7}, {"seat": 1, "request": "\u00e9" * 10}):
        rec.send("x", ANY, type="join", room="ROOM-1", **fields)
    rec.send("host", ANY, type="action", action="draw")  # not_started
    rec.send("host", ANY, type="autopilot", on=True)
    rec.send("host", ANY, type="accept_round")
    rec.send("host", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # already_joined
    rec.send("host", ANY, type="join", room="ROOM-1")
    rec.send("x", _type("joined"), type="join", room="ROOM-1", seat=1, name="Xia", request="join-x-0001")
    rec.open("y")
    rec.send("y", _type("joined"), type="join", room="ROOM-1", name="", ref="y")
    rec.open("z")
    rec.send("z", ANY, type="join", room="ROOM-1", name="Zed")  # no_free_seat
    # the game is on: illegal actions and bad fields
    view = rec.view("host")
    assert view is not None
    to_act = {0: "host", 1: "x", 2: "y"}[view["to_act"]]
    waiting = "x" if to_act != "x" else "y"
    rec.send(waiting, ANY, type="action", action="draw", ref="early")
    for action in ("play 2Z", "fly", "timeout", "play XJ", "suit S", "denounce 9", 7, None, "draw\u0000",
                   "x" * 100):
        rec.send(to_act, ANY, type="action", action=action)
    rec.send(to_act, ANY, type="action")
    rec.send(to_act, ANY, type="autopilot", on="yes")
    rec.send(to_act, ANY, type="autopilot")
    rec.send(to_act, ANY, type="accept_round")
    rec.send(to_act, ANY, type="vote", seat=1, penalise=True)
    # profiles: hello and profile refusals
    rec.open("p")
    for fields in ({}, {"player": 5}, {"player": "short"}, {"player": "x" * 129}, {"player": "a b" * 16},
                   {"player": "\ud800" * 32}):
        rec.send("p", ANY, type="hello", **fields)
    good = "g" * 32
    for fields in ({"name": ""}, {"name": "   "}, {"name": "x" * 25}, {"name": "A\u0007"}, {"name": "Ana#"},
                   {"name": 5}, {"name": None}, {"name": "\ud800"}, {"avatar": 16}, {"avatar": -1},
                   {"avatar": "1"}, {"avatar": True}, {"avatar": 2.0}):
        rec.send("p", ANY, type="hello", player=good, **fields)
    rec.send("p", _type("profile"), type="hello", player=good, name=" Gus ", avatar=2)
    rec.send("p", _type("profile"), type="hello", player=good, name="Other")
    rec.send("p", ANY, type="hello", player="h" * 32)
    for fields in ({}, {"name": ""}, {"name": "x" * 25}, {"avatar": 23}, {"name": "Gus", "avatar": 2}):
        rec.send("p", ANY if fields != {"name": "Gus", "avatar": 2} else _type("profile"),
                 type="profile", **fields)
    # the lobby, the queue, the rankings
    rec.send("p", ANY, type="lobby", watch="yes")
    for fields in ({"preset": "poker", "players": 2}, {"preset": "duel", "players": 3},
                   {"preset": "duel", "players": 9}, {"preset": "duel", "players": "2"},
                   {"preset": "duel", "players": 2, "computers": 1},
                   {"preset": "duel", "players": 2, "wait": 4},
                   {"preset": "duel", "players": 2, "wait": True},
                   {"preset": "duel", "players": 2, "wait": 901}, {"preset": "duel"},
                   {"preset": "duel", "options": "x", "players": 2}):
        rec.send("p", ANY, type="queue", **fields)
    rec.send("p", _type("queued"), type="queue", preset="duel", players=2, wait=5.5, computers=False)
    rec.send("p", ANY, type="join", room="nope")
    for fields in ({}, {"preset": "poker"}, {"preset": 3}):
        rec.send("p", ANY, type="leaderboard", **fields)
    rec.send("p", ANY, type="history", preset="poker")
    rec.advance(10)
    for _ in range(6):  # costly answers: five in a burst, then too_many_requests
        rec.send("p", type="leaderboard", preset="classic")
    return rec


def quotas() -> Recorder:
    """The quotas' refusals, on a server of small numbers, and a flood past the rate limit."""
    options = {**BASE, "rate": 20.0, "burst": 40.0, "max_rooms": 4, "rooms_per_hour": 3, "rooms_held": 3,
               "computer_seats": 2, "connections_per_address": 2, "trust_loopback": False,
               "profiles_per_hour": 2, "renames_per_hour": 1, "queue_per_hour": 2, "votes_per_hour": 1}
    rec = Recorder("quotas", options)
    rec.open("a", "192.0.2.1")
    rec.open("b", "192.0.2.1")
    rec.open("c", "192.0.2.1")  # too_many_connections, and closed
    rec.peers.pop("c").close()
    rec.lines.append({"peer": "c", "close": True})
    rec.send("a", ANY, type="create", preset="classic",
             seats=[HUMAN, {"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "medium"},
                    {"kind": "computer", "level": "easy"}])  # too_many_computers
    rec.send("a", _type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("a")
    rec.open("a2", "192.0.2.1")
    rec.send("a2", _type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("a2")
    rec.send("b", _type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("b")
    rec.open("d", "192.0.2.1")
    rec.send("d", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # too_many_rooms
    rec.send("d", _type("profile"), type="hello", player="1" * 32)
    rec.send("d", ANY, type="queue", preset="duel", players=2)  # too_many_rooms at once
    rec.open("e", "192.0.2.2")
    rec.send("e", _type("profile"), type="hello", player="2" * 32)
    rec.send("e", _type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.open("f", "192.0.2.3")
    rec.send("f", _type("profile"), type="hello", player="4" * 32)
    rec.send("f", ANY, type="hello", player="5" * 32)  # another player: bad_message
    rec.close("f")
    rec.open("g", "192.0.2.3")
    rec.send("g", _type("profile"), type="hello", player="5" * 32)
    rec.open("h", "192.0.2.3")
    rec.send("h", ANY, type="hello", player="6" * 32)  # too_many_profiles
    rec.send("g", _type("profile"), type="profile", name="Gil")
    rec.send("g", ANY, type="profile", avatar=1)  # too_many_changes
    rec.send("g", _type("queued"), type="queue", preset="colors", players=4)
    rec.send("g", _type("queued"), type="queue", preset="colors", players=3)
    rec.send("g", ANY, type="queue", preset="colors", players=2)  # too_many_requests
    rec.send("g", _type("unqueued"), type="unqueue")
    rec.send("g", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # server_full
    rec.open("i", "192.0.2.4")
    rec.send("i", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # server_full
    # a flood: 40 pass, 40 more are answered rate_limited (with their ref), the rest dropped
    for n in range(90):
        text = json.dumps({"type": "ping", "v": 2, "ref": n})
        rec.lines.append({"peer": "i", "send": text})
        rec.peers["i"].send(text)
    rec.settle()
    return rec


def reactions() -> Recorder:
    """Quick reactions: none before the game starts or from a connection without a seat; one relayed to
    both seats (a smuggled text and room left behind); an unknown id; too soon, then after 3 s; the
    sixth in a minute; after the match, none."""
    rec = Recorder("reactions", BASE)
    rec.open("ana")
    rec.send("ana", _type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             name="Ana", ref="c1")
    rec.send("ana", type="react", reaction="hello", ref="early")
    rec.open("eve")
    rec.send("eve", type="react", reaction="hello", room="ROOM-1", ref="stranger")
    rec.open("ben")
    rec.send("ben", _type("joined"), type="join", room="ROOM-1", name="Ben")
    rec.send("ana", type="react", reaction="well_played", text="buy gold at evil.example", room="ROOM-9",
             seat=1, ref="r1")
    rec.send("ben", type="react", reaction="hello! visit evil.example", ref="bad")
    rec.send("ben", type="react", reaction="thanks", ref="r2")
    rec.send("ben", type="react", reaction="oops", ref="soon")
    rec.advance(3.0)
    for n, reaction in enumerate(("hurry", "wow", "sorry", "good_game")):
        rec.send("ben", type="react", reaction=reaction, ref=f"b{n}")
        rec.advance(3.0)
    rec.send("ben", type="react", reaction="hello", ref="sixth")
    rng = random.Random(2)
    rec.play(["ana", "ben"], over(rec, "ana", "ben"), rng)
    rec.send("ana", type="react", reaction="good_game", ref="after")
    rec.close("ana")
    rec.close("ben")
    rec.close("eve")
    return rec


def fair_seats() -> Recorder:
    """One seat at a time (issue 32): a guest of a public room is refused a second seat and a quick
    match on another connection; a stranger and a guest cannot free seats, the owner can (its person is
    told, and the seat is free); a guest away 60 s loses the seat and is told so with its key."""
    rec = Recorder("fair_seats", BASE)
    rec.open("ana", "203.0.113.1")
    rec.send("ana", _type("profile"), type="hello", player="a" * 32, name="Ana")
    rec.send("ana", _type("joined"), type="create", preset="classic", options={},
             seats=[HUMAN, HUMAN, HUMAN, HUMAN], public=True, ref="c1")
    rec.open("cid", "203.0.113.3")
    rec.send("cid", _type("profile"), type="hello", player="c" * 32, name="Cid")
    rec.send("cid", _type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             public=True)
    rec.open("ben", "203.0.113.2")
    rec.send("ben", _type("profile"), type="hello", player="b" * 32, name="Ben")
    rec.send("ben", _type("joined"), type="join", room=rec.ph("ana", "room"))
    rec.open("ben2", "203.0.113.2")
    rec.send("ben2", _type("profile"), type="hello", player="b" * 32)
    rec.send("ben2", _type("error"), type="join", room=rec.ph("cid", "room"))  # one_seat
    rec.send("ben2", _type("error"), type="queue", preset="duel", players=2)  # one_seat
    rec.send("ben2", _type("error"), type="free_seat", seat=1)  # not_joined
    rec.send("ben", _type("error"), type="free_seat", seat=0, ref="f0")  # not_owner
    rec.send("ana", _type("error"), type="free_seat", seat="1")  # bad_message
    rec.send("ana", _type("room"), type="free_seat", seat=rec.ph("ben", "seat"), ref="f1")
    rec.send("ben2", _type("joined"), type="join", room=rec.ph("ana", "room"))
    rec.close("ben2")
    rec.advance(59)
    rec.advance(1)
    rec.open("back", "203.0.113.2")
    rec.send("back", _type("error"), type="join", room=rec.ph("ana", "room"), seat=rec.ph("ben2", "seat"),
             key=rec.ph("ben2", "key"))  # seat_freed
    rec.close("back")
    rec.close("ben")
    rec.close("cid")
    rec.close("ana")
    return rec


SESSIONS: dict[str, Callable[[], Recorder]] = {
    "duel": duel, "quick_computer": quick_computer, "ranked_abandon": ranked_abandon, "errors": errors,
    "quotas": quotas, "reactions": reactions, "fair_seats": fair_seats}


# ---- replaying ----------------------------------------------------------------------------------------
def lines(path: Path) -> Iterator[dict[str, Any]]:
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


def main() -> int:
    """Record every session (``python -m tests.protocol_sessions [NAME...]``)."""
    import sys

    for name in sys.argv[1:] or list(SESSIONS):
        rec = SESSIONS[name]()
        path = rec.finish()
        print(f"{path}: {len(rec.lines)} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
