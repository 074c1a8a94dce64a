"""Scripted protocol sessions that reach a seat: hello, the lobby, quick match, creating and joining.

A player alone in quick match with computers allowed (then a profile change, a leaderboard and
a history; others queue, leave the queue, watch the lobby, create and join a public room), and
one seat at a time (issue 32: a second seat refused, seats freed by their room's owner or by
time away). `protocol_sessions.SESSIONS` names them; `protocol_recording` records and replays them.
"""

from __future__ import annotations

import random

from tests.protocol_recording import BASE, HUMAN, Recorder, of_type, over


def quick_computer() -> Recorder:
    """A player alone in quick match with computers allowed: hello, the lobby, queued, seated with a
    Medium computer after the wait, a whole deal; then a profile change, leaderboard and history."""
    rec = Recorder("quick_computer", BASE)
    rec.open("ana", "198.51.100.7")
    rec.send("ana", of_type("profile"), type="hello", player="p" * 32, name="Ana", avatar=3)
    rec.send("ana", of_type("lobby"), type="lobby")
    rec.send("ana", of_type("queued"), type="queue", preset="duel", options={}, players=2, computers=True,
             wait=5, ref="q")
    rec.advance(5)
    rec.play(["ana"], over(rec, "ana"), random.Random(2))
    rec.send("ana", of_type("profile"), type="profile", name="Anna", ref="rename")
    rec.send("ana", of_type("leaderboard"), type="leaderboard", preset="duel")
    rec.advance(1)
    rec.send("ana", of_type("history"), type="history", preset="duel")
    rec.advance(1)
    rec.send("ana", of_type("history"), type="history")
    rec.open("eve", "198.51.100.8")
    rec.send("eve", of_type("profile"), type="hello", player="e" * 40)
    rec.send("eve", of_type("queued"), type="queue", preset="classic", players=3)
    rec.send("eve", of_type("unqueued"), type="unqueue", ref=1)
    rec.send("eve", of_type("unqueued"), type="unqueue")
    rec.send("eve", of_type("lobby"), type="lobby", watch=True)
    rec.open("sam", "198.51.100.9")
    rec.send("sam", of_type("profile"), type="hello", player="s" * 32, name="Sam")
    rec.send("sam", of_type("joined"), type="create", preset="points", options={"target_per_player": 25},
             seats=[HUMAN, {"kind": "computer", "level": "easy"}, HUMAN], public=True)
    rec.advance(1)
    rec.send("eve", of_type("joined"), type="join", room=rec.ph("sam", "room"))
    rec.advance(1)
    return rec


def fair_seats() -> Recorder:
    """One seat at a time (issue 32): a guest of a public room is refused a second seat and a quick
    match on another connection; a stranger and a guest cannot free seats, the owner can (its person is
    told, and the seat is free); a guest away 60 s loses the seat and is told so with its key."""
    rec = Recorder("fair_seats", BASE)
    rec.open("ana", "203.0.113.1")
    rec.send("ana", of_type("profile"), type="hello", player="a" * 32, name="Ana")
    rec.send("ana", of_type("joined"), type="create", preset="classic", options={},
             seats=[HUMAN, HUMAN, HUMAN, HUMAN], public=True, ref="c1")
    rec.open("cid", "203.0.113.3")
    rec.send("cid", of_type("profile"), type="hello", player="c" * 32, name="Cid")
    rec.send("cid", of_type("joined"), type="create", preset="duel", options={}, seats=[HUMAN, HUMAN],
             public=True)
    rec.open("ben", "203.0.113.2")
    rec.send("ben", of_type("profile"), type="hello", player="b" * 32, name="Ben")
    rec.send("ben", of_type("joined"), type="join", room=rec.ph("ana", "room"))
    rec.open("ben2", "203.0.113.2")
    rec.send("ben2", of_type("profile"), type="hello", player="b" * 32)
    rec.send("ben2", of_type("error"), type="join", room=rec.ph("cid", "room"))  # one_seat
    rec.send("ben2", of_type("error"), type="queue", preset="duel", players=2)  # one_seat
    rec.send("ben2", of_type("error"), type="free_seat", seat=1)  # not_joined
    rec.send("ben", of_type("error"), type="free_seat", seat=0, ref="f0")  # not_owner
    rec.send("ana", of_type("error"), type="free_seat", seat="1")  # bad_message
    rec.send("ana", of_type("room"), type="free_seat", seat=rec.ph("ben", "seat"), ref="f1")
    rec.send("ben2", of_type("joined"), type="join", room=rec.ph("ana", "room"))
    rec.close("ben2")
    rec.advance(59)
    rec.advance(1)
    rec.open("back", "203.0.113.2")
    rec.send("back", of_type("error"), type="join", room=rec.ph("ana", "room"), seat=rec.ph("ben2", "seat"),
             key=rec.ph("ben2", "key"))  # seat_freed
    rec.close("back")
    rec.close("ben")
    rec.close("cid")
    rec.close("ana")
    return rec
