"""The build steps pyproject.toml cannot declare: the game's files and its compiled catalogues.

- The top-level ``assets/`` folder (fonts, theme, sounds, icons) is copied into the build
  as ``game/assets``: the wheel carries it as package data, which `game.client.assets`
  reads through importlib.resources (a checkout reads ``assets/`` where it is).
- ``game/locale/<lang>/LC_MESSAGES/huit.po`` is compiled with Babel to ``huit.mo`` beside it
  in the build (never in the source tree); the game reads the ``.mo`` when there is one and
  the ``.po`` otherwise (`game.client.catalogues`).

An editable install does neither: it runs from the checkout, which has both where the game
looks. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSETS = Path("assets")
"""The checkout's folder of the game's files; ``game/assets`` in the wheel."""


class BuildWithAssetsAndCatalogues(build_py):
    """``build_py``, then the assets copied into the package and every ``.po`` compiled to ``.mo``."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install runs from the checkout: assets/ and the .po files
            return
        if not (ASSETS / "theme.json").is_file():  # without them the wheel would be a broken game
            raise SystemExit(f"setup.py: {ASSETS}/ is missing; build from a checkout or the sdist")
        shutil.copytree(ASSETS, Path(self.build_lib, "game", ASSETS.name), dirs_exist_ok=True)

        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("game", "locale").glob("*/LC_MESSAGES/huit.po")):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parts[2], domain="huit")
            with target.open("wb") as out:
                write_mo(out, catalogue, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithAssetsAndCatalogues})
