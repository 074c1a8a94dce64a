"""``python -m tools.i18n``: ``check`` lists what each language lacks against English, ``sync`` brings
the translations in line with English (Babel), and the scan of the code finds keys English lacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tools import i18n as tool

LOCALE = tool.LOCALE


@pytest.fixture
def locale(tmp_path) -> Path:
    """A copy of the game's catalogues to change."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy, ignore=shutil.ignore_patterns("*.mo"))
    return copy


def edit(locale: Path, lang: str, old: str, new: str) -> None:
    path = tool.po_path(locale, lang)
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_check_finds_every_language_of_the_checkout_complete(capsys):
    assert tool.main(["check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("en: ") and out[0].endswith(" keys")
    assert out[1:4] == ["fr: complete", "es: complete", "de: complete"]
    assert out[4].startswith("code: ")


def test_check_lists_what_each_language_lacks_and_fails(locale, capsys):
    edit(locale, "es", 'msgid "menu.new"\nmsgstr "Nueva partida"\n', "")
    edit(locale, "es", 'msgid "menu.quit"\n', '#, fuzzy\nmsgid "menu.quit"\n')
    edit(locale, "de", 'msgstr "{n} Karten"', 'msgstr "{count} Karten"')
    edit(locale, "de", 'msgstr "Zurück zum Menü"', 'msgstr ""')
    edit(locale, "fr", 'msgid "menu.new"\n', 'msgid "menu.nouveau"\nmsgstr "En trop"\n\nmsgid "menu.new"\n')
    assert tool.main(["check", "--locale", str(locale)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "fr: 1 not in English: menu.nouveau" in out
    assert "es: 1 missing: menu.new" in out
    assert "es: 1 fuzzy (its English changed: check it, then remove the flag): menu.quit" in out
    assert "de: 1 untranslated: pause.menu" in out
    assert "de: 1 placeholders differ from English's: table.cards" in out


def test_a_language_without_a_catalogue_lacks_every_key(locale, capsys):
    shutil.rmtree(locale / "de")
    assert tool.main(["check", "--locale", str(locale)]) == 1
    assert any(line.startswith("de: ") and " missing: app.title, " in line
               for line in capsys.readouterr().out.splitlines())


def test_sync_adds_new_english_keys_flags_changed_ones_and_drops_the_rest(locale, capsys):
    pytest.importorskip("babel")
    edit(locale, "en", 'msgid "menu.quit"\nmsgstr "Quit"\n',
         'msgid "menu.quit"\nmsgstr "Quit the game"\n\nmsgid "menu.credits"\nmsgstr "Credits"\n')
    edit(locale, "de", '#. en: New game\n', 'msgid "menu.alt"\nmsgstr "Veraltet"\n\n#. en: New game\n')
    edit(locale, "es", '#. en: Continue\n', '')  # a translation written by hand, without the English
    assert tool.main(["sync", "--locale", str(locale)]) == 0
    out = capsys.readouterr().out
    assert "de: 1 added, 1 marked fuzzy, 1 dropped" in out and "fr: 1 added, 1 marked fuzzy, 0 dropped" in out
    german = tool.entries(locale, "de")
    assert german["menu.credits"].text == "" and "menu.alt" not in german
    assert german["menu.quit"].fuzzy and german["menu.quit"].text == "Beenden"
    assert not tool.entries(locale, "es")["menu.continue"].fuzzy
    assert "es: 1 added, 1 marked fuzzy, 0 dropped" in out
    text = tool.po_path(locale, "de").read_text(encoding="utf-8")
    assert '#. en: Credits\nmsgid "menu.credits"\nmsgstr ""' in text
    assert '#. en: Quit the game\n#, fuzzy\nmsgid "menu.quit"' in text
    assert tool.main(["check", "--locale", str(locale)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "de: 1 untranslated: menu.credits" in lines
    assert "de: 1 fuzzy (its English changed: check it, then remove the flag): menu.quit" in lines
    before = {lang: tool.po_path(locale, lang).read_bytes() for lang in ("fr", "es", "de")}
    assert tool.main(["sync", "--locale", str(locale)]) == 0  # a second sync changes nothing
    assert before == {lang: tool.po_path(locale, lang).read_bytes() for lang in ("fr", "es", "de")}


def test_the_scan_of_the_code_names_a_literal_key_english_lacks(tmp_path, capsys):
    pytest.importorskip("babel")
    code = tmp_path / "game"
    code.mkdir()
    (code / "scene.py").write_text('from x import tr\n\ntr("menu.new")\ntr("level." + name)\n'
                                   'tr("online.here" if ok else "online.away")\ntr("menu.nope")\n')
    assert tool.check(LOCALE, code) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "code: game/scene.py:6: tr('menu.nope') is not an English key"


def test_literal_keys_are_known_as_keys_heads_of_keys_or_keys_joined():
    keys = {"menu.new", "online.here", "online.away", "level.easy"}
    assert tool.known("menu.new", keys) and tool.known("level.", keys)
    assert tool.known("online.hereonline.away", keys)
    assert not tool.known("menu.nope", keys) and not tool.known("menus.", keys)
    assert not tool.known("online.hereonline", keys)


def test_compile_writes_a_mo_file_per_language(tmp_path, capsys):
    pytest.importorskip("babel")
    assert tool.main(["compile", str(tmp_path)]) == 0
    assert sorted(p.parent.parent.name for p in tmp_path.glob("*/LC_MESSAGES/huit.mo")) == sorted(
        ["en", "fr", "es", "de"])


OLD_MODULE = '''
from typing import Final
from . import i18n_data

EN: Final[dict[str, str]] = {
    "menu.new": "New game",
    "save.unreadable": "The {mode} saved game could not be read: {why}. It is kept until you start a new "
                       "game of that kind.",
    "fmt": ("a " "b"),
    "built": "x".upper(),
    **i18n_data.EN,
}
ONLINE_FR = {"menu.online": "Jouer en ligne"}
MODES_EN: Final[dict[str, str]] = {"menu.solo": "Solo against the computer"}
OTHER = {"menu.new": "not a catalogue"}
NOTES_EN = "not a dictionary"
'''


def test_the_old_dictionaries_are_read_from_source_without_running_it():
    texts = tool.dict_texts(OLD_MODULE)
    unreadable = ("The {mode} saved game could not be read: {why}. It is kept until you start a new game "
                  "of that kind.")
    assert texts["en"] == {"menu.new": "New game", "fmt": "a b", "save.unreadable": unreadable,
                           "menu.solo": "Solo against the computer"}
    assert texts["fr"] == {"menu.online": "Jouer en ligne"}


def test_port_carries_a_branchs_new_and_changed_strings_into_the_catalogues(locale, capsys):
    pytest.importorskip("babel")
    base = {"en": {"menu.new": "New game", "menu.continue": "Continue", "menu.quit": "Quit",
                   "menu.settings": "Settings"},
            "fr": {"menu.new": "Nouvelle partie", "menu.continue": "Continuer", "menu.quit": "Quitter",
                   "menu.settings": "Réglages"}}
    theirs = {"en": {"menu.new": "New game", "menu.continue": "Continue", "menu.credits": "Credits",
                     "menu.quit": "Quit the game"},
              "fr": {"menu.new": "Nouvelle partie", "menu.continue": "Continuer", "menu.credits": "Crédits",
                     "menu.quit": "Quitter le jeu"}}
    done = tool.port_texts(locale, theirs, base)
    assert done == ["en: added menu.credits", "en: changed menu.quit", "en: removed menu.settings",
                    "fr: added menu.credits", "fr: changed menu.quit", "fr: removed menu.settings"]
    tool.sync(locale)
    english = list(tool.entries(locale, "en"))
    assert english[english.index("menu.continue") + 1] == "menu.credits" and "menu.settings" not in english
    french, german = tool.entries(locale, "fr"), tool.entries(locale, "de")
    assert (french["menu.credits"].text, french["menu.credits"].fuzzy) == ("Crédits", False)
    assert (french["menu.quit"].text, french["menu.quit"].fuzzy) == ("Quitter le jeu", False)
    assert german["menu.credits"].text == "" and german["menu.quit"].fuzzy and "menu.settings" not in german
    capsys.readouterr()
    assert tool.main(["check", "--locale", str(locale)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "fr: complete" in lines and "es: 1 untranslated: menu.credits" in lines
