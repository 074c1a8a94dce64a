"""Room servers in child processes on one database: started, killed with SIGKILL, restarted, stopped.

What ``tools.loadtest`` (one server, or ``--instances N`` on PostgreSQL) and ``tools.chaos``
(three instances, one killed and restarted every few seconds) share:

- `Instance`: one ``python -m game.net.server`` (the same as ``main.py serve``) on 127.0.0.1,
  on a free port (kept across restarts, so a restarted instance is where it was), its log
  (standard error) in a file of the run's folder. `Instance.kill` is a real ``kill -9``.
- `Cluster`: N of them on one ``--db`` (a PostgreSQL URL; an SQLite file for one instance
  only: SQLite has no way to tell another process what changed), started at once (so their
  schema migrations race, as they may in production) and each waited for on ``/health``.
- `postgres`: the PostgreSQL to run on: the ``--db`` URL given, or a scratch server
  (`tools.scratch_pg`) started for the run and stopped after; `Postgres.fresh` gives each run a
  database of its own, and `Postgres.cpu` the CPU seconds of a scratch server's processes.
- `cpu_seconds`: a process's CPU seconds and its children's (a server's search workers,
  PostgreSQL's backends), from Linux's ``/proc``.

Everything listens on loopback only, and every process started here is stopped on the way out.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LOOPBACK = "127.0.0.1"
START_TIMEOUT = 60.0  # seconds an instance has to say it listens (two cores, several starting at once)
STOP_TIMEOUT = 10.0  # seconds a stopped instance has to end before it is killed


class StartFailed(RuntimeError):
    """An instance did not start: the message has the end of its log."""


def _stat(proc: Path) -> tuple[int, float] | None:
    """A process's parent and CPU seconds (user and system, its own and its ended children's: a
    PostgreSQL's backends come and go), from its /proc folder."""
    try:
        fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), sum(int(n) for n in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def family(pid: int) -> dict[int, float]:
    """A process, its children, their children...: each one's CPU seconds, by pid, from Linux's
    /proc ({} elsewhere, or once the process is gone)."""
    own = _stat(Path(f"/proc/{pid}"))
    if own is None:
        return {}
    members = {pid: own[1]}
    found = True
    while found:  # a handful of processes: a server's search workers, a PostgreSQL's backends
        found = False
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit() and int(proc.name) not in members:
                seen = _stat(proc)
                if seen is not None and seen[0] in members:
                    members[int(proc.name)] = seen[1]
                    found = True
    return members


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds so far of a process and of the processes it started (a
    server's search workers, a PostgreSQL's backends); None when it cannot be read."""
    members = family(pid)
    return sum(members.values()) if members else None


@dataclass
class Instance:
    """One room server in a child process (see the module)."""

    index: int
    db: str
    args: Sequence[str]
    log: Path
    port: int = 0  # 0 until its first start has picked a free one
    process: subprocess.Popen[str] | None = None
    starts: int = 0
    kills: int = 0

    @property
    def url(self) -> str:
        """Its WebSocket address."""
        return f"ws://{LOOPBACK}:{self.port}/"

    @property
    def alive(self) -> bool:
        """Whether its process runs."""
        return self.process is not None and self.process.poll() is None

    def launch(self) -> None:
        """Start its process (the port it had, else a free one); `wait_ready` waits for it."""
        if self.alive:
            return
        with self.log.open("a") as log:
            log.write(f"--- start {self.starts + 1} of instance {self.index} at {time.time():.3f}\n")
            self.process = subprocess.Popen(
                [sys.executable, "-m", "game.net.server", "--host", LOOPBACK, "--port", str(self.port),
                 "--db", self.db, *self.args],
                stdout=subprocess.PIPE, stderr=log, text=True)
        self.starts += 1

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait for the line saying it listens, then for ``/health`` to answer.

        Raises:
            StartFailed: it ended, or did not answer in time (its process is killed then).
        """
        process = self.process
        assert process is not None and process.stdout is not None
        deadline = time.monotonic() + timeout
        line = ""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while not line.startswith("Huit server on"):
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.kill(counted=False)
                    raise StartFailed(f"instance {self.index} did not start in {timeout:g} s:\n{self.tail()}")
                line = process.stdout.readline()
                if not line:  # it ended
                    process.wait()
                    raise StartFailed(f"instance {self.index} ended (status {process.returncode}):\n"
                                      f"{self.tail()}")
        # "Huit server on 127.0.0.1:PORT (instance NAME), rooms in ..."
        port = re.match(r"\d+", line.split(f"{LOOPBACK}:", 1)[1])
        assert port is not None, line
        self.port = int(port[0])
        while self.health() is None:
            if time.monotonic() > deadline:
                self.kill(counted=False)
                raise StartFailed(f"instance {self.index} never answered /health:\n{self.tail()}")
            time.sleep(0.05)

    def health(self) -> dict[str, Any] | None:
        """What its ``/health`` answers (None: no answer)."""
        try:
            with urllib.request.urlopen(f"http://{LOOPBACK}:{self.port}/health", timeout=2) as answer:
                value = json.loads(answer.read())
                return value if isinstance(value, dict) else None
        except (OSError, ValueError):
            return None

    def kill(self, counted: bool = True) -> None:
        """``kill -9`` it, and its search workers (nothing of it runs after this returns)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            others = [pid for pid in family(self.process.pid) if pid != self.process.pid]
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
            if counted:
                self.kills += 1
            for pid in others:  # orphaned workers would end with their pipe, but not at once
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self.process.wait()
        self._close()

    def stop(self) -> None:
        """Stop it as a service manager would (SIGTERM), killing it if it lingers."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill(counted=False)
        self._close()

    def _close(self) -> None:
        assert self.process is not None
        if self.process.stdout is not None:
            self.process.stdout.close()

    def cpu(self) -> float | None:
        """Its CPU seconds so far (None: not running)."""
        return cpu_seconds(self.process.pid) if self.alive and self.process is not None else None

    def tail(self, lines: int = 15) -> str:
        """The end of its log."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


@dataclass
class Cluster:
    """``count`` instances on one database (see the module); a context manager that stops them."""

    count: int
    db: str
    args: Sequence[str]
    folder: Path
    instances: list[Instance] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.instances = [Instance(i, self.db, list(self.args), self.folder / f"instance-{i}.log")
                          for i in range(self.count)]

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start them all at once and wait for each (stopping them all if one fails).

        Raises:
            StartFailed: one did not start (or this checkout's server has no PostgreSQL store).
        """
        if is_postgres(self.db) and importlib.util.find_spec("game.net.pgstore") is None:
            raise StartFailed("this checkout's room server has no PostgreSQL store (game/net/pgstore.py)")
        try:
            for instance in self.instances:
                instance.launch()
            for instance in self.instances:
                instance.wait_ready()
        except BaseException:
            self.stop()
            raise

    def restart(self, index: int) -> None:
        """Start instance ``index`` again (on its port) and wait for it."""
        instance = self.instances[index]
        instance.launch()
        instance.wait_ready()

    def stop(self) -> None:
        """Stop every instance (SIGTERM, all at once, then each waited for)."""
        for instance in self.instances:
            if instance.alive and instance.process is not None:
                instance.process.terminate()
        for instance in self.instances:
            instance.stop()

    @property
    def urls(self) -> list[str]:
        """Every instance's WebSocket address, by index."""
        return [instance.url for instance in self.instances]

    @property
    def kills(self) -> int:
        """Instances killed with SIGKILL so far."""
        return sum(instance.kills for instance in self.instances)

    def cpu(self) -> list[float | None]:
        """Each instance's CPU seconds so far."""
        return [instance.cpu() for instance in self.instances]


@dataclass
class Postgres:
    """The PostgreSQL a run uses (see `postgres`)."""

    note: str  # what it is, for the run's first line
    scratch: Any  # a tools.scratch_pg.Scratch
    given: str | None = None  # the URL given (None: a scratch server started here)

    def fresh(self) -> str:
        """A new empty database on it (on a given server that lets us make one; else the given URL)."""
        if self.given is None:
            return str(self.scratch.database())
        try:
            return str(self.scratch.database())
        except Exception:  # noqa: BLE001 - no right to make databases: use the one given
            return self.given

    def cpu(self) -> float | None:
        """CPU seconds so far of a scratch server's processes (None: a server given, or not here)."""
        folder = getattr(self.scratch, "folder", None)
        if folder is None:
            return None
        try:
            pid = int((Path(folder) / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return cpu_seconds(pid)


@contextlib.contextmanager
def postgres(db: str | None) -> Iterator[Postgres]:
    """The PostgreSQL ``db`` names, or a scratch one started now and stopped after (databases
    made for the run are dropped on the way out)."""
    from tools import scratch_pg

    if db is not None:
        scratch = scratch_pg.Scratch(db)
        try:
            yield Postgres(f"PostgreSQL at {shown(db)}", scratch, db)
        finally:
            with contextlib.suppress(Exception):
                scratch.stop()
        return
    with scratch_pg.running() as scratch:
        how = f"given by {scratch_pg.ENV}" if scratch.folder is None else \
            "a scratch server started by tools.scratch_pg (pgserver), stopped at the end"
        yield Postgres(f"PostgreSQL: {how}, a fresh database per run", scratch)


def shown(url: str) -> str:
    """A database URL without its password."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def is_postgres(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than an SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))
