"""Room servers as separate processes on one database (`python main.py serve --db URL`): what the
multi-instance tests kill with SIGKILL and start again."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"Huit server on [^:]+:(\d+)")


class Instance:
    """One ``serve`` process on 127.0.0.1 (a free port), computers playing at once unless told."""

    def __init__(self, url: str, home: Path, *flags: str) -> None:
        self.url, self.home, self.flags = url, home, flags
        self.process: subprocess.Popen[str] | None = None
        self.port = 0

    def start(self, timeout: float = 30.0) -> Instance:
        """Start it and wait until it listens (its first line names the port)."""
        env = {**os.environ, "HOME": str(self.home), "XDG_DATA_HOME": str(self.home / "data"),
               "XDG_CONFIG_HOME": str(self.home / "config"), "SDL_VIDEODRIVER": "dummy",
               "SDL_AUDIODRIVER": "dummy"}
        flags = list(self.flags) or ["--think-scale", "0", "--rate", "10000"]
        self.process = subprocess.Popen(
            [sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0", "--db", self.url,
             *flags],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server stopped before listening (exit {self.process.wait()})")
            found = LISTENING.search(line)
            if found:
                self.port = int(found.group(1))
                return self
        raise TimeoutError("the server did not listen in time")

    def kill(self) -> None:
        """SIGKILL: nothing of it runs on, nothing is let go by it."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM, as a service manager does)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process is not None and self.process.stdout is not None:
            with contextlib.suppress(Exception):
                self.process.stdout.close()


def lease_holder(url: str, room_id: str) -> str | None:
    """The instance holding the room's lease (`pgcluster.lease_key`), as the database sees it."""
    from game.net.pgcluster import NAME_PREFIX, lease_key

    key = lease_key(room_id)
    high, low = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = %s AND l.objid::bigint = %s "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            (high, low)).fetchone()
    if row is None:
        return None
    name: str = row[0]
    return name.removeprefix(NAME_PREFIX)
