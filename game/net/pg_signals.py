"""Signals between instances on one PostgreSQL database, signed (`pgcluster.PgCluster.signal`).

A signal is ``'!<kind> <text>'`` on the rooms' channel (`pgcluster.CHANNEL`). Signals move people:
a seat taken through another instance closes the stale connection here (``taken``), a quick-match
seat or refusal ends a player's wait (``seat``, ``unqueue``), a reaction reaches a table
(``reaction``). PostgreSQL has no privilege on NOTIFY: any role that may connect to the database
can send on the channel. So, as a move's news is (`pg_news`), a signal is signed with the secret
only the roles that can read the instances' tables know (`pg_schema.news_key`):
``'!<kind> <text> ~<mac>'``, the mac (`pg_news.sign`) over the kind and the text.

- **Releases before.** They read a signal's fields from the front and ignore those a later release
  adds at the end, so the mark goes last. (One field reads to the end: a quick-match refusal's
  message, which shows the mark on an instance of the release before, during a roll only.)
- **Who signs.** Instances that sign say so in their name (`SIGNS`, just before `pg_news.MARK`).
  A signal that is not signed with the key is dropped, unless a living instance does not sign
  (a release before, during a rolling upgrade: `UNSIGNED`, asked once a beat at most when such a
  signal comes) or this instance has no key (a schema before version 4).
"""

from __future__ import annotations

import hmac
from typing import Final

from .pg_news import MARK, sign

SIGNS: Final = "~s"
"""In the name of an instance that signs its signals, just before `pg_news.MARK` (which stays last:
the releases before look for it there)."""
SIGNED_NAME_END: Final = SIGNS + MARK
SEPARATOR: Final = " ~"
"""Between a signal's text and its mark (no text a server signals has it: instance names carry
``~`` with no space before it)."""


def signal_payload(kind: str, text: str, key: bytes | None) -> str:
    """The payload of a signal of ``kind`` saying ``text``, signed with ``key`` (None: not signed,
    a database of a schema before version 4)."""
    payload = f"!{kind} {text}"
    return payload if key is None else f"{payload}{SEPARATOR}{sign(key, f'{kind} {text}')}"


def read_signal(kind: str, what: str, key: bytes | None) -> tuple[str, bool]:
    """The text of a signal of ``kind`` (``what``: its payload less ``'!<kind> '``), and whether it
    is signed with ``key``. Unsigned, or signed with another key, the text is ``what`` whole."""
    text, separator, mark = what.rpartition(SEPARATOR)
    if key is None or not separator:
        return what, False
    expected = sign(key, f"{kind} {text}").encode("ascii")
    # (compared as bytes: a forged mark may be any text, and str must be ASCII here)
    if hmac.compare_digest(mark.encode("utf-8", "surrogatepass"), expected):
        return text, True
    return what, False
