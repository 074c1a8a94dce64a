"""A chaos run of the room servers: ``python -m tools.chaos --duration 60 --instances 3``.

Starts ``--instances`` room servers on one PostgreSQL (``--db postgresql://...``, or a scratch
server `tools.scratch_pg` starts for the run; `tools.instances`) and lets bots play across them
(each bot on an instance of its own, the two players of a room on different ones):

- **duels by link**: a host creates a private duel, its guest claims the other seat by the room's
  id on another instance; a new room when the match is over;
- **rooms with computers and a turn clock**: one person, a Medium and a Hard computer (Hard on a
  small think budget), ``turn_seconds`` 5; the person now and then lets the clock play a turn;
- **quick match** (one-deal duels): players (each with a player key and an address of its own,
  so every table is ranked and stakes tokens) queue, play the game they are seated in, and queue
  again.

Every ``--kill-every`` seconds one instance (each in turn) is killed with SIGKILL and started
again ``--down`` seconds later. A bot whose connection drops reconnects to ANOTHER instance, with
its seat key (``join``; a quick-match player says ``hello`` with its player key first), and goes on.

At the end the bots stop acting and close their connections, and the stored rooms are read
back (the store's own replay of each room's log):

- **what each bot saw**: where the store keeps a room's whole log (a room still in its first
  deal: a later deal's snapshot lets the store forget the entries before it), every ``update``
  view a bot was sent must be a state of that log (each seat's ``match.view(seat)`` after each
  prefix, serialized as the wire does: `game.net.wire.view_to_json`), and on one connection never
  an earlier state than the one before it; the last one must be the replayed room's, or behind it
  (changes committed after the bot's connection closed: commit before broadcast allows that).
  Then each bot rejoins its last room on a random instance, and the view it is given must be the
  replayed room's. A room missing, a log the replay refuses (a computer that moved twice for one
  turn is one), a view the log does not give or out of order: each is a mismatch;
- **ranking and tokens**: for every quick-match player, the sum of its ranked lines of each rule
  set is its rating; its wallet is the grant plus what every game of its lines settled on it
  (`tokens`); every game's stakes sum to zero; every ranked game a bot saw end has one line per
  player, exactly;
- **turn clocks**: a rejoin's ``timer`` in the turn the bot was in when its connection dropped
  may start afresh (another instance now runs the room's clock) but must not have less time left
  than the turn had (less a second): those cut short are counted and shown (not mismatches: the
  logs stay right), with the turns the clock played (``timeout`` entries of the logs kept whole).

It prints the rooms, actions, kills, reconnects, errors by code (an action's: with the kind of room,
and whether it was the first after a rejoin) and mismatches (which must be 0: the exit status is 1
otherwise). Bounded in time (``--duration``, at most 600 s) and in bots (200). ``--logs DIR`` keeps
the instances' logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game.engine import Status
from tools.chaos_checks import Findings, check_ranking, check_views, open_store, rejoin
from tools.instances import Cluster, StartFailed, is_postgres, postgres
from tools.scratch_pg import Unavailable

MAX_DURATION = 600.0
MAX_BOTS = 200
CLOCK = 5  # the computer rooms' turn_seconds
SETTLE = 1.5  # seconds between the bots' last action and their connections closing
CONNECT_TIMEOUT = 5.0
QUICK_OPTIONS = {"target": 0}  # quick match: one deal a game, so that many ranked games end in a run
HELLO_NAMES = ("Ada", "Bea", "Cai", "Dov", "Eli", "Fay", "Gus", "Hal", "Ivo", "Jun", "Kit", "Lou")


@dataclass
class Seen:
    """One room a bot sat in: its seat and key, and the last view it was sent there."""

    room: str
    seat: int
    key: str
    view: dict[str, Any] | None = None
    views: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # every one, by connection
    clock: tuple[int, tuple[int, int, int], float, float] | None = None  # connection, turn, timer, when
    kind: str = ""  # duel, computers, quick
    over: bool = False  # its match ended (a quick-match game: ranked lines are due)


@dataclass
class Bot:
    """A player: where it connects, what it sat in, what it counted."""

    name: str
    kind: str  # host, guest, computers, quick
    home: int  # the instance it connects to first
    rng: random.Random
    key: str = ""  # a quick-match player's player key
    address: str = ""  # and the address it comes from (X-Forwarded-For)
    rooms: list[Seen] = field(default_factory=list)
    instance: int = 0  # the instance it is connected to (or was, last)
    connections: int = 0
    reconnects: int = 0  # connections opened again after one dropped
    moved: int = 0  # of which to another instance than the one lost
    told: str = ""  # a host: the last room it told its guest of

    @property
    def current(self) -> Seen | None:
        """The room it plays in now (None: none, or its match is over)."""
        return self.rooms[-1] if self.rooms and not self.rooms[-1].over else None


@dataclass
class Run:
    """What the whole run shares: the instances, the bots, the counts."""

    cluster: Cluster
    think: float
    stop: float  # the bots act until then
    close: float  # and keep reading until then
    actions: int = 0  # the bots' actions answered by an update
    errors: Counter[str] = field(default_factory=Counter)
    rooms: Counter[str] = field(default_factory=Counter)  # rooms made, by kind
    kills: int = 0
    clock_cut: list[str] = field(default_factory=list)  # turn clocks a rejoin found cut short
    guests: dict[str, asyncio.Queue[str]] = field(default_factory=dict)  # a host's name -> its rooms


class Dropped(Exception):
    """The bot's connection dropped (its instance died): it reconnects elsewhere."""


