"""The kiosk recipe (``deploy/kiosk/``): the unit says what docs/kiosk.md promises and passes
``systemd-analyze verify`` (where systemd is installed); its session and stop scripts start
the real game (headless, dummy drivers) and stop it by SIGTERM with exit status 0, as the
unit does under cage. The run under cage itself is ``make kiosk-check`` (cage refuses root,
and as root it runs the game as ``nobody``, which needs the bundle of ``make dist``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KIOSK = ROOT / "deploy" / "kiosk"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="systemd and POSIX shells")


def unit_lines() -> list[tuple[str, str]]:
    """The unit's settings as (key, value), in order (a key may repeat, as Environment= does)."""
    pairs = []
    for line in (KIOSK / "huit-kiosk.service").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            pairs.append((key, value))
    return pairs


def values(key: str) -> list[str]:
    return [value for name, value in unit_lines() if name == key]


def test_the_unit_runs_the_kiosk_under_cage_restarts_on_failure_and_stops_by_sigterm():
    (start,) = values("ExecStart")
    words = start.split()
    assert words[0] == "/usr/bin/cage" and words[words.index("--") + 1].endswith("/huit-kiosk-session")
    assert "--kiosk" in words and words[words.index("--cores") + 1].isdigit()
    assert values("Restart") == ["on-failure"]
    assert values("KillSignal") == ["SIGTERM"]
    assert values("ExecStop") == ["/usr/local/lib/huit-kiosk/huit-kiosk-stop"]
    assert "HUIT_DATA_DIR=/var/lib/huit" in values("Environment")
    assert values("StateDirectory") == ["huit"]  # /var/lib/huit, kept across reboots and updates
    assert values("WantedBy") == ["graphical.target"]


CAGE = Path("/usr/bin/cage")  # the unit's ExecStart names it: verify checks that it is executable


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.skipif(not os.access(CAGE, os.X_OK), reason="cage is not installed (apt-get install cage)")
def test_the_unit_passes_systemd_analyze_verify():
    done = subprocess.run([str(KIOSK / "check.sh"), "unit"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "huit-kiosk.service: no problems" in done.stdout


def test_the_session_script_starts_the_game_and_the_stop_script_ends_it_cleanly(tmp_path_factory, tmp_path):
    runtime = tmp_path_factory.mktemp("run")  # short: a socket's path has at most about 100 bytes
    runtime.chmod(0o700)
    data = tmp_path / "state"
    data.mkdir(mode=0o700)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "RUNTIME_DIRECTORY": str(runtime), "XDG_RUNTIME_DIR": str(runtime), "HUIT_DATA_DIR": str(data)}
    game = subprocess.Popen([str(KIOSK / "huit-kiosk-session"), sys.executable, str(ROOT / "main.py"),
                             "--kiosk", "--cores", "1"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list((runtime / "huit").glob("*.sock")):  # the loop runs once it listens for links
            assert game.poll() is None, game.communicate()
            assert time.monotonic() < deadline, "the game did not come up within a minute"
            time.sleep(0.1)
        assert (runtime / "huit-game.pid").read_text().strip() == str(game.pid)  # exec'd: the game itself
        stopper = subprocess.Popen([str(KIOSK / "huit-kiosk-stop")], env=env)
        _, err = game.communicate(timeout=60)  # reaped here, as cage reaps it under the unit
        assert stopper.wait(timeout=30) == 0  # the stop script returns once the game has ended
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
    assert game.returncode == 0, err
    assert "Traceback" not in err
    assert not list((runtime / "huit").glob("*.sock"))  # it closed its link socket on the way out
    assert data.is_dir()


STOPPED_AT_ONCE = """
import os, signal, sys
from game.client import launch, single_instance

listen = single_instance.listen

def listen_then_stop(path, on_link):
    listener = listen(path, on_link)
    os.kill(os.getpid(), signal.SIGTERM)  # the kiosk's stop, the moment the game shows it is up
    return listener

single_instance.listen = listen_then_stop
sys.exit(launch.main(sys.argv[1:]))
"""


def test_a_stop_the_moment_the_game_listens_still_ends_it_cleanly(tmp_path_factory, tmp_path):
    runtime = tmp_path_factory.mktemp("run")
    runtime.chmod(0o700)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_RUNTIME_DIR": str(runtime)}
    done = subprocess.run([sys.executable, "-c", STOPPED_AT_ONCE, "--kiosk", "--cores", "1", "--data-dir",
                           str(tmp_path / "data")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr  # listening starts only once the loop catches stop signals
    assert "Traceback" not in done.stderr
