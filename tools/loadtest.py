"""Load benchmark of the room server: ``python -m tools.loadtest --rooms 200 --duration 30``.

Starts a room server in a child process on 127.0.0.1 (a free port, a temporary
database, computers off), opens ``--rooms`` rooms of two bot clients each (one
process, asyncio), and lets the bots play random legal moves after a think time
for ``--duration`` seconds, accepting new deals as they come. It prints the actions
applied per second, the round trip of an action (sent → the update that answers
it) at p50/p95/p99, and the errors received (there must be none). Loopback only,
bounded in rooms and time; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from game.engine import Status

MAX_ROOMS = 1000
MAX_DURATION = 600.0


class Tally:
    """What the bots measured."""

    def __init__(self) -> None:
        self.trips: list[float] = []
        self.errors: list[str] = []
        self.actions = 0


async def bot(url: str, room: dict[str, Any], tally: Tally, rng: random.Random, think: float,
              stop: float, ready: asyncio.Event, host: bool) -> None:
    """One player: create (or join) the room, then play until ``stop``."""
    async with connect(url, max_size=1 << 20) as ws:
        if host:
            await ws.send(json.dumps({"v": 1, "type": "create", "preset": room["preset"], "options": {},
                                      "seats": [{"kind": "human"}, {"kind": "human"}]}))
        else:
            try:
                await asyncio.wait_for(ready.wait(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                return
            if room["id"] is None:
                return  # the room could not be created (the host counted the error)
            await ws.send(json.dumps({"v": 1, "type": "join", "room": room["id"]}))
        sent: dict[str, float] = {}
        accepted = -1
        count = 0
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
                message = json.loads(text)
            except TimeoutError:
                break
            kind = message["type"]
            if kind == "joined" and host:
                room["id"] = message["room"]
                ready.set()
            elif kind == "error":
                tally.errors.append(message["code"])
                if host and room["id"] is None:
                    ready.set()  # no room: let the other bot give up rather than wait forever
                    return
            elif kind == "update":
                ref = message.get("ref")
                if ref in sent:
                    tally.trips.append(time.monotonic() - sent.pop(ref))
                    tally.actions += 1
                view = message["view"]
                if view["status"] == Status.PLAYING and view["to_act"] == view["seat"] and not sent:
                    count += 1
                    ref = f"{view['seat']}-{count}"
                    await _after(think * rng.uniform(0.5, 1.5))
                    sent[ref] = time.monotonic()
                    await ws.send(json.dumps({"v": 1, "type": "action", "action": rng.choice(view["legal"]),
                                              "ref": ref}))
                elif view["status"] != Status.PLAYING and view["round_number"] != accepted:
                    accepted = view["round_number"]
                    await ws.send(json.dumps({"v": 1, "type": "accept_round"}))


async def _after(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def run(url: str, rooms: int, duration: float, think: float, preset: str, seed: int) -> Tally:
    """Open the rooms and let them play."""
    tally = Tally()
    rng = random.Random(seed)
    stop = time.monotonic() + duration
    tasks = []
    for i in range(rooms):
        room: dict[str, Any] = {"preset": preset, "id": None}
        ready = asyncio.Event()
        for host in (True, False):
            tasks.append(asyncio.create_task(bot(url, room, tally, random.Random(rng.random()), think, stop,
                                                 ready, host)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)  # open the rooms over a moment rather than all in one tick
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors += [type(r).__name__ for r in results if isinstance(r, BaseException)]
    return tally


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank quantile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Start a server, run the bots, print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest", description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=0.5, help="a bot's mean think time, seconds")
    parser.add_argument("--preset", default="duel")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS or not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--rooms must be 1 to {MAX_ROOMS} and --duration 0 to {MAX_DURATION:g} seconds")
    with tempfile.TemporaryDirectory(prefix="huit-load-") as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "game.net.server", "--host", "127.0.0.1", "--port", "0",
             "--db", str(Path(folder) / "rooms.sqlite3"), "--think-scale", "0",
             "--rooms-per-hour", str(MAX_ROOMS)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            port = int(line.split(":")[1].split(",")[0])
            started = time.monotonic()
            tally = asyncio.run(run(f"ws://127.0.0.1:{port}/", args.rooms, args.duration, args.think,
                                    args.preset, args.seed))
            elapsed = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(10)
    trips = [t * 1000 for t in tally.trips]
    print(f"{args.rooms} rooms of 2 bots, {args.preset}, think {args.think:g} s, {elapsed:.1f} s")
    print(f"actions applied: {tally.actions} ({tally.actions / elapsed:.0f}/s)")
    if trips:
        print(f"round trip ms: p50 {percentile(trips, .5):.1f}  p95 {percentile(trips, .95):.1f}  "
              f"p99 {percentile(trips, .99):.1f}  max {max(trips):.1f}  mean {statistics.mean(trips):.1f}")
    kinds = f" ({', '.join(sorted(set(tally.errors)))})" if tally.errors else ""
    print(f"errors: {len(tally.errors)}{kinds}")
    return 0 if not tally.errors else 1


if __name__ == "__main__":
    sys.exit(main())
