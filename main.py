"""Huit: start the game. ``python main.py`` (the graphical table; it needs pygame-ce),
``python main.py --text`` (the terminal game), ``python main.py serve [--host --port --db]``
(the online room server, without pygame), ``python main.py huit://HOST:PORT/ROOM`` (join
that online room; ``huits://`` and a room page's ``https://HOST/r/ROOM`` too)."""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str]) -> int:
    """Dispatch to the room server, the terminal game or the graphical client."""
    if argv[:1] == ["serve"]:
        from game.net import hosting  # headless: the server never loads pygame

        return int(hosting.main(argv[1:]) or 0)
    if "--text" in argv:
        from game import text

        return text.main([a for a in argv if a != "--text"])
    if importlib.util.find_spec("pygame") is None:
        print("Huit's table needs pygame-ce, which is not installed here. Install the game with\n"
              "    make play\n"
              "or, in your own environment, pip install -e . (from this folder).\n"
              "The terminal game needs nothing more: python main.py --text", file=sys.stderr)
        return 1
    from game.client import app

    return int(app.main(argv) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
