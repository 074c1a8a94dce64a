"""The "How to play" texts: every preset in every language, in the markup UITextBox accepts."""

import re

import pytest

from game.client.i18n import LANGUAGES
from game.client.rules_text import MORE_PAGES, PAGES, RULES_TEXT, rules_pages, rules_text
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
    assert 150 <= len(words) <= 400  # colours, with where play starts: 395 words in French


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


MORE = [(lang, preset, kind)
        for lang in LANGS for preset, pages in MORE_PAGES[lang].items() for kind in pages]


def test_the_extra_pages_are_the_same_in_every_language_and_only_of_known_kinds():
    kinds = {lang: {p: set(k) for p, k in MORE_PAGES[lang].items()} for lang in LANGS}
    assert kinds["en"] == kinds["fr"]
    assert all(kinds[lang] == kinds["en"] for lang in LANGS)
    assert set(MORE_PAGES["en"]) <= set(PRESETS)
    assert all(set(pages) <= set(PAGES) - {"rules"} for pages in MORE_PAGES["en"].values())
    assert [kind for kind, _ in rules_pages("classic", "fr")] == ["rules", "tips", "faq"]
    assert rules_pages("classic", "xx") == rules_pages("classic", "en")  # unknown language: English
    assert rules_pages("duel", "en") == (("rules", rules_text("duel", "en")),)
    assert rules_pages(None, "en") == (("rules", ""),)  # type: ignore[arg-type]


@pytest.mark.parametrize(("lang", "preset", "kind"), MORE)
def test_extra_pages_use_only_allowed_balanced_tags_and_no_stray_characters(lang, preset, kind):
    text = MORE_PAGES[lang][preset][kind]
    stack = []
    for tag in TAG.findall(text):
        assert ALLOWED.match(tag), f"{lang}/{preset}/{kind}: <{tag}> is not allowed"
        name = tag.split()[0]
        if name == "br":
            continue
        if name.startswith("/"):
            assert stack and stack[-1] == name[1:]
            stack.pop()
        else:
            stack.append(name)
    assert not stack
    assert not set("<>&") & set(plain(text)) and "\n" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_classic_tips_are_the_sources_five_and_the_faq_its_four_questions(lang):
    tips, faq = MORE_PAGES[lang]["classic"]["tips"], MORE_PAGES[lang]["classic"]["faq"]
    assert tips.count("• ") == 5
    assert faq.count("<font color=") == 4 and "• " not in faq  # four questions, answered plainly
    same_rank = {"en": "same rank", "fr": "même valeur", "es": "mismo valor", "de": "gleichen Wert"}[lang]
    draws = {"en": "Watch who draws", "fr": "Regardez qui pioche", "es": "Fíjate en quién roba",
             "de": "Achte darauf, wer zieht"}[lang]
    assert same_rank in tips and draws in tips  # the two the classic page lacked
