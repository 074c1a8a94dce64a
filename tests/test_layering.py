"""The layers point the right way: every import follows the allowed arrows between the layers
(`LAYERS`), the game never imports ``tools``, and the engine and its headless users never load pygame."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "game" / "engine"
HEADLESS_MODULES = ("game.engine", "game.replay", "game.ai", "game.saves", "game.net.server",
                    "game.net.hosting", "game.cli", "game.review")


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


# ---- the allowed arrows between layers ----------------------------------------------------------

@dataclass(frozen=True)
class Layer:
    """What the modules of one layer may import beyond the standard library."""

    game: tuple[str, ...] = ()
    """The game packages (layers) it may import, besides its own."""
    third_party: tuple[str, ...] = ()
    """The installed distributions' top-level modules it may import."""


ANY_GAME: Final = ("game",)
"""Every game package: the client sits on top."""

LAYERS: Final[dict[str, Layer]] = {
    "game": Layer(),  # the package's own __init__
    "game.engine": Layer(),
    "game.cli": Layer(),  # what the commands share: one-line refusals, checked flag values
    "game.ai": Layer(game=("game.engine",)),
    "game.play": Layer(game=("game.engine", "game.ai")),  # the turn driver
    "game.saves": Layer(game=("game.engine",), third_party=("platformdirs",)),
    # The room pages speak the game's languages: the catalogues' reader (standard library only).
    "game.net": Layer(game=("game.engine", "game.ai", "game.play", "game.saves", "game.cli",
                            "game.client.catalogues"),
                      # disarm: Unicode UTS #39 data for names; psycopg: the PostgreSQL store (an extra)
                      third_party=("websockets", "disarm", "psycopg", "psycopg_pool")),
    "game.client": Layer(game=ANY_GAME, third_party=("pygame", "pygame_gui")),
    "game.replay": Layer(game=("game.engine", "game.ai", "game.cli")),
    "game.text": Layer(game=("game.engine", "game.ai")),
    "game.review": Layer(game=("game.engine", "game.ai")),  # a deal's review: the seat's story, Hard's costs
    "game.__main__": Layer(game=ANY_GAME),  # the huit and huit-server commands, python -m game
    "main": Layer(game=ANY_GAME),  # main.py starts the game: it may not reach into tools either
}
"""Who may import what: each layer's allowed arrows, written once. A module belongs to the
longest layer name that prefixes its own (``game.client.scenes.menu`` is ``game.client``);
``game`` itself is only the package's ``__init__`` (a new ``game.x`` package must be declared).
``tools`` is outside: it may import anything, and nothing above may import it."""

REQUIRED_LAYERS: Final = ("game.engine", "game.ai", "game.saves", "game.net", "game.client",
                          "game.replay", "game.text")


