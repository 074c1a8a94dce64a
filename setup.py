"""The one build step pyproject.toml cannot declare: the gettext catalogues compiled into the wheel.

``game/locale/<lang>/LC_MESSAGES/huit.po`` is compiled with Babel to ``huit.mo`` beside it
in the build (never in the source tree); the game reads the ``.mo`` when there is one and
the ``.po`` otherwise (`game.client.catalogues`). Everything else is in pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    """``build_py``, then every ``.po`` catalogue compiled to ``.mo`` in the build folder."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install runs from the checkout: the .po files are read
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("game", "locale").glob("*/LC_MESSAGES/huit.po")):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parts[2], domain="huit")
            with target.open("wb") as out:
                write_mo(out, catalogue, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogues})
