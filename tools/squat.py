"""The lobby-squatting attack of issue 32, replayed: ``python -m tools.squat --rooms 10``.

``--rooms`` owners each create a public room of ``--seats`` seats (their own seat taken,
the rest free) and stay connected; then one person with ``--profiles`` profiles (1: the
reported attack) from one address tries every free seat of every room, each try on a
new connection, and disconnects. The script prints the lobby before the attack, after it,
and once ``--seconds`` have passed (the server's seat release, `fair_seats.RELEASE_AFTER`,
plus a little by default), with the seats the attacker took next to what the rules allow.

Without ``--url`` it starts ``serve`` in a child process on 127.0.0.1 (a free port, a
temporary database, ``--seat-release`` set to ``--release``), trusting 127.0.0.1 as its
proxy so that each owner comes from an address of its own and the attacker from one
address (``X-Forwarded-For``). With ``--url`` it attacks that server as it runs: every
connection then comes from this machine, and loopback is exempt from the per-address cap
when the server has no proxy (the one-seat rule still holds for each profile). Bounded in
rooms, profiles and time; loopback only. Exit status 1 when the attacker got more than
the rules allow or the lobby did not come back.
"""

from __future__ import annotations

import argparse
import json
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import ClientConnection, connect

from game.net.fair_seats import RELEASE_AFTER, SEATS_PER_ADDRESS

MAX_ROOMS = 50
MAX_PROFILES = 20
MAX_SECONDS = 600.0
ATTACKER = "203.0.113.66"  # the attacker's address, as the proxy names it (a documentation address)


class Peer:
    """One connection speaking protocol 2 (``address``: what the trusted proxy says it is)."""

    def __init__(self, url: str, address: str | None) -> None:
        headers = {"X-Forwarded-For": address} if address else None
        self.ws: ClientConnection = connect(url, open_timeout=5, additional_headers=headers, proxy=None,
                                            legacy=True)

    def ask(self, kinds: tuple[str, ...], **message: Any) -> dict[str, Any]:
        """Send ``message``; the first answer of one of ``kinds`` (or an error)."""
        message.setdefault("v", 2)
        self.ws.send(json.dumps(message))
        end = time.monotonic() + 10
        while True:
            answer = json.loads(self.ws.recv(timeout=max(0.1, end - time.monotonic())))
            if answer.get("type") in (*kinds, "error"):
                return dict(answer)

    def hello(self, name: str, key: str) -> None:
        answer = self.ask(("profile",), player=key, name=name, type="hello")
        if answer["type"] != "profile":
            raise SystemExit(f"hello refused: {answer.get('code')}: {answer.get('message')}")

    def close(self) -> None:
        self.ws.close()


def listing(url: str) -> tuple[int, int]:
    """The lobby as a newcomer sees it: rooms listed, free seats in them."""
    peer = Peer(url, None)
    try:
        answer = peer.ask(("lobby",), type="lobby", watch=False)
    finally:
        peer.close()
    rooms = answer.get("rooms") or []
    return int(answer.get("listed", len(rooms))), sum(int(r.get("free", 0)) for r in rooms)


