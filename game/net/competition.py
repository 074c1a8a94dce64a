"""Ranked play on the server: points at a match's end, abandons, votes, leaderboards, histories.

What the points are and where they are kept is `ranking`'s; this is when the server
writes them and what it answers:

- a ranked room's match ends (every action goes through `roomservice.RoomService.act`): its
  points are written, once (again at start for a room whose points a crash kept from
  being written: `Ranking.award` writes each game once);
- a person leaves a ranked game under way (their connection closes or they ``leave``;
  not once the match is over): their time away runs on the server's clock, and after
  `ranking.ABANDON_AFTER` a Medium computer takes the seat (an ``abandon`` entry of the
  room's log); coming back in time, or the game ending meanwhile, stops it (the time away
  adds up until the person plays again: coming back for a moment does not start it anew);
- nobody can stall a ranked game: it has a turn clock (`rooms.Room.play_rules`), and two
  turns in a row lost to it put the person on the autopilot. A person away since
  `ranking.AWAY_ABSENT`, or who lost `ranking.STALL_TURNS` turns to the clock since they
  last played themselves (`rooms.Room.lost_turns`: the clock plays for them) is *absent*:
  when a person leaves the game (or stays away until `ranking.ABANDON_AFTER`) while every
  other person of it is absent, the absent ones abandon, at once, and the leaver does not
  (their time away does not run; they may come back to finish the game and vote);
- ``vote`` (``seat``, ``penalise``): a person still playing votes on an abandon, unless they
  stalled that game before the abandon or were the subject of a vote (`rooms.Room.electors`);
  more than half of the electors saying yes costs the abandoning player `ranking.PENALTY`
  points, written with the vote that decides it;
- the stakes (`tokens`): a competitive seat needs them (`Competition.check_tokens`), and they
  move with the points;
- ``leaderboard`` (``preset``): the top players of a rule set and the asker's own rank;
  ``history`` (``preset``?): the asker's ranked games.
"""

from __future__ import annotations

import functools
import logging
from typing import Any, TypedDict

from . import tokens
from .alarm import Alarm
from .meeting import costly, identities, needs_profile
from .messages import History, HistoryAnswer, Leaderboard, LeaderboardAnswer, PlayerProfile, Vote
from .profiles import Profile
from .protocol import Client, Refusal
from .ranking import ABANDON_AFTER, AWAY_ABSENT, STALL_TURNS, Abandons, Ranking
from .rooms import RANKED_TURN_SECONDS, LogEntry, Room
from .roomservice import Handler, RoomService, handles
from .roomstore import StoreFailure

log = logging.getLogger("huit.server")


class RankedStatus(TypedDict):
    """What a room's status (`messages.RoomStatus`) says of the ranking."""

    kind: str  # private, public or quick (`rooms.KINDS`)
    ranked: bool  # its results earn points
    votes: list[dict[str, Any]]  # each abandoned seat's vote: its seat, yes, no, voters, voted, penalised
    takeover: list[dict[str, Any]] | None  # each seat away from a game under way: seconds before a takeover
    earned: list[int | None] | None  # a ranked match over: the points each seat's person earned by it
    absent: list[int] | None  # a ranked game under way: the people absent from it (`Competition.absent`)
    electors: list[int] | None  # while there are votes: the seats that may vote (`rooms.Room.electors`)
    stake: int | None  # a competitive room: each person's stake (`tokens.STAKE`)
    tokens: list[int | None] | None  # a ranked match over: the tokens each seat's person gained or lost
    reasons: list[str | None] | None  # and when fair play took some: why, per seat (`fair_play.REASONS`)


