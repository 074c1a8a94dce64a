"""The scripted sessions of protocol 2 by name, and the command that records them.

``python -m tests.protocol_sessions [NAME ...]`` plays each named session (all of them without
a name) against a real server and writes it to ``tests/data/protocol/NAME.jsonl``
(`protocol_recording`: the recorder, the file's format and the replay that
`tests/test_protocol_replay.py` holds the server to). The sessions are written per kind: at a
table (`protocol_game_sessions`), reaching a seat (`protocol_seating_sessions`), refusals
(`protocol_refusal_sessions`).

Re-record (only when the protocol changes on purpose) and review the diff.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.protocol_game_sessions import duel, ranked_abandon, reactions
from tests.protocol_recording import Recorder
from tests.protocol_refusal_sessions import errors, quotas
from tests.protocol_seating_sessions import fair_seats, quick_computer

SESSIONS: dict[str, Callable[[], Recorder]] = {
    "duel": duel, "quick_computer": quick_computer, "ranked_abandon": ranked_abandon, "errors": errors,
    "quotas": quotas, "reactions": reactions, "fair_seats": fair_seats}
"""Every recorded session by its name (its file's stem in ``tests/data/protocol/``)."""


def main() -> int:
    """Record every session (``python -m tests.protocol_sessions [NAME...]``)."""
    import sys

    for name in sys.argv[1:] or list(SESSIONS):
        rec = SESSIONS[name]()
        path = rec.finish()
        print(f"{path}: {len(rec.lines)} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
