"""Making rooms and taking seats: the server's ``create`` and ``join``.

``create`` makes a room (private, or ``public``: listed in the lobby, which needs a
player who said hello) with the seats asked for, and seats its creator; ``join`` takes
a seat back with its key (not one a computer took when its person stayed away from a
ranked game: `ranking`), or claims a free one (in a public room, as a player). A
create or claim may carry a ``request`` id: if its answer was lost and it comes again
within `REQUEST_MEMORY` seconds, it gets the same seat and key back instead of a second
room or seat. Rooms created count against the quotas of the address and the player
(`quotas`); a claimed seat knows its player and address, which decide the ranking.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from typing import Any, Final

from .meeting import identities, needs_profile
from .protocol import Client, Refusal, checked_text
from .rooms import KINDS, MAX_NAME, Room, RoomError, seat_name, seats_from_request
from .roomservice import Handler, Ref, RoomService
from .roomstore import StoreFailure
from .wire import WireError, rules_from_json

log = logging.getLogger("huit.server")

REQUEST_MEMORY: Final = 900.0  # seconds a create or claim can be retried with its request id
REQUEST_ID: Final = re.compile(r"[!-~]{8,64}", re.ASCII)  # a create's or claim's request id: printable ASCII


class Seating:
    """The handlers of create and join, and the memory of their request ids: rooms made in the
    rooms ``service``, at most ``max_rooms`` of them, their seeds drawn from ``rng``."""

    def __init__(self, service: RoomService, rng: random.Random, max_rooms: int) -> None:
        self.service = service
        self.rng = rng
        self.max_rooms = max_rooms
        # A create or claim whose answer was lost comes again with the same request id: it gets
        # the same seat and key back (kept in memory only, for REQUEST_MEMORY seconds).
        self.requests: dict[str, tuple[float, str, int, str]] = {}

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return {"create": self.on_create, "join": self.on_join}

    async def on_create(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """Make a room (private, or public with ``public``) and seat its creator."""
        service = self.service
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        request = self._request_id(data)
        if self._repeat(client, request):
            return
        if len(service.rooms) >= self.max_rooms:
            raise Refusal("server_full", "this server has as many rooms as it can keep; try later")
        try:
            rules = rules_from_json({"preset": data.get("preset"), "options": data.get("options", {})})
            seats = seats_from_request(data.get("seats"))
            rules.check_players(len(seats))
        except WireError as exc:
            raise Refusal("bad_rules", str(exc)) from None
        except RoomError as exc:
            raise Refusal(exc.code, str(exc), **exc.extra) from None
        except ValueError as exc:  # RulesError: the seating
            raise Refusal("bad_rules", str(exc)) from None
        name = self._name(client, data)
        public = data.get("public", False)
        if type(public) is not bool:
            raise Refusal("bad_message", "public must be true or false")
        if public:
            needs_profile(client, "creating a public room")
        owners = identities(client)  # its address, and its player
        computers = sum(not s.is_human for s in seats)
        service.quotas.check_room(owners, computers)
        first = None
        if rules.first_player == "seat0":  # "the human always starts": the first human seat
            first = next(i for i, s in enumerate(seats) if s.is_human)
        room = Room(secrets.token_urlsafe(9), rules, seats, self.rng.randrange(1 << 62), first,
                    owner=client.address, kind=KINDS[1] if public else KINDS[0], created=service.clock.now())
        seat, key = room.claim(None, name)
        self._claimed(client, room, seat)
        try:
            service.store.add(room, service.clock.now())
        except StoreFailure:
            log.exception("a new room could not be stored")
            raise Refusal("server_error", "the server could not store the room; please try again") from None
        service.rooms[room.room_id] = room
        service.quotas.created_room(room.room_id, owners, computers)
        log.info("room %s created (%s, %d seats)", room.room_id, rules.name, room.players)
        self._remember_request(request, room, seat, key)
        service.seat(client, room, seat, key)

    async def on_join(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """Take back a seat with its key, or claim a free one."""
        service = self.service
        if client.room is not None:
            raise Refusal("already_joined", "this connection already holds a seat")
        wanted = data.get("room")
        room = service.rooms.get(wanted) if isinstance(wanted, str) else None
        if room is None:
            raise Refusal("unknown_room", "there is no such room (it may have expired)")
        seat, key = data.get("seat"), data.get("key")
        if key is not None:
            if not room.opens(seat, key):  # a key this server never made (not text, a surrogate...) too
                raise Refusal("bad_key", "that key does not open that seat")
            assert type(seat) is int  # `opens` took it for a seat
            if room.seats[seat].abandoned:
                raise Refusal("abandoned", "you were away from this ranked game too long: a computer plays "
                                           "your seat now")
            service.seat(client, room, seat, None)
            return
        request = self._request_id(data)
        if self._repeat(client, request):
            return
        if seat is not None and type(seat) is not int:
            raise Refusal("bad_message", "seat must be a number")
        name = self._name(client, data)
        if room.kind != "private":
            needs_profile(client, "taking a seat in a public room")
        before = [(s.key_hash, s.name, s.player, s.address, s.avatar) for s in room.seats], room.joined
        try:
            seat, new = room.claim(seat, name)
        except RoomError as exc:
            raise Refusal(exc.code, str(exc), **exc.extra) from None
        self._claimed(client, room, seat)
        room.joined = True  # someone besides its creator: the room keeps its full seven days
        try:
            service.store.save_seats(room, service.clock.now())
        except StoreFailure:  # the claim is undone: a seat must never belong to a key nobody got
            for s, (key_hash, old_name, player, address, avatar) in zip(room.seats, before[0], strict=True):
                s.key_hash, s.name, s.player, s.address = key_hash, old_name, player, address
                s.avatar = avatar
            room.joined = before[1]
            log.exception("room %s: a claim could not be stored", room.room_id)
            raise Refusal("server_error", "the server could not store that; please try again") from None
        self._remember_request(request, room, seat, new)
        service.seat(client, room, seat, new)

    @staticmethod
    def _name(client: Client, data: dict[str, Any]) -> str:
        """The name of the seat ``client`` claims: its player's (with their tag) after ``hello``,
        the ``name`` it sent is then checked as text and ignored; else that ``name``, held to the
        rules of players' names (`rooms.seat_name`).

        Raises:
            Refusal: ``bad_message`` (not text, a surrogate, a control character) or ``bad_name``.
        """
        if client.profile is not None:
            checked_text(data.get("name", ""), "name", MAX_NAME)
            return client.profile.name
        try:
            return seat_name(data.get("name", ""), "name")
        except RoomError as exc:
            raise Refusal(exc.code, str(exc), **exc.extra) from None

    @staticmethod
    def _request_id(data: dict[str, Any]) -> str | None:
        """A create's or claim's ``request`` id, if it has one.

        Raises:
            Refusal: ``bad_message``: not 8 to 64 printable ASCII characters.
        """
        request = data.get("request")
        if request is None:
            return None
        if not isinstance(request, str) or not REQUEST_ID.fullmatch(request):
            raise Refusal("bad_message", "request must be 8 to 64 printable ASCII characters (a random id)")
        return request

    def _remember_request(self, request: str | None, room: Room, seat: int, key: str) -> None:
        if request is not None:
            now = self.service.clock.now()
            self.requests = {r: v for r, v in self.requests.items() if now - v[0] < REQUEST_MEMORY}
            self.requests[request] = (now, room.room_id, seat, key)

    def _repeat(self, client: Client, request: str | None) -> bool:
        """A create or claim seen before (its answer was lost): the same seat and key again."""
        service = self.service
        known = self.requests.get(request) if request is not None else None
        if known is None or service.clock.now() - known[0] >= REQUEST_MEMORY:
            return False
        _, room_id, seat, key = known
        room = service.rooms.get(room_id)
        if room is None or not room.opens(seat, key):
            return False
        service.seat(client, room, seat, key)
        return True

    @staticmethod
    def _claimed(client: Client, room: Room, seat: int) -> None:
        """``client`` just claimed ``seat``: the seat knows its player (if it said hello) and address."""
        profile = client.profile
        room.claimed_by(seat, profile.player if profile else None, client.address,
                        profile.avatar if profile else None)
