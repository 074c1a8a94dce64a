"""One game per data folder: a launch with a ``huit://`` link hands it to the game already running.

A clicked link starts ``huit LINK``. When a game with the same data folder already runs,
that second process sends the link to it and exits 0, and the running game opens the
room (`game.client.app`: through the same checks as a typed link). With no game running,
the launch is an ordinary one, and that game listens in turn.

The running game listens on a Unix socket, ``huit/<digest>.sock`` in ``$XDG_RUNTIME_DIR``
(else in ``huit-<uid>`` in the temporary folder); the digest names the data folder, so
games with different data folders (a test, a second profile) never meet. It is kept safe
because:

- only this user can reach it: its folder is made ``0700`` and used only if it is a real
  folder (not a link) owned by this user with no access for others; the socket is ``0600``;
  on Linux the peer's user id is checked too (``SO_PEERCRED``);
- a message is at most `MAX_MESSAGE` bytes and must arrive whole within `TIMEOUT` seconds;
  it is ``HUIT-LINK 1`` and the link, each on its line, in UTF-8; anything else is refused
  with a one-line answer and forgotten;
- the link is read by `game.net.client.parse_link`, which caps its length and refuses bad
  ones, before the game sees it; the game then opens it as it opens a typed link;
- connections are taken one at a time on one thread, which never touches the game: it
  hands a checked link to a callback (the app posts it as an event and wakes the loop).

Where Unix sockets are missing (Windows), there is no single instance: every launch opens
its own window. Nothing here imports pygame.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import socket
import stat
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

HEADER: Final = b"HUIT-LINK 1\n"
MAX_MESSAGE: Final = 1024
"""The longest message taken, in bytes: the header and a link of `MAX_LINK` characters fit."""
TIMEOUT: Final = 2.0
"""Seconds a message has to arrive whole (and a launch waits for the running game's answer)."""
OK: Final = b"ok\n"
SOCKET_PATH_MAX: Final = 100  # bytes: sun_path is 104 (macOS) to 108 (Linux) with its final NUL

SUPPORTED: Final = hasattr(socket, "AF_UNIX") and sys.platform != "win32"


class Refused(Exception):
    """The running game refused the link; the message says why."""


def _private_folder(folder: Path) -> bool:
    """Make ``folder`` (0700) if needed; whether it is a real folder only this user may enter."""
    try:
        folder.mkdir(mode=0o700, parents=False, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return False  # a link, a file, or someone else's folder: never used
    if info.st_mode & 0o077:
        try:
            os.chmod(folder, 0o700)  # ours, but open to others (an old umask): close it
        except OSError:
            return False
    return True


def socket_path(data_folder: Path) -> Path | None:
    """Where the game that uses ``data_folder`` listens, in a private folder (made if needed);
    None where there can be no single instance (no Unix sockets, or no safe folder)."""
    if not SUPPORTED:
        return None
    digest = hashlib.sha256(str(data_folder.expanduser().resolve()).encode("utf-8", "surrogateescape"))
    name = f"{digest.hexdigest()[:24]}.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    places = []
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        places.append(Path(runtime) / "huit")
    places.append(Path(tempfile.gettempdir()) / f"huit-{os.getuid()}")
    for folder in places:
        path = folder / name
        if len(os.fsencode(path)) <= SOCKET_PATH_MAX and _private_folder(folder):
            return path
    return None


# ---- the second launch -----------------------------------------------------------------------
def hand_over(path: Path, link: str, timeout: float = TIMEOUT) -> bool:
    """Send ``link`` to the game listening at ``path``: True once it took it, False when no
    game listens there (the launch goes on as usual).

    Raises:
        Refused: the running game refused the link (its answer says why).
    """
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
        return False
    message = HEADER + link.encode("utf-8", "replace") + b"\n"
    if len(message) > MAX_MESSAGE:
        raise Refused("the link is too long")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as peer:
        peer.settimeout(timeout)
        try:
            peer.connect(str(path))
            peer.sendall(message)
            peer.shutdown(socket.SHUT_WR)
            answer = _read_all(peer, 512, time.monotonic() + timeout)
        except OSError:  # nobody listens (a stale socket), or a game too busy to answer in time
            return False
    if answer == OK:
        return True
    text = answer.decode("utf-8", "replace").strip()
    raise Refused(text.removeprefix("refused: ") or "no answer")


def _read_all(peer: socket.socket, limit: int, deadline: float) -> bytes:
    """Bytes until the other side stops sending, at most ``limit`` + 1 of them.

    Raises:
        TimeoutError: the deadline passed first.
    """
    data = b""
    while len(data) <= limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the message did not arrive in time")
        peer.settimeout(left)
        chunk = peer.recv(limit + 1 - len(data))
        if not chunk:
            break
        data += chunk
    return data


# ---- the running game ------------------------------------------------------------------------
def read_message(data: bytes) -> str:
    """The link in a message, checked as a typed link is.

    Raises:
        Refused: not a message of a second launch, or a link the game refuses (why).
    """
    from game.net.client import parse_link

    if len(data) > MAX_MESSAGE:
        raise Refused(f"a message has at most {MAX_MESSAGE} bytes")
    if not data.startswith(HEADER):
        raise Refused("not a Huit link message")
    body = data[len(HEADER):]
    if body.endswith(b"\n"):
        body = body[:-1]
    try:
        link = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("the link is not UTF-8 text") from None
    if "\n" in link or "\0" in link:
        raise Refused("one link per message")
    try:
        parse_link(link)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    return link.strip()


def _peer_is_this_user(peer: socket.socket) -> bool:
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:  # not Linux: the private folder is the guard
        return True
    try:
        credentials = peer.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", credentials)
    except OSError:
        return False
    return bool(uid == os.getuid())


class LinkListener:
    """Listens at a socket path for links from later launches (see the module docstring)."""

    def __init__(self, server: socket.socket, path: Path, on_link: Callable[[str], None]) -> None:
        """Use `listen`, which binds the socket."""
        self.path = path
        self.on_link = on_link
        self.taken: list[str] = []
        """Every link handed to ``on_link``, in order."""
        self.refused: list[str] = []
        """Why each refused message was refused, in order."""
        self._server = server
        self._inode = os.lstat(path).st_ino
        self._stop_reader, self._stop_writer = socket.socketpair()
        self._thread = threading.Thread(target=self._serve, name="huit-links", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening and remove the socket (if it is still this one)."""
        with contextlib.suppress(OSError):
            self._stop_writer.send(b"\0")
        self._thread.join(timeout=TIMEOUT + 1)
        self._server.close()
        with contextlib.suppress(OSError):
            if os.lstat(self.path).st_ino == self._inode:
                os.unlink(self.path)
        self._stop_reader.close()
        self._stop_writer.close()

    def _serve(self) -> None:
        while True:
            ready, _, _ = select.select([self._server, self._stop_reader], [], [])
            if self._stop_reader in ready:
                return
            try:
                peer, _ = self._server.accept()
            except OSError:
                continue
            with peer:
                self._answer(peer)

    def _answer(self, peer: socket.socket) -> None:
        """Read one message, check it, hand its link on; answer ok or why not. Never raises."""
        try:
            if not _peer_is_this_user(peer):
                raise Refused("another user")
            link = read_message(_read_all(peer, MAX_MESSAGE, time.monotonic() + TIMEOUT))
        except Refused as exc:
            self._refuse(peer, str(exc))
            return
        except (OSError, TimeoutError) as exc:
            self._refuse(peer, f"the message did not arrive whole ({type(exc).__name__})")
            return
        try:
            self.on_link(link)
        except Exception as exc:  # the game's side failed: say so rather than die
            self._refuse(peer, f"the game could not take it ({type(exc).__name__})")
            return
        self.taken.append(link)
        with contextlib.suppress(OSError):
            peer.sendall(OK)

    def _refuse(self, peer: socket.socket, why: str) -> None:
        self.refused.append(why)
        with contextlib.suppress(OSError):
            peer.settimeout(0.5)
            peer.sendall(b"refused: " + why.encode("utf-8", "replace")[:200] + b"\n")


def listen(path: Path, on_link: Callable[[str], None]) -> LinkListener | None:
    """Listen at ``path`` for links (the first game of its data folder); None when another game
    already listens there, or the socket cannot be made (that launch simply does not listen)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError:
        return None
    if info is not None:
        if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
            return None  # something else is there: leave it alone
        if _answers(path):
            return None  # a game runs there already
        with contextlib.suppress(OSError):
            os.unlink(path)  # a stale socket left by a game that did not end cleanly
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        os.chmod(path, 0o600)
        server.listen(8)
    except OSError:
        server.close()
        return None
    return LinkListener(server, path, on_link)


def _answers(path: Path) -> bool:
    """Whether something accepts connections at ``path`` (it is closed at once, unanswered)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True
