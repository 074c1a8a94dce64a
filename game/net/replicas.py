"""This server's copies of the rooms, kept current with the database others write too.

A room is its seed, its seats and its log (`rooms.Room.replay`). When several servers share
one database (`cluster`), each keeps a copy of the rooms it serves, and any of them may write
a room: a copy knows the revision it stands at (`Room.rev`), and the store refuses a write
from a copy that is behind (`roomstore.Behind`). `Replicas` brings a copy up to the database:

- `refresh`: read what changed since the copy's log length (`RoomStore.since`), take the
  stored seats, apply the new entries (`Room.redo`; a copy one move behind takes the entry its
  news carried, `cluster.Written`, without a read), and tell this server's seats of the room
  what happened, as the server that made the change told its own: an update with the events
  (each seat its own view), and where the room stands. A change is only told once read
  committed, so commit-before-broadcast holds across servers.
- `find`: the room by id, current (loaded from the database if this server has no copy:
  a player reconnecting to another instance finds their seat).
- `heard` and `moved`: what the `cluster` tells of other servers' writes and of people
  coming and going on them.
- `tend`: the leases (`cluster.Cluster.lease`): a server with people in a room under way
  takes its lease when nobody holds it, and lets go the rooms none of its people are in any
  more, so the computers and clocks of a room run where its people are, on one server.

On a server on its own (`cluster.Alone`), copies are never behind: `find` reads one row, and
nothing else here runs.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from game.engine import Status
from game.engine.events import TurnStarted

from .cluster import Cluster, Written
from .links import ROOM_ID
from .room_locks import Taken
from .rooms import LogEntry, Room
from .roomstore import Since, StoreFailure

if TYPE_CHECKING:
    from .roomservice import RoomService

log = logging.getLogger("huit.server")


class Replicas:
    """This server's copies of the rooms, in the rooms ``service``, kept current (see the module)."""

    def __init__(self, service: RoomService, cluster: Cluster) -> None:
        self.service = service
        self.cluster = cluster
        self.turn_began: dict[str, float] = {}  # room id -> when this copy heard its turn begin (its clock)

    def turn_time(self, room_id: str) -> float:
        """Seconds since this copy heard the turn being played begin (0 if it never did): what a
        copy whose clocks another instance runs shows of the turn clock."""
        began = self.turn_began.get(room_id)
        return 0.0 if began is None else max(0.0, self.service.clock.now() - began)

    # ---- a copy, current -----------------------------------------------------------------------
    def find(self, room_id: str) -> Room | None:
        """The room, as the database has it now (None: no such room, or the database failed)."""
        service = self.service
        room = service.rooms.get(room_id)
        if room is not None:
            return self.refresh(room)
        if not ROOM_ID.fullmatch(room_id):
            return None  # no room's id: not worth asking the database
        if service.locks.busy(room_id):
            return None  # being made here (its commit in flight): nobody was told of it yet
        try:
            room = service.store.room(room_id)
        except StoreFailure:
            log.exception("room %s could not be read", room_id)
            return None
        if room is None or room_id in service.rooms:  # (someone's message made the copy meanwhile)
            return service.rooms.get(room_id)
        self.adopt(room)
        service.driving.kick(room)
        return room

    def adopt(self, room: Room) -> None:
        """Serve a room read from the database (at start, or found later): its driver, its seats'
        quotas and fair-play timers, the lobby, and the points of a match that ended unwritten."""
        service = self.service
        service.rooms[room.room_id] = room
        for seat in self.cluster.elsewhere(room.room_id):
            room.seats[seat].connected = True
        service.driving.adopt(room)
        if service.fair is not None:
            service.fair.adopt(room)
        service.quotas.hold(room.room_id, holders(room), room.computer_seats, room.resting)
        service.lobby.changed(room)
        if room.state == Status.MATCH_OVER:
            service.competition.match_over(room)  # points a crash kept from being written (written once)

    def refresh(self, room: Room) -> Room | None:
        """Bring ``room``'s copy up to the database and tell its seats here what changed; return
        the room as it stands (a copy rebuilt whole when the store forgot the entries it
        lacks), or None when the room is gone. A room whose lock someone else holds is left as
        it is: the change in flight brings it up (its commit, or the refusal of a copy behind),
        and a change read from the database meanwhile must not be applied in its middle."""
        try:
            with self.service.locks.claimed(room.room_id):
                return self._refresh(room)
        except Taken:
            return room

    def _refresh(self, room: Room) -> Room | None:
        service = self.service
        try:
            since = service.store.since(room.room_id, room.log_length)
        except StoreFailure:
            log.exception("room %s could not be caught up", room.room_id)
            return room
        if since is None:
            self.gone(room.room_id)
            return None
        if since.rev == room.rev:
            return room
        if since.entries is None or since.rev < room.rev:  # (ahead: it took what the database never held)
            return self._rebuild(room)
        return self._catch_up(room, since.rev, since.entries, since)

    def _catch_up(self, room: Room, rev: int, entries: list[LogEntry], stored: Since | None) -> Room | None:
        """Apply ``entries`` (the log's next ones) to ``room``'s copy, now at ``rev``, with the
        stored seats of ``stored`` (None: the seats did not change, the news carried the one entry
        written), and tell the room's seats here what happened."""
        service = self.service
        seats_before = [s.public() for s in room.seats]
        state_before = room.state
        if stored is not None:
            for mine, seat in zip(room.seats, stored.seats, strict=True):
                mine.name, mine.key_hash, mine.player = seat.name, seat.key_hash, seat.player
                mine.address, mine.avatar, mine.player_tag = seat.address, seat.avatar, seat.player_tag
                if room.match is None:  # once dealt, a seat's kind changes only by the log (an abandon)
                    mine.kind, mine.level = seat.kind, seat.level
            room.joined = stored.joined
        events = []
        told = False  # an entry whose news is more than its events (a vote, a seat lost, a deal asked)
        try:
            for entry in entries:
                dealt = room.match is None
                events += room.redo(entry)
                room.log_length += 1
                told |= entry.kind != "action"
                if dealt and room.match is not None:
                    service.driving.adopt(room)
                self._done_elsewhere(room, entry)
        except ValueError:
            log.exception("room %s: its log does not fit this server's copy; rebuilt whole", room.room_id)
            return self._rebuild(room)
        room.rev = rev
        if any(isinstance(event, TurnStarted) for event in events):
            self.turn_began[room.room_id] = service.clock.now()
        if events and room.match is not None:
            service.broadcast(room, events)
        if told or room.state != state_before or [s.public() for s in room.seats] != seats_before:
            if room.state == Status.MATCH_OVER and state_before != Status.MATCH_OVER:
                service.competition.match_over(room)
            service.status(room)
        service.driving.kick(room)
        return room

    def _done_elsewhere(self, room: Room, entry: LogEntry) -> None:
        """What a change made on another server means here beyond the game: a person who played
        there is not absent, and their autopilot gives them back their turns."""
        if not room.own_move(entry):
            return  # (the server's moves for a person, the autopilot's or the clock's, are not theirs)
        assert entry.seat is not None
        room.person_acted(entry.seat)
        room.played(entry.seat)

    def _rebuild(self, room: Room) -> Room | None:
        """Replace ``room``'s copy with one read whole from the database (its seats here keep it)."""
        service = self.service
        try:
            fresh = service.store.room(room.room_id)
        except StoreFailure:
            log.exception("room %s could not be read again", room.room_id)
            return room
        if fresh is None:
            self.gone(room.room_id)
            return None
        service.driving.forget(room.room_id)
        seated = service.seated.get(room.room_id, {})
        for seat, client in seated.items():
            client.room = fresh
            fresh.seats[seat].connected = True
        self.adopt(fresh)
        for client in list(seated.values()):
            if fresh.match is not None:
                service.update(client, fresh, [], earlier=fresh.round_events)
        service.status(fresh)
        service.driving.kick(fresh)
        return fresh

    def gone(self, room_id: str) -> None:
        """The room was deleted (expired on another server): forget it here too, and let its lease
        go (nothing would, `tend` tends the rooms kept: the lock would be held for good)."""
        service = self.service
        self.turn_began.pop(room_id, None)
        if room_id in service.rooms:
            service.forget(room_id)
        if self.cluster.drives(room_id):
            self.cluster.lease(room_id, False)

    # ---- news from the others ------------------------------------------------------------------------
    def heard(self, room_id: str, rev: int, written: Written | None = None) -> None:
        """Another server wrote the room (``rev`` -1: deleted; 0: created; ``written``: what, when
        the news says): catch it up where it matters here (people of it here, its lease, a public
        room waiting for players: the lobby); other copies are caught up when next used (`find`).
        A copy at the revision just before takes ``written`` as it is; any other reads the database.
        Under the room's lock: news of a room with a change in flight is taken once that change is
        done (it may be that very change)."""
        self.service.when_free(room_id, lambda: self._heard(room_id, rev, written))

    def _heard(self, room_id: str, rev: int, written: Written | None) -> None:
        service = self.service
        room = service.rooms.get(room_id)
        if rev < 0:
            self.gone(room_id)
            return
        if room is None:
            if rev == 0:  # a new room: the lobby lists it if it is public
                self.find(room_id)
            return
        if rev <= room.rev:
            return  # this server's own write, or one it read already
        listed = room.kind == "public" and room.match is None  # the lobby shows it: every instance's
        if not (service.seated.get(room_id) or self.cluster.drives(room_id) or listed):
            return
        if written is not None and rev == room.rev + 1 and written.seq == room.log_length:
            self._catch_up(room, rev, [written.entry], None)  # (the lock is held: `heard`)
        else:
            self.refresh(room)

    def moved(self, room_id: str) -> None:
        """Someone came to or left the room on another server: who is connected is read again."""
        def read() -> None:
            room = self.service.rooms.get(room_id)
            if room is not None:
                self.presence(room)
        self.service.when_free(room_id, read)

    def presence(self, room: Room) -> None:
        """Read who is connected to ``room``, here and elsewhere; tell its seats and plan it again
        when that changed (a person back elsewhere is not away here). Under the room's lock (a
        person gone may lose their seat: a change): now if free, else after the change in flight."""
        room_id = room.room_id
        self.service.when_free(room_id, lambda: self._presence(room_id))

    def _presence(self, room_id: str) -> None:
        service = self.service
        room = service.rooms.get(room_id)
        if room is None:
            return
        here = service.seated.get(room.room_id, {})
        there = self.cluster.elsewhere(room.room_id)
        changed = False
        for seat, one in enumerate(room.seats):
            if not one.is_human:
                continue
            connected = seat in here or seat in there
            if connected == one.connected:
                continue
            service.driving.catch_up(room)  # the clock counted until now as it was
            one.connected = changed = connected
            changed = True
            if connected:
                service.competition.back(room, seat)
                if service.fair is not None:
                    service.fair.back(room, seat)
            elif self.cluster.drives(room.room_id):  # their server died, or they left it: away from now
                service.competition.left(room, seat)
                if service.fair is not None:
                    service.fair.left(room, seat)
        if changed:
            service.status(room)
            service.driving.kick(room)

    def lost(self) -> None:
        """News may have been missed: check every room with people here, and who is where."""
        for room in list(self.service.rooms.values()):
            if self.service.seated.get(room.room_id) or self.cluster.drives(room.room_id):
                current = self.refresh(room)
                if current is not None:
                    self.presence(current)

    # ---- leases -----------------------------------------------------------------------------------
    def tend(self) -> None:
        """Take the leases of the rooms under way with people here that nobody drives (asked all
        at once), and let go those with nobody here (another server with people in them takes
        them)."""
        rooms = list(self.service.rooms.values())
        taken = self.cluster.take([room.room_id for room in rooms
                                   if self._wanted(room) and not self.cluster.drives(room.room_id)])
        for room in rooms:
            # (drives again: a lease connection lost in an earlier room's `_took` gave them all up)
            if room.room_id in taken and self.cluster.drives(room.room_id):
                self._took(room)
            elif self.cluster.drives(room.room_id) and not self._wanted(room):
                self.tend_room(room)

    def tend_room(self, room: Room) -> None:
        """Take ``room``'s lease if it is under way with people here and nobody drives it; let it go
        if none of its people is here any more (or its match is over for good)."""
        service = self.service
        room_id = room.room_id
        wanted = self._wanted(room)
        held = self.cluster.drives(room_id)
        if wanted == held or self.cluster.lease(room_id, wanted) == held:
            return  # nothing to change, or nothing changed (another holds it; a server alone holds all)
        if held:
            service.driving.pause(room_id)
            return
        self._took(room)

    def _wanted(self, room: Room) -> bool:
        """Whether this server should run ``room``: it is under way, with people here."""
        return bool(self.service.seated.get(room.room_id)) and room.match is not None and not room.finished

    def _took(self, room: Room) -> None:
        """The lease of ``room`` was just taken: run it from the room as it stands."""
        service = self.service
        room_id = room.room_id
        current = self.refresh(room)
        if current is not None:
            self.presence(current)
            service.driving.adopt(current)
            # The turn being played began when this copy heard it, as its players saw it: its clock
            # goes on from there rather than from full (the instance that ran it is gone).
            began = self.turn_began.pop(room_id, None)
            if began is not None:
                service.driving.ticked[room_id] = began
            service.driving.kick(current)


def holders(room: Room) -> list[str]:
    """Whom a room counts against: its creator's address (a quick-match room: each of its
    people's), and its people's players."""
    addresses = [s.address for s in room.seats if s.address] if room.kind == "quick" else []
    return list(dict.fromkeys([room.owner, *addresses, *("player:" + s.player for s in room.seats
                                                          if s.player)]))
