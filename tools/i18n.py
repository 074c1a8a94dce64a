"""Catalogue upkeep: ``python -m tools.i18n [check | sync | compile OUTDIR] [--locale DIR]``.

English (``game/locale/en/LC_MESSAGES/huit.po``) is the reference: its keys are the
keys every language must have. Every message's ``msgid`` is a key, its ``msgstr`` the text.

* ``check`` (the default) lists, per language, the keys it lacks, those it leaves
  untranslated or fuzzy, those English does not have, and those whose ``{placeholders}``
  differ from English's; then the keys the code passes to ``tr("…")`` literally (found
  by Babel's extractor) that English lacks. Exit status 1 if anything is listed. Needs
  only the game, except the scan of the code, which needs Babel (said when skipped).
* ``sync`` brings every other language in line with English (Babel): a key English
  gained is added untranslated, a key English lost is dropped, the entries follow
  English's order, and each carries the English as a comment (``#. en: …``); where that
  comment shows that the English changed since the entry was translated, the entry is
  marked fuzzy (the game shows the English until someone checks the translation and
  removes the flag). An entry written by hand without the comment just gets it.
  A language of `LANGUAGES` without a catalogue gets one, every entry untranslated.
* ``compile OUTDIR`` writes ``OUTDIR/<lang>/LC_MESSAGES/huit.mo`` for every language
  (Babel), as the wheel's build does (``setup.py``); fuzzy entries are left out.

``--locale DIR`` works on another catalogue folder (default: the checkout's ``game/locale``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game.client.catalogues import DOMAIN, PoEntry, placeholders, po_entries
from game.client.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "game" / "locale"
COMMENT = "en: "
"""How an entry's English is written in its comment: ``#. en: New game``."""


def po_path(locale: Path, lang: str) -> Path:
    """The catalogue of ``lang`` under ``locale``."""
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def entries(locale: Path, lang: str) -> dict[str, PoEntry]:
    """The messages of a language's catalogue by key (none if it has no file), the header left out."""
    path = po_path(locale, lang)
    if not path.is_file():
        return {}
    return {e.key: e for e in po_entries(path.read_text(encoding="utf-8")) if e.key}


# ---- check ---------------------------------------------------------------------------------------
def language_problems(english: dict[str, PoEntry], own: dict[str, PoEntry]) -> list[tuple[str, list[str]]]:
    """What a language lacks or gets wrong against English: (what, keys) pairs, empty ones left out."""
    found = [
        ("missing", [k for k in english if k not in own]),
        ("untranslated", [k for k in english if k in own and not own[k].text]),
        ("fuzzy (its English changed: check it, then remove the flag)",
         [k for k in english if k in own and own[k].text and own[k].fuzzy]),
        ("not in English", [k for k in own if k not in english]),
        ("placeholders differ from English's",
         [k for k in english if k in own and own[k].text
          and placeholders(own[k].text) != placeholders(english[k].text)]),
    ]
    return [(what, keys) for what, keys in found if keys]


def code_keys(root: Path) -> Iterator[tuple[str, str]]:
    """The literal keys the code under ``root`` passes to ``tr``, with where, found by Babel.

    Babel joins the literals of one call (``tr("a" if x else "b")`` gives ``ab``) and keeps
    the literal head of a built key (``tr("level." + name)`` gives ``level.``)."""
    from babel.messages.extract import extract_from_dir

    with contextlib.redirect_stderr(io.StringIO()):  # its notes on f-strings: keys built at run time
        found = list(extract_from_dir(str(root), method_map=[("**.py", "python")], keywords={"tr": None}))
    for filename, line, message, _, _ in found:
        if isinstance(message, str):
            yield message, f"{root.name}/{filename}:{line}"


def known(message: str, keys: set[str]) -> bool:
    """Whether a literal found in a ``tr`` call is an English key, the head of some keys
    (``level.``), or several keys joined by Babel."""
    if message in keys or (message.endswith(".") and any(k.startswith(message) for k in keys)):
        return True
    ends = {0}
    for end in range(1, len(message) + 1):
        if any(start in ends and message[start:end] in keys for start in range(end)):
            ends.add(end)
    return len(message) in ends


def check(locale: Path, code: Path | None) -> int:
    """Print what every language lacks, and the code's keys English lacks; 1 if anything."""
    english = {k: e for k, e in entries(locale, "en").items() if e.text and not e.fuzzy}
    if not english:
        print(f"en: no catalogue at {po_path(locale, 'en')}")
        return 1
    print(f"en: {len(english)} keys")
    bad = False
    for lang in LANGUAGES[1:]:
        problems = language_problems(english, entries(locale, lang))
        if not problems:
            print(f"{lang}: complete")
        for what, keys in problems:
            bad = True
            print(f"{lang}: {len(keys)} {what}: {', '.join(keys)}")
    if code is not None:
        try:
            found = list(code_keys(code))
        except ImportError:
            print("code: not scanned (Babel is not installed: pip install -e '.[test]')")
        else:
            unknown = [(m, where) for m, where in found if not known(m, set(english))]
            for message, where in unknown:
                print(f"code: {where}: tr({message!r}) is not an English key")
            if not unknown:
                print(f"code: the {len(found)} literal keys passed to tr() are English keys")
            bad = bad or bool(unknown)
    return 1 if bad else 0