class Competition:
    """The ranking's side of the server: the rooms ``service``'s ranked rooms, and the ``ranking``."""

    def __init__(self, service: RoomService, ranking: Ranking) -> None:
        self.service = service
        self.ranking = ranking
        self.abandons = Abandons()
        self.alarm = Alarm(service.clock, self._due, self._ring)
        self.excused: set[tuple[str, int]] = set()  # left a game the others stalled: no abandon
        self.told: dict[str, list[int]] = {}  # room id -> the absent seats its last status said
        self.announced: set[tuple[str, int]] = set()  # away long enough to be absent: the room was told

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(Vote, self.on_vote), handles(Leaderboard, self.on_leaderboard),
                     handles(History, self.on_history)])

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
            written = self.ranking.award(room, self.service.clock.now())
        except StoreFailure:  # written at the next start (each game is written once)
            log.exception("room %s: the ranking could not be stored", room.room_id)
            return
        if written:
            log.info("room %s: ranked game over, points %s", room.room_id, sorted(written.items()))
        self._tell_points(room, written)

    def _tell_points(self, room: Room, points: dict[int, int]) -> None:
        """Each connected person who earned (or lost) points now hears their profile again, with
        their points as they now stand: what the game keeps for its Statistics is never stale."""
        seated = self.service.seated.get(room.room_id, {})
        for seat in points:
            client = seated.get(seat)
            profile = client.profile if client is not None else None
            if client is None or profile is None or room.seats[seat].player != profile.player:
                continue
            balance = self.ranking.wallet_balance(profile.player, self.service.clock.now())
            self.service.send(client, PlayerProfile(name=profile.name, tag=profile.tag, avatar=profile.avatar,
                                                    xp=self.ranking.points(profile.player), created=False,
                                                    tokens=balance))

    def check_tokens(self, profile: Profile, room: Room | None = None) -> None:
        """Refuse a competitive seat (of ``room``, or a quick match) to a player without the stake.

        Raises:
            Refusal: ``no_tokens`` (`tokens.check`).
        """
        wallet = self.ranking.store.wallet(profile.player)
        rooms = list(self.service.rooms.values())
        tokens.check(profile.player, wallet, rooms, self.service.clock.now(), room)

    def left(self, room: Room, seat: int) -> None:
        """The person of ``seat`` is no longer connected: if everyone else of the game is absent
        (they stalled it), they abandon now and the leaver does not; else the leaver's time away
        runs."""
        if Abandons.counts(room) and seat in room.voters:
            now = self.service.clock.now()
            if not self._stalled_by_others(room, seat, now):
                self.abandons.leave(room, seat, now)
            self.alarm.replan()

    def back(self, room: Room, seat: int) -> None:
        """The person of ``seat`` is connected again (the others away now have their time run)."""
        now = self.service.clock.now()
        self.abandons.back(room, seat, now)
        self.excused.discard((room.room_id, seat))
        self.announced.discard((room.room_id, seat))
        self.abandons.watch(room, now)
        for other in room.voters:  # (the one excused stays so while away)
            if (room.room_id, other) in self.excused:
                self.abandons.away.pop((room.room_id, other), None)
        self.alarm.replan()

    def played(self, room: Room, seat: int) -> None:
        """The person of ``seat`` played themselves (an action the rules accepted, or asking for the
        next deal): they are not absent, and the time they were away earlier starts again from
        none (someone who plays on between short absences is not staying away)."""
        room.played(seat)
        self.abandons.spent.pop((room.room_id, seat), None)
        self.check_absent(room)

    def absentees(self, room: Room) -> list[int]:
        """The people absent now from ``room``'s ranked game under way (none otherwise)."""
        if not Abandons.counts(room):
            return []
        now = self.service.clock.now()
        return [seat for seat in room.voters if self.absent(room, seat, now)]

    def check_absent(self, room: Room) -> None:
        """Tell the room's people if who is absent changed since its last status (a turn lost to
        the clock, the autopilot on or off, someone playing again): each of them may then see
        that leaving is no abandon while the others are absent."""
        if self.absentees(room) != self.told.get(room.room_id, []):
            self.service.status(room)

    @property
    def away_absent(self) -> float:
        """Seconds away after which a person counts as absent: `AWAY_ABSENT` on the server's own
        ranked clock (``--ranked-clock``), the time of the turns the clock takes before the
        autopilot plays for someone."""
        return AWAY_ABSENT * self.service.driving.ranked_clock / RANKED_TURN_SECONDS

    def absent(self, room: Room, seat: int, at: float) -> bool:
        """Whether the person of ``seat`` was absent from ``room``'s game at ``at``: away since
        `away_absent` before, or who lost `STALL_TURNS` turns to the clock since they last played
        themselves (so on the autopilot the clock put them on; turning it off, or sending actions
        the rules refuse, is not playing). An autopilot a connected person asked for is not
        absence: it plays at once, and the game goes on."""
        if (room.room_id, seat) in self.excused:
            return False  # they left a game the others stalled: theirs was no abandon, nor is it now
        if not room.seats[seat].connected:
            since = self.abandons.away.get((room.room_id, seat))
            return since is None or since <= at - self.away_absent
        return room.lost_turns.get(seat, 0) >= STALL_TURNS

    def _stalled_by_others(self, room: Room, seat: int, at: float) -> bool:
        """When the person of ``seat`` leaves (at ``at``) or their time away runs out: if every
        other person still playing was absent when they left, those abandon now (a computer takes
        each seat) and ``seat`` is excused (their time away does not run); True then. False if
        someone else is playing."""
        others = [s for s in room.voters if s != seat]
        if not others or not all(self.absent(room, s, at) for s in others):
            return False
        self.excused.add((room.room_id, seat))
        self.abandons.away.pop((room.room_id, seat), None)
        for other in others:
            self.abandons.away.pop((room.room_id, other), None)
            log.info("room %s: seat %d left a game seat %d stalled; seat %d abandons", room.room_id,
                     seat, other, other)
            try:
                self.service.abandon(room, other)
            except Refusal as exc:  # the disk refused: that seat's time away decides later
                log.error("room %s: %s", room.room_id, exc)
                self.abandons.leave(room, other, self.service.clock.now())
        return True

    def gone(self, room_id: str) -> None:
        """The room expired."""
        self.abandons.forget(room_id)
        self.ranking.forget(room_id)
        self.excused = {k for k in self.excused if k[0] != room_id}
        self.told.pop(room_id, None)
        self.announced = {k for k in self.announced if k[0] != room_id}
        self.alarm.replan()

    def _due(self) -> float | None:
        """When the next seat is lost, or the next person away becomes absent (the room is told)."""
        away = self.abandons.away
        times = [since + self.away_absent for key, since in away.items() if key not in self.announced]
        lost = self.abandons.due()
        if lost is not None:
            times.append(lost)
        return min(times, default=None)

    def _ring(self) -> None:
        service = self.service
        now = service.clock.now()
        for key, since in list(self.abandons.away.items()):  # away long enough: absent, say so
            if key not in self.announced and since + self.away_absent <= now:
                self.announced.add(key)
                room = service.rooms.get(key[0])
                if room is not None:
                    self.check_absent(room)
        for room_id, seat in self.abandons.overdue(service.clock.now()):
            # Under the room's lock: after a change of it in flight, on the room as it then stands.
            service.when_free(room_id, functools.partial(self._overdue, room_id, seat))
        self.alarm.replan()

    def _overdue(self, room_id: str, seat: int) -> None:
        """The person of ``seat`` was away from ``room_id``'s ranked game too long: a computer
        takes their seat (or the others', who stalled it)."""
        service = self.service
        room = service.rooms.get(room_id)
        if room is None or not Abandons.counts(room) or seat not in room.voters:
            return
        if room.seats[seat].connected or (room_id, seat) in self.excused:
            return
        # The others stalled the game while this seat was away: theirs is the abandon.
        if self._stalled_by_others(room, seat, service.clock.now() - ABANDON_AFTER):
            return
        try:
            service.abandon(room, seat)
        except Refusal as exc:  # the disk refused: the seat waits for the next change
            log.error("room %s: %s", room_id, exc)

    def status(self, room: Room) -> RankedStatus:
        """What the room status says of the ranking: its kind, whether it is ranked, the votes."""
        votes = []
        for seat, one in enumerate(room.seats):
            if one.abandoned:
                ballots = room.votes.get(seat, {})
                votes.append({"seat": seat, "yes": sum(ballots.values()),
                              "no": len(ballots) - sum(ballots.values()), "voters": len(room.electors),
                              "voted": sorted(ballots), "penalised": seat in room.penalised})
        now = self.service.clock.now()
        takeover = [{"seat": seat, "left": round(max(0.0, since + ABANDON_AFTER - now), 1)}
                    for (room_id, seat), since in sorted(self.abandons.away.items())
                    if room_id == room.room_id and Abandons.counts(room)]
        points = self.ranking.shown(room)
        why = self.ranking.reasons(room)
        absent = self.told[room.room_id] = self.absentees(room)
        moved = self.ranking.tokens_moved(room) if points else {}
        return {"kind": room.kind, "ranked": room.earns, "votes": votes, "takeover": takeover or None,
                "earned": [points.get(seat) for seat in range(room.players)] if points else None,
                "stake": tokens.stake_of(room) if room.match is None or room.earns else None,
                "tokens": [moved.get(seat) for seat in range(room.players)] if moved else None,
                "reasons": [why.get(seat) for seat in range(room.players)] if why else None,
                "absent": absent or None, "electors": room.electors if votes else None}

    # ---- messages --------------------------------------------------------------------------------
    async def on_vote(self, client: Client, message: Vote) -> None:
        """Vote on penalising an abandon of the sender's room."""
        async with self.service.holding(client) as (room, voter):
            await self._vote(client, message, room, voter)

    async def _vote(self, client: Client, message: Vote, room: Room, voter: int) -> None:
        service = self.service
        seat, penalise = message.seat, message.penalise
        if seat is None or not 0 <= seat < room.players:  # its range is the room's
            raise Refusal("bad_message", f"seat must be a whole number from 0 to {room.players - 1}")
        message.check("penalise")
        if not room.ranked:
            raise Refusal("no_vote", "only the abandons of a ranked game are put to the vote")
        if not room.seats[seat].abandoned:
            raise Refusal("no_vote", "nobody abandoned that seat")
        if voter not in room.voters:
            raise Refusal("no_vote", "only the people still playing vote")
        if voter not in room.electors:
            raise Refusal("no_vote", "a player who stalled this game (two turns in a row to the clock) "
                                     "before the abandon, or whose own abandon was put to the vote, "
                                     "does not vote on it")
        if voter in room.votes.get(seat, {}):
            raise Refusal("already_voted", "you have voted on that already")
        limit = service.quotas.limits.votes_per_hour
        service.quotas.spend("votes", identities(client), limit,
                             Refusal("too_many_votes", f"at most {limit} votes an hour"))
        ballots = {**room.votes.get(seat, {}), voter: penalise}
        decides = seat not in room.penalised and 2 * sum(ballots.values()) > len(room.electors)
        also = self.ranking.penalty(room, seat, service.clock.now()) if decides else []
        await service.commit(room, LogEntry("vote", voter, f"{seat} {'yes' if penalise else 'no'}"), also)
        room.vote(voter, seat, penalise)
        if decides:
            log.info("room %s: the abandon of seat %d was penalised", room.room_id, seat)
        service.status(room)

    async def on_leaderboard(self, client: Client, message: Leaderboard) -> None:
        """The top players of a rule set, and the sender's own rank if they said hello."""
        message.check("preset")
        costly(client)
        player = client.profile.player if client.profile is not None else None
        board = self.ranking.leaderboard(message.preset, player)
        self.service.send(client, LeaderboardAnswer(**board, ref=message.ref))

    async def on_history(self, client: Client, message: History) -> None:
        """The sender's latest ranked games (of one rule set, or all)."""
        profile = needs_profile(client, "asking for your history")
        message.check("preset")
        costly(client)
        games = self.ranking.history(profile.player, message.preset)
        self.service.send(client, HistoryAnswer(games=games, ref=message.ref))
