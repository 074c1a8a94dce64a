"""The wire stays protocol 2: recorded sessions replay byte for byte against today's server.

Each file of tests/data/protocol/ was recorded by `tests.protocol_sessions` (a duel, a quick
match with a computer, a ranked abandon and its vote, every refusal, the quotas and a
flood). Its client frames are sent again, in order, to a fresh server of the same options,
seeded generator and clock; every server frame must be the recorded one, byte for byte.
Only room ids and seat keys are normalised (`protocol_recording.Placeholders`): the server
draws them from `secrets` on purpose, so no two runs share them.
"""

from __future__ import annotations

import json

import pytest

from tests.protocol_recording import DATA, lines, replay
from tests.protocol_sessions import SESSIONS

RECORDINGS = sorted(DATA.glob("*.jsonl"))


def test_every_session_is_recorded():
    assert sorted(p.stem for p in RECORDINGS) == sorted(SESSIONS)


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.stem)
def test_a_recorded_session_replays_byte_for_byte(path, tmp_path):
    assert replay(path, tmp_path / "rooms.sqlite3") == []


def test_the_recordings_hold_every_error_code_the_protocol_names():
    codes = set()
    for path in RECORDINGS:
        for entry in lines(path):
            if "recv" in entry:
                message = json.loads(entry["recv"])
                if message.get("type") == "error":
                    codes.add(message["code"])
    # server_error (a disk that refuses, a bug), replaced (a second device), too_many_votes and the
    # 1 MiB frame's close are tested in test_net_*.py, not recorded here.
    assert codes >= {"bad_json", "too_large", "version", "unknown_type", "bad_message", "rate_limited",
                     "bad_rules", "unknown_room", "bad_key", "bad_name", "no_profile", "abandoned", "no_vote",
                     "already_voted", "seat_taken", "no_free_seat", "not_joined", "already_joined",
                     "not_started", "illegal", "too_many_connections", "too_many_rooms", "too_many_computers",
                     "too_many_profiles", "too_many_changes", "too_many_requests", "server_full", "flooding"}
