"""The farming attack of issue 32, against a real server: ``python -m tools.farm --games 29 --seconds 60``.

Two "people" (in truth one), each from an address of their own, deal ranked games one after
the other: with ``--profiles 1`` in one public duel room, a new deal for each game (the
attack as found: 29 games in 60 seconds, 52,000 points an hour each); with ``--profiles N``
each side rotates N profiles, one room per game (the way round a limit per pair of
profiles). Bots play a random card whenever they can (else a random legal move), at once
(``--hand-size 3`` deals three cards a hand: the short games a farmer would rather deal).
It prints, per profile and per side, the games, the points earned, the points an hour that
makes, the leaderboard position (or how many more distinct opponents it needs), what the
same games would have earned without fair play, the most the rules allow
(`game.net.fair_play`), and the lines the server wrote short or capped.

``--turns N`` measures instead how rare a real short game is: N matches of each rule set
at 2 and 4 players (where the rules seat them), standard hands, Easy and Medium computers
on every seat, with each match's turns (what `fair_play.MIN_TURNS` counts): the fewest,
the 1st and 5th percentiles, the median, and how many fall under the minimum.

``--addresses A,B`` are the two sides' addresses (default ``127.0.0.1,127.0.0.2``; ``::1``
works where IPv6 loopback does). Without ``--forwarded`` each side's connections really
come from its address (loopback: the socket is bound to it); with ``--forwarded`` the
addresses are sent as ``X-Forwarded-For`` to a server trusting 127.0.0.1 as its proxy, which
is how two different real addresses are tried on one machine. Without ``--url`` a server is
started in a child process (the `RoomServer` that ``serve`` runs, listening on 127.0.0.1 and,
where IPv6 loopback works, on ::1 at the same port; a temporary database; trusting 127.0.0.1
as a proxy with ``--forwarded``; computers at once and quotas of rooms lifted so that only
fair play decides) and stopped at the end. Bounded: at most `MAX_GAMES` games and
`MAX_SECONDS` seconds, loopback only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from game.net.fair_play import MIN_OPPONENTS, MIN_TURNS, PAIR_GAMES, PAIR_WINDOW, ranking_address
from game.net.protocol import RATE

MAX_GAMES = 500
MAX_SECONDS = 600.0
MAX_PROFILES = 20
MAX_STUDY = 10_000
HUMAN = {"kind": "human"}
WAIT = 10.0  # seconds a single answer may take
PACE = 1.1 / RATE  # seconds between two messages of a connection: within the server's rate limit


@dataclass
class Profile:
    """One profile of the farm: its key, name, address and what it got."""

    name: str
    address: str
    key: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    tag: str = ""
    games: int = 0
    won: int = 0
    earned: int = 0  # what the server's statuses said it earned
    raw: int = 0  # what the same results give without fair play (10 × players a win, 10 a loss)
    board: dict[str, Any] | None = None
    reasons: dict[str, int] = field(default_factory=dict)  # its history's lines by reason


class Link:
    """One connection, speaking the protocol (version 2) by hand."""

    def __init__(self, host: str, port: int, address: str, forwarded: bool) -> None:
        headers = {"X-Forwarded-For": address} if forwarded else None
        sock = None
        if not forwarded:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            target = "::1" if family == socket.AF_INET6 else host
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.settimeout(WAIT)
            sock.bind((address, 0))
            sock.connect((target, port))
        self.ws: ClientConnection = connect(f"ws://{host}:{port}/", open_timeout=WAIT, max_size=None,
                                            legacy=True, additional_headers=headers, proxy=None, sock=sock)
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.room_id = ""
        self.seat = -1
        self.count = 0
        self.sent = 0.0  # when it last sent (time.monotonic)

    def send(self, **message: Any) -> None:
        time.sleep(max(0.0, self.sent + PACE - time.monotonic()))  # as fast as the server lets anyone
        self.sent = time.monotonic()
        self.ws.send(json.dumps({"v": 2, **message}))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        kind = message.get("type")
        if kind == "update":
            self.view = message["view"]
        elif kind == "room":
            self.room = message
        elif kind == "joined":
            self.room_id, self.seat = message["room"], message["seat"]
        return message

    def until(self, kinds: tuple[str, ...], ref: str | None = None) -> dict[str, Any]:
        end = time.monotonic() + WAIT
        while True:
            message = self.recv(max(0.01, end - time.monotonic()))
            if message.get("type") in kinds and (ref is None or message.get("ref") == ref):
                return message

    def drain(self) -> None:
        try:
            while True:
                self.recv(0)
        except TimeoutError:
            pass

    def close(self) -> None:
        self.ws.close()


def hello(link: Link, profile: Profile) -> None:
    link.send(type="hello", player=profile.key, name=profile.name)
    answer = link.until(("profile", "error"))
    if answer["type"] == "error":
        raise RuntimeError(f"{profile.name}: hello refused: {answer.get('message')}")
    profile.tag = answer.get("tag", "")


def play(links: list[Link], rng: random.Random, deadline: float, number: int) -> None:
    """Cards (or random legal moves) until deal ``number`` is over for both, then its ranked status."""
    while time.monotonic() < deadline:
        for link in links:
            link.drain()
        views = [link.view for link in links]
        if all(v is not None and v["status"] == "match_over" and v["round_number"] == number for v in views):
            break
        moved = False
        for link in links:
            view = link.view
            if view is not None and view["status"] == "playing" and view["to_act"] == link.seat:
                link.count += 1
                ref = f"a{link.count}"
                plays = [a for a in view["legal"] if a.startswith("play")]  # a farmer ends games fast
                link.send(type="action", action=rng.choice(plays or view["legal"]), ref=ref)
                link.until(("update", "error"), ref)
                moved = True
        if not moved:
            time.sleep(0.002)
    else:
        raise TimeoutError("the time ran out during a game")
    for link in links:
        while link.room is None or link.room.get("state") != "match_over" or (
                link.room.get("ranked") and link.room.get("earned") is None):
            link.recv(max(0.01, deadline - time.monotonic()))


def tally(links: list[Link], profiles: list[Profile]) -> bool:
    """Count the game just over for each profile; whether it was ranked."""
    room = links[0].room or {}
    view = links[0].view or {}
    winners = view.get("winners") or (view.get("result") or {}).get("winners", [])
    earned = room.get("earned") or [0] * len(links)
    players = len(links)
    for link, profile in zip(links, profiles, strict=True):
        profile.games += 1
        won = link.seat in winners
        profile.won += won
        profile.earned += earned[link.seat] or 0
        profile.raw += 10 * players if won else 10  # what it earned before fair play
    return bool(room.get("ranked"))


def standing(host: str, port: int, profile: Profile, forwarded: bool, preset: str) -> None:
    """Ask the server for the profile's leaderboard standing and history (why lines earned less)."""
    link = Link(host, port, profile.address, forwarded)
    try:
        hello(link, profile)
        link.send(type="leaderboard", preset=preset, ref="board")
        profile.board = link.until(("leaderboard",), "board")
        link.send(type="history", preset=preset, ref="history")
        for line in link.until(("history",), "history").get("games", []):
            reason = line.get("reason") or "earned"
            profile.reasons[reason] = profile.reasons.get(reason, 0) + 1
    finally:
        link.close()


