"""Where players meet on a server: saying hello with a player key, profiles, the lobby.

The server's messages of protocol version 2 that happen outside a room (docs/protocol.md;
quick match's ``queue`` and ``unqueue`` are `quickmatch`'s):

- ``hello`` (``player``: the player key; ``name`` and ``avatar`` for a new profile): the
  connection speaks for that player from now on; the answer is ``profile``;
- ``profile`` (``name`` and/or ``avatar``): change them; the answer is ``profile``;
- ``lobby`` (``watch``): the public rooms (`lobby`), and their changes while watching.

Every field is checked before anything changes, and what costs the server something
is counted per address and per player key (`quotas.Quotas.spend`): new profiles (per
address) and profile changes. A new profile, or a new name, gets its tag from the server
(`profiles.Profiles.tag_for`); a name that looks like another player's is refused
(``bad_name``, reason ``confusable``). Who a request counts against (`identities`), the answers
that cost more (`costly`) and the requests that need a player (`needs_profile`) are
said here for every handler of the server.
"""

from __future__ import annotations

import functools
import logging

from .lobby import Lobby
from .messages import ChangeProfile, Hello, PlayerProfile
from .messages import Lobby as LobbyRequest
from .profiles import NameTaken, Profile, Profiles
from .protocol import Client, Refusal, not_stored
from .ranking import Ranking
from .rooms import Room
from .roomservice import Handler, Outdated, RoomService, handles
from .roomstore import StoreFailure

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
    """The handlers of hello, profile and lobby: the players' ``profiles`` (their points from
    the ``ranking``) and the public rooms' ``lobby``, answered through the rooms ``service``."""

    def __init__(self, service: RoomService, profiles: Profiles, ranking: Ranking, lobby: Lobby) -> None:
        self.service = service
        self.profiles = profiles
        self.ranking = ranking
        self.lobby = lobby

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(Hello, self.on_hello), handles(ChangeProfile, self.on_profile),
                     handles(LobbyRequest, self.on_lobby)])

    def _profile(self, client: Client, created: bool) -> None:
        profile = client.profile
        assert profile is not None
        xp = self.ranking.points(profile.player)
        self.service.send(client, PlayerProfile(name=profile.name, tag=profile.tag, avatar=profile.avatar,
                                                xp=xp, created=created,
                                                tokens=self.ranking.wallet_balance(profile.player,
                                                                                   self.service.clock.now())))

    # ---- who is this ----------------------------------------------------------------------------
    async def on_hello(self, client: Client, message: Hello) -> None:
        """Speak for the player whose key this is (a new key makes a new profile)."""
        service = self.service
        # Checked whether or not they are used (a known key keeps its own name and avatar).
        message.check("player", "name", "avatar")
        player, name, avatar = message.player_id, message.profile_name, message.profile_avatar
        if client.profile is not None:
            if client.profile.player != player:
                raise Refusal("bad_message", "this connection already speaks for another player; "
                                             "open a new connection to speak for this one")
            self._profile(client, False)
            return
        now = service.clock.now()
        profile = self.profiles.get(player)
        created = profile is None
        if profile is None:
            limit = service.quotas.limits.profiles_per_hour
            service.quotas.spend("profiles", (client.address,), limit,
                                 Refusal("too_many_profiles", f"at most {limit} new players an hour from one "
                                                              "address"))
            profile = Profile(player, name, avatar, now)
            try:
                self.profiles.add(profile, now)
            except NameTaken as exc:
                raise Refusal("bad_name", str(exc), reason=exc.reason) from None
            except StoreFailure:
                log.exception("a new profile could not be stored")
                raise not_stored() from None
        else:
            try:
                self.profiles.visit(profile, now)
            except StoreFailure:
                log.exception("a profile's visit could not be stored")  # it still plays
        client.profile = profile
        self._profile(client, created)

    async def on_profile(self, client: Client, message: ChangeProfile) -> None:
        """Change the player's name or avatar."""
        service = self.service
        profile = needs_profile(client, "changing your profile")
        message.check("fields", "name", "avatar")
        name = message.new_name if message.new_name is not None else profile.name
        avatar = message.new_avatar if message.new_avatar is not None else profile.avatar
        if (name, avatar) != (profile.name, profile.avatar):
            limit = service.quotas.limits.renames_per_hour
            service.quotas.spend("renames", identities(client), limit,
                                 Refusal("too_many_changes", f"at most {limit} profile changes an hour"))
            changed = Profile(profile.player, name, avatar, tag=profile.tag)
            try:
                self.profiles.save(changed, service.clock.now())  # its tag: kept, or a new one
            except NameTaken as exc:
                raise Refusal("bad_name", str(exc), reason=exc.reason) from None
            except StoreFailure:
                log.exception("a profile change could not be stored")
                raise not_stored() from None
            profile.name, profile.avatar, profile.tag = name, avatar, changed.tag
            self._rename_seats(profile)
        self._profile(client, False)

    def _rename_seats(self, profile: Profile) -> None:
        """The player's seats, in every room the server keeps, take their new name and avatar, and
        those rooms' people (and the lobby, and the room's page, which read the seats) hear of it
        (with the tag, which a new name may have changed):
        the server is the authority on who sits where, under which name. A room whose seats the
        disk refuses keeps the old ones (the profile itself has changed: the next change tries
        again)."""
        for room_id in list(self.service.rooms):  # each under its lock (after a change in flight)
            self.service.when_free(room_id, functools.partial(self._rename_in, room_id, profile))

    def _rename_in(self, room_id: str, profile: Profile) -> None:
        room = self.service.rooms.get(room_id)
        if room is not None:
            self._rename(room, profile)

    def _rename(self, room: Room, profile: Profile, tries: int = 2) -> None:
        """Give ``profile``'s seats in ``room`` its name, avatar and tag (tried again on the room as it
        stands when another server wrote it meanwhile)."""
        service = self.service
        seats = [s for s in room.seats if s.player == profile.player]
        before = [(s.name, s.avatar, s.player_tag) for s in seats]
        if all(old == (profile.name, profile.avatar, profile.tag) for old in before):
            return
        for seat in seats:
            seat.name, seat.avatar, seat.player_tag = profile.name, profile.avatar, profile.tag
        try:
            service.save_seats_now(room)
        except Outdated:  # the copy was caught up (its stored seats back in it)
            current = service.rooms.get(room.room_id)
            if current is not None and tries > 1:
                self._rename(current, profile, tries - 1)
            return
        except StoreFailure:
            for seat, (name, avatar, tag) in zip(seats, before, strict=True):
                seat.name, seat.avatar, seat.player_tag = name, avatar, tag
            log.exception("room %s: a player's new name could not be stored", room.room_id)
            return
        service.status(room)

    # ---- the lobby --------------------------------------------------------------------------------
    async def on_lobby(self, client: Client, message: LobbyRequest) -> None:
        """The public rooms now, and their changes while ``watch`` (default true)."""
        message.check("watch")
        costly(client)
        self.lobby.watch(client, message.watching)
