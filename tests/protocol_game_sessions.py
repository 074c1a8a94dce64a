"""Scripted protocol sessions at a table: a game played, and what happens around it.

A private duel (create, join by link, whole deals, the autopilot, a reconnect with the seat's
key, the next deal, leaving), a ranked quick duel whose player stays away until a computer takes
the seat and the vote on it, and the quick reactions. `protocol_sessions.SESSIONS` names them;
`protocol_recording` records and replays them.
"""

from __future__ import annotations

import random

from tests.protocol_recording import BASE, HUMAN, Recorder, of_type, over


def duel() -> Recorder:
    """Two people in a private duel: create, join by link, a whole deal, autopilot, a reconnect
    with the key, the next deal, ping, leave."""
    rec = Recorder("duel", BASE)
    rec.open("ana")
    rec.send("ana", of_type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             name="Ana", request="req-ana-0001", ref="c1")
    rec.open("ben")
    rec.send("ben", of_type("joined"), type="join", room="ROOM-1", name="Ben", ref=7)
    rec.send("ana", type="ping", ref="p1")
    rng = random.Random(1)
    rec.play(["ana", "ben"], lambda: sum(m.get("type") == "update" for m in rec.heard["ana"]) >= 6, rng)
    rec.send("ana", of_type("update"), type="autopilot", on=True, ref="auto")
    rec.send("ana", of_type("update"), type="autopilot", on=False)
    rec.close("ben")
    rec.open("ben2")
    rec.send("ben2", of_type("joined"), type="join", room=rec.ph("ben", "room"), seat=rec.ph("ben", "seat"),
             key=rec.ph("ben", "key"))
    rec.play(["ana", "ben2"], over(rec, "ana", "ben2"), rng)
    for peer in ("ana", "ben2"):
        rec.send(peer, type="accept_round")
    rec.play(["ana", "ben2"], lambda: (v := rec.view("ana")) is not None and v["round_number"] == 2
             and v["turn_no"] >= 4, rng)
    rec.send("ana", type="leave", ref="bye")
    rec.close("ana")
    return rec


def ranked_abandon() -> Recorder:
    """Two players of a ranked quick duel; one stays away five minutes and loses the seat; the vote."""
    rec = Recorder("ranked_abandon", BASE)
    rec.open("ana", "203.0.113.1")
    rec.send("ana", of_type("profile"), type="hello", player="a" * 32, name="Ana")
    rec.open("ben", "203.0.113.2")
    rec.send("ben", of_type("profile"), type="hello", player="b" * 32, name="Ben", avatar=7)
    rec.send("ana", of_type("queued"), type="queue", preset="duel", players=2)
    rec.send("ben", of_type("room"), type="queue", preset="duel", players=2)
    a, b = rec.ph("ana", "seat"), rec.ph("ben", "seat")
    rec.send("ben", of_type("error"), type="vote", seat=a, penalise=True)  # no_vote: nobody abandoned
    rec.close("ana")
    rec.advance(299)
    rec.advance(1)
    rec.open("back", "203.0.113.1")
    rec.send("back", of_type("error"), type="join", room=rec.ph("ana", "room"), seat=a,
             key=rec.ph("ana", "key"))  # abandoned
    for bad in ({"seat": a, "penalise": "yes"}, {"seat": 5, "penalise": True},
                {"seat": str(a), "penalise": True}, {"penalise": True}, {"seat": b, "penalise": True}):
        rec.send("ben", of_type("error"), type="vote", **bad)
    rec.send("ben", of_type("room"), type="vote", seat=a, penalise=True, ref="v")
    rec.send("ben", of_type("error"), type="vote", seat=a, penalise=False)  # already_voted
    rec.play(["ben"], over(rec, "ben"), random.Random(3))
    rec.send("back", of_type("profile"), type="hello", player="a" * 32)
    rec.send("back", of_type("history"), type="history")
    rec.send("ben", of_type("leaderboard"), type="leaderboard", preset="duel")
    return rec


def reactions() -> Recorder:
    """Quick reactions: none before the game starts or from a connection without a seat; one relayed to
    both seats (a smuggled text and room left behind); an unknown id; too soon, then after 3 s; the
    sixth in a minute; after the match, none."""
    rec = Recorder("reactions", BASE)
    rec.open("ana")
    rec.send("ana", of_type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             name="Ana", ref="c1")
    rec.send("ana", type="react", reaction="hello", ref="early")
    rec.open("eve")
    rec.send("eve", type="react", reaction="hello", room="ROOM-1", ref="stranger")
    rec.open("ben")
    rec.send("ben", of_type("joined"), type="join", room="ROOM-1", name="Ben")
    rec.send("ana", type="react", reaction="well_played", text="buy gold at evil.example", room="ROOM-9",
             seat=1, ref="r1")
    rec.send("ben", type="react", reaction="hello! visit evil.example", ref="bad")
    rec.send("ben", type="react", reaction="thanks", ref="r2")
    rec.send("ben", type="react", reaction="oops", ref="soon")
    rec.advance(3.0)
    for n, reaction in enumerate(("hurry", "wow", "sorry", "good_game")):
        rec.send("ben", type="react", reaction=reaction, ref=f"b{n}")
        rec.advance(3.0)
    rec.send("ben", type="react", reaction="hello", ref="sixth")
    rng = random.Random(2)
    rec.play(["ana", "ben"], over(rec, "ana", "ben"), rng)
    rec.send("ana", type="react", reaction="good_game", ref="after")
    rec.close("ana")
    rec.close("ben")
    rec.close("eve")
    return rec
