"""Writes a killed process left half done (``NAME.tmp``) are removed when the game or the server
starts, and nothing else is: real processes killed by SIGKILL in the middle of the game's writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.saves import DataStore
from game.saves.paths import leftovers

ROOT = Path(__file__).resolve().parent.parent

# The game's own writer, stopped for good just before its rename (where a crash leaves the .tmp):
# the process says so, then waits to be killed.
WRITER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from game.saves import DataStore

    root, name = Path(sys.argv[1]), sys.argv[2]
    real_replace = os.replace

    def stuck(src, dst):
        if str(src).endswith(".tmp"):
            print("written", flush=True)
            time.sleep(60)  # killed here
        real_replace(src, dst)

    os.replace = stuck
    store = DataStore(root)
    (root / "online").mkdir(exist_ok=True)
    store.writer.write(root / name, b"x" * 200_000, private=name.startswith("online/"))
    time.sleep(60)
""")

NAMES = ["solo.huit", "hotseat.huit", "settings.json", "statistics.json", "player.json", "online/R1-AB.json"]
DECOYS = ["notes.tmp", "solo.huit.tmp.keep", "my.huit.tmp", "online/not a room.json.tmp"]


def _crash_while_writing(root: Path, name: str) -> None:
    """Run the game's writer on ``name`` in a process, and SIGKILL it once its ``.tmp`` is written."""
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(root), name], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "written"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


def _crashed_folder(root: Path) -> list[Path]:
    (root / "online").mkdir(parents=True, exist_ok=True)
    (root / "solo.huit").write_bytes(b"the last good save")
    for name in NAMES:
        _crash_while_writing(root, name)
    for name in DECOYS:
        (root / name).write_bytes(b"not the game's")
    (root / "classic.huit.tmp").mkdir()  # a folder is never the game's to delete (nor its name)
    # Each write left its .tmp; the save that had a good file was killed while keeping it as
    # NAME.bak (its NAME.bak.tmp link made, not yet renamed).
    crashed = [n + ".tmp" for n in NAMES] + ["solo.huit.bak.tmp"]
    left = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.tmp") if p.is_file())
    assert left == sorted(crashed + [d for d in DECOYS if d.endswith(".tmp")])
    return [root / name for name in crashed]


def _kept(root: Path) -> None:
    for name in DECOYS:
        assert (root / name).read_bytes() == b"not the game's"
    assert (root / "classic.huit.tmp").is_dir()
    assert (root / "solo.huit").read_bytes() == b"the last good save"  # the crash never touched it


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
def test_the_game_removes_the_writes_killed_processes_left_and_nothing_else(tmp_path):
    crashed = _crashed_folder(tmp_path)
    assert sorted(leftovers(tmp_path)) == sorted(crashed)
    removed = DataStore(tmp_path).clean_leftovers()  # what the game does when it starts
    assert sorted(removed) == sorted(crashed)
    assert not any(p.exists() for p in crashed)
    _kept(tmp_path)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
def test_the_server_removes_them_in_its_data_folder_when_it_starts_and_nothing_else(tmp_path):
    crashed = _crashed_folder(tmp_path)
    env = {**os.environ, "HUIT_DATA_DIR": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith("Huit server on 127.0.0.1")
        assert not any(p.exists() for p in crashed)
        _kept(tmp_path)
        assert (tmp_path / "rooms.sqlite3").is_file()
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=30)
    assert server.returncode == 0
    assert errors.count("a write a crash left unfinished") == len(crashed)
