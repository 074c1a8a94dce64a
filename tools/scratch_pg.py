"""A throwaway PostgreSQL for tests, benchmarks and trials: ``python -m tools.scratch_pg``.

The room server runs on PostgreSQL when it is given ``--db postgresql://...`` (several
instances on one database: docs/deploy.md). Tests, ``tools.loadtest --instances`` and
``tools.chaos`` need a real one, never a mock, and a fresh machine has none: this module
starts one from the ``pgserver`` wheel (a PostgreSQL built into a Python package, from the
``test`` extra), in a temporary folder under ``/tmp`` (short enough for its Unix socket, and
outside the checkout: run as root, pgserver opens up the folders above its data), reached
only through that socket. ``HUIT_TEST_PG=postgresql://...`` names a server to use instead
(the system's, CI's): then nothing is started, and each user still gets databases of its
own (`Scratch.database`).

``python -m tools.scratch_pg`` starts one, prints its URL and waits for Ctrl+C (then stops
it and deletes its folder): for trying ``serve --db URL`` by hand.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

ENV: Final = "HUIT_TEST_PG"
"""The environment variable naming a PostgreSQL to use rather than starting one."""
PREFIX: Final = "huit-pg-"  # the temporary folders' names: leftovers of a killed run are found by it


class Unavailable(RuntimeError):
    """No PostgreSQL can be had here (``pgserver`` is not installed): the message says why."""


@dataclass
class Scratch:
    """A PostgreSQL to make databases in: ``url`` reaches its ``postgres`` database as its
    superuser. Started here (``folder`` set) or given by `ENV` (``folder`` None)."""

    url: str
    folder: Path | None = None
    server: Any = None  # pgserver's handle, when started here
    made: list[str] = field(default_factory=list)  # databases made by `database`, dropped by `stop`

    def database(self, name: str | None = None) -> str:
        """A new empty database (named ``name``, or a fresh unique name); return its URL."""
        name = name or f"huit_{uuid.uuid4().hex[:12]}"
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            raise ValueError(f"{name!r} is not a plain database name")
        _admin(self.url, f'CREATE DATABASE "{name}"')
        self.made.append(name)
        return with_database(self.url, name)

    def drop(self, url: str) -> None:
        """Drop a database `database` made (its connections are closed first)."""
        name = urlsplit(url).path.lstrip("/")
        _admin(self.url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        with contextlib.suppress(ValueError):
            self.made.remove(name)

    def stop(self) -> None:
        """Drop the databases made here; stop a server started here and delete its folder."""
        for name in list(self.made):
            with contextlib.suppress(Exception):
                self.drop(with_database(self.url, name))
        if self.folder is not None:
            with contextlib.suppress(Exception):
                self.server.cleanup()
            _pg_ctl_stop(self.folder)  # pgserver's own cleanup misses a server a killed run left
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def with_database(url: str, name: str) -> str:
    """``url`` with its database replaced by ``name`` (its query, the socket folder, kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _admin(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(statement.encode())


def _pg_ctl_stop(folder: Path) -> None:
    """Stop a server whose data is in ``folder`` (quietly: it may not be running)."""
    try:
        import pgserver  # type: ignore[import-untyped]
    except ImportError:
        return
    pg_ctl = Path(pgserver.__file__).parent / "pginstall" / "bin" / "pg_ctl"
    if not (folder / "postmaster.pid").exists() or not pg_ctl.exists():
        return
    command = [str(pg_ctl), "-D", str(folder), "-m", "immediate", "-w", "stop"]
    if os.geteuid() == 0:  # pgserver runs the server as its own user when started by root
        command = ["runuser", "-u", "pgserver", "--", *command]
    subprocess.run(command, capture_output=True, timeout=30, check=False)


def stop_leftovers() -> int:
    """Stop the servers and delete the folders a killed run left in the temporary folder;
    return how many folders there were."""
    leftovers = list(Path(tempfile.gettempdir()).glob(PREFIX + "*"))
    for folder in leftovers:
        _pg_ctl_stop(folder)
        shutil.rmtree(folder, ignore_errors=True)
    return len(leftovers)


def start() -> Scratch:
    """A PostgreSQL: the one `ENV` names, or one started from ``pgserver`` (about a second).

    Raises:
        Unavailable: neither (the message says what to install).
    """
    given = os.environ.get(ENV)
    if given:
        return Scratch(given)
    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())  # pgserver keeps its start lock there
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs' warnings about the runtime folder
            import pgserver
    except ImportError:
        raise Unavailable("no PostgreSQL: install the test extra (pip install -e '.[test]', which "
                          f"brings pgserver) or name one in {ENV}=postgresql://...") from None
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir="/tmp"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs' warnings about the runtime folder
        server = pgserver.get_server(folder, cleanup_mode="delete")
    return Scratch(server.get_uri(), folder, server)


@contextlib.contextmanager
def running() -> Iterator[Scratch]:
    """`start`, stopped on the way out."""
    scratch = start()
    try:
        yield scratch
    finally:
        scratch.stop()


def main() -> int:
    """Start one, print its URL (and a database of its own), wait for Ctrl+C or SIGTERM."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # a service manager's stop (SIGTERM) stops it like Ctrl+C: cleanly

    signal.signal(signal.SIGTERM, stop)
    with running() as scratch:
        url = scratch.database("huit")
        print(f"PostgreSQL for Huit: {url}\n  python main.py serve --db '{url}'\nCtrl+C stops it "
              "and deletes its data.", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