def _instance_after(run: Run, lost: int, attempt: int) -> int:
    """Where a bot that lost instance ``lost`` tries next (the others in turn, never ``lost`` first)."""
    count = len(run.cluster.instances)
    return (lost + 1 + attempt) % count if count > 1 else lost


async def session(run: Run, bot: Bot, opening: Any) -> None:
    """Keep ``bot`` connected until the run closes: on a drop, to another instance, its seat kept.
    ``opening(ws)`` says what a connection without a room to return to sends first (create, claim,
    queue); a bot with a room under way rejoins it with its key instead."""
    attempt = 0
    where = bot.home
    dropped = False
    while time.monotonic() < run.close:
        url = run.cluster.instances[where].url
        headers = {"X-Forwarded-For": bot.address} if bot.address else None
        try:
            async with connect(url, max_size=1 << 20, open_timeout=CONNECT_TIMEOUT, close_timeout=1,
                               additional_headers=headers) as ws:
                bot.connections += 1
                if dropped:
                    bot.reconnects += 1
                    bot.moved += where != bot.instance
                bot.instance, attempt, dropped = where, 0, False
                if bot.key:
                    await ws.send(json.dumps({"v": 2, "type": "hello", "player": bot.key,
                                              "name": bot.name}))
                seen = bot.current
                if seen is not None:
                    await ws.send(json.dumps({"v": 2, "type": "join", "room": seen.room, "seat": seen.seat,
                                              "key": seen.key}))
                elif not await opening(ws):
                    return
                if not await play(run, bot, ws):
                    continue  # its match is over: a new room (a new connection for a new queue)
                return
        except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, Dropped):
            dropped = True
            where = _instance_after(run, bot.instance, attempt)
            attempt += 1
            await asyncio.sleep(0.05 if attempt < len(run.cluster.instances) else 0.3)


