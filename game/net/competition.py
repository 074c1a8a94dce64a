"""Ranked play on the server: points at a match's end, abandons, votes, leaderboards, histories.

What the points are and where they are kept is `ranking`'s; this is when the server
writes them and what it answers:

- a ranked room's match ends (every action goes through the server's ``_act``): its
  points are written, once (again at start for a room whose points a crash kept from
  being written: `Ranking.award` writes each game once);
- a person leaves a ranked game under way (their connection closes or they ``leave``;
  not once the match is over): their time away runs on the server's clock, and after
  `ranking.ABANDON_AFTER` a Medium computer takes the seat (an ``abandon`` entry of the
  room's log); coming back in time, or the game ending meanwhile, stops it;
- ``vote`` (``seat``, ``penalise``): a person still playing votes on an abandon; more than
  half of them saying yes costs the abandoning player `ranking.PENALTY` points, written
  with the vote that decides it;
- ``leaderboard`` (``preset``): the top players of a rule set and the asker's own rank;
  ``history`` (``preset``?): the asker's ranked games.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING, Any

from .alarm import Alarm
from .meeting import costly, identities, needs_profile
from .messages import History, HistoryAnswer, Leaderboard, LeaderboardAnswer, Vote
from .protocol import Client, Refusal
from .ranking import Abandons
from .rooms import LogEntry, Room

if TYPE_CHECKING:
    from .server import RoomServer

log = logging.getLogger("huit.server")


class Competition:
    """The ranking's side of the server."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.abandons = Abandons()
        self.alarm = Alarm(server.clock, self.abandons.due, self._ring)

    def handlers(self) -> dict[str, Any]:
        """The message types handled here, each with its handler."""
        return {"vote": self.on_vote, "leaderboard": self.on_leaderboard, "history": self.on_history}

    # ---- what the room tells ------------------------------------------------------------------
    def match_over(self, room: Room) -> None:
        """``room``'s match ended (or the server found it ended at start): write its points. Nobody
        away from it can abandon it any more: leaving a game that is over is no abandon."""
        if not Abandons.counts(room):
            self.abandons.forget(room.room_id)
            self.alarm.replan()
        if not room.earns:
            return
        try:
            earned = self.server.ranking.award(room, self.server.clock.now())
        except sqlite3.Error:  # written at the next start (each game is written once)
            log.exception("room %s: the ranking could not be stored", room.room_id)
            return
        if earned:
            log.info("room %s: ranked game over, points %s", room.room_id, sorted(earned.items()))

    def left(self, room: Room, seat: int) -> None:
        """The person of ``seat`` is no longer connected."""
        if Abandons.counts(room) and seat in room.voters:
            self.abandons.away.setdefault((room.room_id, seat), self.server.clock.now())
            self.alarm.replan()

    def back(self, room: Room, seat: int) -> None:
        """The person of ``seat`` is connected again (the others away now have their time run)."""
        self.abandons.back(room, seat)
        self.abandons.watch(room, self.server.clock.now())
        self.alarm.replan()

    def gone(self, room_id: str) -> None:
        """The room expired."""
        self.abandons.forget(room_id)
        self.alarm.replan()

    def _ring(self) -> None:
        server = self.server
        for room_id, seat in self.abandons.overdue(server.clock.now()):
            room = server.rooms.get(room_id)
            if room is None or not Abandons.counts(room) or seat not in room.voters:
                continue
            if room.seats[seat].connected:
                continue
            try:
                server._abandon(room, seat)
            except Refusal as exc:  # the disk refused: the seat waits for the next change
                log.error("room %s: %s", room_id, exc)
        self.alarm.replan()

    def status(self, room: Room) -> dict[str, Any]:
        """What the room status says of the ranking: its kind, whether it is ranked, the votes."""
        votes = []
        for seat, one in enumerate(room.seats):
            if one.abandoned:
                ballots = room.votes.get(seat, {})
                votes.append({"seat": seat, "yes": sum(ballots.values()),
                              "no": len(ballots) - sum(ballots.values()), "voters": len(room.voters),
                              "voted": sorted(ballots), "penalised": seat in room.penalised})
        return {"kind": room.kind, "ranked": room.earns, "votes": votes}

    # ---- messages --------------------------------------------------------------------------------
    async def on_vote(self, client: Client, message: Vote) -> None:
        """Vote on penalising an abandon of the sender's room."""
        server = self.server
        room, voter = server._joined(client)
        seat, penalise = message.seat, message.penalise
        if seat is None or not 0 <= seat < room.players:
            raise Refusal("bad_message", f"seat must be a whole number from 0 to {room.players - 1}")
        message.check("penalise")
        if not room.ranked:
            raise Refusal("no_vote", "only the abandons of a ranked game are put to the vote")
        if not room.seats[seat].abandoned:
            raise Refusal("no_vote", "nobody abandoned that seat")
        if voter not in room.voters:
            raise Refusal("no_vote", "only the people still playing vote")
        if voter in room.votes.get(seat, {}):
            raise Refusal("already_voted", "you have voted on that already")
        limit = server.quotas.limits.votes_per_hour
        server.quotas.spend("votes", identities(client), limit,
                            Refusal("too_many_votes", f"at most {limit} votes an hour"))
        ballots = {**room.votes.get(seat, {}), voter: penalise}
        decides = seat not in room.penalised and 2 * sum(ballots.values()) > len(room.voters)
        also = server.ranking.penalty(room, seat, server.clock.now()) if decides else []
        server._commit(room, LogEntry("vote", voter, f"{seat} {'yes' if penalise else 'no'}"), also)
        room.vote(voter, seat, penalise)
        if decides:
            log.info("room %s: the abandon of seat %d was penalised", room.room_id, seat)
        server._room_status(room)

    async def on_leaderboard(self, client: Client, message: Leaderboard) -> None:
        """The top players of a rule set, and the sender's own rank if they said hello."""
        message.check("preset")
        costly(client)
        player = client.profile.player if client.profile is not None else None
        board = self.server.ranking.leaderboard(message.preset, player)
        self.server._send(client, LeaderboardAnswer(**board, ref=message.ref))

    async def on_history(self, client: Client, message: History) -> None:
        """The sender's latest ranked games (of one rule set, or all)."""
        profile = needs_profile(client, "asking for your history")
        message.check("preset")
        costly(client)
        games = self.server.ranking.history(profile.player, message.preset)
        self.server._send(client, HistoryAnswer(games=games, ref=message.ref))
