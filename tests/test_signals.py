"""SIGTERM and SIGINT save the game and end the client cleanly in every mode, kiosk included.

The real client (``game.client.launch.main``, dummy drivers) runs in a child process with a
solo game on the table; the test waits until its loop runs, sends the signal while the
loop rests, and checks that the process ends with status 0 (what service managers count
as a clean stop) and that the save file holds that game, which resumes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from game.client.app import App
from game.client.saving import resume
from game.client.settings import Settings
from game.saves import DataStore

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import sys
from game.client import app as client
from game.client import launch
from game.client.controller import SeatConfig
from game.client.saving import start_match
from game.engine import PRESETS

run = client.App.run

def run_with_a_game(self):
    # main() opens the menu; put a solo game on the table first, as New game would.
    start_match(self, PRESETS["classic"], [SeatConfig("human"), SeatConfig("computer", "easy")], seed=7)
    self.stack.apply_requests()
    for _ in range(3):
        self.frame(1 / 60)
    print("ready", " ".join(str(c) for c in self.table_controller().view().hand), flush=True)
    run(self)

client.App.run = run_with_a_game
sys.exit(launch.main(sys.argv[1:]))
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def start_client(data: Path, *flags: str) -> tuple[subprocess.Popen[str], list[str]]:
    """The client in a child process with a solo game on the table; the hand it shows, once it runs."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, "--data-dir", str(data), "--lang", "en", *flags],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(child.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=120)
    if not line or not line[0].startswith("ready"):
        child.kill()
        _, err = child.communicate(timeout=30)
        raise AssertionError(f"the client did not start: {line} {err}")
    time.sleep(0.5)  # let the loop come to rest (or to a computer's turn): the signal must reach it there
    return child, line[0].split()[1:]


def stop(child: subprocess.Popen[str], number: int) -> tuple[int, str]:
    """Send ``number``; the exit status and what the client wrote on its error output."""
    child.send_signal(number)
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise AssertionError(f"the client did not end within a minute of signal {number}") from None
    return child.returncode, err


def assert_saved_and_resumes(data: Path, hand: list[str]) -> None:
    """The solo save holds the game that was on the table (the person's hand), and it resumes."""
    store = DataStore(data)
    payload = store.games.read("solo")
    assert payload is not None, "no solo save"
    match = payload.match
    assert [str(c) for c in match.view(0).hand] == hand
    app = App((1280, 800), settings=Settings(language="en"), sound=False, store=store)
    try:
        resume(app, payload)
        app.stack.apply_requests()
        table = app.stack.top
        assert type(table).__name__ == "TableScene"
        assert [str(c) for c in table.view.hand] == hand
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_saves_the_game_and_exits_with_status_0(tmp_path, number):
    data = tmp_path / "data"
    child, hand = start_client(data)
    code, err = stop(child, number)
    assert code == 0, err
    assert "Traceback" not in err, err
    assert_saved_and_resumes(data, hand)


def test_a_kiosk_refuses_the_keyboard_but_not_the_operating_system(tmp_path):
    data = tmp_path / "data"
    child, hand = start_client(data, "--kiosk")
    code, err = stop(child, signal.SIGTERM)
    assert code == 0, err
    assert "Traceback" not in err, err
    assert_saved_and_resumes(data, hand)
