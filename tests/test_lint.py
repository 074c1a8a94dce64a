"""The house style holds: ruff is clean everywhere, mypy --strict on the engine."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name):
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def test_ruff_finds_nothing():
    proc = subprocess.run([tool("ruff"), "check", "game", "tests", "main.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_engine_passes_mypy_strict():
    proc = subprocess.run([tool("mypy"), "game/engine"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
