"""The house style holds: ruff is clean everywhere, mypy on all of the game (strict on the engine)."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name):
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def test_ruff_finds_nothing():
    proc = subprocess.run([tool("ruff"), "check", "game", "tests", "tools", "main.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_game_passes_mypy_strict_on_the_engine():
    # pyproject.toml makes game.engine strict; the rest of game/ is checked with the defaults.
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    assert {"module": "game.engine.*", "strict": True} in overrides
    proc = subprocess.run([tool("mypy"), "game"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
