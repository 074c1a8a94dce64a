"""The "How to play" texts: every preset in every language, in the markup UITextBox accepts."""

import re

import pytest

from game.client.i18n import LANGUAGES
from game.client.rules_text import RULES_TEXT, rules_text
from game.engine.rules import PRESETS

LANGS = LANGUAGES
TAG = re.compile(r"<([^<>]*)>")
ALLOWED = re.compile(r"^(b|/b|i|/i|br|/font|font color='#[0-9a-fA-F]{6}')$")
KEY_NUMBERS = {"duel": "7", "classic": "5", "points": "50", "colors": "108", "action": "10"}
CASES = [(lang, preset) for lang in LANGS for preset in PRESETS]


def plain(text):
    return TAG.sub(" ", text)


def test_every_engine_preset_has_a_text_and_nothing_else():
    for lang in LANGS:
        assert set(RULES_TEXT[lang]) == set(PRESETS)


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_text_is_not_empty(lang, preset):
    assert plain(rules_text(preset, lang)).strip()
    assert rules_text(preset, lang) == RULES_TEXT[lang][preset]


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_only_allowed_tags(lang, preset):
    for tag in TAG.findall(RULES_TEXT[lang][preset]):
        assert ALLOWED.match(tag), f"{lang}/{preset}: <{tag}> is not allowed"


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_tags_are_balanced(lang, preset):
    stack = []
    for tag in TAG.findall(RULES_TEXT[lang][preset]):
        name = tag.split()[0]
        if name == "br":
            continue
        if name.startswith("/"):
            assert stack and stack[-1] == name[1:], f"{lang}/{preset}: stray <{tag}>"
            stack.pop()
        else:
            stack.append(name)
    assert not stack, f"{lang}/{preset}: unclosed {stack}"


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_no_stray_markup_characters(lang, preset):
    text = plain(RULES_TEXT[lang][preset])
    assert not set("<>&") & set(text)
    assert "\n" not in RULES_TEXT[lang][preset]


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_mentions_its_key_number(lang, preset):
    number = KEY_NUMBERS[preset]
    assert re.search(rf"(?<!\d){number}(?!\d)", plain(RULES_TEXT[lang][preset]))


@pytest.mark.parametrize(("lang", "preset"), CASES)
def test_length_is_about_a_screenful(lang, preset):
    words = [w for w in plain(RULES_TEXT[lang][preset]).split() if re.search(r"\w", w)]
    assert 150 <= len(words) <= 380


@pytest.mark.parametrize(("preset", "words"), [
    ("colors", ("« Carte »", "« Menteur »", "108")),
    ("action", ("Terminer", "Bonne pioche", "jumelle")),
    ("points", ("donne", "défausse")),
    ("duel", ("manche", "pioche")),
])
def test_french_uses_the_sources_terms(preset, words):
    for word in words:
        assert word in RULES_TEXT["fr"][preset]


def test_english_names_the_buttons():
    assert "Liar" in RULES_TEXT["en"]["colors"] and "Card" in RULES_TEXT["en"]["colors"]
    assert "End turn" in RULES_TEXT["en"]["action"]


def test_unknown_language_falls_back_to_english():
    for preset in PRESETS:
        assert rules_text(preset, "xx") == RULES_TEXT["en"][preset]
        assert rules_text(preset, "") == RULES_TEXT["en"][preset]


def test_unknown_preset_gives_empty_string():
    assert rules_text("poker", "en") == ""
    assert rules_text("poker", "fr") == ""
    assert rules_text("", "xx") == ""


def test_never_raises_on_odd_arguments():
    assert rules_text(None, None) == ""  # type: ignore[arg-type]
    assert rules_text(["duel"], "en") == ""  # type: ignore[arg-type]
    assert rules_text("duel", ["fr"]) == RULES_TEXT["en"]["duel"]  # type: ignore[arg-type]