async def play(run: Run, bot: Bot, ws: Any) -> bool:
    """Read and act until the run closes (True) or the bot's match is over (False: start again)."""
    sent: set[str] = set()  # the ref of the action not answered yet
    acted_on: str | None = None  # the view the bot last acted on: never twice on the same one
    count = 0
    accepted = -1
    first = ""  # the ref of the first action sent on this connection (after a drop: on a rejoin's view)

    async def act(view: dict[str, Any]) -> None:
        nonlocal acted_on, count, sent, first
        mine = view["status"] == Status.PLAYING and view["to_act"] == view["seat"] and view["legal"]
        if not mine or time.monotonic() >= run.stop:
            return
        state = json.dumps(view, sort_keys=True)
        if state == acted_on:
            return  # the same view again (someone's presence changed): its action is on its way
        acted_on = state
        count += 1
        ref = f"{bot.name}-{count}"
        slow = bot.kind == "computers" and bot.rng.random() < 0.08
        await asyncio.sleep(CLOCK + 1 if slow else run.think * bot.rng.uniform(0.5, 1.5))
        if time.monotonic() < run.stop:
            sent = {ref}  # only the latest: a turn the clock took never answers
            first = first or ref
            await ws.send(json.dumps({"v": 2, "type": "action", "action": bot.rng.choice(view["legal"]),
                                      "ref": ref}))

    while True:
        left = run.close - time.monotonic()
        if left <= 0:
            return True
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
        except TimeoutError:
            return True
        kind = message["type"]
        if kind == "joined":
            seen = bot.current
            if seen is None or seen.room != message["room"]:
                seen = Seen(message["room"], message["seat"], message["key"], kind=_room_kind(bot))
                bot.rooms.append(seen)
                if bot.kind in ("host", "computers"):
                    run.rooms[seen.kind] += 1
                elif bot.kind == "quick" and message["seat"] == 0:
                    run.rooms["quick"] += 1
            if bot.kind == "host":
                await _tell_guest(run, bot, seen.room)
        elif kind == "error":
            reason = message.get("reason")
            where = f", {_room_kind(bot)}" if message.get("ref") else ""  # an action's: in which kind of room
            if message.get("ref") and message["ref"] == first and bot.reconnects:
                where += " (the first action after a rejoin)"
            run.errors[(f"{message['code']} ({reason})" if reason else message["code"]) + where] += 1
            if message["code"] in ("bad_key", "abandoned", "seat_freed", "unknown_room"):
                if bot.current is not None:
                    bot.current.over = True  # nothing to go back to: a new room
                return False
            if message.get("ref") in sent and bot.current is not None and bot.current.view is not None:
                sent.clear()
                acted_on = None  # refused (the clock took the turn...): act on what the bot sees now
                await act(bot.current.view)
        elif kind == "update":
            seen = bot.current or (bot.rooms[-1] if bot.rooms else None)
            if seen is None or seen.room != message["room"]:
                continue
            _check_clock(run, bot, seen, message)
            seen.view = message["view"]
            seen.views.append((bot.connections, seen.view))
            if message.get("ref") in sent:
                sent.discard(message["ref"])
                run.actions += 1
            view = seen.view
            if view["status"] == Status.MATCH_OVER:
                seen.over = True
                await asyncio.sleep(max(0.0, min(SETTLE, run.close - time.monotonic())) / 3)
                return time.monotonic() >= run.stop  # a new room, unless the run is over
            if view["status"] == Status.ROUND_OVER and view["round_number"] != accepted \
                    and time.monotonic() < run.stop:
                accepted = view["round_number"]
                await ws.send(json.dumps({"v": 2, "type": "accept_round"}))
            await act(view)


def _check_clock(run: Run, bot: Bot, seen: Seen, message: dict[str, Any]) -> None:
    """A rejoin's turn clock against the one the bot saw before its connection dropped: in the same
    turn, it may start afresh (a new owner of the room's clock) but not have less time left than
    the turn had (less a second's slack)."""
    view, timer, now = message["view"], message.get("timer"), time.monotonic()
    turn = (view["round_number"], view["turn_no"], view["to_act"])
    last = seen.clock
    if timer is not None and last is not None and last[0] != bot.connections and last[1] == turn:
        left = last[2] - (now - last[3])
        if left > 1.0 and timer < left - 1.0:
            run.clock_cut.append(f"{bot.name}: room {seen.room} turn {view['turn_no']}: {left:.1f} s left "
                                 f"before the drop, {timer:.2f} s on rejoining instance {bot.instance}")
    seen.clock = (bot.connections, turn, timer, now) if timer is not None else None


def _room_kind(bot: Bot) -> str:
    return {"host": "duel", "guest": "duel", "computers": "computers", "quick": "quick"}[bot.kind]


async def _tell_guest(run: Run, host: Bot, room: str) -> None:
    if host.told == room:
        return  # (joined again after a drop)
    host.told = room
    await run.guests.setdefault(host.name, asyncio.Queue()).put(room)


def opener(run: Run, bot: Bot, partner: str = "") -> Any:
    """What ``bot`` sends on a connection without a room to return to."""
    async def open_room(ws: Any) -> bool:
        if bot.kind == "host":
            await ws.send(json.dumps({"v": 2, "type": "create", "preset": "duel", "options": {},
                                      "seats": [{"kind": "human"}, {"kind": "human"}]}))
        elif bot.kind == "computers":
            await ws.send(json.dumps({"v": 2, "type": "create", "preset": "classic",
                                      "options": {"turn_seconds": CLOCK},
                                      "seats": [{"kind": "human"}, {"kind": "computer", "level": "medium"},
                                                {"kind": "computer", "level": "hard"}]}))
        elif bot.kind == "guest":
            rooms = run.guests.setdefault(partner, asyncio.Queue())
            try:
                room = await asyncio.wait_for(rooms.get(), timeout=max(0.01, run.stop - time.monotonic()))
            except TimeoutError:
                return False
            await ws.send(json.dumps({"v": 2, "type": "join", "room": room}))
        else:
            if time.monotonic() >= run.stop:
                return False
            await ws.send(json.dumps({"v": 2, "type": "queue", "preset": "duel", "options": QUICK_OPTIONS,
                                      "players": 2}))
        return True

    return open_room


