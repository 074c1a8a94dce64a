"""Load benchmark of the room server: ``python -m tools.loadtest --rooms 200 --duration 30``.

Starts a room server in a child process on 127.0.0.1 (a free port, a temporary
database, computers off), opens ``--rooms`` rooms of two bot clients each (one
process, asyncio), and lets the bots play random legal moves after a think time
for ``--duration`` seconds, accepting new deals as they come. It prints the actions
applied per second, the round trip of an action (sent → the update that answers
it) at p50/p95/p99, the server's CPU (cores busy on average) and the errors
received (there must be none). Loopback only, bounded in rooms and time; it asserts
nothing.

``--attack N`` measures the same bots beside an attack on the server's computers: N
more connections each create a 7-seat `points` room of one human and six Hard
computers with ``turn_seconds: 1`` and never act (every human turn times out, and
the computers think; the server runs with its real think delays). The attackers'
rooms created and refused are printed with the rest. ``--server-arg`` passes a flag
to the server (repeatable), e.g. to lift or tighten a quota.

``--flood N`` measures the same bots beside N connections from loopback (exempt from the
per-address connection cap) that send pings as fast as they can, reconnecting when the
server closes them: it prints what they sent, what was answered, refused ``rate_limited``
or closed for flooding, next to what the rules allow a connection. ``--attack N`` floods
with N connections too (unless ``--flood`` says otherwise), and replays every bot's
``create`` and ``join`` request id from connections of their own (the bots say hello, the
replays do not): what the replays got of the bots' rooms is printed against the rule (none).

``--instances N`` runs the servers as N instances on one PostgreSQL (``--db postgresql://...``,
or a scratch server `tools.scratch_pg` starts, and says so): N child processes (`tools.instances`),
each room's host on one instance and its guest on the next (quick match: the players in turn), so
every action a bot sees answered went through the database and, for the other player, through
another instance's catching up. ``--instances 1,2`` runs 1 then 2 instances (each on a fresh
database) and prints them side by side, ``--baseline`` the single server on SQLite first: the cost
of the database round trip, and what a second instance buys. Each instance's CPU is printed, and a
scratch PostgreSQL's.

``--quick`` measures quick match instead (protocol version 2): ``2 × --rooms`` players
(``--players`` per table with ``--rooms`` tables' worth of them) each say hello with a
player key of their own, ask for a ``--preset`` table, play the game they are seated
in, and queue again on a new connection when it is over, until ``--duration`` runs
out. Each player comes from an address of its own (the server reads it from
``X-Forwarded-For``, trusting 127.0.0.1 as its proxy), so every table is ranked and its
points are written at its end. It prints the seatings, the wait from asking to being
seated (p50/p95/max), the games finished, and the same round trip, CPU and error
figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from game.engine import Status
from game.net.protocol import RATE
from game.net.server import COMPUTER_SEATS
from tools.flood import Flood, flood_process, print_flood
from tools.instances import Cluster, StartFailed, is_postgres, postgres
from tools.scratch_pg import Unavailable

MAX_ROOMS = 1000
MAX_DURATION = 600.0
MAX_ATTACKERS = 64
MAX_INSTANCES = 8
ATTACK_SEATS = [{"kind": "human"}] + [{"kind": "computer", "level": "hard"}] * 6


class Tally:
    """What the bots measured."""

    def __init__(self) -> None:
        self.trips: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.attack_rooms = 0  # rooms the attackers got
        self.attack_refused: list[str] = []  # and the codes of those they did not
        self.queued = 0  # quick match: requests made
        self.waits: list[float] = []  # and seconds from asking to being seated, per seating
        self.rooms: set[str] = set()  # the rooms quick match made
        self.games = 0  # games finished (counted once per player)
        self.flood = Flood()  # what the flooders measured
        self.requests: list[tuple[str, str, dict[str, Any]]] = []  # (kind, request id, what it got)
        self.replays = 0  # request ids replayed by others
        self.replay_leaks = 0  # replays that got the room and seat, or the key, the bot got


def _hello(key: str, name: str) -> str:
    return json.dumps({"v": 2, "type": "hello", "player": key, "name": name})


async def bot(url: str, room: dict[str, Any], tally: Tally, rng: random.Random, think: float,
              stop: float, ready: asyncio.Event, host: bool, replayed: bool = False) -> None:
    """One player: create (or join) the room, then play until ``stop`` (``replayed``: as a player
    who said hello, with a request id an attacker will replay)."""
    request: dict[str, Any] = {}
    async with connect(url, max_size=1 << 20) as ws:
        if replayed:
            await ws.send(_hello(secrets.token_urlsafe(24), "Host" if host else "Guest"))
            request["request"] = secrets.token_urlsafe(16)
        if host:
            await ws.send(json.dumps({"v": 2, "type": "create", "preset": room["preset"], "options": {},
                                      "seats": [{"kind": "human"}, {"kind": "human"}], **request}))
        else:
            try:
                await asyncio.wait_for(ready.wait(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                return
            if room["id"] is None:
                return  # the room could not be created (the host counted the error)
            await ws.send(json.dumps({"v": 2, "type": "join", "room": room["id"], **request}))
        turns = Turns(tally, rng, think)
        try:
            async with asyncio.timeout_at(stop):  # one deadline for the game, not one per message
                while True:
                    message = json.loads(await ws.recv())
                    kind = message["type"]
                    if kind == "joined" and request:
                        tally.requests.append(("create" if host else "join", request["request"], message))
                    if kind == "joined" and host:
                        room["id"] = message["room"]
                        ready.set()
                    elif kind == "error":
                        tally.errors.append(message["code"])
                        if host and room["id"] is None:
                            ready.set()  # no room: let the other bot give up rather than wait forever
                            return
                    elif kind == "update":
                        await turns.answer(ws, message, f"{message['view']['seat']}-")
        except TimeoutError:
            pass  # the bot's time is up


async def attacker(url: str, tally: Tally, stop: float) -> None:
    """One attacking connection: a room of six Hard computers on a 1-second clock, never acting."""
    async with connect(url, max_size=1 << 20) as ws:
        await ws.send(json.dumps({"v": 2, "type": "create", "preset": "points",
                                  "options": {"turn_seconds": 1}, "seats": ATTACK_SEATS}))
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
                message = json.loads(text)
            except TimeoutError:
                break
            if message["type"] == "joined":
                tally.attack_rooms += 1
            elif message["type"] == "error":
                tally.attack_refused.append(message["code"])
                return  # refused: this attacker is done


async def replay(url: str, tally: Tally) -> None:
    """Replay every request id the bots' creates and claims carried, from a connection of its own
    without their player key, and count what it got of theirs."""
    for kind, request, got in list(tally.requests):
        async with connect(url, max_size=1 << 20) as ws:
            asked = {"preset": "duel", "options": {}, "seats": [{"kind": "human"}] * 2} if kind == "create" \
                else {"room": got["room"]}
            await ws.send(json.dumps({"v": 2, "type": kind, "request": request, **asked}))
            tally.replays += 1
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            theirs = (answer.get("room"), answer.get("seat")) == (got["room"], got["seat"])
            if answer["type"] == "joined" and (theirs or answer["key"] == got["key"]):
                tally.replay_leaks += 1


async def quick_player(url: str, index: int, preset: str, players: int, tally: Tally, rng: random.Random,
                       think: float, stop: float) -> None:
    """One player of quick match: hello, queue, play the game it is seated in; again until ``stop``."""
    key = secrets.token_urlsafe(24)
    address = f"10.{(index >> 16) & 255}.{(index >> 8) & 255}.{index & 255}"
    while time.monotonic() < stop:
        async with connect(url, max_size=1 << 20, additional_headers={"X-Forwarded-For": address}) as ws:
            await ws.send(json.dumps({"v": 2, "type": "hello", "player": key, "name": f"Bot {index}"}))
            await ws.send(json.dumps({"v": 2, "type": "queue", "preset": preset, "players": players}))
            asked = time.monotonic()
            tally.queued += 1
            if not await _play_seated(ws, tally, rng, think, stop, asked):
                return


class Turns:
    """A bot's side of a game: each answer to its own action timed (the round trip), a random legal
    action after a think time when it is its turn, the next deal asked for when one ends."""

    def __init__(self, tally: Tally, rng: random.Random, think: float) -> None:
        self.tally, self.rng, self.think = tally, rng, think
        self.sent: dict[str, float] = {}  # ref -> when the action went
        self.count = 0
        self.accepted = -1  # the last deal asked for

    def answered(self, update: dict[str, Any]) -> None:
        """Count an update that answers one of the bot's actions (its round trip)."""
        ref = update.get("ref")
        if ref in self.sent:
            self.tally.trips.append(time.monotonic() - self.sent.pop(ref))
            self.tally.actions += 1

    async def answer(self, ws: Any, update: dict[str, Any], prefix: str) -> None:
        """Count ``update`` if it answers the bot, then act if it is the bot's turn (its refs begin
        with ``prefix``) or ask for the next deal."""
        self.answered(update)
        view = update["view"]
        if view["status"] == Status.PLAYING and view["to_act"] == view["seat"] and not self.sent:
            self.count += 1
            ref = f"{prefix}{self.count}"
            await _after(self.think * self.rng.uniform(0.5, 1.5))
            self.sent[ref] = time.monotonic()
            await ws.send(json.dumps({"v": 2, "type": "action", "action": self.rng.choice(view["legal"]),
                                      "ref": ref}))
        elif view["status"] != Status.PLAYING and view["round_number"] != self.accepted:
            self.accepted = view["round_number"]
            await ws.send(json.dumps({"v": 2, "type": "accept_round"}))


