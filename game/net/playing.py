"""A seated player's messages: ``action``, ``autopilot``, ``accept_round`` and ``leave``.

Each goes through the rooms service (`roomservice.RoomService`) under the room's lock
(`RoomService.holding`): an action is checked, committed, applied and told to every seat
before anything else changes the room (`RoomService.act`); the time until
it counts for the turn as it was (the room's driver is brought to the present first). A
player who acts takes back their turns from the autopilot, even when the rules refuse
the action; only an action the rules accept (or asking for the next deal) counts as playing
for a ranked game (`competition.Competition.absent`).
"""

from __future__ import annotations

from game.engine import Status, TimeOut

from .driving import Driving
from .messages import AcceptRound, ActionMessage, Autopilot, Leave, Left
from .protocol import Client, Refusal
from .rooms import LogEntry, Room
from .roomservice import Handler, RoomService, handles


class Playing:
    """The handlers of a seated player's messages, in the rooms ``service`` (whose rooms'
    ``driving`` is brought to the present before anything changes)."""

    def __init__(self, service: RoomService, driving: Driving) -> None:
        self.service = service
        self.driving = driving

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return dict([handles(ActionMessage, self.on_action), handles(Autopilot, self.on_autopilot),
                     handles(AcceptRound, self.on_accept_round), handles(Leave, self.on_leave)])

    async def on_action(self, client: Client, message: ActionMessage) -> None:
        """The sender's seat acts (its notation, e.g. ``play 7H``)."""
        service = self.service
        service.joined(client)
        message.check("action")
        action = message.move
        assert action is not None  # (its text was checked)
        if isinstance(action, TimeOut):
            raise Refusal("illegal", "only the server's clock runs out a turn", reason="not_allowed",
                          values={"action": "timeout"})
        async with service.holding(client) as (room, seat):
            self.driving.catch_up(room)  # the time until now counts for the turn as it was
            # The player is here and acts (even if the rules refuse it): the autopilot gives them
            # control back.
            room.person_acted(seat)
            await service.act(room, seat, action, client, message.ref)
            service.competition.played(room, seat)  # not absent (an action the rules refused is not play)

    async def on_autopilot(self, client: Client, message: Autopilot) -> None:
        """The player hands their turns to the server's Medium stand-in (``on``), or takes them back."""
        service = self.service
        service.joined(client)
        message.check("on")
        async with service.holding(client) as (room, seat):
            await self._autopilot(client, message, room, seat)

    async def _autopilot(self, client: Client, message: Autopilot, room: Room, seat: int) -> None:
        service = self.service
        if room.match is None or room.driver is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        self.driving.catch_up(room)  # the time until now counts for the turn as it was
        if room.driver.on_autopilot(seat) != message.on:  # (asking for what is already so stores nothing)
            # Stored like a move: the server running the room's computers may be another one.
            await service.commit(room, LogEntry("autopilot", seat, "on" if message.on else "off"))
            room.driver.set_autopilot(seat, message.on)
        service.update(client, room, [], message.ref)
        service.competition.check_absent(room)  # on the autopilot, a player is absent from a ranked game
        self.driving.kick(room)

    async def on_accept_round(self, client: Client, message: AcceptRound) -> None:
        """The sender's seat asks for the next deal."""
        service = self.service
        async with service.holding(client) as (room, seat):
            await self._accept_round(room, seat)

    async def _accept_round(self, room: Room, seat: int) -> None:
        service = self.service
        if room.match is None or room.state == Status.PLAYING or room.finished:
            raise Refusal("illegal", "there is no deal to accept now", reason="not_allowed",
                          values={"action": "accept_round"})
        if room.resting:  # its computers would play again: they must fit the quota again
            service.quotas.check_deal(room.room_id, room.computer_seats)
        if not room.seats[seat].accepted:
            await service.commit(room, LogEntry("accept", seat))
            room.accept(seat)
            service.competition.played(room, seat)
        service.status(room)
        self.driving.kick(room)

    async def on_leave(self, client: Client, message: Leave) -> None:
        """The sender gives its seat up (it keeps its key, but a guest's seat in a public room waiting
        for players is freed: `fair_seats`) and its connection is closed."""
        self.service.detach(client, gave_up=True)
        self.service.send(client, Left())
        client.outbox.put_nowait(None)  # the writer closes the connection once "left" is out
