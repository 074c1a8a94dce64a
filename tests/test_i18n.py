"""One catalogue, French and English, complete in both."""

import re

from game.client import i18n


def test_french_and_english_have_the_same_keys():
    assert set(i18n.EN) == set(i18n.FR)


def test_both_languages_fill_the_same_placeholders():
    for key, english in i18n.EN.items():
        assert set(re.findall(r"{(\w+)}", english)) == set(re.findall(r"{(\w+)}", i18n.FR[key])), key


def test_every_preset_and_option_has_a_label():
    from game.engine import OPTION_NAMES, PRESETS

    for name in PRESETS:
        assert f"preset.{name}" in i18n.EN and f"preset.{name}.line" in i18n.EN
    for option in OPTION_NAMES:
        assert f"option.{option}" in i18n.EN


def test_the_system_locale_picks_french(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.system_language() == "fr"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.system_language() == "en"


def test_switching_language_changes_every_later_string():
    try:
        i18n.set_language("fr")
        assert i18n.tr("menu.new") == "Nouvelle partie"
        assert i18n.tr("handoff.title", name="Ana") == "Passez l'appareil à Ana"
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

    for catalogue in i18n.CATALOGUE.values():
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
