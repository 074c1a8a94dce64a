"""The commands read their flags before they load the game: a refused flag and ``--help`` of
``python main.py`` and ``python main.py serve`` load neither pygame, nor the engine, the
computer players, the saves, the client's loop or the network server (they are loaded once
the flags are read), so a refusal costs little more than Python and argparse.

Each case runs the real command's ``main`` in a child process (`sys.modules` is per process)
and lists the heavy modules it loaded before it exited.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("pygame", "pygame_gui", "game.engine", "game.ai", "game.saves", "game.play", "game.client.app",
         "game.net.server", "game.net.search", "game.net.roomstore", "game.net.client", "websockets")
"""What a refusal or ``--help`` must not load (a module or any module under it)."""

PROBE = """\
import contextlib, io, sys
import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main.main(sys.argv[1:], prog="python main.py")
    except SystemExit as exit:
        code = exit.code
heavy = {heavy!r}
print(code)
print(",".join(sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in heavy))))
"""


def loaded_by(*args: str) -> tuple[object, list[str]]:
    """Run ``python main.py ARGS`` in a child; its exit code and the heavy modules it loaded."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    code, modules = done.stdout.splitlines()
    return code, [m for m in modules.split(",") if m]


@pytest.mark.parametrize(("args", "code"), [
    (["--cores", "0"], "2"),
    (["--size", "800x600"], "2"),
    (["--lang", "zz"], "2"),
    (["--attract-after", "-1"], "2"),
    (["--check", "--install-desktop"], "2"),
    (["huit://127.0.0.1:99999/room"], "2"),
    (["--help"], "0"),
    (["serve", "--port", "99999"], "2"),
    (["serve", "--rate", "nan"], "2"),
    (["serve", "--keyfile", "k.pem"], "2"),
    (["serve", "--proxy-headers"], "2"),
    (["serve", "--trusted-proxy", "not an address"], "2"),
    (["serve", "--download-url", "ftp://x"], "2"),
    (["serve", "--help"], "0"),
])
def test_a_refusal_or_help_loads_nothing_heavy(args, code):
    exit_code, heavy = loaded_by(*args)
    assert exit_code == code
    tops = sorted({m for m in heavy if not any(m.startswith(h + ".") for h in HEAVY)})
    assert heavy == [], f"python main.py {' '.join(args)} loaded {', '.join(tops)} ({len(heavy)} modules)"


def test_the_data_folder_variable_the_help_names_is_the_saves_own():
    from game.client.launch import DATA_DIR_VAR
    from game.saves import ENV_VAR

    assert DATA_DIR_VAR == ENV_VAR


def test_the_moved_names_are_still_read_from_where_they_were():
    from game.client import catalogues, i18n, sizes, window

    assert i18n.LANGUAGES is catalogues.LANGUAGES == ("en", "fr", "es", "de")
    assert window.parse_size is sizes.parse_size and window.SIZE_RULE is sizes.SIZE_RULE
    assert (window.MIN_SIZE, window.MAX_SIZE) == (sizes.MIN_SIZE, sizes.MAX_SIZE)
    assert sizes.MIN_SIZE == (1024, 600) and sizes.MAX_SIZE == (3840, 2160)
