"""The house style holds: ruff is clean everywhere, ``mypy --strict`` on all of the game."""

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


def test_the_whole_game_passes_mypy_strict():
    # pyproject.toml makes all of game/ strict, with no module let off: a plain `mypy game`
    # (make lint) checks what `mypy --strict game` does.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config.get("strict") is True
    assert not [o for o in config.get("overrides", []) if o.get("strict") is False or o.get("ignore_errors")]
    proc = subprocess.run([tool("mypy"), "game"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_game_may_not_reach_into_private_names():
    # ruff's SLF001 holds for game/ (a module calls another's public names only); tests and
    # tools may reach into what they check.
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "SLF001" in lint["select"]
    ignored = {pattern for pattern, rules in lint.get("per-file-ignores", {}).items() if "SLF001" in rules}
    assert ignored <= {"tests/**", "tools/**"}
