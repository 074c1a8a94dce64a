"""The envelope of every Huit file: a magic line with the format version, a header, a body.

::

    HUIT <kind> <version>\\n
    {"size": 1234, "sha256": "…", "saved_at": "2026-12-01T10:00:00+00:00"}\\n
    <body: a pickle for games, JSON for settings, statistics and seat keys>

The size and digest tell a truncated or damaged file from a good one before the body
is decoded. A body of an older version goes through the kind's upgrade steps
(``version n → n + 1``) after decoding; a newer or unknown version is refused.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from .errors import SaveError

Upgrade = Callable[[Any], Any]


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
    try:
        version = int(parts[2])
    except ValueError:
        raise SaveError("unknown_version", version=parts[2].decode("ascii", "replace")[:20]) from None
    if version > current:
        raise SaveError("newer", version=version)
    if version < 1:
        raise SaveError("unknown_version", version=version)
    line, newline, body = rest.partition(b"\n")
    try:
        header = json.loads(line) if newline else None
        if not isinstance(header, dict):
            raise TypeError("the header is not an object")
        size, digest = header["size"], header["sha256"]
    except (ValueError, TypeError, KeyError):
        raise SaveError("damaged") from None
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
        SaveError: see `unpack`; or a body that is not JSON.
    """
    version, body = unpack(data, kind, current)
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly nested arrays
        raise SaveError("invalid", detail=str(exc)[:80]) from None
    return upgrade(value, version, current, steps)
