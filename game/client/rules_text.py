"""The "How to play" pages of every preset, in every language, put together from the catalogues.

A page is an aim line, then sections: a heading over "• " bullets. `PAGES` says which
keys make each page; their texts are catalogue entries like any other (``howto.duel.aim``,
``howto.duel.setup`` for a heading, ``howto.duel.setup.1`` for its first bullet), so a
language translates them in its ``.po`` file. The Controls sections share two sentences,
``howto.play`` (whose ``{wild}`` is filled by a ``howto.wild.*`` entry) and ``howto.keys``.

The result is pygame_gui ``UITextBox`` markup restricted to a small subset: ``<b>``,
``<i>``, ``<br>`` and ``<font color='...'>`` for the headings; entries may hold ``<b>``
and ``<i>``. The rules follow docs/rules.md (the **[our reading]** lines included); the
French follows the wording of the French sources (pioche, défausse, manche, donneur,
« Carte », « Menteur », Terminer…).

``rules_text(preset, lang)`` never raises: an unknown language falls back to English,
as does an entry missing from a language; an unknown preset gives an empty string.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from . import catalogues
from .i18n import LANGUAGES

HEADING_COLOUR: Final = "#f0d060"


class Line(NamedTuple):
    """A bullet: the key of its text, and the key of the words that fill its ``{wild}``, if any."""

    key: str
    wild: str | None = None


Section = tuple[str, tuple[Line, ...]]
"""A heading's key and its bullets."""


def _section(preset: str, name: str, count: int, *shared: Line) -> Section:
    """Section ``name`` of a page: the shared bullets first, then ``count`` of its own."""
    own = tuple(Line(f"howto.{preset}.{name}.{n}") for n in range(1, count + 1))
    return f"howto.{preset}.{name}", shared + own


_KEYS: Final = Line("howto.keys")


def _play(wild: str) -> Line:
    return Line("howto.play", f"howto.wild.{wild}")


PAGES: Final[dict[str, tuple[Section, ...]]] = {
    "duel": (
        _section("duel", "setup", 2),
        _section("duel", "turn", 5),
        _section("duel", "end", 3),
        _section("duel", "controls", 1, _play("eight"), _KEYS),
        _section("duel", "tips", 2),
    ),
    "classic": (
        _section("classic", "setup", 4),
        _section("classic", "turn", 4),
        _section("classic", "end", 2),
        _section("classic", "controls", 2),
        _section("classic", "tips", 3),
    ),
    "points": (
        _section("points", "setup", 2),
        _section("points", "turn", 3),
        _section("points", "actions", 3),
        _section("points", "end", 3),
        _section("points", "controls", 0, _play("eight"), _KEYS),
        _section("points", "tips", 2),
    ),
    "colors": (
        _section("colors", "setup", 2),
        _section("colors", "turn", 1),
        _section("colors", "special", 5),
        _section("colors", "end", 4),
        _section("colors", "controls", 0, _play("colour"), _KEYS),
        _section("colors", "tips", 2),
    ),
    "action": (
        _section("action", "setup", 2),
        _section("action", "turn", 3),
        _section("action", "special", 5),
        _section("action", "end", 2),
        _section("action", "controls", 0, _play("eight_or_joker"), _KEYS),
        _section("action", "tips", 2),
    ),
}
"""Preset name → the sections of its page (the aim line, ``howto.<preset>.aim``, comes first)."""


def page_keys(preset: str) -> list[str]:
    """Every catalogue key the page of ``preset`` reads, in order."""
    keys = [f"howto.{preset}.aim"]
    for heading, lines in PAGES.get(preset, ()):
        keys.append(heading)
        for line in lines:
            keys += [line.key] + ([line.wild] if line.wild else [])
    return keys


def _page(preset: str, lang: str) -> str:
    """The markup of one page, each entry in ``lang`` or else in English."""
    own, english = catalogues.load(lang), catalogues.load("en")

    def text(key: str) -> str:
        return own.get(key) or english.get(key) or ""

    def bullet(line: Line) -> str:
        words = text(line.key)
        return words.replace("{wild}", text(line.wild)) if line.wild else words

    parts = [text(f"howto.{preset}.aim")]
    for heading, lines in PAGES[preset]:
        title = f"<font color='{HEADING_COLOUR}'><b>{text(heading)}</b></font>"
        parts.append(title + "<br>" + "<br>".join("• " + bullet(line) for line in lines))
    return "<br><br>".join(parts)


RULES_TEXT: Final[dict[str, dict[str, str]]] = {
    lang: {preset: _page(preset, lang) for preset in PAGES} for lang in LANGUAGES
}
"""Language → preset name → the "How to play" markup."""


def rules_text(preset: str, lang: str) -> str:
    """The "How to play" text of ``preset`` in ``lang``.

    An unknown language falls back to English; an unknown preset gives "". Never raises.
    """
    if not isinstance(preset, str):
        return ""
    english = RULES_TEXT["en"]
    texts = RULES_TEXT.get(lang, english) if isinstance(lang, str) else english
    return texts.get(preset) or english.get(preset) or ""