def farm(host: str, port: int, args: argparse.Namespace,
         sides: list[list[Profile]]) -> tuple[int, int, float]:
    """Deal the games; return (games, ranked games, seconds)."""
    rng = random.Random(args.seed)
    started = time.monotonic()
    deadline = started + args.seconds
    options = {"hand_size": args.hand_size} if args.hand_size else {}
    games = ranked = 0
    number = 0  # the deal of the room being played
    links: list[Link] = []
    try:
        while games < args.games and time.monotonic() < deadline:
            # Profiles rotate so that each meets every profile of the other side (new pairs of profiles).
            n = len(sides[0])
            pair = [sides[0][games % n], sides[1][(games + games // n) % n]]
            if not links:  # a room: one for the whole farm, or one per game when profiles rotate
                links = [Link(host, port, p.address, args.forwarded) for p in pair]
                for link, profile in zip(links, pair, strict=True):
                    hello(link, profile)
                links[0].send(type="create", preset=args.preset, options=options, seats=[HUMAN, HUMAN],
                              public=True)
                answer = links[0].until(("joined", "error"))
                if answer["type"] == "error":
                    print(f"create refused: {answer.get('code')}: {answer.get('message')}")
                    break
                links[1].send(type="join", room=links[0].room_id)
                if links[1].until(("joined", "error"))["type"] == "error":
                    print("join refused")
                    break
                number = 1
            else:
                number += 1
                for link in links:
                    link.send(type="accept_round")
            try:
                play(links, rng, deadline, number)
            except TimeoutError:
                break
            games += 1
            ranked += tally(links, pair)
            if len(sides[0]) > 1:
                for link in links:
                    link.close()
                links = []
    finally:
        for link in links:
            link.close()
    return games, ranked, time.monotonic() - started


def free_port() -> int:
    """A port free on both 127.0.0.1 and ::1 (the server listens on ``localhost``: both)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET) as four:
            four.bind(("127.0.0.1", 0))
            port = int(four.getsockname()[1])
            try:
                with socket.socket(socket.AF_INET6) as six:
                    six.bind(("::1", port))
            except OSError as exc:
                if exc.errno in (97, 99):  # no IPv6 here: 127.0.0.1 alone
                    return port
                continue
            return port
    raise OSError("no free port on loopback")


def match_turns(preset: str, players: int, level: str, seed: int) -> int:
    """The turns begun in one match of computers (as `rooms.Room.turns` counts them)."""
    from game.ai.players import player_for
    from game.engine import PRESETS, Match, Status
    from game.engine.events import TurnStarted

    match = Match(PRESETS[preset], players, seed)
    computers = [player_for(level) for _ in range(players)]
    rng = random.Random(seed)
    turns = sum(isinstance(e, TurnStarted) for e in match.start_events)
    for _ in range(100_000):  # bounded: a match ends long before
        if match.status == Status.MATCH_OVER:
            break
        if match.status != Status.PLAYING:
            events = match.next_round()
        else:
            seat = match.to_act
            assert seat is not None
            events = match.apply(computers[seat].choose(match.view(seat), rng), seat)
        turns += sum(isinstance(e, TurnStarted) for e in events)
    return turns


def turn_study(games: int) -> None:
    """Print how many turns real matches last, per rule set, seating and level."""
    from game.engine import PRESETS

    print(f"turns of {games} matches each (standard hands); a ranked game counts from {MIN_TURNS}")
    print(f"{'rules':<9}{'players':>8}{'level':>8}{'fewest':>8}{'p1':>6}{'p5':>6}{'median':>8}{'short':>7}")
    for preset, rules in PRESETS.items():
        for players in (2, 4):
            if not rules.min_players <= players <= rules.max_players:
                continue
            for level in ("easy", "medium"):
                turns = sorted(match_turns(preset, players, level, seed) for seed in range(games))
                short = sum(t < MIN_TURNS for t in turns)
                print(f"{preset:<9}{players:>8}{level:>8}{turns[0]:>8}{turns[games // 100]:>6}"
                      f"{turns[games // 20]:>6}{turns[games // 2]:>8}{short:>7}", flush=True)


def ipv6_loopback() -> bool:
    """Whether ::1 can be listened on here."""
    try:
        with socket.socket(socket.AF_INET6) as six:
            six.bind(("::1", 0))
    except OSError:
        return False
    return True


def serve_child(db: str, port: int, forwarded: bool) -> int:
    """The child process's server: on 127.0.0.1 (and ::1) at ``port`` until its input closes."""
    from game.net.hosting import ServerThread

    hosts = ["127.0.0.1", "::1"] if ipv6_loopback() else ["127.0.0.1"]
    proxy: dict[str, Any] = {"proxy_headers": True, "trusted_proxies": ["127.0.0.1"]} if forwarded else {}
    # asyncio listens on each host of a list (the command's --host takes one).
    thread = ServerThread(db, hosts, port, think_scale=0.0, rooms_per_hour=1000,  # type: ignore[arg-type]
                          rooms_held=1000, **proxy)
    thread.start()
    if thread.error is not None:
        print(f"error {thread.error}", flush=True)
        return 1
    print(f"listening {thread.port} on {' and '.join(hosts)}", flush=True)
    sys.stdin.read()
    thread.stop()
    return 0


def per_hour(points: int, seconds: float) -> float:
    return points * 3600.0 / max(seconds, 1e-6)


def main(argv: list[str] | None = None) -> int:
    """Start a server (or use ``--url``), farm, print what the farm got and what the rules allow."""
    parser = argparse.ArgumentParser(prog="python -m tools.farm", description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="a running server, ws://127.0.0.1:PORT/ (default: start one)")
    parser.add_argument("--games", type=int, default=29, help=f"games to deal, 1 to {MAX_GAMES} (29)")
    parser.add_argument("--seconds", type=float, default=60.0, help=f"at most, 1 to {MAX_SECONDS:g} (60)")
    parser.add_argument("--addresses", default="127.0.0.1,127.0.0.2",
                        help="the two sides' addresses, A,B (127.0.0.1,127.0.0.2)")
    parser.add_argument("--forwarded", action="store_true",
                        help="send the addresses as X-Forwarded-For (the server trusts 127.0.0.1)")
    parser.add_argument("--profiles", type=int, default=1, help=f"profiles per side, 1 to {MAX_PROFILES} (1)")
    parser.add_argument("--hand-size", type=int, default=0, help="cards a hand (0: the rule set's)")
    parser.add_argument("--preset", default="duel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turns", type=int, metavar="N",
                        help=f"measure the turns of N matches per rule set, 1 to {MAX_STUDY} (no server)")
    parser.add_argument("--serve-child", nargs=2, metavar=("DB", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_child:
        return serve_child(args.serve_child[0], int(args.serve_child[1]), args.forwarded)
    if args.turns is not None:
        if not 1 <= args.turns <= MAX_STUDY:
            parser.error(f"--turns must be 1 to {MAX_STUDY}")
        turn_study(args.turns)
        return 0
    if not 1 <= args.games <= MAX_GAMES or not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--games must be 1 to {MAX_GAMES} and --seconds 1 to {MAX_SECONDS:g}")
    if not 1 <= args.profiles <= MAX_PROFILES:
        parser.error(f"--profiles must be 1 to {MAX_PROFILES}")
    addresses = [a.strip() for a in args.addresses.split(",")]
    try:
        parsed = [ipaddress.ip_address(a) for a in addresses]
    except ValueError:
        parser.error("--addresses must be two IP addresses, A,B")
    if len(parsed) != 2 or (not args.forwarded and not all(p.is_loopback for p in parsed)):
        parser.error("--addresses must be two addresses, loopback ones unless --forwarded")
    sides = [[Profile(f"{side}{i + 1}", address) for i in range(args.profiles)]
             for side, address in zip(("Farmer", "Helper"), addresses, strict=True)]
    server = None
    folder = tempfile.TemporaryDirectory(prefix="huit-farm-")
    try:
        if args.url:
            rest = args.url.split("://", 1)[-1].rstrip("/")
            host, _, port_text = rest.rpartition(":")
            host, port = host.strip("[]") or "127.0.0.1", int(port_text)
            if not ipaddress.ip_address("127.0.0.1" if host == "localhost" else host).is_loopback:
                parser.error("--url must be a server on loopback")
        else:
            host, port = "127.0.0.1", free_port()
            server = subprocess.Popen(
                [sys.executable, "-m", "tools.farm", "--serve-child",
                 str(Path(folder.name) / "rooms.sqlite3"), str(port),
                 *(["--forwarded"] if args.forwarded else [])],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert server.stdout is not None
            said = server.stdout.readline()
            if not said.startswith("listening"):
                print(f"the server did not start: {said.strip()}")
                return 1
        games, ranked, seconds = farm(host, port, args, sides)
        for side in sides:
            for profile in side:
                standing(host, port, profile, args.forwarded, args.preset)
    finally:
        if server is not None:
            assert server.stdin is not None
            server.stdin.close()  # the child stops its server
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        folder.cleanup()
    same = ranking_address(addresses[0]) == ranking_address(addresses[1])
    how = "as X-Forwarded-For" if args.forwarded else "their sockets' own"
    print(f"farm: {games} games of {args.preset} ({ranked} ranked) in {seconds:.1f} s, "
          f"{args.profiles} profile(s) a side, addresses {addresses[0]} and {addresses[1]} ({how})"
          + (f", {args.hand_size} cards a hand" if args.hand_size else ""))
    most = 10 * 2  # a duel's winner
    allowed_side = 0 if same else most * min(games, PAIR_GAMES)
    print(f"rules: a game counts from {MIN_TURNS} turns; two players or two addresses earn from "
          f"{PAIR_GAMES} games together in {PAIR_WINDOW / 3600:g} h; the board shows {MIN_OPPONENTS} "
          f"distinct opponents; one address (ranking: {ranking_address(addresses[0])}"
          f"{'' if not same else ' = ' + ranking_address(addresses[1])}) is never ranked with itself")
    print(f"{'profile':<18}{'address':<18}{'games':>6}{'won':>5}{'earned':>8}{'xp/hour':>9}"
          f"{'no rules':>10}{'allowed':>9}{'short':>7}{'capped':>7}  leaderboard")
    for side in sides:
        for p in side:
            board = p.board or {}
            you = board.get("you") or {}
            if you.get("rank"):
                place = f"#{you['rank']} of {board.get('players')}"
            elif you:
                place = f"not shown: {you.get('needs', '?')} more opponent(s)"
            else:
                place = "not ranked"
            allowed = min(allowed_side, most * p.games)
            print(f"{p.name + ' #' + p.tag:<17} {p.address:<18}{p.games:>6}{p.won:>5}{p.earned:>8}"
                  f"{per_hour(p.earned, seconds):>9.0f}{p.raw:>10}{allowed:>9}{p.reasons.get('short', 0):>7}"
                  f"{p.reasons.get('pair_cap', 0):>7}  {place}")
        earned = sum(p.earned for p in side)
        verdict = "within" if earned <= allowed_side else "OVER"
        raw = sum(p.raw for p in side)
        kept_up = allowed_side * 3600 / PAIR_WINDOW
        print(f"  side {side[0].address}: earned {earned} ({per_hour(earned, seconds):.0f} an hour), "
              f"without fair play {raw} ({per_hour(raw, seconds):.0f} an hour); the rules allow "
              f"{allowed_side} a day ({kept_up:.1f} an hour kept up): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
