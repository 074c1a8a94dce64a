"""The layers point the right way: the engine and its headless users never load pygame."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "game" / "engine"
HEADLESS_MODULES = ("game.engine", "game.replay", "game.ai", "game.saves", "game.net.server")


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def test_headless_modules_do_not_import_pygame():
    present = [m for m in HEADLESS_MODULES if _exists(m)]
    assert "game.engine" in present and "game.replay" in present
    code = (
        "import importlib, sys\n"
        f"for name in {present!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'pygame' or m.startswith('pygame.')\n"
        "                or m == 'pygame_gui' or m.startswith('pygame_gui.'))\n"
        "print(','.join(loaded))\n"
        "sys.exit(1 if 'pygame' in sys.modules else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stderr == "", done.stderr
    assert done.returncode == 0, f"pygame was imported by {present}: {done.stdout.strip()}"
    assert done.stdout.strip() == ""


def _imported_modules(path: Path) -> list[tuple[int, str | None, int]]:
    """(line, absolute module or None, relative level) for every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module, node.level))
    return found


def test_engine_imports_only_the_standard_library():
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 7, f"engine sources not found under {ENGINE}"
    outside = []
    seen = 0
    for path in files:
        for line, module, level in _imported_modules(path):
            seen += 1
            if level > 0:
                continue  # relative: another engine module
            assert module is not None
            top = module.split(".")[0]
            if top not in sys.stdlib_module_names:
                outside.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert seen > 0
    assert outside == [], "the engine imports beyond the standard library:\n" + "\n".join(outside)


def test_engine_relative_imports_stay_inside_the_engine():
    for path in sorted(ENGINE.glob("*.py")):
        for line, module, level in _imported_modules(path):
            assert level <= 1, f"{path.name}:{line} imports {'.' * level}{module or ''}"
