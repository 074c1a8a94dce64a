"""F11 back to fullscreen covers the screen again: the window goes to the desktop's corner first
(X11 without a window manager keeps a fullscreen window where the window was, partly off the
screen). Tried on a real X server (Xvfb, with no window manager), skipped where there is none."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import re, subprocess, sys
import pygame
from tests.client_support import make_app, open_menu, press

def placed():
    out = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    found = re.search(r'"Huit".*?(\d+)x(\d+)\+(-?\d+)\+(-?\d+)', out)
    return tuple(int(v) for v in found.groups())

app = make_app((1024, 600))
open_menu(app)
for _ in range(2):
    for _ in range(2):  # fullscreen, then a window again
        press(app, pygame.K_F11)
        for _ in range(10):
            app.frame(1 / 60)
        print(repr((placed(), tuple(app.screen.get_size()), tuple(app.stack.top.manager.window_resolution))),
              flush=True)
"""


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xwininfo")), reason="needs Xvfb and xwininfo")
def test_window_fullscreen_window_fullscreen_covers_the_screen_each_time(tmp_path):
    display = f":{90 + os.getpid() % 100}"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x900x24"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        socket = Path("/tmp/.X11-unix") / f"X{display[1:]}"
        deadline = time.monotonic() + 15  # a loaded machine may take a while to start Xvfb
        while not socket.exists() and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert socket.exists(), f"Xvfb did not start on {display}"
        env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
        done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        lines = [ast.literal_eval(line) for line in done.stdout.splitlines() if line.startswith("(")]
        assert len(lines) == 4
        for full, windowed in (lines[0:2], lines[2:4]):
            assert full == ((1600, 900, 0, 0), (1600, 900), (1600, 900))  # the whole screen, laid out for it
            assert windowed[0][:2] == (1024, 600) and windowed[1] == (1024, 600)
    finally:
        server.terminate()
        server.wait(timeout=10)
