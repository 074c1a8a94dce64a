"""Where players meet on a server: saying hello with a player key, profiles, the lobby, quick match.

The server's messages of protocol version 2 that happen outside a room (docs/protocol.md):

- ``hello`` (``player``: the player key; ``name`` and ``avatar`` for a new profile): the
  connection speaks for that player from now on; the answer is ``profile``;
- ``profile`` (``name`` and/or ``avatar``): change them; the answer is ``profile``;
- ``lobby`` (``watch``): the public rooms (`lobby`), and their changes while watching;
- ``queue`` (``preset``, ``options``, ``players``, ``computers``, ``wait``): quick match
  (`matchmaking`); ``unqueue``: leave the queue, at once.

Every field is checked before anything changes, and what costs the server something
is counted per address and per player key (`quotas.Quotas.spend`): new profiles (per
address), profile changes and quick-match requests. A quick-match room counts for
each of its people as a room they created (rooms an hour, rooms held, computer seats:
`quotas.Quotas.check_room`).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
from typing import TYPE_CHECKING, Any

from .matchmaking import FILL_LEVEL, Ticket
from .messages import ChangeProfile, Error, Hello, Lobby, PlayerProfile, Queue, Unqueue, Unqueued
from .profiles import Profile
from .protocol import Client, Refusal
from .rooms import Room, Seat

if TYPE_CHECKING:
    from .server import RoomServer

log = logging.getLogger("huit.server")


def identities(client: Client) -> tuple[str, ...]:
    """What a request of ``client`` counts against: its address, and its player once known."""
    if client.profile is None:
        return (client.address,)
    return client.address, "player:" + client.profile.player


def costly(client: Client) -> None:
    """Count an answer that costs the server more than most (a listing, a leaderboard, a history).

    Raises:
        Refusal: ``too_many_requests``: more than `protocol.COSTLY_RATE` a second (bursts of
            `protocol.COSTLY_BURST`) on this connection.
    """
    if not client.allow_costly():
        raise Refusal("too_many_requests", "at most one lobby, leaderboard or history a second; "
                                           "watch the lobby rather than asking again")


def needs_profile(client: Client, what: str) -> Profile:
    """The player ``client`` speaks for.

    Raises:
        Refusal: ``no_profile``: it has not said hello.
    """
    if client.profile is None:
        raise Refusal("no_profile", f"say hello with your player key before {what}")
    return client.profile


class Meeting:
    """The handlers of hello, profile, lobby, queue and unqueue, and quick match's rooms."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server

    def handlers(self) -> dict[str, Any]:
        """The message types handled here, each with its handler."""
        return {"hello": self.on_hello, "profile": self.on_profile, "lobby": self.on_lobby,
                "queue": self.on_queue, "unqueue": self.on_unqueue}

    def _profile(self, client: Client, created: bool) -> None:
        profile = client.profile
        assert profile is not None
        xp = self.server.ranking.points(profile.player)
        self.server._send(client, PlayerProfile(**profile.public(), xp=xp, created=created))

    # ---- who is this ----------------------------------------------------------------------------
    async def on_hello(self, client: Client, message: Hello) -> None:
        """Speak for the player whose key this is (a new key makes a new profile)."""
        server = self.server
        # Checked whether or not they are used (a known key keeps its own name and avatar).
        message.check("player", "name", "avatar")
        player, name, avatar = message.player_id, message.profile_name, message.profile_avatar
        if client.profile is not None:
            if client.profile.player != player:
                raise Refusal("bad_message", "this connection already speaks for another player; "
                                             "open a new connection to speak for this one")
            self._profile(client, False)
            return
        now = server.clock.now()
        profile = server.profiles.get(player)
        created = profile is None
        if profile is None:
            limit = server.quotas.limits.profiles_per_hour
            server.quotas.spend("profiles", (client.address,), limit,
                                Refusal("too_many_profiles", f"at most {limit} new players an hour from one "
                                                             "address"))
            profile = Profile(player, name, avatar, now)
            try:
                server.profiles.add(profile, now)
            except sqlite3.Error:
                log.exception("a new profile could not be stored")
                raise Refusal("server_error", "the server could not store that; please try again") from None
        else:
            try:
                server.profiles.visit(profile, now)
            except sqlite3.Error:
                log.exception("a profile's visit could not be stored")  # it still plays
        client.profile = profile
        self._profile(client, created)

    async def on_profile(self, client: Client, message: ChangeProfile) -> None:
        """Change the player's name or avatar."""
        server = self.server
        profile = needs_profile(client, "changing your profile")
        message.check("fields", "name", "avatar")
        name = message.new_name if message.new_name is not None else profile.name
        avatar = message.new_avatar if message.new_avatar is not None else profile.avatar
        if (name, avatar) != (profile.name, profile.avatar):
            limit = server.quotas.limits.renames_per_hour
            server.quotas.spend("renames", identities(client), limit,
                                Refusal("too_many_changes", f"at most {limit} profile changes an hour"))
            changed = Profile(profile.player, name, avatar)
            try:
                server.profiles.save(changed, server.clock.now())
            except sqlite3.Error:
                log.exception("a profile change could not be stored")
                raise Refusal("server_error", "the server could not store that; please try again") from None
            profile.name, profile.avatar = name, avatar
        self._profile(client, False)

    # ---- the lobby --------------------------------------------------------------------------------
    async def on_lobby(self, client: Client, message: Lobby) -> None:
        """The public rooms now, and their changes while ``watch`` (default true)."""
        message.check("watch")
        costly(client)
        self.server.lobby.watch(client, message.watching)

    # ---- quick match --------------------------------------------------------------------------------
    async def on_queue(self, client: Client, message: Queue) -> None:
        """Wait for a table of these rules and this many players."""
        server = self.server
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        profile = needs_profile(client, "asking for a quick match")
        message.check("rules", "players", "computers", "wait")
        rules = message.rules
        assert rules is not None
        server.quotas.check_room(identities(client), 0)  # at its limit of rooms: told now, not at seating
        limit = server.quotas.limits.queue_per_hour
        server.quotas.spend("queue", identities(client), limit,
                            Refusal("too_many_requests", f"at most {limit} quick-match requests an hour"))
        server.queues.add(Ticket(client, profile.player, client.address, rules, message.players,
                                 bool(message.computers), message.seconds, server.clock.now()))

    async def on_unqueue(self, client: Client, message: Unqueue) -> None:
        """Leave the queue (answered ``unqueued`` whether or not it was in one)."""
        self.server.queues.remove(client)
        self.server._send(client, Unqueued(ref=message.ref))

    def quick_room(self, group: list[Ticket], computers: int) -> list[Ticket]:
        """Seat ``group`` (and ``computers`` computers) in a new quick-match room: every seat is
        taken, so the game starts at once. The room counts for each of its people (their address
        and their player) as a room they created (`quotas.Quotas.check_room`): a player it would
        take over a quota hears the error and ``unqueued``, and the others are returned to wait
        on (`matchmaking.MakeRoom`)."""
        server = self.server
        if len(server.rooms) >= server.max_rooms:
            for ticket in group:
                self._unqueue(ticket, "server_full",
                              "this server has as many rooms as it can keep; try later")
            return []
        refused = []
        for ticket in group:
            try:
                server.quotas.check_room(self._owners([ticket]), computers)
            except Refusal as exc:
                refused.append(ticket)
                self._unqueue(ticket, exc.code, f"no quick match now: {exc}")
        if refused:
            return [t for t in group if t not in refused]
        rules = group[0].rules
        now = server.clock.now()
        seats = [Seat("human") for _ in group] + [Seat("computer", FILL_LEVEL) for _ in range(computers)]
        first = 0 if rules.first_player == "seat0" else None
        # Alone with computers, a player's room expires like any room nobody else joined.
        room = Room(secrets.token_urlsafe(9), rules, seats, server.rng.randrange(1 << 62), first,
                    owner=group[0].address, joined=len(group) > 1, kind="quick", created=now)
        keys = []
        for i, ticket in enumerate(group):
            profile = ticket.client.profile
            assert profile is not None
            keys.append(room.claim(i, profile.name)[1])
            room.claimed_by(i, ticket.player, ticket.address, profile.avatar)
        try:
            server.store.add(room, now)
        except sqlite3.Error:
            log.exception("a quick-match room could not be stored")
            for ticket in group:
                self._unqueue(ticket, "server_error", "the server could not start that game; ask again")
            return []
        server.rooms[room.room_id] = room
        server.quotas.created_room(room.room_id, self._owners(group), computers)
        log.info("room %s made by quick match (%s, %d people, %d computers)", room.room_id, rules.name,
                 len(group), computers)
        server._seat_all(room, [(t.client, i, key)
                                for i, (t, key) in enumerate(zip(group, keys, strict=True))])
        return []

    @staticmethod
    def _owners(group: list[Ticket]) -> list[str]:
        """Whom a quick-match room counts against: each of its people's address and player."""
        return list(dict.fromkeys(o for t in group for o in (t.address, "player:" + t.player)))

    def _unqueue(self, ticket: Ticket, code: str, message: str) -> None:
        """Tell a player taken out of the queue without a seat why, and that they wait no more."""
        self.server._send(ticket.client, Error(code=code, message=message))
        self.server._send(ticket.client, Unqueued())
