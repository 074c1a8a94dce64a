"""``--check``: the real client, headless, plays a game on the autopilot to its result and says so;
it never touches the player's data folder, and a broken installation fails naming the step."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from game.client import assets
from game.client.check import run_check

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("the shipped files", "the window", "the menu", "the new-game form", "a game on the autopilot",
         "the result screen", "a helper process")


def test_the_check_plays_a_computer_game_to_its_result_without_touching_the_data_folder(tmp_path):
    data = tmp_path / "my-saves"
    env = {**os.environ, "HUIT_DATA_DIR": str(data), "SDL_VIDEODRIVER": "x11", "DISPLAY": ":no-such-display"}
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "--check"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0].strip() for line in lines[:-1]] == list(STEPS)
    assert "wins!" in lines[-3] and lines[-2] == "  a helper process: spawned, answered and ended"
    assert lines[-1].startswith("Huit check passed in ")
    assert not data.exists()  # the player's folder was not even made
    assert "Traceback" not in done.stderr


def test_with_one_core_the_check_starts_no_helper(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "--check", "--cores", "1"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "a helper process" not in done.stdout and "Huit check passed" in done.stdout


def test_a_missing_sound_fails_the_check_naming_the_step_and_the_file(monkeypatch, capsys):
    real = assets.path

    def without_click(*parts: str) -> Path:
        if parts == ("sounds", "click.wav"):
            raise assets.MissingAsset("the game's file assets/sounds/click.wav is missing: reinstall Huit")
        return real(*parts)

    monkeypatch.setattr(assets, "path", without_click)
    out = io.StringIO()
    assert run_check(out=out) == 1
    assert out.getvalue().splitlines() == ["  the shipped files: fonts, theme, 7 icons"]
    err = capsys.readouterr().err.strip()
    assert err == "Huit check failed: the window: the sounds: missing in the game's sounds folder: click.wav"


def test_a_missing_icon_fails_the_first_step(monkeypatch, capsys):
    real = assets.path

    def without_icon(*parts: str) -> Path:
        if parts == ("icons", "huit-64.png"):
            raise assets.MissingAsset("the game's file assets/icons/huit-64.png is missing: reinstall Huit")
        return real(*parts)

    monkeypatch.setattr(assets, "path", without_icon)
    assert run_check(out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Huit check failed: the shipped files: MissingAsset: the game's file "
                          "assets/icons/huit-64.png is missing")
