"""The gettext catalogues: one per language, ``game/locale/<lang>/LC_MESSAGES/huit.po``.

Each message's ``msgid`` is a key (``menu.continue_game``) and its ``msgstr`` the text in
that language; English is a catalogue like the others. A built package carries each
``.po`` compiled to ``huit.mo`` (the wheel's build step, with Babel). A checkout has no
``.mo`` (nothing compiles in place): the ``.po`` is read directly, so an edited string shows
at the next start without a build step. A ``.mo`` older than its ``.po`` (compiled by hand,
then the ``.po`` edited) is ignored for the same reason.

As gettext does, an entry with an empty ``msgstr`` or marked ``fuzzy`` is left out: the
game shows the English for it. A catalogue that cannot be read gives no entries rather
than an error, so a damaged file never stops the game.
"""

from __future__ import annotations

import ast
import gettext
import io
import pathlib
import string
import sys
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final, NamedTuple

LANGUAGES: Final = ("en", "fr", "es", "de")
"""The languages Huit speaks, in the order the Settings screen steps through them (also
`i18n.LANGUAGES`; here so that ``--lang`` is checked without loading the engine)."""

DOMAIN: Final = "huit"
"""The gettext domain: the catalogues' file name."""

_FIELDS: Final = ("msgctxt", "msgid", "msgid_plural", "msgstr")


def catalogue_file(lang: str, suffix: str = ".po") -> Traversable:
    """Where the catalogue of ``lang`` is (``.po``, or ``.mo`` for the compiled one), as package data."""
    return resources.files("game") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


class PoEntry(NamedTuple):
    """One message of a ``.po`` file as written: its key, its text ("" if untranslated), its fuzzy flag."""

    key: str
    text: str
    fuzzy: bool


def po_entries(text: str) -> list[PoEntry]:
    """Every singular message of a ``.po`` file, the header (empty key) included.

    Reads what gettext tools write: comments, flags, strings continued on the following
    lines, C escapes; obsolete (``#~``) entries, plural forms and messages with a context
    are skipped. Raises `ValueError` naming the line of anything else.
    """
    found: list[PoEntry] = []
    entry: dict[str, list[str]] = {}
    field = ""
    fuzzy = next_fuzzy = False

    def finish() -> None:
        if "msgid" in entry and "msgstr" in entry and not {"msgid_plural", "msgctxt"} & set(entry):
            found.append(PoEntry("".join(entry["msgid"]), "".join(entry["msgstr"]), fuzzy))
        entry.clear()

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#,"):
            next_fuzzy = "fuzzy" in (flag.strip() for flag in line[2:].split(","))
            continue
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in _FIELDS or keyword.startswith("msgstr["):
            if keyword in ("msgctxt", "msgid") and "msgstr" in entry or keyword in entry:
                finish()
            if not entry:
                fuzzy, next_fuzzy = next_fuzzy, False
            field = keyword
            entry[field] = [_string(rest.strip(), number)]
        elif line.startswith('"') and field in entry:
            entry[field].append(_string(line, number))
        else:
            raise ValueError(f"line {number}: {raw[:60]!r} is not .po syntax")
    finish()
    return found


def read_po(text: str) -> dict[str, str]:
    """The messages of a ``.po`` file: key → text, without the header, untranslated or fuzzy entries
    (what compiling it would keep)."""
    return {e.key: e.text for e in po_entries(text) if e.key and e.text and not e.fuzzy}


def _string(token: str, number: int) -> str:
    """A quoted .po string (C escapes) as text."""
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"line {number}: {token[:60]!r} is not a quoted string")
    try:
        value = ast.literal_eval(token)  # the escapes .po files use (\\ \" \n \t) are Python's too
    except (ValueError, SyntaxError) as error:
        raise ValueError(f"line {number}: {token[:60]!r}: {error}") from None
    if not isinstance(value, str):
        raise ValueError(f"line {number}: {token[:60]!r} is not a string")
    return value


def read_mo(data: bytes) -> dict[str, str]:
    """The messages of a compiled ``.mo`` file: key → text, without the header."""
    translations = _Compiled(io.BytesIO(data))
    return translations.messages()


class _Compiled(gettext.GNUTranslations):
    """A ``.mo`` file read by the standard library, its messages as a plain dictionary."""

    def messages(self) -> dict[str, str]:
        """Every singular message but the header."""
        catalog: Mapping[object, str] = self._catalog  # type: ignore[attr-defined]
        return {key: value for key, value in catalog.items() if isinstance(key, str) and key}


def _newer(a: Traversable, b: Traversable) -> bool:
    """Whether file ``a`` was written after ``b`` (only known for files on disk)."""
    if isinstance(a, pathlib.Path) and isinstance(b, pathlib.Path):
        try:
            return a.stat().st_mtime > b.stat().st_mtime
        except OSError:
            return False
    return False


def source(lang: str) -> Traversable | None:
    """The file `load` reads for ``lang``: its ``.mo`` if built and up to date, else its ``.po``;
    None if there is neither."""
    po, mo = catalogue_file(lang, ".po"), catalogue_file(lang, ".mo")
    if mo.is_file() and not (po.is_file() and _newer(po, mo)):
        return mo
    return po if po.is_file() else None


@cache
def load(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` (a code from `i18n.LANGUAGES`): its ``.mo`` if built and up to
    date, else its ``.po``; empty if there is none or it cannot be read (said on stderr)."""
    try:
        found = source(lang)
        if found is not None and found.name.endswith(".mo"):
            return read_mo(found.read_bytes())
        if found is not None:
            return read_po(found.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as error:
        print(f"huit: the {lang} catalogue cannot be read ({error}); English is shown instead",
              file=sys.stderr)
    return {}


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills in."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return {"<malformed>"}

