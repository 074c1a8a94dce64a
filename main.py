"""Huit from a checkout: ``python main.py`` (the graphical table; it needs pygame-ce),
``python main.py --text`` (the terminal game), ``python main.py serve [--host --port --db]``
(the online room server, without pygame), ``python main.py huit://HOST:PORT/ROOM`` (join
that online room; ``huits://`` and a room page's ``https://HOST/r/ROOM`` too). An installed
Huit has the same as the commands ``huit`` and ``huit-server`` (`game.__main__`)."""

from __future__ import annotations

import sys

from game.__main__ import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python main.py"))
