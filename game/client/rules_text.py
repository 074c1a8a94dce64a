"""The "How to play" pages of every preset, in every language, put together from the catalogues.

Every rule set has a page of rules; some have more (``classic``: its source's five strategy
tips and its short FAQ), each short enough to be read whole at 1024×600. A page is an
opening line, then sections: a heading over its lines, "• " bullets (an FAQ's answers have
none). `PAGES` says which keys make each page; their texts are catalogue entries like any
other (``howto.duel.aim``, ``howto.duel.setup`` for a heading, ``howto.duel.setup.1`` for
its first bullet; ``howto.classic.tips.intro``, ``howto.classic.faq.1`` for a question and
``howto.classic.faq.1.1`` for its answer), so a language translates them in its ``.po``
file. The Controls sections share two sentences, ``howto.play`` (whose ``{wild}`` is filled
by a ``howto.wild.*`` entry) and ``howto.keys``.

The result is pygame_gui ``UITextBox`` markup restricted to a small subset: ``<b>``,
``<i>``, ``<br>`` and ``<font color='...'>`` for the headings; entries may hold ``<b>``
and ``<i>``. The rules follow docs/rules.md (the **[our reading]** lines included); the
French follows the wording of the French sources (pioche, défausse, manche, donneur,
« Carte », « Menteur », Terminer…).

``rules_text(preset, lang)`` and ``rules_pages(preset, lang)`` (every page of a rule set,
its rules first) never raise: an unknown language falls back to English, as does an entry
missing from a language; an unknown preset gives an empty string.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from . import catalogues
from .i18n import LANGUAGES

HEADING_COLOUR: Final = "#f0d060"


class Line(NamedTuple):
    """A line: the key of its text, and the key of the words that fill its ``{wild}``, if any."""

    key: str
    wild: str | None = None


Section = tuple[str, tuple[Line, ...]]
"""A heading's key and its lines."""


class Page(NamedTuple):
    """The keys of one page: its opening line, its sections, and whether their lines are bullets."""

    opening: str
    sections: tuple[Section, ...]
    bullets: bool = True


def _section(preset: str, name: str, count: int, *shared: Line) -> Section:
    """Section ``name`` of a page: the shared lines first, then ``count`` of its own."""
    own = tuple(Line(f"howto.{preset}.{name}.{n}") for n in range(1, count + 1))
    return f"howto.{preset}.{name}", shared + own


def _rules(preset: str, *sections: Section) -> Page:
    """A rule set's rules: its aim, then its sections."""
    return Page(f"howto.{preset}.aim", sections)


_KEYS: Final = Line("howto.keys")


def _play(wild: str) -> Line:
    return Line("howto.play", f"howto.wild.{wild}")


PAGES: Final[dict[str, dict[str, Page]]] = {
    "rules": {
        "duel": _rules(
            "duel",
            _section("duel", "setup", 2),
            _section("duel", "turn", 5),
            _section("duel", "end", 3),
            _section("duel", "controls", 1, _play("eight"), _KEYS),
            _section("duel", "tips", 2),
        ),
        "classic": _rules(
            "classic",
            _section("classic", "setup", 4),
            _section("classic", "turn", 4),
            _section("classic", "end", 3),
            _section("classic", "controls", 2),
        ),
        "points": _rules(
            "points",
            _section("points", "setup", 2),
            _section("points", "turn", 3),
            _section("points", "actions", 3),
            _section("points", "end", 3),
            _section("points", "controls", 0, _play("eight"), _KEYS),
            _section("points", "tips", 2),
        ),
        "colors": _rules(
            "colors",
            _section("colors", "setup", 3),
            _section("colors", "turn", 1),
            _section("colors", "special", 5),
            _section("colors", "end", 4),
            _section("colors", "controls", 0, _play("colour"), _KEYS),
            _section("colors", "tips", 2),
        ),
        "action": _rules(
            "action",
            _section("action", "setup", 2),
            _section("action", "turn", 3),
            _section("action", "special", 5),
            _section("action", "end", 2),
            _section("action", "controls", 0, _play("eight_or_joker"), _KEYS),
            _section("action", "tips", 2),
        ),
    },
    "tips": {
        "classic": Page("howto.classic.tips.intro", (_section("classic", "tips", 5),)),
    },
    "faq": {
        "classic": Page("howto.classic.faq.intro",
                        tuple(_section("classic", f"faq.{n}", 1) for n in range(1, 5)), bullets=False),
    },
}
"""The kinds of page How to play may show for a rule set, in order (``rules``, then ``tips`` and
``faq``), each → preset name → the keys of its page. Every preset has rules; the classic
source's five strategy tips and its short FAQ are the classic rules' own."""


def page_keys(preset: str) -> list[str]:
    """Every catalogue key the pages of ``preset`` read, in order."""
    keys = []
    for pages in PAGES.values():
        page = pages.get(preset)
        if page is None:
            continue
        keys.append(page.opening)
        for heading, lines in page.sections:
            keys.append(heading)
            for line in lines:
                keys += [line.key] + ([line.wild] if line.wild else [])
    return keys


def _markup(page: Page, lang: str) -> str:
    """The markup of one page, each entry in ``lang`` or else in English."""
    own, english = catalogues.load(lang), catalogues.load("en")

    def text(key: str) -> str:
        return own.get(key) or english.get(key) or ""

    def line(words: Line) -> str:
        said = text(words.key)
        said = said.replace("{wild}", text(words.wild)) if words.wild else said
        return "• " + said if page.bullets else said

    parts = [text(page.opening)]
    for heading, lines in page.sections:
        title = f"<font color='{HEADING_COLOUR}'><b>{text(heading)}</b></font>"
        parts.append(title + "<br>" + "<br>".join(line(words) for words in lines))
    return "<br><br>".join(parts)


RULES_TEXT: Final[dict[str, dict[str, str]]] = {
    lang: {preset: _markup(page, lang) for preset, page in PAGES["rules"].items()} for lang in LANGUAGES
}
"""Language → preset name → the "How to play" markup (its rules)."""

MORE_PAGES: Final[dict[str, dict[str, dict[str, str]]]] = {
    lang: {
        preset: {kind: _markup(PAGES[kind][preset], lang) for kind in PAGES
                 if kind != "rules" and preset in PAGES[kind]}
        for preset in PAGES["rules"] if any(preset in PAGES[kind] for kind in PAGES if kind != "rules")
    }
    for lang in LANGUAGES
}
"""Language → preset → page (``tips``, ``faq``) → markup: the pages a rule set has besides its rules."""


def rules_pages(preset: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Every page of ``preset``'s How to play in ``lang``, as (kind, markup), the rules first
    (kinds from `PAGES`). Falls back as `rules_text` does; never raises."""
    rules = rules_text(preset, lang)
    if not isinstance(preset, str):
        return (("rules", rules),)
    english = MORE_PAGES["en"].get(preset, {})
    pages = MORE_PAGES.get(lang, MORE_PAGES["en"]) if isinstance(lang, str) else MORE_PAGES["en"]
    more = pages.get(preset, {})
    return (("rules", rules),) + tuple((kind, more.get(kind) or english[kind]) for kind in PAGES
                                       if kind in english)


def rules_text(preset: str, lang: str) -> str:
    """The "How to play" text of ``preset`` in ``lang``.

    An unknown language falls back to English; an unknown preset gives "". Never raises.
    """
    if not isinstance(preset, str):
        return ""
    english = RULES_TEXT["en"]
    texts = RULES_TEXT.get(lang, english) if isinstance(lang, str) else english
    return texts.get(preset) or english.get(preset) or ""
