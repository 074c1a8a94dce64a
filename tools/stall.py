"""The stalling attack, replayed: ``python -m tools.stall --games 2``.

Two players meet in a quick-match duel (ranked: each comes from an address of its own, which
the server reads from ``X-Forwarded-For``, trusting 127.0.0.1 as its proxy). The *staller*
never moves; the *honest* player plays a random legal move on each of its turns, and leaves
once the staller has lost ``--patience`` turns in a row to the clock (or the game waited
``--seconds`` in all). The script then does what the attack did before issue 32: the staller
votes to penalise the one who left; the honest player comes back, and votes on the staller.
It prints, for each game and in all, what happened next to what the rules allow
(docs/rules.md, "Playing online"): how long the game waited on the staller (never more than
the turn clock), the turns the clock played for them and when the autopilot took over (after
2), who abandoned (the staller, not the one who left), the votes, and the points each ended with.

Without ``--url`` it starts a server in a child process on 127.0.0.1 (a free port, a temporary
database, computers at once) whose ranked clock is ``--clock`` seconds (the real one is 40:
``serve --ranked-clock``). With ``--url``, that server must read ``X-Forwarded-For`` from
127.0.0.1 (``serve --proxy-headers --trusted-proxy 127.0.0.1``). Loopback only, bounded in
games (at most 20) and time (``--seconds`` a game, at most 600); it asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import ClientConnection, connect

from game.net.ranking import PENALTY
from game.net.rooms import RANKED_TURN_SECONDS
from game.play.turns import AUTOPILOT_AFTER

MAX_GAMES = 20
MAX_SECONDS = 600.0


class Side:
    """One player's connection: what it last heard of the room and its view."""

    def __init__(self, url: str, address: str, name: str, player: str | None = None) -> None:
        self.ws: ClientConnection = connect(url, open_timeout=5, max_size=None, proxy=None, legacy=True,
                                            additional_headers={"X-Forwarded-For": address})
        self.address, self.name = address, name
        self.player = player or secrets.token_urlsafe(24)
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.room_id, self.seat, self.key = "", -1, ""
        self.autopilot = False
        self.heard: list[dict[str, Any]] = []  # every message, for the caller to look through
        self.sent = 0

    def send(self, **message: Any) -> None:
        message.setdefault("v", 2)
        self.ws.send(json.dumps(message))

    def read(self, wait: float) -> dict[str, Any] | None:
        """The next message within ``wait`` seconds, or None."""
        try:
            text = self.ws.recv(timeout=wait)
        except TimeoutError:
            return None
        message: dict[str, Any] = json.loads(text)
        kind = message.get("type")
        if kind == "update":
            self.view, self.autopilot = message["view"], bool(message.get("autopilot"))
        elif kind == "room":
            self.room = message
        elif kind == "joined":
            self.room_id, self.seat = message["room"], message["seat"]
            self.key = message.get("key") or self.key
        message["_at"] = time.monotonic()  # when it came (not part of the protocol)
        self.heard.append(message)
        return message

    def until(self, done: Any, seconds: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            message = self.read(max(0.01, end - time.monotonic()))
            if message is not None and done(message):
                return message
        raise TimeoutError(f"{self.name}: the expected message never came")

    def hello(self) -> dict[str, Any]:
        self.send(type="hello", player=self.player, name=self.name)
        return self.until(lambda m: m["type"] in ("profile", "error"))

    def close(self) -> None:
        self.ws.close()


@dataclass
class Game:
    """What one game of the attack gave."""

    ranked: bool = False
    waits: list[float] = field(default_factory=list)  # seconds the game waited on each staller's turn
    timed_out: int = 0  # staller's turns the clock played
    autopilot_after: int | None = None  # timeouts before the autopilot came on
    stalled_for: float = 0.0  # from the staller's first turn to the honest player leaving
    leaver_abandoned: bool | None = None
    staller_abandoned: bool | None = None
    staller_vote: str = ""  # what the server answered the staller's vote on the leaver
    leaver_vote: str = ""  # and the leaver's on the staller
    points: dict[str, int] = field(default_factory=dict)  # each side's duel points after
    over_early: bool = False  # the game ended before the honest player left


def xp(url: str, side: Side) -> int:
    """The side's duel points, as a fresh hello tells them."""
    fresh = Side(url, side.address, side.name, side.player)
    try:
        answer = fresh.hello()
        return int(answer.get("xp", {}).get("duel", 0))
    finally:
        fresh.close()


def play_game(url: str, index: int, patience: int, seconds: float, rng: random.Random) -> Game:
    """One game of the attack (see the module)."""
    game = Game()
    honest = Side(url, f"203.0.113.{10 + index}", f"Honest{index}")
    staller = Side(url, f"198.51.100.{10 + index}", f"Staller{index}")
    for side in (honest, staller):
        side.hello()
        side.send(type="queue", preset="duel", players=2)
    for side in (honest, staller):
        side.until(lambda m: m["type"] == "room")
    game.ranked = bool(honest.room and honest.room.get("ranked"))
    start = time.monotonic()
    first_stall: float | None = None
    waiting_since: float | None = None
    while time.monotonic() - start < seconds:
        for side in (honest, staller):
            while side.read(0.0 if side is honest else 0.01) is not None:
                pass
        for message in staller.heard:
            if message.get("type") != "update":
                continue
            for event in message["events"]:
                if event["type"] == "TimedOut" and event["seat"] == staller.seat:
                    game.timed_out += 1
            if message.get("autopilot") and game.autopilot_after is None:
                game.autopilot_after = game.timed_out
        staller.heard.clear()
        for message in honest.heard:  # the staller's turns, timed as the honest player heard them
            if message.get("type") != "update" or message["view"]["status"] != "playing":
                continue
            if message["view"]["to_act"] == staller.seat:
                if waiting_since is None:
                    waiting_since = message["_at"]
                    first_stall = first_stall if first_stall is not None else waiting_since
            elif waiting_since is not None:
                game.waits.append(message["_at"] - waiting_since)
                waiting_since = None
        honest.heard.clear()
        view = honest.view
        if view is None:
            continue
        if view["status"] != "playing":
            game.over_early = True
            break
        if game.autopilot_after is not None or game.timed_out >= patience:
            break
        if view["to_act"] == honest.seat:
            honest.sent += 1
            ref = f"a{honest.sent}"
            honest.send(type="action", action=rng.choice(view["legal"]), ref=ref)
            honest.until(lambda m, ref=ref: m.get("ref") == ref)
    if waiting_since is not None:  # still waiting on the staller when the honest player gives up
        game.waits.append(time.monotonic() - waiting_since)
    if first_stall is not None:
        game.stalled_for = time.monotonic() - first_stall
    room, seat, key = honest.room_id, honest.seat, honest.key
    honest.close()  # the honest player gives up on the stalled game
    with contextlib.suppress(TimeoutError):  # (an older server may say nothing at once)
        staller.until(lambda m: m["type"] == "room" and (
            m["seats"][staller.seat].get("abandoned") or not m["seats"][seat]["connected"]), 5.0)
    staller.send(type="vote", seat=seat, penalise=True, ref="grief")  # the attack's second half
    answer = staller.until(lambda m: m.get("ref") == "grief", 5.0)
    game.staller_vote = answer.get("code", answer["type"])
    back = Side(url, honest.address, honest.name, honest.player)
    back.hello()
    back.send(type="join", room=room, seat=seat, key=key)
    back.until(lambda m: m["type"] in ("joined", "error"))
    status = back.until(lambda m: m["type"] == "room")
    game.leaver_abandoned = bool(status["seats"][seat].get("abandoned"))
    game.staller_abandoned = bool(status["seats"][staller.seat].get("abandoned"))
    if game.staller_abandoned:
        back.send(type="vote", seat=staller.seat, penalise=True, ref="judge")
        answer = back.until(lambda m: m.get("ref") == "judge" or (
            m["type"] == "room" and any(v["seat"] == staller.seat and v["penalised"] for v in m["votes"])))
        game.leaver_vote = "penalised" if answer["type"] == "room" else answer.get("code", answer["type"])
    for side in (back, staller):
        side.close()
    game.points = {"honest": xp(url, honest), "staller": xp(url, staller)}
    return game


def report(games: list[Game], clock: float) -> None:
    """Print each game and the totals next to what the rules allow."""
    for i, game in enumerate(games, 1):
        longest = max(game.waits, default=0.0)
        print(f"game {i}: ranked {game.ranked}; the staller's turns: waited on {len(game.waits)}, longest "
              f"{longest:.1f} s (the rules: the clock, {clock:g} s, plus the messages' way); "
              f"the clock played "
              f"{game.timed_out}, the autopilot after {game.autopilot_after} (the rules: {AUTOPILOT_AFTER}); "
              f"stalled {game.stalled_for:.1f} s before the honest player left"
              + ("; the game ended first" if game.over_early else ""))
        print(f"  abandoned: the one who left {game.leaver_abandoned} (the rules: False), the staller "
              f"{game.staller_abandoned} (the rules: True); the staller's vote on the one who left: "
              f"{game.staller_vote} (the rules: refused); the leaver's vote on the staller: "
              f"{game.leaver_vote or '-'} (the rules: penalised)")
        print(f"  points: honest {game.points.get('honest')}, staller {game.points.get('staller')} "
              f"(the rules: honest 0 or more, staller -{PENALTY})")
    ranked = [g for g in games if g.ranked and not g.over_early]
    waits = [w for g in ranked for w in g.waits]
    print(f"in all: {len(games)} games, {len(ranked)} ranked and stalled; longest wait on the staller "
          f"{max(waits, default=0.0):.1f} s (allowed: the clock, {clock:g} s, plus the messages' way); "
          f"honest players abandoned "
          f"{sum(bool(g.leaver_abandoned) for g in ranked)} (allowed 0), penalised "
          f"{sum(g.points.get('honest', 0) < 0 for g in ranked)} (allowed 0); stallers abandoned "
          f"{sum(bool(g.staller_abandoned) for g in ranked)} of {len(ranked)}, penalised "
          f"{sum(g.points.get('staller', 0) <= -PENALTY for g in ranked)}")


def main(argv: list[str] | None = None) -> int:
    """Start a server (or use ``--url``), play the games, print what they gave."""
    parser = argparse.ArgumentParser(prog="python -m tools.stall", description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server's ws://127.0.0.1:PORT/ (default: start one)")
    parser.add_argument("--games", type=int, default=1, help=f"games, 1 to {MAX_GAMES} (1)")
    parser.add_argument("--clock", type=float, default=2.0,
                        help=f"the ranked clock of the server started, 1 to {RANKED_TURN_SECONDS} s (2)")
    parser.add_argument("--patience", type=int, default=AUTOPILOT_AFTER,
                        help=f"staller's turns timed out before the honest one leaves ({AUTOPILOT_AFTER})")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help=f"the longest the honest player waits a game, at most {MAX_SECONDS:g} (120)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--games must be 1 to {MAX_GAMES} and --seconds 0 to {MAX_SECONDS:g}")
    if not 1 <= args.clock <= RANKED_TURN_SECONDS or not 1 <= args.patience <= 10:
        parser.error(f"--clock must be 1 to {RANKED_TURN_SECONDS} and --patience 1 to 10")
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be a server on this machine (loopback)")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="huit-stall-") as folder:
        server = None
        url = args.url
        if url is None:
            server = subprocess.Popen(
                [sys.executable, "-m", "game.net.server", "--host", "127.0.0.1", "--port", "0",
                 "--db", str(Path(folder) / "rooms.sqlite3"), "--think-scale", "0",
                 "--ranked-clock", f"{args.clock:g}", "--proxy-headers", "--trusted-proxy", "127.0.0.1"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert server.stdout is not None
            line = server.stdout.readline()
            url = f"ws://127.0.0.1:{int(line.split(':')[1].split(',')[0])}/"
        try:
            games = [play_game(url, i, args.patience, args.seconds, rng) for i in range(args.games)]
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
    clock = args.clock if args.url is None else float(RANKED_TURN_SECONDS)  # (the most a server may run)
    print(f"stall: {args.games} quick-match duel(s), the staller never moves, the honest player leaves after "
          f"{args.patience} of the staller's turns lost to the clock; the ranked clock {clock:g} s")
    report(games, clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
