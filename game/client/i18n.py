"""Every string a player reads, in English, French, Spanish and German, through one catalogue per language.

``tr("key", name="Ana")`` returns the string in the current language, formatted. The
strings are gettext catalogues, ``game/locale/<lang>/LC_MESSAGES/huit.po``, whose
``msgid`` is the key (`catalogues` reads them). The default language comes from the
system locale (a supported language, else English); settings switch it with
`set_language`. A key missing from a language falls back to English, then to the key
itself, so a gap never crashes the game.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping
from typing import Final

from game.engine import Card, Option
from game.engine.options import Zero

from . import catalogues
from .catalogues import LANGUAGES as LANGUAGES  # the languages Huit speaks, in the Settings screen's order

LANGUAGE_NAMES: Final = {"en": "English", "fr": "Français", "es": "Español", "de": "Deutsch"}
"""Each language by its own name, as the Settings screen lists it."""

_current = {"lang": "en"}


def catalogue(lang: str) -> Mapping[str, str]:
    """The messages of ``lang`` (key → text); empty for a language Huit does not speak."""
    return catalogues.load(lang) if lang in LANGUAGES else {}


def system_language() -> str:
    """The language of the system locale (``de_AT.UTF-8`` is German) if Huit speaks it; else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            return _supported(value)
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return _supported(code)


def _supported(code: str) -> str:
    """The language of a locale name (``fr_FR.UTF-8``, ``es``, ``de:en``), if Huit speaks it; else English."""
    lang = code.split(":")[0][:2].lower()
    return lang if lang in LANGUAGES else "en"


def set_language(lang: str) -> None:
    """Switch every later `tr` call to ``lang`` (an unknown language means English)."""
    _current["lang"] = lang if lang in LANGUAGES else "en"


def language() -> str:
    """The current language code."""
    return _current["lang"]


def tr(key: str, **values: object) -> str:
    """The string for ``key`` in the current language, with ``values`` filled in."""
    text = catalogue(_current["lang"]).get(key) or catalogue("en").get(key) or key
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def option_label(option: Option) -> str:
    """The name of a house rule (`game.engine.OPTIONS`) in the current language."""
    return tr(f"option.{option.name}")


def zero_text(option: Option) -> str:
    """What 0 means for a number option (its declared `Zero`), in the current language."""
    return tr(f"option.zero.{option.zero or Zero.OFF}")


def card_words(card: Card) -> str:
    """A card as the table names it: ``10♥``, ``Joker``, ``Red Skip`` / ``Passer rouge``, ``Wild +4``."""
    if card.code == "W":
        return tr("card.wild")
    if card.code == "W+4":
        return tr("card.wild4")
    if card.rank == "X":
        return tr("card.joker")
    if card.is_standard or card.suit is None:
        return card.label
    rank = {"skip": tr("card.skip"), "rev": tr("card.rev")}.get(card.rank, card.rank)
    return tr("card.colour", colour=tr(f"card.colour.{card.suit}"), rank=rank)


def _rank_words(card: Card) -> str:
    """``an ace``, ``a 7``, ``a Skip``: the top card's rank as something to play."""
    key = f"rank.a.{card.rank}"
    if key in catalogue("en"):
        return tr(key)
    return tr("rank.a.other", rank="10" if card.rank == "T" else card.rank)


def _is_wild(card: Card, wild: str) -> bool:
    return card.code in ("W", "W+4") or card.rank == "X" or (card.rank == "8" and wild != "wild")


def reason(error: Exception, names: list[str] | None = None, *, colours: bool = False) -> str:
    """An engine refusal (`IllegalAction`) in the current language, seats by their names;
    ``colours``: the game is played with the colour deck (it says "colour", not "suit")."""
    key = getattr(error, "key", "")
    english = catalogue("en")
    if not key or f"why.{key}" not in english:
        return str(error)
    from game.engine.cards import SUIT_SYMBOLS

    values = dict(getattr(error, "values", {}))
    suit = values.get("suit")
    none_key = "follow.none.colours" if colours else "follow.none"
    if "suit" in values:
        values["suit"] = ((SUIT_SYMBOLS.get(str(suit)) or tr(f"suit.{suit}").lower()) if suit
                          else tr("suit.none"))
    if "wild" in values:
        values["wild"] = tr(f"wild.{values['wild']}")
    if key == "must_follow":
        return _must_follow(values, suit, none_key, str(getattr(error, "values", {}).get("wild", "")))
    if "card" in values:
        values["card"] = card_words(Card(str(values["card"])))
    for name in ("seat", "to_act"):
        seat = values.get(name)
        if isinstance(seat, int):
            values[name] = names[seat] if names and 0 <= seat < len(names) else tr("new.seat", n=seat + 1)
    if colours and f"why.{key}.colours" in english:
        return tr(f"why.{key}.colours", **values)
    return tr(f"why.{key}", **values)


def _must_follow(values: dict[str, object], suit: object, none_key: str, wild: str) -> str:
    """"You must follow with a ♥ card or an ace, or play an eight." (no rank when the top card is wild).

    A colour of the colour deck has its own words (``follow.colour.R``: "a red card"), as an
    adjective agrees with "card" in some languages ("una carta roja", "eine rote Karte")."""
    if not suit:
        follow = tr(none_key)
    elif f"follow.colour.{suit}" in catalogue("en"):
        follow = tr(f"follow.colour.{suit}")
    else:
        follow = tr("follow.suit", suit=values["suit"])
    try:
        top = Card(str(values.get("card")))
    except ValueError:
        return tr("why.must_follow_suit", suit=follow, wild=values.get("wild", ""))
    if _is_wild(top, wild):
        return tr("why.must_follow_suit", suit=follow, wild=values.get("wild", ""))
    return tr("why.must_follow", suit=follow, rank=_rank_words(top), wild=values.get("wild", ""))


set_language(system_language())
