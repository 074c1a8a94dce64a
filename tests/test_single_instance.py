"""One game per data folder: a launch with a link hands it to the running game, which opens it.

In-process: the listener takes a good link, refuses hostile messages (too long, not UTF-8,
not a link message, a bad link, two links, too slow) and still works after them; its folder
and socket are private; another user cannot connect; a stale socket is taken over. Then
the real client in a child process (dummy drivers): a second launch with a link exits 0,
and the first game joins that room on a real server on 127.0.0.1.
"""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from game.client import single_instance
from game.client.settings import Settings
from game.client.single_instance import HEADER, MAX_MESSAGE, Refused, hand_over, listen, socket_path
from game.saves import DataStore
from tests.net_support import Peer, start_server

ROOT = Path(__file__).resolve().parent.parent
LINK = "huit://127.0.0.1:8765/room-1"

pytestmark = pytest.mark.skipif(not single_instance.SUPPORTED, reason="Unix sockets")


@pytest.fixture
def runtime(tmp_path_factory, monkeypatch) -> Path:
    """A short, private runtime folder (a socket's path is limited to about 100 bytes)."""
    folder = Path(tmp_path_factory.mktemp("run"))
    folder.chmod(0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    return folder


class Taken:
    """What the listener handed to the game."""

    def __init__(self) -> None:
        self.links: list[str] = []
        self.event = threading.Event()

    def __call__(self, link: str) -> None:
        self.links.append(link)
        self.event.set()


def send_raw(path: Path, data: bytes, *, pause: float = 0.0) -> bytes:
    """Send ``data`` as a hostile peer would (optionally waiting before closing), and read the
    answer (empty when the game cut the connection before all of it was sent)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        peer.settimeout(10)
        peer.connect(str(path))
        answer = b""
        try:
            if data:
                peer.sendall(data)
            if pause:
                time.sleep(pause)
            peer.shutdown(socket.SHUT_WR)
            while chunk := peer.recv(4096):
                answer += chunk
        except (BrokenPipeError, ConnectionResetError):
            pass  # the game stopped reading a message far too long, and closed
    return answer


def test_a_launch_with_a_link_hands_it_to_the_listening_game(runtime, tmp_path):
    path = socket_path(tmp_path / "data")
    assert path is not None and path.parent == runtime / "huit"
    taken = Taken()
    listener = listen(path, taken)
    assert listener is not None
    try:
        assert hand_over(path, f"  {LINK}  ") is True
        assert taken.links == [LINK] and listener.taken == [LINK]
    finally:
        listener.close()
    assert not path.exists()  # closing removes the socket
    assert hand_over(path, LINK) is False  # nobody listens: the launch goes on as usual


def test_the_socket_and_its_folder_are_private(runtime, tmp_path):
    path = socket_path(tmp_path / "data")
    assert path is not None
    listener = listen(path, Taken())
    assert listener is not None
    try:
        assert stat.S_IMODE(os.lstat(path.parent).st_mode) == 0o700
        assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        listener.close()


@pytest.mark.parametrize(("message", "why"), [
    (b"x" * (MAX_MESSAGE + 1), f"a message has at most {MAX_MESSAGE} bytes"),
    (HEADER + b"huit://" + b"a" * 5_000_000, f"a message has at most {MAX_MESSAGE} bytes"),
    (b"", "not a Huit link message"),
    (b"GET / HTTP/1.1\r\n\r\n", "not a Huit link message"),
    (HEADER + b"huit://h\xff\xfe:1/r\n", "the link is not UTF-8 text"),
    (HEADER + b"http://127.0.0.1:8765/room\n", "a room link starts with huit://"),
    (HEADER + b"huit://127.0.0.1:99999/room\n", "the port must be a number from 1 to 65535"),
    (HEADER + LINK.encode() + b"\n" + LINK.encode() + b"\n", "one link per message"),
    (HEADER + b"huit://127.0.0.1:1/r\0oops\n", "one link per message"),
    (HEADER + b"huit://" + b"a" * 600 + b":1/r\n", "a room link has at most 512 characters"),
], ids=["long", "huge", "empty", "http", "not-utf8", "scheme", "port", "two", "nul", "long-link"])
def test_a_hostile_message_is_refused_and_the_game_goes_on(runtime, tmp_path, message, why):
    path = socket_path(tmp_path / "data")
    assert path is not None
    taken = Taken()
    listener = listen(path, taken)
    assert listener is not None
    try:
        answer = send_raw(path, message)
        if len(message) < 100_000:  # the huge one may be cut off before it hears why
            assert answer.startswith(b"refused: ") and why.encode() in answer, answer
        assert len(answer) < 300
        assert taken.links == [] and why in listener.refused[-1]
        assert hand_over(path, LINK) is True  # still listening, and still checking
        assert taken.links == [LINK]
    finally:
        listener.close()


def test_a_peer_that_sends_too_slowly_is_dropped(runtime, tmp_path, monkeypatch):
    monkeypatch.setattr(single_instance, "TIMEOUT", 0.2)
    path = socket_path(tmp_path / "data")
    assert path is not None
    taken = Taken()
    listener = listen(path, taken)
    assert listener is not None
    try:
        answer = send_raw(path, HEADER, pause=1.0)
        assert answer.startswith(b"refused: the message did not arrive whole"), answer
        assert hand_over(path, LINK) is True and taken.links == [LINK]
    finally:
        listener.close()


def test_a_refused_link_is_said_by_the_second_launch(runtime, tmp_path):
    path = socket_path(tmp_path / "data")
    assert path is not None

    def refuse(link: str) -> None:
        raise RuntimeError("no")

    listener = listen(path, refuse)
    assert listener is not None
    try:
        with pytest.raises(Refused, match="the game could not take it"):
            hand_over(path, LINK)
    finally:
        listener.close()


def test_a_second_game_does_not_steal_the_socket_and_a_stale_one_is_taken_over(runtime, tmp_path):
    path = socket_path(tmp_path / "data")
    assert path is not None
    first = listen(path, Taken())
    assert first is not None
    try:
        assert listen(path, Taken()) is None  # a game already listens there
    finally:
        first.close()
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))  # a game that died without removing its socket
    stale.close()
    assert path.exists() and hand_over(path, LINK) is False
    taken = Taken()
    again = listen(path, taken)
    assert again is not None
    try:
        assert hand_over(path, LINK) is True and taken.links == [LINK]
    finally:
        again.close()


def test_different_data_folders_listen_apart(runtime, tmp_path):
    assert socket_path(tmp_path / "a") != socket_path(tmp_path / "b")
    assert socket_path(tmp_path / "a") == socket_path(tmp_path / "a")


def test_an_unsafe_runtime_folder_is_never_used(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    runtime = tmp_path / "run"
    runtime.mkdir()
    (runtime / "huit").symlink_to(elsewhere)  # someone points our folder somewhere else
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    path = socket_path(tmp_path / "data")
    assert path is None or runtime not in path.parents  # the fallback, never the link
    assert not single_instance._private_folder(runtime / "huit")
    open_folder = tmp_path / "open"
    open_folder.mkdir(mode=0o777)
    open_folder.chmod(0o777)
    assert single_instance._private_folder(open_folder)  # ours: closed to others, then used
    assert stat.S_IMODE(open_folder.stat().st_mode) == 0o700


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to become another user")
def test_another_user_cannot_reach_the_socket(runtime, tmp_path):
    path = socket_path(tmp_path / "data")
    assert path is not None
    runtime.chmod(0o755)  # even with the runtime folder open, the game's own folder is closed
    taken = Taken()
    listener = listen(path, taken)
    assert listener is not None
    code = ("import os, socket, sys\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX)\n"
            "try:\n"
            f"    s.connect({str(path)!r})\n"
            "except PermissionError:\n"
            "    sys.exit(0)\n"
            "sys.exit(1)\n")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr or "another user connected"
        assert taken.links == []
    finally:
        listener.close()


# ---- the real client ------------------------------------------------------------------------------
def client_env(runtime: Path) -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
            "PYGAME_HIDE_SUPPORT_PROMPT": "1", "XDG_RUNTIME_DIR": str(runtime)}


def wait_for_listener(path: Path, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise AssertionError(f"the client ended: {child.communicate()}")
        if path.exists() and single_instance._answers(path):
            return
        time.sleep(0.05)
    raise AssertionError("the client never listened")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_second_launch_hands_its_link_to_the_running_game_which_joins_the_room(runtime, tmp_path):
    data = tmp_path / "data"
    path = socket_path(data)
    assert path is not None
    server = start_server(tmp_path / "rooms.sqlite3")
    ana = Peer(server.port)
    first = None
    try:
        joined = ana.create("duel", [{"kind": "human"}, {"kind": "human"}], name="Ana")
        assert joined["type"] == "joined", joined
        link = f"huit://127.0.0.1:{server.port}/{ana.room_id}"
        # A player with a name: a device with none asks who joins first (the WhoAreYou screen).
        DataStore(data, background=False).settings.write(Settings(player_name="Ben").to_json())
        first = subprocess.Popen([sys.executable, "main.py", "--data-dir", str(data), "--lang", "en"],
                                 cwd=ROOT, env=client_env(runtime), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        wait_for_listener(path, first)
        assert send_raw(path, b"GET / HTTP/1.1\r\n\r\n").startswith(b"refused: ")  # hostile: refused
        second = subprocess.run([sys.executable, "main.py", "--data-dir", str(data), link], cwd=ROOT,
                                env=client_env(runtime), capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr
        assert second.stdout.strip() == f"Huit: the game already running opens {link}"
        # The first game joined seat 1 of Ana's room, through the server.
        ana.until(lambda m: m["type"] == "room" and m["seats"][1].get("connected") is True, timeout=60)
    finally:
        ana.close()
        if first is not None:
            first.send_signal(signal.SIGTERM)
            out, err = first.communicate(timeout=60)
        server.stop()
    assert first.returncode == 0, err
    assert f"Huit: joining {link} (a link from another launch)" in out.splitlines()
    assert "Traceback" not in err, err
    assert not path.exists()  # the game removed its socket on the way out
