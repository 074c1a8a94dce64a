"""Huit: start the game. ``python main.py`` (graphical when the client is installed),
``python main.py --text`` (the terminal game), ``python main.py serve [--host --port --db]``
(the online room server, without pygame), ``python main.py huit://HOST:PORT/ROOM`` (join
that online room)."""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str]) -> int:
    """Dispatch to the room server, the terminal game or the graphical client."""
    if argv[:1] == ["serve"]:
        from game.net import hosting  # headless: the server never loads pygame

        return int(hosting.main(argv[1:]) or 0)
    if "--text" in argv or importlib.util.find_spec("game.client") is None:
        from game import text

        if "--text" not in argv:
            print("The graphical table is not built yet; starting the terminal game.")
        return text.main([a for a in argv if a != "--text"])
    from game.client import app  # pragma: no cover - lands with the client issue

    return int(app.main(argv) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
