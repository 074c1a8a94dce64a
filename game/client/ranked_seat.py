"""A seat of a ranked online game: what the game puts at stake for its player, read from the room.

`RankedSeat` is the ranked side of `remote.RemoteController` (its base): what it reads and keeps
of a ranked room's statuses (protocol version 2), beside the connection and the game that the
controller keeps. Its names are the ranked part of the table's contract (`TableControl`):

- a person who stayed away too long loses the seat to a computer and the others may vote to
  penalise it: `vote_due` names the seat this player may vote on, `vote` sends the vote, and
  the result of a vote this player could take part in is said once (`take_news`);
- while someone is away from a ranked game, the seconds before a computer takes their seat
  (`takeover`, counted down between the server's statuses by `count_down_takeovers`, said by
  `takeover_notice` as ``… 4:12``);
- the points a ranked match earned (`earned`, and why fair play earned less: `earned_less`) and
  the tokens its stakes moved (`tokens_moved`);
- whether leaving now is an abandon (`leaving_is_abandon`), or no abandon because every other
  person is absent (`others_absent`).

What it reads of the controller is public: the latest room status (`status`), this device's seat
(`viewer`), the room's seats (`seats`), its connection (to send a vote) and whether the seat has
its view of the game (`dealt`). A server's figures are read leniently: one out of bounds is
dropped, never shown.
"""

from __future__ import annotations

import math
from typing import Final

from game.engine import Status
from game.net.client import RoomConnection
from game.net.messages import RoomStatus, Vote
from game.net.ranking import ABANDON_AFTER, PENALTY
from game.net.replies import seconds, whole

from . import stakes
from .controller import SeatConfig
from .i18n import tr

MAX_FIGURE: Final = 10**9
"""The largest points or totals a deal's result, or a ranked match's points, may show (a server's
bigger number is no result)."""


def countdown_text(left: float) -> str:
    """Seconds left as a countdown shows them, ``4:12``: rounded up, so it reads ``0:01`` until
    the very end and changes once a second."""
    whole_seconds = max(0, math.ceil(left)) if left == left else 0  # (NaN is not itself)
    return f"{whole_seconds // 60}:{whole_seconds % 60:02d}"


def takeover_of(status: RoomStatus) -> dict[int, float]:
    """The seconds before a computer takes each seat of someone away, as a status says them
    (an entry that is not a seat and a time within `ABANDON_AFTER` is left out)."""
    out: dict[int, float] = {}
    for entry in status.takeover or []:
        if not isinstance(entry, dict):
            continue
        seat, left = whole(entry.get("seat")), seconds(entry.get("left"))
        if seat is not None and 0 <= seat < len(status.seats or []) and left is not None \
                and 0 <= left <= ABANDON_AFTER:
            out[seat] = left
    return out


