"""The package: a wheel built from the checkout's files, installed into a fresh virtual environment
in a temporary folder, runs ``huit --check``, ``huit-server --help``, ``python -m game`` and a
replay, from a working directory outside the checkout, finds every one of the game's files (the
checkout's top-level ``assets/``, which the wheel carries as ``game/assets``), and reads its
translations from the catalogues compiled into it (``.mo``); the sdist carries their ``.po``
sources and the ``assets/`` folder. Both carry the browser client as ``make web`` built it
(``game/net/browser/``; a small one is laid into the copy when the checkout has none), and the
installed server finds it in its package.

The sdist and the wheel are built as a release builds them (``python -m build``: the sdist, then
the wheel from it, each in its own isolated environment; from a copy of the files so the checkout
gets no ``build/`` folder), once for the file; the wheel is installed without its dependencies
(``--no-deps --no-index``); the new environment reaches the already installed pygame-ce,
pygame_gui, platformdirs and websockets through a ``.pth`` file naming their folders, as
``--system-site-packages`` would for a system Python. The environment's ``game`` is checked
to be the wheel's, never the checkout's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.client import catalogues
from game.client.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = ("pygame", "pygame_gui", "platformdirs", "websockets")
SOURCES = ("game", "assets", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")]


def copy_sources(source: Path) -> Path:
    """A copy of the checkout's package files at ``source`` (no caches, no compiled catalogues),
    with a built browser client (the checkout's, else a small one: `BROWSER_FILES`)."""
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    browser = source / "game" / "net" / "browser"
    if not (browser / "manifest.json").is_file():
        for name, text in BROWSER_FILES.items():
            (browser / name).parent.mkdir(parents=True, exist_ok=True)
            (browser / name).write_text(text, encoding="utf-8")
    return source


BROWSER_FILES = {"manifest.json": '{"built": "2026-12-06T21:00:00Z"}', "app.js": "export {};\n",
                 "app.css": "main{}\n", "i18n/en.json": "{}", "i18n/fr.json": "{}", "i18n/es.json": "{}",
                 "i18n/de.json": "{}", "avatars/index.json": '["fox"]', "avatars/fox.png": "png"}
"""A built browser client for a checkout that has none (the names `make web` writes)."""


def browser_files(source: Path) -> list[str]:
    """The built browser client's files in the copy at ``source``, as paths in the package."""
    folder = source / "game" / "net" / "browser"
    return sorted(path.relative_to(source).as_posix() for path in folder.rglob("*") if path.is_file())


@dataclass(frozen=True)
class Built:
    """What ``python -m build`` made of a copy of the checkout: the copy, the sdist, the wheel."""

    source: Path
    sdist: Path
    wheel: Path


def build(folder: Path) -> Built:
    """The sdist and the wheel built from it, from a copy of the checkout's package files into ``folder``."""
    source = copy_sources(folder / "src")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(folder / "dist"), str(source)],
                          capture_output=True, text=True, timeout=600)  # the sdist, then a wheel from it
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = (folder / "dist").glob("huit-*.tar.gz")
    (wheel,) = (folder / "dist").glob("huit-*.whl")
    return Built(source, sdist, wheel)


def make_venv(folder: Path, wheel: Path) -> Path:
    """A fresh venv at ``folder`` with the wheel installed; the folder of its commands."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                           "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300, env=outside_env())
    assert done.returncode == 0, done.stdout + done.stderr
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True, timeout=60,
                             env=outside_env()).stdout.strip()
    homes = []
    for name in DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, f"{name} is not installed here"
        home = str(Path(spec.origin).parent.parent)
        if home not in homes:
            homes.append(home)
    assert str(ROOT) not in homes
    Path(purelib, "huit-test-dependencies.pth").write_text("\n".join(homes) + "\n", encoding="utf-8")
    return folder / "bin"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    """The sdist and the wheel, built once for the file."""
    pytest.importorskip("build")  # the test extra's
    return build(tmp_path_factory.mktemp("package"))


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the folder of the fresh environment's commands)."""
    return built.wheel, make_venv(tmp_path_factory.mktemp("venv") / "venv", built.wheel)


def outside_env(**env: str) -> dict[str, str]:
    """This process's environment without what would show the checkout's files to a child."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    clean.update({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **env})
    return clean


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A command from the environment, outside the checkout, never seeing the checkout's files."""
    return subprocess.run(command, cwd=cwd, env=outside_env(**env), capture_output=True, text=True,
                          timeout=300)


