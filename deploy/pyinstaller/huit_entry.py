"""The entry point of the PyInstaller bundle (``huit.spec``): one program, two executables.

``huit`` is the game with all its flags; ``huit-server`` (the same program under another
name) is the room server. The computer players' helper processes start as copies of the
executable (the ``spawn`` method), which ``freeze_support`` recognises and runs.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from game.__main__ import main, server

    name = os.path.splitext(os.path.basename(sys.executable))[0].lower()
    sys.exit(server(sys.argv[1:]) if name == "huit-server" else main(sys.argv[1:], prog="huit"))
