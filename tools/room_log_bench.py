"""Room log benchmark: ``python -m tools.room_log_bench`` measures what a long room costs the server.

A room without a target (``duel``) is played for ``--deals`` deals by two seats whose
moves Medium chooses (every move, accept and deal a log entry, as the server stores
them). The same room is then stored twice in a fresh SQLite file each:

- ``whole log``: every entry from the room's start, as a version 2 server kept it (the
  rows are written directly, as that server's commits left them, without a snapshot);
- ``bounded``: through `SQLiteRoomStore.append`, as this server stores it (a snapshot at
  each deal, the entries before it forgotten).

For each file it prints the log's rows, the file's size, and the median over
``--repeat`` runs of a server's restart in a child process: the seconds
`SQLiteRoomStore.load` takes to rebuild the room and the process's peak RSS after it
(and before it, imports only; Linux's ``VmHWM``). It checks that both files rebuild the same room (the
match's position, every deal's result and the random generator's state) and says so.
Bounded: ``--deals`` at most 5,000. It prints figures and asserts nothing else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from game.ai import player_for
from game.engine import PRESETS, Status
from game.engine.snapshot import to_plain
from game.net.rooms import LogEntry, Room, Seat
from game.net.sqlitestore import SQLiteRoomStore

MAX_DEALS = 5_000
ROOM = "BENCH"


def _room(seed: int) -> Room:
    return Room(ROOM, PRESETS["duel"], [Seat("human", name="Ana", key_hash="0" * 64),
                                        Seat("human", name="Ben", key_hash="1" * 64)], seed)


def play(deals: int, seed: int) -> list[LogEntry]:
    """The log of a ``duel`` room played for ``deals`` deals (Medium's moves for both seats)."""
    room, ai, rng = _room(seed), player_for("medium"), random.Random(seed)
    entries = [LogEntry("start")]
    room.start()
    for deal in range(deals):
        assert room.match is not None
        while room.match.status == Status.PLAYING:
            seat = room.match.to_act
            assert seat is not None
            action = ai.choose(room.match.view(seat), rng)
            entries.append(LogEntry("action", seat, str(action)))
            room.apply(seat, action)
        if deal < deals - 1:
            entries += [LogEntry("accept", 0), LogEntry("accept", 1), LogEntry("deal")]
            room.accept(0), room.accept(1)
            room.next_round()
    return entries


def store_whole(path: Path, seed: int, entries: list[LogEntry]) -> None:
    """The room with every entry of its log, as a version 2 server kept it."""
    store = SQLiteRoomStore(path)
    store.add(_room(seed), 1.0)
    store.close()
    db = sqlite3.connect(path)
    with db:
        db.executemany("INSERT INTO log VALUES (?, ?, ?, ?, ?)",
                       [(ROOM, seq, e.kind, e.seat, e.text) for seq, e in enumerate(entries)])
    db.close()


def store_bounded(path: Path, seed: int, entries: list[LogEntry]) -> None:
    """The room stored as this server stores it: each entry appended, then applied."""
    store = SQLiteRoomStore(path)
    room = _room(seed)
    store.add(room, 1.0)
    for entry in entries:
        store.append(room, entry, 1.0)
        room.replay([entry])
        room.log_length -= 1  # `append` counted it already
    store.close()


def rows(path: Path) -> int:
    """The rows of the file's log."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM log").fetchone()[0])
    finally:
        db.close()


def peak_rss() -> float:
    """This process's peak resident memory in MB: Linux's ``VmHWM`` (``ru_maxrss`` would carry the
    parent's peak over ``exec``), else ``ru_maxrss``."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_child(path: str) -> None:
    """In a child process: restart on the file and print the figures as one JSON line."""
    before = peak_rss()
    start = time.perf_counter()
    store = SQLiteRoomStore(path)
    rooms, broken = store.load()
    seconds = time.perf_counter() - start
    after = peak_rss()
    match = rooms[0].match
    assert not broken and match is not None
    digest = hashlib.sha256(json.dumps(to_plain(match)).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": seconds, "rss_before": before, "rss": after,
                      "deal": match.round.number, "digest": digest}))


def restart(path: Path) -> dict[str, Any]:
    """One restart on ``path`` in a fresh process (a copy: opening may bring the file up to date)."""
    done = subprocess.run([sys.executable, "-c", f"from tools.room_log_bench import load_child; "
                                                 f"load_child({str(path)!r})"],
                          capture_output=True, text=True, check=True, timeout=600)
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> None:
    """Play, store both ways, restart on each, print (see the module)."""
    parser = argparse.ArgumentParser(prog="python -m tools.room_log_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help=f"deals played (300; at most {MAX_DEALS})")
    parser.add_argument("--repeat", type=int, default=3, help="restarts timed per file, the median shown (3)")
    parser.add_argument("--seed", type=int, default=1, help="the room's seed and Medium's (1)")
    args = parser.parse_args(argv)
    if not 1 <= args.deals <= MAX_DEALS or not 1 <= args.repeat <= 20:
        parser.error(f"--deals is 1 to {MAX_DEALS}, --repeat 1 to 20")
    start = time.perf_counter()
    entries = play(args.deals, args.seed)
    print(f"a duel room of {args.deals} deals: {len(entries):,} log entries "
          f"(played in {time.perf_counter() - start:.1f} s)")
    digests = set()
    with tempfile.TemporaryDirectory() as folder:
        for label, write in (("whole log", store_whole), ("bounded", store_bounded)):
            path = Path(folder) / f"{label.replace(' ', '_')}.sqlite3"
            write(path, args.seed, entries)
            runs = [restart(path) for _ in range(args.repeat)]
            digests.update(run["digest"] for run in runs)
            size = path.stat().st_size + sum(p.stat().st_size for p in Path(folder).glob(path.name + "-*"))
            print(f"{label:>9}: {rows(path):>7,} rows, {size / 1e6:6.2f} MB file, restart "
                  f"{statistics.median(r['seconds'] for r in runs):6.3f} s, peak RSS "
                  f"{statistics.median(r['rss'] for r in runs):6.1f} MB "
                  f"({statistics.median(r['rss_before'] for r in runs):.1f} MB before loading)")
    print("same room rebuilt from both:", "yes" if len(digests) == 1 else f"NO ({sorted(digests)})")


if __name__ == "__main__":
    main()