def attack(url: str, rooms: int, seats: int, profiles: int, seconds: float, proxied: bool,
           release: float) -> int:
    """Run the attack against the server at ``url``; print what it got; 0 when the rules held."""
    owners = []
    for i in range(rooms):
        owner = Peer(url, f"198.51.100.{i + 1}" if proxied else None)
        owner.hello(f"Owner{i + 1}", secrets.token_urlsafe(24))
        answer = owner.ask(("joined",), type="create", preset="classic", options={},
                           seats=[{"kind": "human"}] * seats, public=True)
        if answer["type"] != "joined":
            raise SystemExit(f"owner {i + 1} could not create a room: {answer.get('code')}")
        owners.append((owner, answer["room"]))
    before = listing(url)
    print(f"rooms: {rooms} public rooms of {seats} seats by {rooms} owners, "
          f"{rooms * (seats - 1)} free seats")
    print(f"lobby before: {before[0]} rooms listed, {before[1]} free seats")
    keys = [secrets.token_urlsafe(24) for _ in range(profiles)]
    taken: list[Peer] = []
    refused: Counter[str] = Counter()
    tries = 0
    for _, room in owners:
        for _ in range(seats - 1):
            for n, key in enumerate(keys):
                tries += 1
                peer = Peer(url, ATTACKER if proxied else None)
                peer.hello(f"Squat{n + 1}", key)
                answer = peer.ask(("joined",), type="join", room=room)
                if answer["type"] == "joined":
                    taken.append(peer)
                    break
                refused[str(answer.get("code"))] += 1
                peer.close()
    # One seat a profile; an address holds SEATS_PER_ADDRESS, one a room (loopback is exempt from both).
    allowed = min(profiles, SEATS_PER_ADDRESS, rooms) if proxied else profiles
    after = listing(url)
    why = ", ".join(f"{code}: {count}" for code, count in sorted(refused.items())) or "none"
    address = ATTACKER if proxied else "this machine"
    print(f"attack: {profiles} profile(s) from {address}, {tries} tries: {len(taken)} seats taken "
          f"(the rules allow {allowed}: one a profile, {SEATS_PER_ADDRESS} an address, one a room), "
          f"{sum(refused.values())} refused ({why})")
    print(f"lobby after the attack: {after[0]} rooms listed, {after[1]} free seats "
          f"(the rules allow at most {allowed} fewer free seats, every room listed)")
    for peer in taken:
        peer.close()
    print(f"attacker gone; waiting {seconds:g} s (the server frees an away seat after {release:g} s)")
    time.sleep(seconds)
    later = listing(url)
    print(f"lobby after the release time: {later[0]} rooms listed, {later[1]} free seats "
          f"(the rules: {before[0]} rooms, {before[1]} free seats as before)")
    for owner, _ in owners:
        owner.close()
    held = len(taken) <= allowed and after[0] == before[0]
    back = seconds < release or later == before
    return 0 if held and back else 1


def main(argv: list[str] | None = None) -> int:
    """Start a server (unless ``--url``), run the attack, print the lobby before and after."""
    parser = argparse.ArgumentParser(prog="python -m tools.squat", description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="attack this running server (ws://127.0.0.1:PORT/) instead of one "
                                      "started here")
    parser.add_argument("--rooms", type=int, default=10, help=f"public rooms, 1 to {MAX_ROOMS} (10)")
    parser.add_argument("--seats", type=int, default=4, help="seats of each room, 2 to 8 (4: three free)")
    parser.add_argument("--profiles", type=int, default=1,
                        help=f"the attacker's profiles, 1 to {MAX_PROFILES} (1)")
    parser.add_argument("--release", type=float, default=RELEASE_AFTER,
                        help=f"the started server's --seat-release, seconds ({RELEASE_AFTER:g})")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds to wait after the attacker left (--release + 2)")
    args = parser.parse_args(argv)
    seconds = args.release + 2 if args.seconds is None else args.seconds
    if not 1 <= args.rooms <= MAX_ROOMS or not 2 <= args.seats <= 8 or not 1 <= args.profiles <= MAX_PROFILES:
        parser.error(f"--rooms must be 1 to {MAX_ROOMS}, --seats 2 to 8, --profiles 1 to {MAX_PROFILES}")
    if not 0 <= seconds <= MAX_SECONDS or not 1 <= args.release <= 3600:
        parser.error(f"--seconds must be 0 to {MAX_SECONDS:g}, --release 1 to 3600")
    if args.url:
        parts = urlsplit(args.url)
        if parts.scheme not in ("ws", "wss") or parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a ws:// or wss:// address on this machine (127.0.0.1)")
        print(f"server: {args.url} (as it runs)")
        return attack(args.url, args.rooms, args.seats, args.profiles, seconds, False, args.release)
    with tempfile.TemporaryDirectory(prefix="huit-squat-") as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "game.net.server", "--host", "127.0.0.1", "--port", "0",
             "--db", str(Path(folder) / "rooms.sqlite3"), "--think-scale", "0",
             "--proxy-headers", "--trusted-proxy", "127.0.0.1", "--seat-release", f"{args.release:g}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            port = int(line.split(":")[1].split(",")[0])
            url = f"ws://127.0.0.1:{port}/"
            print(f"server: {url} (started here, seat release {args.release:g} s)")
            return attack(url, args.rooms, args.seats, args.profiles, seconds, True, args.release)
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
