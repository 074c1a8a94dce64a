"""Desktop integration (Linux, XDG): ``--install-desktop`` writes the entry, the icons and the link
handlers for this user, keeping whatever else mimeapps.list says; ``--uninstall-desktop`` removes
exactly that. Run for real (``python main.py --install-desktop``) against a temporary
``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.client import assets
from game.client.desktop import (
    DESKTOP_ID,
    DesktopError,
    desktop_entry,
    exec_value,
    launch_command,
    register,
    unregister,
)

ROOT = Path(__file__).resolve().parent.parent
SIZES = (16, 32, 48, 64, 128, 256, 512)
THEIRS = ("# the person's own choices\n"
          "[Default Applications]\n"
          "text/html=firefox.desktop\n"
          "x-scheme-handler/huit=other-cards.desktop\n"
          "\n"
          "[Removed Associations]\n"
          "image/png=gimp.desktop;\n")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops")


def run_huit(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home / "share"), "XDG_CONFIG_HOME": str(home / "config"),
           "HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "main.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def entry_fields(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def test_install_writes_the_entry_the_icons_and_the_handlers_and_uninstall_removes_exactly_them(tmp_path):
    home = tmp_path / "home"
    config = home / "config"
    config.mkdir(parents=True)
    (config / "mimeapps.list").write_text(THEIRS, encoding="utf-8")
    (home / "share" / "applications").mkdir(parents=True)
    (home / "share" / "applications" / "other-cards.desktop").write_text("[Desktop Entry]\n")

    done = run_huit("--install-desktop", home=home)
    assert done.returncode == 0, done.stderr
    share = home / "share"
    icons = {f"icons/hicolor/{n}x{n}/apps/huit.png" for n in SIZES}
    assert files_under(share) == {"applications/huit.desktop", "applications/other-cards.desktop"} | icons
    assert f"wrote {share / 'applications' / DESKTOP_ID}" in done.stdout.splitlines()

    entry = entry_fields(share / "applications" / DESKTOP_ID)
    assert entry["Exec"] == f"{sys.executable} {ROOT / 'main.py'} %u"
    assert entry["MimeType"] == "x-scheme-handler/huit;x-scheme-handler/huits;"
    assert entry["Icon"] == "huit" and entry["Type"] == "Application" and entry["Terminal"] == "false"
    for n in SIZES:
        image = pygame.image.load(str(share / f"icons/hicolor/{n}x{n}/apps/huit.png"))
        assert image.get_size() == (n, n)

    mimeapps = (config / "mimeapps.list").read_text(encoding="utf-8")
    assert "x-scheme-handler/huit=huit.desktop;other-cards.desktop\n" in mimeapps  # first, theirs kept
    assert "text/html=firefox.desktop\n" in mimeapps and "image/png=gimp.desktop;\n" in mimeapps
    added = mimeapps.split("[Added Associations]\n", 1)[1]
    assert "x-scheme-handler/huit=huit.desktop;" in added and "x-scheme-handler/huits=huit.desktop;" in added
    assert mimeapps.split("[Default Applications]\n", 1)[1].split("\n[")[0].count("huit.desktop") == 2

    again = run_huit("--install-desktop", home=home)  # installing twice changes nothing more
    assert again.returncode == 0 and (config / "mimeapps.list").read_text(encoding="utf-8") == mimeapps

    done = run_huit("--uninstall-desktop", home=home)
    assert done.returncode == 0, done.stderr
    assert files_under(share) == {"applications/other-cards.desktop"}
    assert not (share / "icons" / "hicolor" / "48x48").exists()
    assert (config / "mimeapps.list").read_text(encoding="utf-8") == THEIRS


def test_uninstall_without_a_mimeapps_list_before_removes_the_one_install_made(tmp_path):
    home = tmp_path / "home"
    assert run_huit("--install-desktop", home=home).returncode == 0
    assert (home / "config" / "mimeapps.list").is_file()
    done = run_huit("--uninstall-desktop", home=home)
    assert done.returncode == 0, done.stderr
    assert files_under(home) == set()
    nothing = run_huit("--uninstall-desktop", home=home)
    assert nothing.returncode == 0 and "nothing to remove" in nothing.stdout


def test_uninstall_leaves_an_entry_huit_did_not_write(tmp_path):
    home = tmp_path / "home"
    theirs = home / "share" / "applications" / DESKTOP_ID
    theirs.parent.mkdir(parents=True)
    theirs.write_text("[Desktop Entry]\nName=Someone else's huit\n")
    done = run_huit("--uninstall-desktop", home=home)
    assert done.returncode == 0
    assert theirs.read_text() == "[Desktop Entry]\nName=Someone else's huit\n"
    assert "it is not the entry Huit wrote" in done.stdout


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate is not installed (apt-get install desktop-file-utils)")
def test_the_entry_is_valid_by_the_freedesktop_validator(tmp_path):
    path = tmp_path / DESKTOP_ID
    path.write_text(desktop_entry(["/opt/Huit Games/huit"]), encoding="utf-8")
    done = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stdout == "", done.stdout


@pytest.mark.skipif(shutil.which("xdg-mime") is None,
                    reason="xdg-mime is not installed (apt-get install xdg-utils)")
def test_xdg_mime_finds_huit_as_the_handler_of_its_links(tmp_path):
    home = tmp_path / "home"
    assert run_huit("--install-desktop", home=home).returncode == 0
    env = {**os.environ, "XDG_DATA_HOME": str(home / "share"), "XDG_CONFIG_HOME": str(home / "config"),
           "HOME": str(home), "XDG_CURRENT_DESKTOP": "", "DE": "generic"}
    for scheme in ("huit", "huits"):
        done = subprocess.run(["xdg-mime", "query", "default", f"x-scheme-handler/{scheme}"], env=env,
                              capture_output=True, text=True, timeout=30)
        assert done.stdout.strip() == DESKTOP_ID, (done.stdout, done.stderr)


def test_the_exec_line_quotes_by_the_desktop_entry_rules():
    assert exec_value(["/usr/bin/huit"]) == "/usr/bin/huit %u"
    assert exec_value(["/usr/bin/python3", "/home/a b/main.py"]) == '/usr/bin/python3 "/home/a b/main.py" %u'
    assert exec_value(["/opt/100%/huit"]) == "/opt/100%%/huit %u"
    # A quote, a dollar and a backslash are escaped inside quotes, then the backslashes are doubled.
    assert exec_value(['/x/"$\\']) == '"/x/\\\\"\\\\$\\\\\\\\" %u'
    with pytest.raises(DesktopError, match="control characters"):
        exec_value(["/tmp/a\nExec=evil"])


def test_the_launch_command_is_the_one_this_huit_was_started_with(tmp_path):
    script = tmp_path / "huit"
    script.write_text("#!/bin/sh\n")
    assert launch_command(str(script)) == [str(script)]
    assert launch_command(str(ROOT / "main.py")) == [sys.executable, str(ROOT / "main.py")]
    assert launch_command(str(ROOT / "game" / "__main__.py")) == [sys.executable, "-m", "game"]


@pytest.mark.parametrize("before", [
    "",
    THEIRS,
    "[Added Associations]\nx-scheme-handler/huits=a.desktop;b.desktop;\n[Default Applications]\nx=y\n",
    "[Default Applications]\nx-scheme-handler/huit=huit.desktop;other.desktop;\n",
])
def test_registering_then_unregistering_gives_back_the_same_file(before):
    after = register(before)
    assert register(after) == after
    for group in ("[Default Applications]", "[Added Associations]"):
        section = after.split(group + "\n", 1)[1].split("\n[")[0]
        assert "x-scheme-handler/huit=huit.desktop;" in section
        assert "x-scheme-handler/huits=huit.desktop;" in section
    if "x-scheme-handler/huit=huit.desktop;" in before:
        return  # it was there before: unregistering takes it out, which nothing can tell from an install
    assert unregister(after) == before


def test_the_icon_is_shipped_at_every_size():
    assert assets.ICON_SIZES == SIZES
    for n in SIZES:
        image = pygame.image.load(str(assets.path("icons", assets.icon_name(n))))
        assert image.get_size() == (n, n)
        assert image.get_at((0, 0)).a == 0  # a transparent corner: the card stands on the desktop
        assert image.get_at((n // 2, n // 2)).a == 255


def test_the_icon_tool_draws_every_size(tmp_path):
    from tools.icon import write_icons

    written = write_icons(tmp_path)
    assert [p.name for p in written] == [assets.icon_name(n) for n in SIZES]
    for n, path in zip(SIZES, written, strict=True):
        assert pygame.image.load(str(path)).get_size() == (n, n)