async def _play_seated(ws: Any, tally: Tally, rng: random.Random, think: float, stop: float,
                       asked: float) -> bool:
    """Wait to be seated, then play until the game is over (True) or ``stop`` (False)."""
    turns = Turns(tally, rng, think)
    try:
        async with asyncio.timeout_at(stop):  # one deadline for the game, not one per message
            while True:
                message = json.loads(await ws.recv())
                kind = message["type"]
                if kind == "joined":
                    tally.waits.append(time.monotonic() - asked)
                    tally.rooms.add(message["room"])
                elif kind == "error":
                    tally.errors.append(message["code"])
                    return False
                elif kind == "update":
                    view = message["view"]
                    if view["status"] == Status.MATCH_OVER and (not view["target"] or view["winners"]):
                        turns.answered(message)
                        tally.games += 1
                        return True
                    await turns.answer(ws, message, "q")
    except TimeoutError:
        return False


async def run_quick(urls: list[str], people: int, players: int, duration: float, think: float, preset: str,
                    seed: int) -> Tally:
    """Let ``people`` quick-match players queue, play and queue again for ``duration`` seconds, spread
    over the servers at ``urls`` in turn (the players of a table on different ones)."""
    tally = Tally()
    rng = random.Random(seed)
    stop = time.monotonic() + duration
    tasks = []
    for i in range(people):
        tasks.append(asyncio.create_task(quick_player(urls[i % len(urls)], i + 1, preset, players, tally,
                                                      random.Random(rng.random()), think, stop)))
        if i % 40 == 39:
            await asyncio.sleep(0.05)  # arrivals over a moment rather than all in one tick
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors += [type(r).__name__ for r in results if isinstance(r, BaseException)]
    return tally


