"""Where the game finds its files: the checkout's top-level ``assets/`` when it runs from a
checkout, the package's own ``game/assets`` when installed (a wheel, a PyInstaller bundle).

The installed wheel itself is proved in ``tests/test_package.py``; here the choice is checked
on the checkout and on folders laid out as an installation would be.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.client import assets

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fresh_folder():
    """`assets.folder` forgets its answer before and after the test."""
    assets.folder.cache_clear()
    yield
    assets.folder.cache_clear()


def lay_out(site: Path, *, project_file: bool) -> Path:
    """A package ``game`` at ``site`` with its ``game/assets`` and an ``assets/`` beside it."""
    for folder in (site / "game" / "assets", site / "assets"):
        folder.mkdir(parents=True)
        (folder / "theme.json").write_text("{}", encoding="utf-8")
    if project_file:
        (site / "pyproject.toml").write_text("[project]\nname = 'huit'\n", encoding="utf-8")
    return site / "game"


def test_a_checkout_reads_the_top_level_assets_folder(fresh_folder):
    assert assets.folder() == ROOT / "assets"
    assert assets.path("theme.json") == ROOT / "assets" / "theme.json"
    assert assets.path("fonts", "DejaVuSans.ttf").is_file()
    assert not (ROOT / "game" / "assets").exists()  # the files live once, at the top level


def test_an_installed_package_reads_its_own_assets_and_not_a_folder_beside_it(tmp_path, monkeypatch,
                                                                             fresh_folder):
    package = lay_out(tmp_path / "site-packages", project_file=False)
    monkeypatch.setattr(assets, "files", lambda name: package)
    assert assets.folder() == package / "assets"


def test_a_folder_beside_the_package_is_read_only_where_the_projects_file_marks_a_checkout(
        tmp_path, monkeypatch, fresh_folder):
    package = lay_out(tmp_path / "checkout", project_file=True)
    monkeypatch.setattr(assets, "files", lambda name: package)
    assert assets.folder() == tmp_path / "checkout" / "assets"


def test_a_missing_file_is_named_with_its_place_among_the_assets(fresh_folder):
    with pytest.raises(assets.MissingAsset, match="the game's file assets/sounds/nothing.wav is missing"):
        assets.path("sounds", "nothing.wav")
    with pytest.raises(assets.MissingAsset, match="assets/nothing.json is missing"):
        assets.read_text("nothing.json")
