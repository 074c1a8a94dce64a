"""Catalogue upkeep: ``python -m tools.i18n [check | sync | compile OUTDIR | port REV] [--locale DIR]``.

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
* ``port REV`` carries into the catalogues what a branch written before the catalogues
  did to the old dictionaries (``EN`` and ``FR``, and any ``…_EN``/``…_FR`` such as
  ``ONLINE_EN`` or ``MODES_FR``, in ``game/client/i18n.py`` and ``i18n_data.py``): against
  the commit it shares with HEAD, the keys it added go into English and French (after the
  key before them), the texts it changed are changed, the keys it removed are removed;
  then ``sync`` (Babel). What is left to do, Spanish and German, ``check`` lists. For a
  merge: ``git merge BRANCH``, take HEAD's side of the two files (``git checkout --ours``,
  or remove ``i18n_data.py``), then ``python -m tools.i18n port BRANCH``.

``--locale DIR`` works on another catalogue folder (default: the checkout's ``game/locale``).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import subprocess
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


# ---- port (Babel) ---------------------------------------------------------------------------------
DICT_FILES = ("game/client/i18n.py", "game/client/i18n_data.py", "game/client/i18n_online.py")
DICT_LANGUAGES = {"EN": "en", "FR": "fr"}
"""The dictionaries the catalogues replaced, by the language they held: ``EN``, ``FR``, and any
name ending in ``_EN`` or ``_FR`` (``ONLINE_EN``, ``MODES_FR``: the parts merged into them)."""


def dict_language(name: str) -> str | None:
    """The language an old dictionary held, by its name (``MODES_FR`` held French); None if not one."""
    return DICT_LANGUAGES.get(name.rpartition("_")[2])

Texts = dict[str, dict[str, str]]
"""Language → key → text."""


def dict_texts(source: str) -> Texts:
    """The literal entries of the old dictionaries in a module's source, read without running it."""
    found: Texts = {"en": {}, "fr": {}}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        lang = dict_language(target.id) if isinstance(target, ast.Name) else None
        if lang is None or not isinstance(value, ast.Dict):
            continue
        for key, text in zip(value.keys, value.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):  # not a ``**`` merge
                try:
                    words = ast.literal_eval(text)
                except ValueError:
                    continue
                if isinstance(words, str):
                    found[lang][key.value] = words
    return found


def texts_at(revision: str) -> Texts:
    """The old dictionaries as they were at a git revision (empty where the files are gone)."""
    found: Texts = {"en": {}, "fr": {}}
    for path in DICT_FILES:
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True,
                               text=True, check=False)
        if shown.returncode == 0:
            for lang, texts in dict_texts(shown.stdout).items():
                found[lang].update(texts)
    return found


def port_texts(locale: Path, theirs: Texts, base: Texts) -> list[str]:
    """Apply to the English and French catalogues what ``theirs`` changed against ``base``; what
    was done, one line each."""
    done = []
    for lang in ("en", "fr"):
        done += _port_language(locale, lang, theirs[lang], base[lang], theirs["en"])
    return done


def _port_language(locale: Path, lang: str, new: dict[str, str], old: dict[str, str],
                   english: dict[str, str]) -> list[str]:
    """One catalogue: the keys added after their neighbour, the texts changed, the keys removed."""
    from babel.messages.pofile import read_po

    added = [k for k in new if k not in old]
    changed = {k for k in new if k in old and new[k] != old[k]}
    removed = {k for k in old if k not in new}
    path = po_path(locale, lang)
    with path.open("rb") as file:
        before = read_po(file, locale=lang, domain=DOMAIN)
    order = list(new)
    after: dict[str, list[str]] = {}
    for key in added:  # after the nearest key before it that the catalogue holds
        at = order.index(key)
        anchor = next((k for k in reversed(order[:at]) if k in before and k not in removed), "")
        after.setdefault(anchor, []).append(key)
    catalogue = new_catalogue(lang, before)
    entries: list[tuple[str, str, list[str], set[str]]] = [(k, new[k], [], set()) for k in after.get("", [])]
    for message in before:
        if message.id and message.id not in removed:
            text = new[message.id] if message.id in changed else message.string
            entries.append((message.id, text, list(message.auto_comments), set(message.flags)))
            entries += [(k, new[k], [], set()) for k in after.get(message.id, [])]
    for key, text, comments, flags in entries:
        if lang != "en" and (key in changed or key in added):  # theirs, translated from their English
            comments, flags = [_comment(english.get(key, ""))], flags - {"fuzzy"}
        catalogue.add(key, text, auto_comments=comments, flags=flags)
    write_catalogue(path, catalogue)
    return [f"{lang}: {what} {', '.join(sorted(keys))}"
            for what, keys in (("added", added), ("changed", changed), ("removed", removed)) if keys]


def port(locale: Path, revision: str) -> int:
    """Carry what ``revision`` did to the old dictionaries into the catalogues, then sync."""
    shared = subprocess.run(["git", "merge-base", "HEAD", revision], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    if shared.returncode != 0:
        print(f"port: no commit shared by HEAD and {revision!r}: {shared.stderr.strip()}", file=sys.stderr)
        return 2
    theirs, base = texts_at(revision), texts_at(shared.stdout.strip())
    if not theirs["en"]:
        print(f"port: {revision} has no dictionaries of strings: nothing to port")
        return 0
    for line in port_texts(locale, theirs, base) or ["nothing to port: the dictionaries did not change"]:
        print(line)
    sync(locale)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status."""
    parser = argparse.ArgumentParser(prog="python -m tools.i18n", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="check", choices=("check", "sync", "compile", "port"))
    parser.add_argument("target", nargs="?", help="compile: where the .mo files go; port: the git revision")
    parser.add_argument("--locale", type=Path, default=LOCALE, help="the catalogue folder (game/locale)")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return check(args.locale, ROOT / "game" if args.locale == LOCALE else None)
        if args.command in ("compile", "port") and not args.target:
            parser.error(f"{args.command} needs {'OUTDIR' if args.command == 'compile' else 'REV'}")
        if args.command == "compile":
            return compile_all(args.locale, Path(args.target))
        if args.command == "port":
            return port(args.locale, args.target)
        return sync(args.locale)
    except ImportError:
        print(f"{args.command} needs Babel: pip install -e '.[test]'", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"{args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

