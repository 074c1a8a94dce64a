"""The envelope of every Huit file: a magic line with the format version, a header, a body.

::

    HUIT <kind> <version>\\n
    {"size": 1234, "sha256": "…", "saved_at": "2026-12-01T10:00:00+00:00"}\\n
    <body: a pickle for games, JSON for settings, statistics and seat keys>

The size and digest tell a truncated or damaged file from a good one before the body
is decoded. A body of an older version goes through the kind's upgrade steps
(``version n → n + 1``) after decoding; a newer or unknown version is refused.

The header line and every JSON body are read by `loads_json`, which bounds what a
crafted file can cost: nesting past `MAX_DEPTH` (a line of 100,000 ``[``), numbers
longer than Huit ever writes (a 5,000-digit integer), ``NaN`` and infinities are
refused with a reason, never a RecursionError or seconds of arithmetic.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Final

from .errors import SaveError

Upgrade = Callable[[Any], Any]

MAX_DEPTH: Final = 16
"""Nesting of arrays and objects a JSON document may have (settings use 3)."""
MAX_DIGITS: Final = 20
"""Characters of one JSON integer (a byte count or a score uses a dozen at most)."""
MAX_FLOAT: Final = 32
"""Characters of one JSON fraction (Python writes any float in 24 at most)."""


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise SaveError("bad_number")
    return int(text)


def _float(text: str) -> float:
    value = float(text) if len(text) <= MAX_FLOAT else math.inf
    if not math.isfinite(value):
        raise SaveError("bad_number")
    return value


def _constant(text: str) -> Any:
    raise SaveError("bad_number")  # NaN, Infinity, -Infinity: never written by Huit


def _depth_within(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return True


def loads_json(data: bytes | str) -> Any:
    """Decode JSON with bounded nesting and bounded numbers.

    Raises:
        SaveError: ``too_deep`` (nested past `MAX_DEPTH`), ``bad_number`` (a number of
            more than `MAX_DIGITS` or `MAX_FLOAT` characters, NaN or an infinity), ``damaged`` (not JSON).
    """
    try:
        value = json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # the decoder's own bound, far past ours: 100,000 "[" stop here
        raise SaveError("too_deep") from None
    except SaveError:
        raise
    except ValueError:  # not JSON, or not UTF-8 (UnicodeDecodeError is a ValueError)
        raise SaveError("damaged") from None
    if not _depth_within(value, MAX_DEPTH):
        raise SaveError("too_deep")
    return value


def pack(kind: str, version: int, body: bytes) -> bytes:
    """The file bytes for ``body``."""
    header = {"size": len(body), "sha256": hashlib.sha256(body).hexdigest(),
              "saved_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")}
    return f"HUIT {kind} {version}\n".encode() + json.dumps(header).encode() + b"\n" + body


def unpack(data: bytes, kind: str, current: int) -> tuple[int, bytes]:
    """Check the envelope of ``data``; return the body's format version and the body.

    Raises:
        SaveError: empty, not a Huit file of this kind, a newer or unknown version,
            or a body whose size or digest does not match (truncated, damaged).
    """
    if not data:
        raise SaveError("empty")
    first, _, rest = data.partition(b"\n")
    parts = first.split(b" ")
    if len(parts) != 3 or parts[0] != b"HUIT" or parts[1] != kind.encode():
        raise SaveError("not_a_save")
    if not parts[2].isdigit() or len(parts[2]) > 6:  # ascii digits only: never a 5,000-digit number
        raise SaveError("unknown_version", version=parts[2].decode("ascii", "replace")[:20])
    version = int(parts[2])
    if version > current:
        raise SaveError("newer", version=version)
    if version < 1:
        raise SaveError("unknown_version", version=version)
    line, newline, body = rest.partition(b"\n")
    try:
        header = loads_json(line) if newline else None
    except SaveError:  # whatever is wrong with it (100,000 "[", a 5,000-digit size), it is damage
        raise SaveError("damaged") from None
    size = header.get("size") if isinstance(header, dict) else None
    digest = header.get("sha256") if isinstance(header, dict) else None
    if type(size) is not int or not isinstance(digest, str):
        raise SaveError("damaged")
    if len(body) != size or hashlib.sha256(body).hexdigest() != digest:
        raise SaveError("damaged")
    return version, body


def upgrade(value: Any, version: int, current: int, steps: Mapping[int, Upgrade]) -> Any:
    """Bring a decoded body of ``version`` up to ``current`` through ``steps``.

    Raises:
        SaveError: a step is missing or fails.
    """
    while version < current:
        step = steps.get(version)
        if step is None:
            raise SaveError("unknown_version", version=version)
        try:
            value = step(value)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SaveError("invalid", detail=f"upgrading from format {version}: {exc}") from None
        version += 1
    return value


def pack_json(kind: str, version: int, value: Any) -> bytes:
    """A JSON document in the envelope."""
    return pack(kind, version, json.dumps(value, indent=1, sort_keys=True).encode())


def unpack_json(data: bytes, kind: str, current: int, steps: Mapping[int, Upgrade]) -> Any:
    """Read a JSON document from its envelope, upgraded to ``current``.

    Raises:
        SaveError: see `unpack` and `loads_json`.
    """
    version, body = unpack(data, kind, current)
    return upgrade(loads_json(body), version, current, steps)
