"""The protocol's messages as types (game/net/messages.py): decoded once, encoded as protocol 2 always was.

The recorded sessions (tests/data/protocol) hold what real servers and clients sent: every
server frame read back and written again is the same bytes, and every client frame decodes
to its type without an exception other than a refusal. Property tests throw arbitrary JSON
at `decode` and round-trip valid messages of every type.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import PRESETS
from game.net import messages as m
from game.net.profiles import name_problem
from game.net.protocol import LATER_TYPES, MAX_MESSAGE, TYPES, Refusal
from tests.protocol_recording import DATA, lines

RECORDED = [entry for path in sorted(DATA.glob("*.jsonl")) for entry in lines(path)]
SERVER_FRAMES = [e["recv"] for e in RECORDED if "recv" in e]
CLIENT_FRAMES = [e["send"] for e in RECORDED if "send" in e]
CLOSING = ("too_many_connections", "replaced")  # sent as the connection closes, "v" before "message"


def test_the_client_messages_are_the_types_the_server_knows_in_their_order():
    assert tuple(m.CLIENT_MESSAGES) == TYPES + LATER_TYPES
    assert all(cls.DIRECTION == "client" for cls in m.CLIENT_MESSAGES.values())
    assert all(cls.DIRECTION == "server" for cls in m.SERVER_MESSAGES.values())


def test_every_recorded_server_frame_reads_and_writes_back_byte_for_byte():
    assert len(SERVER_FRAMES) > 500
    for frame in SERVER_FRAMES:
        message = m.from_server(json.loads(frame))
        assert message is not None, frame
        if isinstance(message, m.Error) and message.code in CLOSING:
            assert message.encode_closing() == frame
        else:
            assert message.encode() == frame


def test_every_recorded_client_frame_decodes_to_its_type_or_a_refusal():
    kinds = set()
    for frame in CLIENT_FRAMES:
        try:
            message = m.decode(frame)
        except Refusal:
            continue
        kinds.add(message.TYPE)
        assert isinstance(message, m.CLIENT_MESSAGES[message.TYPE])
    assert kinds == set(TYPES + LATER_TYPES)  # the recordings hold every client message


def test_a_field_refused_is_kept_for_the_handler_not_raised_by_decode():
    message = m.decode('{"type": "action", "v": 2, "ref": "r"}')
    assert isinstance(message, m.ActionMessage) and message.ref == "r" and not message.valid
    with pytest.raises(Refusal) as refused:
        message.check("action")
    assert refused.value.code == "bad_message" and str(refused.value) == 'action must be text, e.g. "play 7H"'
    message.check("something else")  # only the fields asked for


def test_a_create_is_checked_by_its_type_in_the_order_protocol_2_reports():
    message = m.decode(json.dumps({"type": "create", "v": 2, "preset": "duel", "request": "short",
                                   "seats": [{"kind": "human"}, {"kind": "human", "name": "Ana #1"}],
                                   "public": "yes"}))
    assert isinstance(message, m.Create)
    assert [name for name, _ in message.problems] == ["request", "rules", "public"]
    assert message.problems[1][1].code == "bad_name" and message.problems[1][1].extra == {"reason": "tag"}
    good = m.decode(json.dumps({"type": "create", "v": 2, "preset": "points",
                                "options": {"target_per_player": 25},
                                "seats": [{"kind": "human"}, {"kind": "computer", "level": "hard"}],
                                "name": "  Ana "}))
    assert isinstance(good, m.Create) and good.valid and good.seat_name == "Ana"
    assert good.rules is not None and good.rules.name == "points"
    assert [s.computer_level for s in good.seats] == ["medium", "hard"]


@pytest.mark.parametrize("message, text", [
    (m.Vote(seat=1, penalise=True), {"type": "vote", "seat": 1, "penalise": True}),
    (m.ActionMessage(action="play 7H"), {"type": "action", "action": "play 7H"}),
    (m.Autopilot(on=False), {"type": "autopilot", "on": False}),
    (m.AcceptRound(), {"type": "accept_round"}),
    (m.Leave(), {"type": "leave"}),
    (m.Unqueue(), {"type": "unqueue"}),
    (m.Join(room="r00m", seat=2, key="k" * 32), {"type": "join", "room": "r00m", "seat": 2, "key": "k" * 32}),
    (m.ChangeProfile(name="Ana", ref="profile-sync"),
     {"type": "profile", "name": "Ana", "ref": "profile-sync"}),
    (m.Queue(preset="duel", options={}, players=2, computers=True, wait=60),
     {"type": "queue", "preset": "duel", "options": {}, "players": 2, "computers": True, "wait": 60}),
    (m.Hello(player="p" * 32, avatar=4, name="Ana"), {"type": "hello", "player": "p" * 32, "avatar": 4,
                                                      "name": "Ana"}),
])
def test_a_client_message_encodes_as_the_game_always_sent_it(message, text):
    assert message.encode() == json.dumps({**text, "v": 2})


# ---- properties ------------------------------------------------------------------------------------------
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
                    | st.text(max_size=30), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDS = st.sampled_from(["preset", "options", "seats", "name", "public", "request", "room", "seat", "key",
                          "action", "on", "player", "avatar", "watch", "players", "computers", "wait",
                          "penalise", "ref", "level", "kind"])


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from([*TYPES, "nope"]), fields=st.dictionaries(FIELDS, JSON, max_size=6),
       version=st.sampled_from([2, 2, 2, 1, "2", None]))
def test_decode_never_raises_anything_but_a_refusal(kind, fields, version):
    frame = json.dumps({"type": kind, **fields, **({"v": version} if version is not None else {})})
    try:
        message = m.decode(frame)
    except Refusal as exc:
        assert exc.code in ("version", "unknown_type", "bad_message", "too_large")
        return
    assert kind == message.TYPE
    for name, refusal in message.problems:
        assert isinstance(name, str) and isinstance(refusal, Refusal)
    if message.valid:  # what was accepted writes a frame that decodes to the same message
        again = m.decode(message.encode())
        assert again == message and again.encode() == message.encode()


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60) | st.binary(max_size=60))
def test_decode_of_any_frame_is_a_message_or_a_refusal(text):
    try:
        message = m.decode(text)
    except Refusal as exc:
        assert exc.code in ("bad_json", "version", "unknown_type", "bad_message")
    else:
        assert isinstance(message, m.ClientMessage)


def test_decode_refuses_a_frame_too_large_before_reading_it():
    with pytest.raises(Refusal) as refused:
        m.decode("x" * (MAX_MESSAGE + 1))
    assert refused.value.code == "too_large"


# Names of one writing system (Latin letters and digits, with their accents): what the rules of names
# accept (`profiles.name_problem`: mixed scripts, compatibility forms and the like are refused).
NAMES = st.text(st.characters(codec="utf-8", categories=["L", "N"], max_codepoint=0x24F), min_size=1,
                max_size=24).filter(lambda name: name_problem(name) is None)
REFS = st.none() | st.integers(-10**9, 10**9) | st.text(st.characters(codec="utf-8", categories=["L", "N"]),
                                                         max_size=64)
SEATS = st.lists(st.sampled_from([m.SeatRequest(kind="human"), m.SeatRequest(kind="computer", level="easy"),
                                  m.SeatRequest(kind="computer", level="hard")]), min_size=1, max_size=1)
VALID = st.one_of(
    st.builds(m.Create, preset=st.just("duel"), options=st.just({}), name=NAMES,
              seats=st.just((m.SeatRequest(kind="human"), m.SeatRequest(kind="computer", level="easy"))),
              public=st.sampled_from([None, True, False]), request=st.sampled_from([None, "abcdefgh12"]),
              ref=REFS),
    st.builds(m.Join, room=st.sampled_from(["r00m", "abc_DEF-1"]), seat=st.sampled_from([None, 0, 3]),
              key=st.sampled_from([None, "k" * 32]), name=st.none() | NAMES, ref=REFS),
    st.builds(m.ActionMessage, action=st.sampled_from(["draw", "pass", "play 7H", "suit S", "denounce 1"]),
              ref=REFS),
    st.builds(m.Autopilot, on=st.booleans(), ref=REFS),
    st.builds(m.AcceptRound, ref=REFS), st.builds(m.Leave, ref=REFS), st.builds(m.Ping, ref=REFS),
    st.builds(m.Unqueue, ref=REFS),
    st.builds(m.Hello, player=st.text("abcXYZ019-_", min_size=32, max_size=128),
              avatar=st.none() | st.integers(0, 15), name=st.none() | NAMES, ref=REFS),
    st.builds(m.ChangeProfile, name=NAMES, avatar=st.none() | st.integers(0, 15), ref=REFS),
    st.builds(m.Lobby, watch=st.sampled_from([None, True, False]), ref=REFS),
    st.builds(m.Queue, preset=st.sampled_from(["duel", "classic"]), options=st.sampled_from([None, {}]),
              players=st.just(2), computers=st.sampled_from([None, True, False]),
              wait=st.none() | st.integers(5, 900) | st.floats(5, 900), ref=REFS),
    st.builds(m.Leaderboard, preset=st.sampled_from(sorted(PRESETS)), ref=REFS),
    st.builds(m.History, preset=st.none() | st.sampled_from(sorted(PRESETS)), ref=REFS),
    st.builds(m.Vote, seat=st.integers(0, 7), penalise=st.booleans(), ref=REFS),
)


def wire(message: m.Message) -> dict:
    return message.to_json()


@settings(max_examples=400, deadline=None)
@given(message=VALID)
def test_a_valid_message_round_trips_through_its_frame(message):
    frame = message.encode()
    again = m.decode(frame)
    assert again.valid, again.problems
    assert type(again) is type(message) and wire(again) == wire(message)
    assert again.encode() == frame
