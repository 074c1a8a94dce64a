"""A room's news between instances on one PostgreSQL database: its payload, signed, and read back.

The store tells every instance that it wrote a room with ``pg_notify('huit_rooms', '<room> <rev>')``
(`pgstore`, heard by `pgcluster`). A move's news may carry its log entry as well
(`cluster.Written`), so that a copy one move behind takes it without reading the database:
``'<room> <rev> [seq, kind, seat, text, mac]'``. Two things guard that shortcut:

- **Who can read it.** An instance of a release before carried entries reads a news with
  ``int(what)`` and drops one that carries an entry (its copies would stop catching up during a
  rolling upgrade). So instances that read carried entries say so in their name (`MARK` at the end
  of `pgcluster.instance_name`, which their lease connection's ``application_name`` shows), and a
  store carries entries only while every living instance's name has it (`pgcluster.UNMARKED`, asked once
  a beat at most): until then a news says only the revision, as before.
- **Who wrote it.** PostgreSQL has no privilege on NOTIFY: any role that may connect can send on the
  channel. A carried entry is signed (``mac``: HMAC-SHA256, the first `MAC_BYTES` bytes, over the
  room, the revision and the entry), keyed by a secret only the roles that can read the instances'
  tables know (`pg_schema.news_key`). A news whose entry is not signed with it, or is not one an
  honest server writes, reads as its bare revision: the copy then reads the database.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Final

from .cluster import Written
from .rooms import LogEntry

MARK: Final = "~e"
"""The end of the name of an instance that reads carried (signed) entries in news."""
NEWS_LIMIT: Final = 7900
"""The longest news payload sent, in bytes (PostgreSQL refuses one of 8,000): longer, a move's
news says only the revision, and the others read the entry."""
MAC_BYTES: Final = 16
"""How much of the HMAC-SHA256 a carried entry keeps (128 bits: no forger guesses it)."""
KINDS: Final = frozenset({"start", "action", "auto", "accept", "deal", "abandon", "vote", "autopilot"})
"""The kinds of log entries (`rooms.LogEntry`); those but ``start`` and ``deal`` name a seat."""
UNSEATED: Final = frozenset({"start", "deal"})
SEATS_AT_MOST: Final = 64
"""More seats than any table has: a carried seat past it is no honest server's."""
_COMPACT: Final = json.JSONEncoder(separators=(",", ":"))  # made once: `json.dumps` makes one a call


def sign(key: bytes, message: str) -> str:
    """The signature of ``message`` with ``key``: HMAC-SHA256, its first `MAC_BYTES` bytes, in
    URL-safe base64 without padding (also what signs the instances' signals: `pg_signals`)."""
    digest = hmac.new(key, message.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _mac(key: bytes, room_id: str, rev: int, fields: str) -> str:
    """The signature of an entry's ``fields`` (their JSON) in the news of ``room_id`` at ``rev``."""
    return sign(key, f"{room_id} {rev} {fields}")


def _fields(seq: int, entry: LogEntry) -> str:
    """An entry's fields as JSON (ASCII: the database's encoding cannot matter, bytes are characters)."""
    return _COMPACT.encode([seq, entry.kind, entry.seat, entry.text])


def news_payload(room_id: str, rev: int, written: Written | None = None, key: bytes | None = None) -> str:
    """The news of ``room_id`` written up to ``rev``: ``'<room> <rev>'``, or, given what was written
    and the key to sign it with (`pg_schema.news_key`) and short enough,
    ``'<room> <rev> [seq, kind, seat, text, mac]'`` (JSON: a later release may add fields at the
    end of the list; `read_news` ignores them)."""
    payload = f"{room_id} {rev}"
    if written is None or key is None:
        return payload
    fields = _fields(written.seq, written.entry)
    mac = _mac(key, room_id, rev, fields)
    carried = f'{payload} {fields[:-1]},"{mac}"]'
    return carried if len(carried) <= NEWS_LIMIT else payload  # (ASCII: characters are bytes)


def read_news(room_id: str, what: str, key: bytes | None) -> tuple[int, Written | None]:
    """A room's revision and what was written, from the news of ``room_id`` less its room id
    (`news_payload`). An entry is left out (the copy then reads it from the database) unless it is
    signed with ``key`` (None: no entry is taken) and is one an honest server writes.

    Raises:
        ValueError: not even a revision (and nothing else, whatever the payload).
    """
    rev_text, _, rest = what.partition(" ")
    rev = int(rev_text)
    if not rest or key is None:
        return rev, None
    try:
        fields = json.loads(rest)
    except (ValueError, TypeError, RecursionError):  # RecursionError: a payload nested deep
        return rev, None
    if type(fields) is not list or len(fields) < 5:
        return rev, None
    seq, kind, seat, text, mac = fields[:5]
    if (type(seq) is not int or seq < 0 or type(kind) is not str or kind not in KINDS or type(text) is not str
            or type(mac) is not str or not _honest_seat(kind, seat) or not _encodable(text)):
        return rev, None
    entry = LogEntry(kind, seat, text)
    expected = _mac(key, room_id, rev, _fields(seq, entry)).encode("ascii")
    # (compared as bytes: a forged mac may be any text, and str must be ASCII here)
    if not hmac.compare_digest(mac.encode("utf-8", "surrogatepass"), expected):
        return rev, None
    return rev, Written(seq, entry)


def _honest_seat(kind: str, seat: object) -> bool:
    """Whether ``seat`` is one an entry of ``kind`` names: none for a start or a deal, else a seat."""
    if kind in UNSEATED:
        return seat is None
    return type(seat) is int and 0 <= seat < SEATS_AT_MOST


def _encodable(text: str) -> bool:
    """Whether ``text`` is text a server writes (a lone surrogate is no character)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