def module_name(path: Path, root: Path) -> str:
    """``game/client/scenes/menu.py`` → ``game.client.scenes.menu``; a package is its ``__init__``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    """The declared layer ``module`` belongs to, if any (the longest matching name)."""
    found = [name for name in LAYERS
             if module == name or (name != "game" and module.startswith(name + "."))]
    return max(found, key=len) if found else None


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in ``path``: relative ones resolved, those inside
    functions and under ``TYPE_CHECKING`` included (they are arrows too), ``from game import text``
    read as ``game.text``, and ``importlib.import_module("...")`` with a literal name."""
    name = module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                assert node.module is not None
                module = node.module
            else:
                base = package[:len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            if module == "game":  # the names are the layers' modules
                found += [(node.lineno, f"game.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, module))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def layer_violations(root: Path) -> list[str]:
    """Every import in ``root``'s ``game/`` and ``main.py`` that breaks `LAYERS`, as ``file:line: what``
    (``tools/`` is outside the layers: it may import the game and anything installed)."""
    sources = sorted((root / "game").rglob("*.py"))
    if (root / "main.py").is_file():
        sources.append(root / "main.py")
    out: list[str] = []
    for path in sources:
        module = module_name(path, root)
        where = path.relative_to(root).as_posix()
        layer = layer_of(module)
        if layer is None:
            out.append(f"{where}:1: {module} belongs to no declared layer (add it to LAYERS)")
            continue
        rule = LAYERS[layer]
        for line, target in imports_of(path, root):
            top = target.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            if top == "tools":
                why = "the game never imports tools"
            elif top == "game":
                if layer_of(target) == layer or any(_inside(target, p) for p in rule.game):
                    continue
                why = f"{layer} may import only {', '.join(rule.game) or 'the standard library'}"
            elif top in rule.third_party:
                continue
            else:
                allowed = ", ".join(rule.third_party) or "no installed package"
                why = f"{layer} may use {allowed}"
            out.append(f"{where}:{line}: imports {target} ({why})")
    return out


def test_every_module_imports_only_along_the_allowed_arrows():
    present = {layer_of(module_name(p, ROOT)) for p in (ROOT / "game").rglob("*.py")}
    assert set(REQUIRED_LAYERS) <= present, f"layers not found: {set(REQUIRED_LAYERS) - present}"
    problems = layer_violations(ROOT)
    assert problems == [], "imports against the layers:\n" + "\n".join(problems)


def test_nothing_in_the_game_imports_tools():
    assert (ROOT / "tools").is_dir()
    problems = [p for p in layer_violations(ROOT) if "imports tools" in p]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("where", "source", "expected"), [
    ("game/engine/effects.py", "import pygame\n", "game/engine/effects.py:1: imports pygame"),
    ("game/engine/cards.py", "\n\nfrom ..ai import players\n", "game/engine/cards.py:3: imports game.ai"),
    ("game/ai/hard.py", "from game.client.ui import font\n", "game/ai/hard.py:1: imports game.client.ui"),
    ("game/ai/hard.py", "def f():\n    from game.saves import DataStore\n",
     "game/ai/hard.py:2: imports game.saves"),
    ("game/saves/store.py", "from game.net import wire\n", "game/saves/store.py:1: imports game.net ("),
    ("game/net/rooms.py", "from game.client import remote\n", "game/net/rooms.py:1: imports game.client"),
    ("game/net/rooms.py", "import pygame_gui\n", "game/net/rooms.py:1: imports pygame_gui"),
    ("game/replay.py", "from game import saves\n", "game/replay.py:1: imports game.saves"),
    ("game/text.py", "from .client import app\n", "game/text.py:1: imports game.client ("),
    ("game/client/app.py", "from tools.bench import main\n",
     "game/client/app.py:1: imports tools.bench (the game never imports tools)"),
    ("game/play/driver.py", "from game.net import rooms\n", "game/play/driver.py:1: imports game.net ("),
    ("game/ai/tips.py", "import importlib\nimportlib.import_module('tools.arena')\n",
     "game/ai/tips.py:2: imports tools.arena"),
    ("main.py", "import tools.shots\n", "main.py:1: imports tools.shots"),
    ("game/newthing/x.py", "import os\n",
     "game/newthing/x.py:1: game.newthing.x belongs to no declared layer"),
])
def test_a_wrong_import_is_reported_with_its_file_and_line(tmp_path, where, source, expected):
    allowed = {
        "game/__init__.py": "",
        "game/engine/__init__.py": "from .cards import Card\nimport json\n",
        "game/ai/__init__.py": "from game.engine import Card\n",
        "game/play/__init__.py": "from game.ai import players\nfrom ..engine import Card\n",
        "game/net/server.py": "import websockets\nfrom game.play import driver\nfrom ..saves import store\n",
        "game/client/app.py": "import pygame\nfrom game.net import client\nfrom ..saves import DataStore\n",
        "game/replay.py": "from game.ai import players\n",
        "tools/bench.py": "import pygame\nfrom game.client import app\n",
        "main.py": "from game import text\nfrom game.client import app\n",
    }
    for name, text in allowed.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert layer_violations(tmp_path) == []
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(source, encoding="utf-8")
    problems = layer_violations(tmp_path)
    assert len(problems) == 1 and problems[0].startswith(expected), problems
