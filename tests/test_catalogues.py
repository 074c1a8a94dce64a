"""The gettext catalogues: the .po reader, a built .mo preferred while it is up to date, a damaged
catalogue never stopping the game, and the compiled catalogues (Babel) saying what the .po files say."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.client import catalogues, i18n

PO = '''# Huit: a test catalogue.
msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=utf-8\\n"

#. en: New game
msgid "menu.new"
msgstr "Neues Spiel"

#. en: a long one
msgid "save.unreadable"
msgstr ""
"Das gespeicherte Spiel ({mode}) konnte nicht gelesen werden: "
"{why}. Sag \\"Hallo\\"\\tund\\\\oder\\n"

#, fuzzy
msgid "menu.quit"
msgstr "Ende"

msgid "menu.rules"
msgstr ""

msgctxt "button"
msgid "menu.continue"
msgstr "Weiter"

#~ msgid "menu.old"
#~ msgstr "Alt"
'''


@pytest.fixture
def locale(tmp_path, monkeypatch):
    """A catalogue folder of our own in place of the game's; the cache emptied before and after."""
    def where(lang: str, suffix: str = ".po") -> Path:
        return tmp_path / lang / "LC_MESSAGES" / f"huit{suffix}"

    monkeypatch.setattr(catalogues, "catalogue_file", where)
    catalogues.load.cache_clear()
    yield where
    catalogues.load.cache_clear()


def write(path: Path, data: str | bytes, mtime: float | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def test_a_po_file_reads_as_its_keys_and_texts():
    assert catalogues.read_po(PO) == {
        "menu.new": "Neues Spiel",
        "save.unreadable": 'Das gespeicherte Spiel ({mode}) konnte nicht gelesen werden: {why}. '
                           'Sag "Hallo"\tund\\oder\n',
    }


def test_the_reader_keeps_what_compiling_keeps_and_says_what_it_left_out():
    entries = {e.key: e for e in catalogues.po_entries(PO)}
    assert entries["menu.quit"].fuzzy and entries["menu.quit"].text == "Ende"
    assert entries["menu.rules"].text == ""
    assert "menu.continue" not in entries and "menu.old" not in entries  # a context, an obsolete entry
    assert entries[""].text.startswith("Language: de")


@pytest.mark.parametrize("bad", ['msgid "a"\nmsgstr "b', 'msgid "a"\nmsgstr b', 'msgid "a"\nnonsense\n',
                                 'msgid "a"\nmsgstr "\\N{nope}"'])
def test_a_malformed_po_file_is_refused_naming_its_line(bad):
    with pytest.raises(ValueError, match="line 2"):
        catalogues.read_po(bad)


def test_a_damaged_catalogue_gives_no_entries_and_the_game_speaks_english(locale, capsys):
    write(locale("de"), 'msgid "menu.new"\nmsgstr "Neues\n')
    assert catalogues.load("de") == {}
    assert "the de catalogue cannot be read (line 2" in capsys.readouterr().err
    write(locale("en"), PO.replace("Neues Spiel", "New game"))
    try:
        i18n.set_language("de")
        assert i18n.tr("menu.new") == "New game"
    finally:
        i18n.set_language("en")


def test_a_missing_catalogue_gives_no_entries(locale):
    assert catalogues.load("de") == {}


def test_a_built_mo_file_is_read_while_it_is_up_to_date(locale):
    babel = pytest.importorskip("babel.messages.mofile")
    from babel.messages.catalog import Catalog

    compiled = Catalog(locale="de", domain="huit")
    compiled.add("menu.new", "Neues Spiel (kompiliert)")
    out = locale("de", ".mo")
    out.parent.mkdir(parents=True)
    with out.open("wb") as file:
        babel.write_mo(file, compiled)
    write(locale("de"), PO, mtime=1_000_000)
    os.utime(out, (2_000_000, 2_000_000))
    assert catalogues.load("de") == {"menu.new": "Neues Spiel (kompiliert)"}
    catalogues.load.cache_clear()
    os.utime(locale("de"), (3_000_000, 3_000_000))  # the .po edited since: the .mo is stale
    assert catalogues.load("de")["menu.new"] == "Neues Spiel"
    catalogues.load.cache_clear()
    locale("de").unlink()  # an installed wheel: only the .mo
    assert catalogues.load("de") == {"menu.new": "Neues Spiel (kompiliert)"}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_catalogue_compiled_by_babel_says_what_its_po_file_says(lang, tmp_path):
    pytest.importorskip("babel")
    from tools.i18n import compile_all

    compile_all(catalogues_folder(), tmp_path)
    compiled = catalogues.read_mo((tmp_path / lang / "LC_MESSAGES" / "huit.mo").read_bytes())
    source = catalogues.read_po((catalogues_folder() / lang / "LC_MESSAGES" / "huit.po").read_text("utf-8"))
    assert compiled == source
    assert len(source) > 400


def catalogues_folder() -> Path:
    return Path(str(catalogues.catalogue_file("en"))).parents[2]


def test_the_checkout_holds_a_po_file_for_every_language_and_no_other():
    folder = catalogues_folder()
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == sorted(i18n.LANGUAGES)
    for lang in i18n.LANGUAGES:
        assert (folder / lang / "LC_MESSAGES" / "huit.po").is_file()


def test_placeholders_are_the_names_a_message_fills():
    assert catalogues.placeholders("{name} drew {cards}") == {"name", "cards"}
    assert catalogues.placeholders("no {{braces}} here") == set()
    assert catalogues.placeholders("broken {") == {"<malformed>"}