class RankedSeat:
    """What a ranked room puts at stake for this device's seat (the base of `RemoteController`)."""

    # What it reads of the controller's seat, kept there as each message comes:
    status: RoomStatus | None  # the latest room status
    viewer: int  # this device's seat
    seats: list[SeatConfig]  # the room's seats
    connection: RoomConnection  # the room's connection (a vote is sent on it)

    def __init__(self) -> None:
        self.voted: set[int] = set()  # abandoned seats this player voted on
        self.takeover: dict[int, float] = {}  # seat of someone away -> seconds before a computer takes it
        self._news: list[str] = []  # what the table says once (a vote's result), in words
        self._told: set[int] = set()  # abandoned seats whose vote's result was said

    @property
    def dealt(self) -> bool:
        """Whether the server has sent this seat its view of the game (the controller answers).

        Raises:
            NotImplementedError: a class that does not keep the view.
        """
        raise NotImplementedError

    @property
    def ranked(self) -> bool | None:
        """Whether the room is ranked (None before its status, or from a version-1 server)."""
        return self.status.ranked if self.status is not None else None

    # ---- a new room status ---------------------------------------------------------------------
    def read_standing(self, status: RoomStatus) -> None:
        """Keep what a new room status (already the controller's, its seats read) says of the
        ranked game: each away seat's time before a takeover, the result of each vote now known."""
        self.takeover = takeover_of(status)
        self._vote_results(status)

    def count_down_takeovers(self, dt: float) -> None:
        """``dt`` seconds went by since the last status: each takeover is that much closer."""
        for seat, left in self.takeover.items():
            self.takeover[seat] = max(0.0, left - dt)

    def takeover_notice(self, names: list[str]) -> str:
        """The countdown to the soonest takeover of another person's seat (``names``: each seat's,
        as the table writes them), or ``""`` when nobody is away."""
        away = sorted(s for s in self.takeover if s != self.viewer and 0 <= s < len(names))
        if not away:
            return ""
        soonest = min(away, key=lambda s: self.takeover[s])  # (on my turn, after "Your turn")
        return tr("online.takeover", name=names[soonest], left=countdown_text(self.takeover[soonest]))

    # ---- votes on an abandon -------------------------------------------------------------------
    @property
    def vote_due(self) -> int | None:
        """An abandoned seat this player may still vote on penalising, if any."""
        status = self.status
        votes = status.votes if status is not None else None
        seats = status.seats if status is not None else None
        if votes is None or seats is None or self.viewer >= len(seats):
            return None
        me = seats[self.viewer]
        if not isinstance(me, dict) or me.get("kind") != "human":
            return None
        electors = status.electors if status is not None else None
        if isinstance(electors, list) and self.viewer not in electors:
            return None  # the server says this player does not vote (they stalled this game)
        for vote in votes:
            if not isinstance(vote, dict) or type(vote.get("seat")) is not int:
                continue
            if not 0 <= vote["seat"] < len(seats):
                continue
            seat, voted = vote["seat"], vote.get("voted")
            if (seat in self.voted or vote.get("penalised") is not False or seat == self.viewer
                    or not isinstance(voted, list) or self.viewer in voted):
                continue
            return int(seat)
        return None

    def vote(self, seat: int, penalise: bool) -> None:
        """Vote on penalising the abandon of ``seat`` (once)."""
        self.voted.add(seat)
        self.connection.send(Vote(seat=seat, penalise=penalise))

    def take_news(self) -> list[str]:
        """What the table should say once since the last call, in words (the result of a vote on
        an abandon, for those who could vote)."""
        out, self._news = self._news, []
        return out

    def _vote_results(self, status: RoomStatus) -> None:
        """Say once the result of each vote this player could take part in, once it is known: more
        than half said yes (penalised), or too few may still say yes for it to pass."""
        rows = status.seat_rows()
        me = rows[self.viewer] if self.viewer < len(rows) else None
        if me is None or not me.human:
            return
        for vote in status.votes or []:
            if not isinstance(vote, dict):
                continue
            seat, yes, voters, voted = (whole(vote.get("seat")), whole(vote.get("yes")),
                                        whole(vote.get("voters")), vote.get("voted"))
            if (seat is None or yes is None or voters is None or not isinstance(voted, list)
                    or not 0 <= seat < len(self.seats) or seat == self.viewer or seat in self._told):
                continue
            penalised = vote.get("penalised") is True
            spared = not penalised and 2 * (yes + max(0, voters - len(voted))) <= voters
            if not (penalised or spared):
                continue
            self._told.add(seat)
            name = self.names_tagged()[seat]
            self._news.append(tr("vote.penalised", name=name, points=PENALTY) if penalised
                              else tr("vote.spared", name=name))

    def names_tagged(self) -> list[str]:
        """Each seat's name as the room's screens write it (another person's with their tag)."""
        return [s.name or tr("table.player", n=i + 1) for i, s in enumerate(self.seats)]

    # ---- leaving -------------------------------------------------------------------------------
    @property
    def leaving_is_abandon(self) -> bool:
        """Whether leaving now puts this player's seat at stake: a ranked game under way (a deal
        being played, or a match with a target between two deals), where a computer takes the seat
        of someone away `ABANDON_AFTER` seconds and the others may vote a penalty."""
        status = self.status
        if status is None or status.ranked is not True or not self.dealt:
            return False
        if self.viewer >= len(self.seats) or not self.seats[self.viewer].is_human:
            return False
        return status.state in (Status.PLAYING, Status.ROUND_OVER)

    @property
    def others_absent(self) -> bool:
        """Whether the room status names every other person still playing this ranked game as
        absent (`absent`): leaving now is no abandon (theirs is)."""
        status = self.status
        absent = status.absent if status is not None else None
        if not isinstance(absent, list) or not self.leaving_is_abandon:
            return False
        others = [i for i, seat in enumerate(self.seats) if seat.is_human and i != self.viewer]
        return bool(others) and all(i in absent for i in others)

    # ---- what a ranked match earned ------------------------------------------------------------
    @property
    def earned(self) -> int | None:
        """The points this player earned by the ranked match just over (None: not a ranked match
        over, or the server did not say)."""
        status = self.status
        given = status.earned if status is not None else None
        if given is None or self.viewer >= len(given):
            return None
        points = whole(given[self.viewer])
        return points if points is not None and abs(points) <= MAX_FIGURE else None

    @property
    def tokens_moved(self) -> int | None:
        """The tokens this player won (+) or lost (−) by the ranked match just over (None: not said)."""
        return stakes.moved(self.status, self.viewer)

    @property
    def earned_less(self) -> str | None:
        """Why the server's fair play took this player's points of the ranked match just over
        (``short``, ``pair_cap``), or None."""
        status = self.status
        given = status.reasons if status is not None else None
        if given is None or self.viewer >= len(given):
            return None
        why = given[self.viewer]
        return why if why in ("short", "pair_cap") else None