async def _after(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def run(urls: list[str], rooms: int, duration: float, think: float, preset: str, seed: int,
              attackers: int = 0, flooders: int = 0, rate: float = RATE) -> Tally:
    """Open the rooms (and the attackers' first) and let them play; with ``attackers``, replay the
    bots' request ids at the end. With several servers at ``urls`` (instances on one database), a
    room's host goes to one and its guest to the next: the two players of a room are never on the
    same instance."""
    url = urls[0]  # the attack's (an attack on several instances is one on each)
    tally = Tally()
    rng = random.Random(seed)
    stop = time.monotonic() + duration
    tasks = []
    for _ in range(attackers):
        tasks.append(asyncio.create_task(attacker(url, tally, stop)))
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) if flooders else None
    flood = (asyncio.get_running_loop().run_in_executor(pool, flood_process, url, flooders, duration, rate)
             if pool is not None else None)
    if attackers or flooders:
        await asyncio.sleep(min(2.0, duration / 4))  # the attack is under way before anything is measured
    for i in range(rooms):
        room: dict[str, Any] = {"preset": preset, "id": None}
        ready = asyncio.Event()
        for host in (True, False):
            where = urls[(i + (0 if host else 1)) % len(urls)]
            tasks.append(asyncio.create_task(bot(where, room, tally, random.Random(rng.random()), think, stop,
                                                 ready, host, replayed=attackers > 0)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)  # open the rooms over a moment rather than all in one tick
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors += [type(r).__name__ for r in results if isinstance(r, BaseException)]
    if flood is not None and pool is not None:
        tally.flood = await flood
        pool.shutdown()
    if attackers:
        await replay(url, tally)
    return tally


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank quantile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _flag_value(flags: list[str], name: str, default: float) -> Any:
    """The value a ``--server-arg`` gives flag ``name`` (``--name=V``), else ``default``."""
    for flag in flags:
        if flag.startswith(name + "="):
            return type(default)(flag.split("=", 1)[1])
    return default


@dataclass
class Measured:
    """One run: where it ran, what the bots measured, and the CPU it cost."""

    label: str
    tally: Tally
    elapsed: float  # seconds from the servers being up to the bots being done
    cores: list[float]  # each instance's CPU over the seconds of play (cores busy on average)
    db_cores: float | None  # a scratch PostgreSQL's over the same seconds (None: SQLite, or not known)
    played: float  # the seconds of play the CPU is measured over
    bots_cores: float  # this process's (the bots') over the same seconds: they share the machine


def measure(args: argparse.Namespace, db: str, count: int, folder: Path, label: str, flooders: int,
            db_cpu: Any = None) -> Measured:
    """Start ``count`` servers on ``db``, let the bots play on them, stop them; the figures.
    ``db_cpu``: what reads the database server's CPU seconds (`tools.instances.Postgres.cpu`)."""
    extra = ["--proxy-headers", "--trusted-proxy", "127.0.0.1", "--queue-per-hour", "1000000"] \
        if args.quick else []
    if args.attack:  # the bots say hello (their request ids are then theirs), all from 127.0.0.1
        extra += ["--profiles-per-hour", "1000000"]
    # The attack needs the computers' real think delays; the bots alone are measured without any.
    think_scale = "1" if args.attack else "0"
    server_args = ["--think-scale", think_scale, "--rooms-per-hour", str(MAX_ROOMS), "--rooms-held",
                   str(MAX_ROOMS), *extra, *args.server_arg]

    def cpu() -> tuple[list[float | None], float | None, float, float]:
        return cluster.cpu(), db_cpu() if db_cpu else None, time.monotonic(), time.process_time()

    with Cluster(count, db, server_args, folder) as cluster:
        started = time.monotonic()
        before = cpu()
        # The servers' CPU over the seconds of play only (the bots' and flooders' closing after is not)
        window: list[tuple[list[float | None], float | None, float, float]] = []
        sampler = threading.Timer(args.duration, lambda: window.append(cpu()))
        sampler.start()
        if args.quick:
            tally = asyncio.run(run_quick(cluster.urls, args.rooms * args.players, args.players,
                                          args.duration, args.think, args.preset, args.seed))
        else:
            tally = asyncio.run(run(cluster.urls, args.rooms, args.duration, args.think, args.preset,
                                    args.seed, args.attack, flooders,
                                    _flag_value(args.server_arg, "--rate", RATE)))
        elapsed = time.monotonic() - started
        sampler.join()
    after = window[0] if window else before
    played = max(after[2] - before[2], 1e-9)
    cores = [(b - a) / played for a, b in zip(before[0], after[0], strict=True)
             if a is not None and b is not None]
    db_cores = (after[1] - before[1]) / played if after[1] is not None and before[1] is not None else None
    return Measured(label, tally, elapsed, cores, db_cores, played, (after[3] - before[3]) / played)


def report(args: argparse.Namespace, measured: Measured, flooders: int) -> None:
    """One run's figures."""
    tally, elapsed = measured.tally, measured.elapsed
    trips = [t * 1000 for t in tally.trips]
    if args.quick:
        waits = [t * 1000 for t in tally.waits]
        print(f"quick match: {args.rooms * args.players} players asking for {args.preset} at {args.players}, "
              f"think {args.think:g} s, {elapsed:.1f} s")
        print(f"requests: {tally.queued}, seatings: {len(tally.waits)} in {len(tally.rooms)} rooms, "
              f"games finished: {tally.games // args.players} (ranked, each from its own address)")
        if waits:
            print(f"wait to be seated ms: p50 {percentile(waits, .5):.1f}  p95 {percentile(waits, .95):.1f}  "
                  f"max {max(waits):.1f}")
    else:
        print(f"{args.rooms} rooms of 2 bots, {args.preset}, think {args.think:g} s, {elapsed:.1f} s")
    if args.attack:
        refused = f" ({', '.join(sorted(set(tally.attack_refused)))})" if tally.attack_refused else ""
        seats = _flag_value(args.server_arg, "--computer-seats", COMPUTER_SEATS)
        print(f"attack, computers: {args.attack} connections, {tally.attack_rooms} rooms of 6 Hard computers "
              f"on a 1 s clock created, {len(tally.attack_refused)} refused{refused}; the rules allow "
              f"{seats // 6} ({seats} computer seats in games under way per address)")
        print(f"attack, replayed request ids: {tally.replays} creates and claims replayed by connections "
              f"without the player's key, {tally.replay_leaks} got the bots' room and seat or key; "
              "the rules allow 0")
    if flooders:
        print_flood(tally.flood, flooders, args.duration, _flag_value(args.server_arg, "--rate", RATE))
    if measured.cores:
        each = f" (instances: {', '.join(f'{c:.2f}' for c in measured.cores)})" \
            if len(measured.cores) > 1 else ""
        pg = f"; PostgreSQL: {measured.db_cores:.2f} cores" if measured.db_cores is not None else ""
        print(f"server CPU: {sum(measured.cores):.2f} cores on average over the {measured.played:.1f} s of "
              f"play{each}{pg}; the bots: {measured.bots_cores:.2f} cores")
    print(f"actions applied: {tally.actions} ({tally.actions / elapsed:.0f}/s)")
    if trips:
        print(f"round trip ms: p50 {percentile(trips, .5):.1f}  p95 {percentile(trips, .95):.1f}  "
              f"p99 {percentile(trips, .99):.1f}  max {max(trips):.1f}  mean {statistics.mean(trips):.1f}")
    kinds = f" ({', '.join(sorted(set(tally.errors)))})" if tally.errors else ""
    print(f"errors: {len(tally.errors)}{kinds}", flush=True)


def side_by_side(runs: list[Measured]) -> None:
    """The runs' main figures in columns (the cost of the database round trip, of more instances)."""
    width = max(16, *(len(run.label) + 2 for run in runs))

    def row(name: str, values: list[str]) -> None:
        print(f"{name:<26}" + "".join(f"{value:>{width}}" for value in values))

    def trip(run: Measured, q: float) -> str:
        return f"{percentile([t * 1000 for t in run.tally.trips], q):.1f}"

    print("side by side:")
    row("", [run.label for run in runs])
    row("actions/s", [f"{run.tally.actions / run.elapsed:.0f}" for run in runs])
    for name, q in (("round trip p50 ms", .5), ("round trip p95 ms", .95), ("round trip p99 ms", .99)):
        row(name, [trip(run, q) for run in runs])
    row("errors", [str(len(run.tally.errors)) for run in runs])
    row("instances' CPU, cores", [" + ".join(f"{c:.2f}" for c in run.cores) or "?" for run in runs])
    row("PostgreSQL CPU, cores", ["-" if run.db_cores is None else f"{run.db_cores:.2f}" for run in runs])
    row("bots' CPU, cores", [f"{run.bots_cores:.2f}" for run in runs])


def counts(text: str) -> list[int]:
    """``--instances``: one count, or several separated by commas."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a count, or counts separated by commas (1,2)") from None
    if not values or not all(1 <= v <= MAX_INSTANCES for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: each count 1 to {MAX_INSTANCES}")
    return values


def main(argv: list[str] | None = None) -> int:
    """Start the servers, run the bots, print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest", description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=0.5, help="a bot's mean think time, seconds")
    parser.add_argument("--preset", default="duel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--attack", type=int, default=0, metavar="N",
                        help=f"attacking connections beside the bots, 0 to {MAX_ATTACKERS} (0)")
    parser.add_argument("--flood", type=int, default=None, metavar="N",
                        help=f"flooding connections from loopback beside the bots, 0 to {MAX_ATTACKERS} "
                             "(--attack's N with --attack, else 0)")
    parser.add_argument("--quick", action="store_true",
                        help="quick match: players queue, are seated, play and queue again")
    parser.add_argument("--players", type=int, default=2, help="quick match: players per table (2)")
    parser.add_argument("--server-arg", action="append", default=[], metavar="FLAG",
                        help="a flag for the server, e.g. --server-arg=--computer-seats=100 (repeatable)")
    parser.add_argument("--instances", type=counts, default=None, metavar="N[,N...]",
                        help="N servers on one PostgreSQL, the bots spread over them; several counts "
                             "(1,2) run one after the other, each on a fresh database, side by side")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="with --instances: the PostgreSQL, postgresql://... (default: a scratch one, "
                             "started for the run)")
    parser.add_argument("--baseline", action="store_true",
                        help="with --instances: the single server on SQLite first, in the same table")
    args = parser.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS or not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--rooms must be 1 to {MAX_ROOMS} and --duration 0 to {MAX_DURATION:g} seconds")
    if not 0 <= args.attack <= MAX_ATTACKERS:
        parser.error(f"--attack must be 0 to {MAX_ATTACKERS}")
    flooders = args.flood if args.flood is not None else args.attack
    if not 0 <= flooders <= MAX_ATTACKERS:
        parser.error(f"--flood must be 0 to {MAX_ATTACKERS}")
    if not 2 <= args.players <= 8 or (args.quick and (args.attack or flooders)):
        parser.error("--players must be 2 to 8, and --quick goes without --attack and --flood")
    if args.instances is None and (args.db or args.baseline):
        parser.error("--db and --baseline go with --instances")
    if args.db is not None and not is_postgres(args.db):
        parser.error("--db: a PostgreSQL URL, postgresql://USER@HOST/DB")
    runs: list[Measured] = []
    with tempfile.TemporaryDirectory(prefix="huit-load-") as name:
        folder = Path(name)
        if args.instances is None:  # one server on SQLite, as before issue 33
            runs.append(measure(args, str(folder / "rooms.sqlite3"), 1, folder, "SQLite, 1", flooders))
            report(args, runs[0], flooders)
            return 0 if not runs[0].tally.errors else 1
        try:
            with postgres(args.db) as pg:
                print(pg.note, flush=True)
                if args.baseline:
                    runs.append(measure(args, str(folder / "rooms.sqlite3"), 1, folder / "sqlite",
                                        "SQLite, 1", flooders))
                    print("== the single server on SQLite ==")
                    report(args, runs[-1], flooders)
                for count in args.instances:
                    label = f"PostgreSQL, {count}"
                    runs.append(measure(args, pg.fresh(), count, folder / f"pg-{len(runs)}", label, flooders,
                                        pg.cpu))
                    print(f"== {count} instance{'s' if count > 1 else ''} on PostgreSQL ==")
                    report(args, runs[-1], flooders)
        except (Unavailable, StartFailed) as exc:
            print(f"loadtest: {exc}", file=sys.stderr)
            return 2
    if len(runs) > 1:
        side_by_side(runs)
    return 0 if not any(run.tally.errors for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
