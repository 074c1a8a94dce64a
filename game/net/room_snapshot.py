"""Where a room stands between two deals, as plain data: what keeps a room's stored log bounded.

A room is rebuilt from its seed and its log (`rooms.Room.replay`). A room without a
target deals again and again, so its whole log would grow without end (a room of
134,344 entries took 3.4 s and 53 MB to rebuild). Instead, when a new deal is stored,
the store keeps the room as it stood just before that deal (`snapshot`) and forgets the
entries before it: a room's log is then its snapshot and the entries of its current
deal, from the ``deal`` entry on. `restore` puts a fresh room (its seats and rules read
from the store) back where the snapshot says, and replaying the entries after it gives
exactly the room the live server has (the same match, scores, results, random
generator, abandons and votes, and the same deal so far for a seat that rejoins).

The snapshot holds the match (`game.engine.snapshot.to_plain`: every card, the scores,
every deal's result and the random generator's state) and what the room adds to it: the
seats a computer took (`Room.abandon`) with the deal each was lost in, the votes on them,
the penalties decided, the turns the game has lasted so far (`Room.turns`: a match with a
target is one game over its deals, and fair play counts its turns), and who lost a turn to
the clock in which deal (and how many in a row), who stalled the game (the clock's
autopilot) and who may vote on none of its abandons for it (`Room.stalled`, `Room.barred`,
`Room.electors`). The flags the next deal clears (who accepted it) are not kept. A ranked
room's match is restored on its ranked clock (`Room.play_rules`), as it was dealt. The layout::

    {"match": {…to_plain…}, "abandoned": {"1": 3}, "votes": {"1": {"0": true}}, "penalised": [1],
     "turns": 42, "timed_out": {"2": 3}, "clock_row": {"2": 2}, "stalled": {"2": 3}, "barred": {"2": 3}}
"""

from __future__ import annotations

from typing import Any, Final

from game.ai import player_for
from game.engine.snapshot import from_plain, to_plain
from game.play import Computer, TurnDriver

from .rooms import ABANDON_LEVEL, Room

SNAPSHOT_FIELDS: Final = ("match", "abandoned", "votes", "penalised", "turns", "timed_out", "clock_row",
                          "stalled", "barred")
"""The keys of a room's snapshot."""


def snapshot(room: Room) -> dict[str, Any]:
    """Where ``room`` stands (its match dealt), as plain data a JSON file holds (see the module)."""
    assert room.match is not None
    return {"match": to_plain(room.match),
            "abandoned": {str(seat): deal for seat, deal in sorted(room.abandoned_in.items())},
            "votes": {str(seat): {str(voter): yes for voter, yes in sorted(ballots.items())}
                      for seat, ballots in sorted(room.votes.items())},
            "penalised": sorted(room.penalised),
            "turns": room.turns,
            "timed_out": _by_seat(room.timed_out), "clock_row": _by_seat(room.clock_row),
            "stalled": _by_seat(room.stalled),
            "barred": _by_seat(room.barred)}


def _by_seat(deals: dict[int, int]) -> dict[str, int]:
    return {str(seat): deal for seat, deal in sorted(deals.items())}


def _deals(room: Room, data: Any, what: str) -> dict[int, int]:
    if not isinstance(data, dict):
        raise ValueError(f"a room's snapshot says {what} as {{seat: deal}}")
    return {_seat(room, seat): int(deal) for seat, deal in data.items()}


def restore(room: Room, data: Any) -> None:
    """Put ``room`` (fresh from the store: nothing dealt) where ``data`` (a `snapshot`) says.

    Raises:
        ValueError: ``data`` is not a snapshot of this room (a `RulesError` for its match).
    """
    if not isinstance(data, dict) or set(data) != set(SNAPSHOT_FIELDS):
        raise ValueError("a room's snapshot has the fields " + ", ".join(SNAPSHOT_FIELDS))
    timed_out = _deals(room, data["timed_out"], "who timed out")
    clock_row = _deals(room, data["clock_row"], "the turns in a row the clock played")
    stalled = _deals(room, data["stalled"], "who stalled")
    barred = _deals(room, data["barred"], "who may not vote")
    if room.match is not None:
        raise ValueError("a snapshot is restored on a room not yet dealt")
    abandoned = {_seat(room, seat): int(deal) for seat, deal in data["abandoned"].items()}
    votes = {_seat(room, seat): {_seat(room, voter): bool(yes) for voter, yes in ballots.items()}
             for seat, ballots in data["votes"].items()}
    penalised = {_seat(room, seat) for seat in data["penalised"]}
    turns = int(data["turns"])
    if turns < 0:
        raise ValueError("a room's snapshot counts no negative turns")
    for seat in abandoned:  # as `Room.abandon` left it (the stored seats are as they were claimed)
        chosen = room.seats[seat]
        chosen.kind, chosen.level, chosen.abandoned = "computer", ABANDON_LEVEL, True
        chosen.connected = chosen.accepted = False
    room.match = from_plain(room.play_rules(), room.players, data["match"])  # a ranked game keeps its clock
    computers = {i: Computer(s.level, player_for(s.level))
                 for i, s in enumerate(room.seats) if not s.is_human}
    room.driver = TurnDriver(room.match, computers, may_time=lambda seat: room.seats[seat].connected)
    room.round_events = []  # the deal after the snapshot deals anew (the log's next entry)
    room.abandoned_in, room.votes, room.penalised, room.turns = abandoned, votes, penalised, turns
    room.timed_out, room.clock_row, room.stalled, room.barred = timed_out, clock_row, stalled, barred


def _seat(room: Room, value: object) -> int:
    seat = int(str(value))
    if not 0 <= seat < room.players:
        raise ValueError(f"seat {seat} is not one of the room's")
    return seat