async def chaos(run: Run, interval: float, down: float) -> None:
    """Kill an instance (each in turn) with SIGKILL every ``interval`` seconds from the start, and
    start it again ``down`` seconds later, while the bots act."""
    index = 0
    due = time.monotonic() + interval
    while due + down < run.stop:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        instance = run.cluster.instances[index % len(run.cluster.instances)]
        await asyncio.to_thread(instance.kill)
        run.kills += 1
        await asyncio.sleep(down)
        try:
            await asyncio.to_thread(run.cluster.restart, instance.index)
        except StartFailed as exc:  # said, and tried again at the end (before the checks)
            run.errors[f"restart failed: {str(exc).splitlines()[0]}"] += 1
        index += 1
        due += interval


async def play_all(run: Run, bots: list[tuple[Bot, str]], interval: float, down: float) -> None:
    """Every bot's session, and the kills, until the run closes."""
    tasks = [asyncio.create_task(session(run, bot, opener(run, bot, partner))) for bot, partner in bots]
    killer = asyncio.create_task(chaos(run, interval, down))
    results = await asyncio.gather(*tasks, killer, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            run.errors[f"bot crashed: {type(result).__name__}: {result}"] += 1


def make_bots(args: argparse.Namespace, count: int) -> list[tuple[Bot, str]]:
    """The bots, spread over ``count`` instances (a room's two players on different ones)."""
    rng = random.Random(args.seed)
    bots: list[tuple[Bot, str]] = []
    # Every bot from an address of its own (the instances trust 127.0.0.1 as their proxy), so that
    # no per-address quota of a real server counts the bots together.
    for i in range(args.duels):
        host = Bot(f"host{i}", "host", i % count, random.Random(rng.random()), address=f"10.34.0.{i + 1}")
        guest = Bot(f"guest{i}", "guest", (i + 1) % count, random.Random(rng.random()),
                    address=f"10.35.0.{i + 1}")
        bots += [(host, ""), (guest, host.name)]
    for i in range(args.computer_rooms):
        bots.append((Bot(f"solo{i}", "computers", i % count, random.Random(rng.random()),
                         address=f"10.36.0.{i + 1}"), ""))
    for i in range(args.quick):
        bots.append((Bot(f"{HELLO_NAMES[i % len(HELLO_NAMES)]}{i}", "quick", i % count,
                         random.Random(rng.random()), key=secrets.token_urlsafe(32),
                         address=f"10.33.{i // 250}.{i % 250 + 1}"), ""))
    return bots


def main(argv: list[str] | None = None) -> int:
    """Start the instances, play, kill, check, print."""
    parser = argparse.ArgumentParser(prog="python -m tools.chaos", description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument("--instances", type=int, default=3, help="room servers on one database (3)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="postgresql://... (default: a scratch PostgreSQL started for the run); an "
                             "SQLite file with --instances 1")
    parser.add_argument("--kill-every", type=float, default=5.0, metavar="S",
                        help="seconds between two kills (5)")
    parser.add_argument("--down", type=float, default=1.0, metavar="S",
                        help="seconds a killed instance stays down (1)")
    parser.add_argument("--duels", type=int, default=8, help="duels by link at a time (8)")
    parser.add_argument("--computer-rooms", type=int, default=4,
                        help="rooms of one person and two computers on a 5 s turn clock at a time (4)")
    parser.add_argument("--quick", type=int, default=8, help="quick-match players (8)")
    parser.add_argument("--think", type=float, default=0.2, help="a bot's mean think time, seconds (0.2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--logs", type=Path, default=None, metavar="DIR",
                        help="keep the instances' logs in DIR (instance-N.log; default: deleted at the end)")
    args = parser.parse_args(argv)
    if not 0 < args.duration <= MAX_DURATION or not 1 <= args.instances <= 8:
        parser.error(f"--duration 0 to {MAX_DURATION:g} seconds, --instances 1 to 8")
    if not 0 <= 2 * args.duels + args.computer_rooms + args.quick <= MAX_BOTS or \
            min(args.duels, args.computer_rooms, args.quick) < 0:
        parser.error(f"at most {MAX_BOTS} bots (two per duel)")
    if args.kill_every <= args.down or args.down < 0:
        parser.error("--kill-every must be longer than --down")
    sqlite = args.db is not None and not is_postgres(args.db)
    if sqlite and args.instances != 1:
        parser.error("instances on one SQLite file: 1 only (several need PostgreSQL)")
    server_args = ["--think-scale", "0.1", "--proxy-headers", "--trusted-proxy", "127.0.0.1",
                   "--queue-per-hour", "1000000", "--profiles-per-hour", "1000000",
                   "--rooms-per-hour", "10000",
                   "--rooms-held", "10000", "--computer-seats", "10000", "--seats-per-address", "10000",
                   "--search-workers", "1", "--think-budget", "0.05", "--ranked-clock", "5"]
    rng = random.Random(args.seed)
    try:
        with tempfile.TemporaryDirectory(prefix="huit-chaos-") as name, \
                _database(args.db, sqlite, Path(name)) as (db, note):
            print(f"chaos: {args.instances} instances on {note}; {args.duration:g} s, one killed with "
                  f"SIGKILL every {args.kill_every:g} s and started again {args.down:g} s later", flush=True)
            with Cluster(args.instances, db, server_args, args.logs or Path(name) / "logs") as cluster:
                now = time.monotonic()
                run = Run(cluster, args.think, now + args.duration, now + args.duration + SETTLE)
                bots = make_bots(args, args.instances)
                asyncio.run(play_all(run, bots, args.kill_every, args.down))
                for instance in cluster.instances:  # the last kill's instance is back before the checks
                    if not instance.alive:
                        cluster.restart(instance.index)
                found = Findings()
                store = open_store(db)
                try:
                    players = [bot for bot, _ in bots]
                    check_views(store, players, found)
                    asyncio.run(rejoin(store, cluster, players, found, rng))
                    check_ranking(store, players, found)
                finally:
                    store.close()
    except (Unavailable, StartFailed) as exc:
        print(f"chaos: {exc}", file=sys.stderr)
        return 2
    report(run, players, found)
    return 1 if found.mismatches else 0


class _database:
    """The run's database: a fresh PostgreSQL one (given server or scratch), or an SQLite file."""

    def __init__(self, db: str | None, sqlite: bool, folder: Path) -> None:
        self.db, self.sqlite, self.folder = db, sqlite, folder
        self.pg: Any = None

    def __enter__(self) -> tuple[str, str]:
        if self.sqlite:
            assert self.db is not None
            return self.db, f"SQLite {self.db}"
        self.pg = postgres(self.db)
        pg = self.pg.__enter__()
        return pg.fresh(), pg.note.removeprefix("PostgreSQL: ").join(("PostgreSQL (", ")"))

    def __exit__(self, *exc: Any) -> None:
        if self.pg is not None:
            self.pg.__exit__(*exc)


def report(run: Run, bots: list[Bot], found: Findings) -> None:
    """The run's figures and what the checks found."""
    rooms = ", ".join(f"{n} {kind}" for kind, n in sorted(run.rooms.items())) or "none"
    print(f"rooms: {sum(run.rooms.values())} ({rooms})")
    print(f"actions: {run.actions} by the bots, answered")
    reconnects = sum(bot.reconnects for bot in bots)
    moved = sum(bot.moved for bot in bots)
    print(f"kills: {run.kills} (SIGKILL), restarts: {run.kills}; reconnects: {reconnects} "
          f"({moved} to another instance)")
    errors = ", ".join(f"{n} {code}" for code, n in sorted(run.errors.items())) or "none"
    print(f"errors sent to the bots: {errors}")
    print(f"views: {found.compared} compared with the replayed logs ({found.same} the same, {found.behind} "
          f"behind: committed after the bot's connection closed); {found.rejoined} rejoined, given the "
          f"replayed room's view; {found.abandoned} refused abandoned, as the stored room says (a computer "
          "took the seat of a ranked game)")
    clock = ", ".join(f"{n} in {kind} rooms" for kind, n in sorted(found.clock_turns.items())) or "none"
    print(f"turns the clock played (in the logs kept whole): {clock}; turn clocks cut short on a rejoin "
          f"(less time left than before the drop): {len(run.clock_cut)}")
    for line in run.clock_cut[:10]:
        print(f"  clock cut short: {line}")
    print(f"ranking and tokens: {found.players} quick-match players, {found.lines} ranked lines, "
          f"{found.games} games settled")
    print(f"updates: {found.updates} checked against their room's log ({found.exact} rooms whose whole "
          f"log is kept: every view a state of the log, in order on each connection); {found.stale} "
          "rejoins given an older view than the bot saw before its connection dropped")
    for line in found.mismatches[:20]:
        print(f"  mismatch: {line}")
    print(f"mismatches: {len(found.mismatches)}")


if __name__ == "__main__":
    sys.exit(main())
