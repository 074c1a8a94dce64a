"""Huit's commands: ``huit`` (and ``python -m game``, and ``python main.py`` in a checkout) and
``huit-server``.

``huit`` is the graphical game with its flags (``huit --help``); ``huit --text`` is the
terminal game; ``huit serve [--host --port --db …]`` is the online room server, which
``huit-server`` also is; ``huit huit://HOST:PORT/ROOM`` joins that room (handing the link
to a game already running, if there is one). ``huit --check`` is the packagers' smoke test,
``huit --install-desktop`` registers the game with a Linux desktop.

The server and the terminal game never load pygame.
"""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str] | None = None, prog: str = "huit") -> int:
    """Dispatch to the room server, the terminal game or the graphical client; the exit code.

    ``prog`` is the command's name as its messages show it (``python main.py`` in a checkout).
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["serve"]:
        return server(args[1:])
    if "--text" in args:
        from game import text

        return int(text.main([a for a in args if a != "--text"]) or 0)
    if importlib.util.find_spec("pygame") is None:
        print("Huit's table needs pygame-ce, which is not installed here: pip install huit (or, in a\n"
              "checkout, make play) installs it. The terminal game needs nothing more: "
              f"{prog} --text", file=sys.stderr)
        return 1
    from game.client import launch

    return int(launch.main(args, prog=prog) or 0)


def server(argv: list[str] | None = None) -> int:
    """The online room server (``huit-server``, ``huit serve``); it never loads pygame."""
    from game.net import hosting

    return int(hosting.main(sys.argv[1:] if argv is None else list(argv)) or 0)


def run() -> None:
    """The ``huit`` command."""
    sys.exit(main(sys.argv[1:], prog="huit"))


def run_server() -> None:
    """The ``huit-server`` command."""
    sys.exit(server(sys.argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m game"))