# ---- sync and compile (Babel) ----------------------------------------------------------------------
def _english_name(lang: str) -> str:
    from babel import Locale

    return str(Locale.parse(lang).english_name)


def _header(lang: str) -> str:
    return (f"# Huit: the {_english_name(lang)} catalogue. Each msgid is a key, its msgstr the text\n"
            "# (CONTRIBUTING.md, \"Add or change a string\"); the English is in each entry's comment.\n"
            "# This file is distributed under the same license as Huit.")


def _comment(english: str) -> str:
    return COMMENT + english.replace("\\", "\\\\").replace("\n", "\\n")


def _words(comments: list[str]) -> list[str]:
    """A comment's words: Babel wraps comments at 76 columns, which moves and drops spaces."""
    return " ".join(comments).split()


def new_catalogue(lang: str, like: Any = None) -> Any:
    """An empty Babel catalogue for ``lang``, with the dates of ``like`` if given."""
    import tomllib
    from datetime import UTC, datetime

    from babel.messages.catalog import Catalog

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    created = getattr(like, "creation_date", None) or now
    revised = getattr(like, "revision_date", None)
    return Catalog(locale=lang, domain=DOMAIN, project="Huit", version=version, header_comment=_header(lang),
                   msgid_bugs_address="the Huit issue tracker", creation_date=created,
                   revision_date=revised if isinstance(revised, datetime) else now,
                   last_translator="the Huit authors", language_team=_english_name(lang), fuzzy=False)


def write_catalogue(path: Path, catalogue: Any) -> None:
    """Write a catalogue as every Huit ``.po`` is written: no wrapping, no source lines."""
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=0, no_location=True, omit_header=False, ignore_obsolete=True,
             include_previous=False)
    path.write_bytes(buffer.getvalue())


def sync(locale: Path) -> int:
    """Bring every language's catalogue in line with English's keys, order and text."""
    from babel.messages.pofile import read_po

    with po_path(locale, "en").open("rb") as file:
        english = [m for m in read_po(file, locale="en", domain=DOMAIN) if m.id]
    for lang in LANGUAGES[1:]:
        path = po_path(locale, lang)
        old = None
        if path.is_file():
            with path.open("rb") as file:
                old = read_po(file, locale=lang, domain=DOMAIN)
        catalogue = new_catalogue(lang, old)
        added, flagged = [], []
        for message in english:
            comment = _comment(message.string)
            before = old.get(message.id) if old is not None else None
            text = before.string if before is not None else ""
            fuzzy = bool(before is not None and text and before.fuzzy)
            seen = [c for c in before.auto_comments if c] if before is not None else []
            if text and not fuzzy and seen and _words(seen) != _words([comment]):
                fuzzy = True
                flagged.append(message.id)
            if before is None:
                added.append(message.id)
            catalogue.add(message.id, text, auto_comments=[comment], flags=["fuzzy"] if fuzzy else [])
        ids = {m.id for m in english}
        dropped = [m.id for m in old if m.id and m.id not in ids] if old is not None else []
        write_catalogue(path, catalogue)
        print(f"{lang}: {len(added)} added, {len(flagged)} marked fuzzy, {len(dropped)} dropped"
              + "".join(f"\n  {what}: {', '.join(keys)}" for what, keys in
                        (("added", added), ("marked fuzzy", flagged), ("dropped", dropped)) if keys))
    return 0


def compile_all(locale: Path, outdir: Path) -> int:
    """Compile every language's catalogue to ``outdir/<lang>/LC_MESSAGES/huit.mo``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for lang in LANGUAGES:
        with po_path(locale, lang).open("rb") as file:
            catalogue = read_po(file, locale=lang, domain=DOMAIN)
        target = outdir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as file:
            write_mo(file, catalogue, use_fuzzy=False)
        print(target)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status."""
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="check", choices=("check", "sync", "compile"))
    parser.add_argument("outdir", nargs="?", type=Path, help="compile: where the .mo files go")
    parser.add_argument("--locale", type=Path, default=LOCALE, help="the catalogue folder (game/locale)")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return check(args.locale, ROOT / "game" if args.locale == LOCALE else None)
        if args.command == "compile":
            if args.outdir is None:
                parser.error("compile needs OUTDIR")
            return compile_all(args.locale, args.outdir)
        return sync(args.locale)
    except ImportError:
        print(f"{args.command} needs Babel: pip install -e '.[test]'", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