def test_the_wheel_holds_the_game_and_its_files_and_not_the_tools_or_tests(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("game/__main__.py", "game/client/app.py", "game/engine/rules.py", "game/assets/theme.json",
                   "game/assets/fonts/DejaVuSans.ttf", "game/assets/fonts/DejaVuSans-Bold.ttf",
                   "game/assets/fonts/LICENSE-DejaVu.txt", "game/assets/sounds/win.wav",
                   "game/assets/icons/huit-512.png"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("tools/", "tests/", "main.py", "deploy/"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Requires-Python: >=3.11" in metadata
    assert "Requires-Dist: pygame-ce>=2.4" in metadata
    assert "License-Expression: MIT AND Bitstream-Vera" in metadata  # the code's, and the fonts'
    assert {"License-File: LICENSE", "License-File: assets/fonts/LICENSE-DejaVu.txt"} <= set(
        metadata.splitlines())
    points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "huit = game.__main__:run" in points and "huit-server = game.__main__:run_server" in points


def test_the_installed_game_is_the_wheels_and_passes_its_check(installed, tmp_path):
    _, bin_dir = installed
    where = run([str(bin_dir / "python"), "-c", "import game; print(game.__file__)"], tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(bin_dir.parent), where.stdout
    data = tmp_path / "player-data"
    done = run([str(bin_dir / "huit"), "--check"], tmp_path, HUIT_DATA_DIR=str(data))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("Huit check passed in ")
    assert "  the translations: en fr es de, read from huit.mo" in done.stdout.splitlines()
    assert not data.exists()


def shipped_files() -> list[str]:
    """Every file of the checkout's ``assets/`` folder, as ``fonts/DejaVuSans.ttf``."""
    folder = ROOT / "assets"
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file())


def test_the_wheel_carries_every_file_of_the_checkouts_assets_folder_as_game_assets(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert len(shipped_files()) > 20  # fonts, their licence, the theme, the sounds, the icons
    assert [name for name in shipped_files() if f"game/assets/{name}" not in names] == []
    assert not [n for n in names if n.startswith("assets/")]  # inside the package, not beside it


def test_the_installed_game_finds_every_asset_in_its_package_not_a_stray_assets_folder(installed, tmp_path):
    wheel, _ = installed
    venv = tmp_path / "venv"
    bin_dir = make_venv(venv, wheel)
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    purelib = Path(run([str(bin_dir / "python"), "-c", where], tmp_path).stdout.strip())
    (purelib / "assets").mkdir()  # another distribution's top-level folder must not be taken for Huit's
    (purelib / "assets" / "theme.json").write_text("{}", encoding="utf-8")
    names = shipped_files()
    script = ("import json, sys\n"
              "from game.client import assets\n"
              "names = json.loads(sys.argv[1])\n"
              "print(json.dumps({name: str(assets.path(*name.split('/'))) for name in names}))")
    done = run([str(bin_dir / "python"), "-c", script, json.dumps(names)], tmp_path)
    assert done.returncode == 0, done.stderr
    found = {name: Path(where) for name, where in json.loads(done.stdout).items()}
    assert sorted(found) == names
    for name, where in found.items():
        assert where.is_relative_to(purelib / "game" / "assets"), (name, where)
        assert where.read_bytes() == (ROOT / "assets" / name).read_bytes(), name


def test_the_wheel_carries_the_catalogues_compiled_and_not_their_sources(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    for lang in LANGUAGES:
        assert f"game/locale/{lang}/LC_MESSAGES/huit.mo" in names, lang
    assert not [n for n in names if n.endswith(".po")]


def test_the_installed_game_reads_its_compiled_catalogues(installed, tmp_path):
    _, bin_dir = installed
    script = ("import json\n"
              "from game.client import catalogues, i18n\n"
              "i18n.set_language('de')\n"
              "languages = i18n.LANGUAGES\n"
              "print(json.dumps({'read': [catalogues.source(lang).name for lang in languages],\n"
              "                  'messages': {lang: dict(catalogues.load(lang)) for lang in languages},\n"
              "                  'new': i18n.tr('menu.new')}))")
    done = run([str(bin_dir / "python"), "-c", script], tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["read"] == ["huit.mo"] * len(LANGUAGES)
    for lang in LANGUAGES:  # the compiled catalogues hold what the checkout's .po files say
        po = ROOT / "game" / "locale" / lang / "LC_MESSAGES" / "huit.po"
        source = catalogues.read_po(po.read_text(encoding="utf-8"))
        assert found["messages"][lang] == source, lang
    assert found["new"] == "Neues Spiel"


def test_the_sdist_carries_the_catalogue_sources_and_a_wheel_built_from_it_their_compiled_form(built):
    sdist, wheel = built.sdist, built.wheel
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for lang in LANGUAGES:
        assert f"game/locale/{lang}/LC_MESSAGES/huit.po" in names, lang
    assert {"setup.py", "MANIFEST.in", "assets/theme.json"} <= names
    assert not [n for n in names if n.endswith(".mo")]
    client = browser_files(built.source)  # the built client, in the sdist and in the wheel made from it
    assert [name for name in client if name not in names] == []
    assert [name for name in client if name not in zipfile.ZipFile(wheel).namelist()] == []
    compiled = [n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("game/locale/")]
    assert sorted(compiled) == sorted(f"game/locale/{lang}/LC_MESSAGES/huit.mo" for lang in LANGUAGES)


def test_the_wheel_carries_the_built_browser_client_and_the_installed_server_finds_it(built, installed,
                                                                                      tmp_path):
    wheel, bin_dir = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = browser_files(built.source)
    assert {"game/net/browser/manifest.json", "game/net/browser/app.js", "game/net/browser/app.css",
            "game/net/browser/avatars/fox.png"} <= set(expected)
    assert [name for name in expected if name not in names] == []
    assert not [n for n in names if n.startswith("web/")]  # the sources stay in the checkout
    script = ("from game.net.browser_pages import BUILT, BrowserFiles\n"
              "print(BUILT, BrowserFiles().built())")
    done = run([str(bin_dir / "python"), "-c", script], tmp_path)
    assert done.returncode == 0, done.stderr
    where, built = done.stdout.split()
    assert Path(where).is_relative_to(bin_dir.parent) and built == "True", done.stdout


def test_the_installed_commands_answer(installed, tmp_path):
    _, bin_dir = installed
    server = run([str(bin_dir / "huit-server"), "--help"], tmp_path)
    assert server.returncode == 0, server.stderr
    assert "--port" in server.stdout and "--db" in server.stdout
    game = run([str(bin_dir / "huit"), "--help"], tmp_path)
    assert game.returncode == 0 and game.stdout.startswith("usage: huit ")
    for flag in ("--check", "--install-desktop", "--uninstall-desktop", "--kiosk", "--cores", "--text"):
        assert flag in game.stdout, flag
    module = run([str(bin_dir / "python"), "-m", "game", "--size", "10x10"], tmp_path)
    assert module.returncode == 2 and module.stderr.startswith("python -m game: error: argument --size")
    bad = run([str(bin_dir / "huit"), "serve", "--port", "99999"], tmp_path)
    assert bad.returncode == 2 and "--port" in bad.stderr and "Traceback" not in bad.stderr


def test_a_replay_runs_through_the_installed_package(installed, tmp_path):
    _, bin_dir = installed
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"preset": "duel", "seats": 2, "seed": 3, "first": 0, "options": {},
                                    "actions": ["play KC"]}), encoding="utf-8")
    done = run([str(bin_dir / "python"), "-m", "game.replay", str(scenario)], tmp_path)
    assert done.returncode == 0, done.stderr
    checkout = subprocess.run([sys.executable, "-m", "game.replay", str(scenario)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == json.loads(checkout.stdout)  # the same game, wherever it runs
    assert json.loads(done.stdout)["top"] == "KC"  # seat 0 played its king of clubs


def test_a_broken_installation_fails_the_check_naming_what_is_missing(installed, tmp_path):
    wheel, _ = installed
    bin_dir = make_venv(tmp_path / "broken", wheel)
    purelib = run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                  tmp_path).stdout.strip()
    (Path(purelib) / "game" / "assets" / "sounds" / "shuffle.wav").unlink()
    done = run([str(bin_dir / "huit"), "--check"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == ("Huit check failed: the window: the sounds: missing in the game's sounds "
                                   "folder: shuffle.wav")

