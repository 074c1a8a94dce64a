"""One catalogue per language (gettext .po files), English, French, Spanish and German, complete in each."""

import re

import pytest

from game.client import catalogues, i18n

OTHERS = [lang for lang in i18n.LANGUAGES if lang != "en"]


def test_french_and_english_have_the_same_keys():
    assert set(i18n.catalogue("en")) == set(i18n.catalogue("fr"))


def test_both_languages_fill_the_same_placeholders():
    french = i18n.catalogue("fr")
    for key, english in i18n.catalogue("en").items():
        assert set(re.findall(r"{(\w+)}", english)) == set(re.findall(r"{(\w+)}", french[key])), key


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_every_english_key_and_no_other(lang):
    english, own = set(i18n.catalogue("en")), set(i18n.catalogue(lang))
    assert not english - own, f"{lang} lacks {sorted(english - own)}"
    assert not own - english, f"{lang} has keys English lacks: {sorted(own - english)}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_fills_the_placeholders_english_fills(lang):
    own = i18n.catalogue(lang)
    wrong = [key for key, english in i18n.catalogue("en").items()
             if catalogues.placeholders(english) != catalogues.placeholders(own.get(key, english))]
    assert not wrong, f"{lang}: placeholders differ from English in {wrong}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_is_translated_not_copied(lang):
    """A catalogue copied from English would pass the key checks: most strings must differ."""
    english, own = i18n.catalogue("en"), i18n.catalogue(lang)
    same = [key for key in english if own.get(key) == english[key]]
    assert len(same) < len(english) // 10, f"{lang}: {len(same)} strings are the English ones"


def test_every_preset_and_option_has_a_label():
    from game.engine import OPTION_NAMES, PRESETS

    english = i18n.catalogue("en")
    for name in PRESETS:
        assert f"preset.{name}" in english and f"preset.{name}.line" in english
    for option in OPTION_NAMES:
        assert f"option.{option}" in english


def test_the_system_locale_picks_french(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.system_language() == "fr"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert i18n.system_language() == "en"


@pytest.mark.parametrize(("value", "lang"), [
    ("de_DE.UTF-8", "de"), ("de_AT", "de"), ("es_MX.UTF-8", "es"), ("es", "es"), ("fr_CA.utf8", "fr"),
    ("en_GB.UTF-8", "en"), ("pt_BR.UTF-8", "en"), ("C.UTF-8", "en"), ("POSIX", "en"), ("de:en", "de"),
])
def test_the_system_locale_picks_a_supported_language_else_english(monkeypatch, value, lang):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LC_ALL" if ":" not in value else "LANGUAGE", value)
    assert i18n.system_language() == lang


def test_switching_language_changes_every_later_string():
    try:
        i18n.set_language("fr")
        assert i18n.tr("menu.new") == "Nouvelle partie"
        assert i18n.tr("handoff.title", name="Ana") == "Passez l'appareil à Ana"
        i18n.set_language("es")
        assert i18n.tr("menu.new") == "Nueva partida"
        i18n.set_language("de")
        assert i18n.tr("menu.new") == "Neues Spiel"
        i18n.set_language("en")
        assert i18n.tr("menu.new") == "New game"
    finally:
        i18n.set_language("en")


def test_a_missing_key_or_value_never_crashes():
    assert i18n.tr("no.such.key") == "no.such.key"
    assert i18n.tr("handoff.title") == "Pass the device to {name}"
    i18n.set_language("xx")
    assert i18n.language() == "en"


def test_every_declared_option_has_a_label_and_its_zero_in_each_language():
    from game.engine import OPTIONS

    for lang in i18n.LANGUAGES:
        catalogue = i18n.catalogue(lang)
        for option in OPTIONS:
            assert f"option.{option.name}" in catalogue, option.name
            if option.zero is not None:
                assert f"option.zero.{option.zero}" in catalogue, option.name
    try:
        i18n.set_language("fr")
        hand_size = next(o for o in OPTIONS if o.name == "hand_size")
        assert i18n.option_label(hand_size) == "Cartes par main"
        assert i18n.zero_text(hand_size) == "selon les joueurs"
    finally:
        i18n.set_language("en")


def test_the_settings_list_each_language_by_its_own_name():
    assert i18n.LANGUAGES == ("en", "fr", "es", "de")
    assert i18n.LANGUAGE_NAMES == {"en": "English", "fr": "Français", "es": "Español", "de": "Deutsch"}


def test_a_colour_deck_refusal_agrees_with_the_card_in_each_language():
    from game.engine import IllegalAction
    from tests.support import act, make_match

    colours = make_match("colors", ["G3 B9", "Y5 Y6"], "R7", "B1 B2 B3")
    with pytest.raises(IllegalAction) as caught:
        act(colours, "play G3")
    expected = {"en": "a red card", "fr": "une carte rouge", "es": "una carta roja", "de": "eine rote Karte"}
    try:
        for lang, words in expected.items():
            i18n.set_language(lang)
            assert words in i18n.reason(caught.value, colours=True), lang
    finally:
        i18n.set_language("en")


def test_the_settings_accept_exactly_the_languages_huit_speaks():
    from game.client.settings import Settings

    for lang in i18n.LANGUAGES:
        settings, ignored = Settings.parse({"language": lang})
        assert (settings.language, ignored) == (lang, [])
    for odd in ("xx", "EN", "de_DE", "", 3, None, ["fr"]):
        settings, ignored = Settings.parse({"language": odd})
        assert ignored == ["language"] and settings.language in i18n.LANGUAGES
