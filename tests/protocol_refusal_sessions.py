"""Scripted protocol sessions of refusals: every malformed message, and the quotas.

Every refusal a message can get from a server with the default limits, then the quotas'
refusals on a server of small numbers and a flood past the rate limit.
`protocol_sessions.SESSIONS` names them; `protocol_recording` records and replays them.
"""

from __future__ import annotations

import json
from typing import Any

from tests.protocol_recording import ANY, BASE, HUMAN, Recorder, of_type


def errors() -> Recorder:
    """Every refusal a message can get from a server with the default limits."""
    rec = Recorder("errors", BASE)
    rec.open("x")
    for text in ("not json", "[1, 2]", '"text"', "{", '{"type": "ping", "v": 2', "nul\u0000",
                 "[" * 5000 + "]" * 5000):
        rec.raw("x", text, ANY)
    rec.binary("x", b'{"type": "ping", "v": 2}')
    rec.raw("x", json.dumps({"type": "ping", "v": 2, "pad": "x" * 9000}), ANY)
    rec.raw("x", json.dumps({"type": "ping", "v": 2, "pad": "é" * 4500}), ANY)
    for version in (None, 1, 3, "2", True, 2.0, 0, -1):
        message: dict[str, Any] = {"type": "ping"}
        if version is not None:
            message["v"] = version
        rec.raw("x", json.dumps(message), ANY)
    for kind in ("pong", "Ping", 3, None, "x" * 100):
        rec.send("x", ANY, type=kind)
    rec.raw("x", '{"v": 2}', ANY)
    for ref in ("x" * 65, "\u0007", "\ud800", True, 1.5, [1], {"a": 1}, 10**70):
        rec.send("x", ANY, type="ping", ref=ref)
    rec.send("x", of_type("pong"), type="ping", ref="x" * 64)
    rec.send("x", of_type("pong"), type="ping", ref=-12)
    # acting before joining
    for kind in ("action", "autopilot", "accept_round", "vote"):
        rec.send("x", ANY, type=kind, ref=kind)
    rec.send("x", ANY, type="action", action="draw")
    # no profile yet
    rec.send("x", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN], public=True)
    rec.send("x", ANY, type="queue", preset="duel", players=2)
    rec.send("x", ANY, type="profile", name="Zed")
    rec.send("x", ANY, type="history")
    # bad rules and seats
    for fields in ({"preset": "poker", "seats": [HUMAN, HUMAN]},
                   {"preset": 3, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": {"hand_size": 99}, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": {"nope": 1}, "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "options": [], "seats": [HUMAN, HUMAN]},
                   {"preset": "duel", "seats": [HUMAN, HUMAN, HUMAN]},
                   {"preset": "duel", "seats": [{"kind": "computer", "level": "easy"}] * 2},
                   {"preset": "duel", "seats": []},
                   {"preset": "duel", "seats": "two"},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "robot"}]},
                   {"preset": "duel", "seats": [HUMAN, "human"]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "computer", "level": "godlike"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": 5}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "a\u0001"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "Ana #1"}]},
                   {"preset": "duel", "seats": [HUMAN, {"kind": "human", "name": "x" * 30}]},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "public": "yes"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": 7},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "\ud800"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "Bob\u200b"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "name": "Bo♯b"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "request": "short"},
                   {"preset": "duel", "seats": [HUMAN, HUMAN], "request": 12345678}):
        rec.send("x", ANY, type="create", **fields)
    # rooms, seats and keys
    rec.send("x", ANY, type="join", room="nope")
    rec.send("x", ANY, type="join", room=5)
    rec.send("x", ANY, type="join")
    rec.open("host")
    rec.send("host", of_type("joined"), type="create", preset="classic", seats=[HUMAN, HUMAN, HUMAN],
             name="  Host  ")
    for fields in ({"seat": 0, "key": "wrong"}, {"seat": 0, "key": "bad key!"}, {"seat": "0", "key": "k"},
                   {"seat": 9, "key": "KEY-1"}, {"seat": 1, "key": "KEY-1"}, {"seat": 0, "key": 5},
                   {"seat": 0}, {"seat": "1"}, {"seat": 0, "name": "Zed"}, {"seat": 1, "name": 3},
                   {"seat": 1, "name": "   \t "}, {"seat": 7}, {"seat": 1, "request": "\u00e9" * 10}):
        rec.send("x", ANY, type="join", room="ROOM-1", **fields)
    rec.send("host", ANY, type="action", action="draw")  # not_started
    rec.send("host", ANY, type="autopilot", on=True)
    rec.send("host", ANY, type="accept_round")
    rec.send("host", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # already_joined
    rec.send("host", ANY, type="join", room="ROOM-1")
    rec.send("x", of_type("joined"), type="join", room="ROOM-1", seat=1, name="Xia", request="join-x-0001")
    rec.open("y")
    rec.send("y", of_type("joined"), type="join", room="ROOM-1", name="", ref="y")
    rec.open("z")
    rec.send("z", ANY, type="join", room="ROOM-1", name="Zed")  # no_free_seat
    # the game is on: illegal actions and bad fields
    view = rec.view("host")
    assert view is not None
    to_act = {0: "host", 1: "x", 2: "y"}[view["to_act"]]
    waiting = "x" if to_act != "x" else "y"
    rec.send(waiting, ANY, type="action", action="draw", ref="early")
    for action in ("play 2Z", "fly", "timeout", "play XJ", "suit S", "denounce 9", 7, None, "draw\u0000",
                   "x" * 100):
        rec.send(to_act, ANY, type="action", action=action)
    rec.send(to_act, ANY, type="action")
    rec.send(to_act, ANY, type="autopilot", on="yes")
    rec.send(to_act, ANY, type="autopilot")
    rec.send(to_act, ANY, type="accept_round")
    rec.send(to_act, ANY, type="vote", seat=1, penalise=True)
    # profiles: hello and profile refusals
    rec.open("p")
    for fields in ({}, {"player": 5}, {"player": "short"}, {"player": "x" * 129}, {"player": "a b" * 16},
                   {"player": "\ud800" * 32}):
        rec.send("p", ANY, type="hello", **fields)
    good = "g" * 32
    for fields in ({"name": ""}, {"name": "   "}, {"name": "x" * 25}, {"name": "A\u0007"}, {"name": "Ana#"},
                   {"name": 5}, {"name": None}, {"name": "\ud800"}, {"avatar": 16}, {"avatar": -1},
                   {"avatar": "1"}, {"avatar": True}, {"avatar": 2.0}):
        rec.send("p", ANY, type="hello", player=good, **fields)
    rec.send("p", of_type("profile"), type="hello", player=good, name=" Gus ", avatar=2)
    rec.send("p", of_type("profile"), type="hello", player=good, name="Other")
    rec.send("p", ANY, type="hello", player="h" * 32)
    for fields in ({}, {"name": ""}, {"name": "x" * 25}, {"avatar": 23}, {"name": "Gus", "avatar": 2}):
        rec.send("p", ANY if fields != {"name": "Gus", "avatar": 2} else of_type("profile"),
                 type="profile", **fields)
    # the lobby, the queue, the rankings
    rec.send("p", ANY, type="lobby", watch="yes")
    for fields in ({"preset": "poker", "players": 2}, {"preset": "duel", "players": 3},
                   {"preset": "duel", "players": 9}, {"preset": "duel", "players": "2"},
                   {"preset": "duel", "players": 2, "computers": 1},
                   {"preset": "duel", "players": 2, "wait": 4},
                   {"preset": "duel", "players": 2, "wait": True},
                   {"preset": "duel", "players": 2, "wait": 901}, {"preset": "duel"},
                   {"preset": "duel", "options": "x", "players": 2}):
        rec.send("p", ANY, type="queue", **fields)
    rec.send("p", of_type("queued"), type="queue", preset="duel", players=2, wait=5.5, computers=False)
    rec.send("p", ANY, type="join", room="nope")
    for fields in ({}, {"preset": "poker"}, {"preset": 3}):
        rec.send("p", ANY, type="leaderboard", **fields)
    rec.send("p", ANY, type="history", preset="poker")
    rec.advance(10)
    for _ in range(6):  # costly answers: five in a burst, then too_many_requests
        rec.send("p", type="leaderboard", preset="classic")
    return rec


def quotas() -> Recorder:
    """The quotas' refusals, on a server of small numbers, and a flood past the rate limit."""
    options = {**BASE, "rate": 20.0, "burst": 40.0, "max_rooms": 4, "rooms_per_hour": 3, "rooms_held": 3,
               "computer_seats": 2, "connections_per_address": 2, "trust_loopback": False,
               "profiles_per_hour": 2, "renames_per_hour": 1, "queue_per_hour": 2, "votes_per_hour": 1}
    rec = Recorder("quotas", options)
    rec.open("a", "192.0.2.1")
    rec.open("b", "192.0.2.1")
    rec.open("c", "192.0.2.1")  # too_many_connections, and closed
    rec.peers.pop("c").close()
    rec.lines.append({"peer": "c", "close": True})
    rec.send("a", ANY, type="create", preset="classic",
             seats=[HUMAN, {"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "medium"},
                    {"kind": "computer", "level": "easy"}])  # too_many_computers
    rec.send("a", of_type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("a")
    rec.open("a2", "192.0.2.1")
    rec.send("a2", of_type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("a2")
    rec.send("b", of_type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.close("b")
    rec.open("d", "192.0.2.1")
    rec.send("d", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # too_many_rooms
    rec.send("d", of_type("profile"), type="hello", player="1" * 32)
    rec.send("d", ANY, type="queue", preset="duel", players=2)  # too_many_rooms at once
    rec.open("e", "192.0.2.2")
    rec.send("e", of_type("profile"), type="hello", player="2" * 32)
    rec.send("e", of_type("joined"), type="create", preset="duel", seats=[HUMAN, HUMAN])
    rec.open("f", "192.0.2.3")
    rec.send("f", of_type("profile"), type="hello", player="4" * 32)
    rec.send("f", ANY, type="hello", player="5" * 32)  # another player: bad_message
    rec.close("f")
    rec.open("g", "192.0.2.3")
    rec.send("g", of_type("profile"), type="hello", player="5" * 32)
    rec.open("h", "192.0.2.3")
    rec.send("h", ANY, type="hello", player="6" * 32)  # too_many_profiles
    rec.send("g", of_type("profile"), type="profile", name="Gil")
    rec.send("g", ANY, type="profile", avatar=1)  # too_many_changes
    rec.send("g", of_type("queued"), type="queue", preset="colors", players=4)
    rec.send("g", of_type("queued"), type="queue", preset="colors", players=3)
    rec.send("g", ANY, type="queue", preset="colors", players=2)  # too_many_requests
    rec.send("g", of_type("unqueued"), type="unqueue")
    rec.send("g", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # server_full
    rec.open("i", "192.0.2.4")
    rec.send("i", ANY, type="create", preset="duel", seats=[HUMAN, HUMAN])  # server_full
    # a flood: 40 pass, 40 more are answered rate_limited (with their ref), the next closes it (flooding)
    for n in range(90):
        text = json.dumps({"type": "ping", "v": 2, "ref": n})
        rec.lines.append({"peer": "i", "send": text})
        rec.peers["i"].send(text)
    rec.settle()
    return rec
