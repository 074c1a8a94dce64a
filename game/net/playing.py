"""A seated player's messages: ``action``, ``autopilot``, ``accept_round`` and ``leave``.

Each goes through the rooms service (`roomservice.RoomService`): an action is checked,
committed, applied and told to every seat in one step (`RoomService.act`); the time until
it counts for the turn as it was (the room's driver is brought to the present first). A
player who acts takes back their turns from the autopilot, even when the rules refuse
the action.
"""

from __future__ import annotations

from typing import Any

from game.engine import Status, TimeOut, parse_action

from .driving import Driving
from .protocol import Client, Refusal, text_problem
from .rooms import LogEntry
from .roomservice import Handler, Ref, RoomService


class Playing:
    """The handlers of a seated player's messages, in the rooms ``service`` (whose rooms'
    ``driving`` is brought to the present before anything changes)."""

    def __init__(self, service: RoomService, driving: Driving) -> None:
        self.service = service
        self.driving = driving

    def handlers(self) -> dict[str, Handler]:
        """The message types handled here, each with its handler."""
        return {"action": self.on_action, "autopilot": self.on_autopilot,
                "accept_round": self.on_accept_round, "leave": self.on_leave}

    async def on_action(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """The sender's seat acts (its notation, e.g. ``play 7H``)."""
        service = self.service
        room, seat = service.joined(client)
        text = data.get("action")
        if not isinstance(text, str):
            raise Refusal("bad_message", "action must be text, e.g. \"play 7H\"")
        problem = text_problem(text[:64])
        if problem is not None:
            raise Refusal("bad_message", f"action holds {problem}; send its notation, e.g. \"play 7H\"")
        try:
            action = parse_action(text)
        except ValueError as exc:
            raise Refusal("bad_message", str(exc)) from None
        if isinstance(action, TimeOut):
            raise Refusal("illegal", "only the server's clock runs out a turn", reason="not_allowed",
                          values={"action": "timeout"})
        self.driving.catch_up(room)  # the time until now counts for the turn as it was
        # The player is here and acts (even if the rules refuse it): the autopilot gives them control back.
        room.person_acted(seat)
        service.act(room, seat, action, client, ref)

    async def on_autopilot(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """The player hands their turns to the server's Medium stand-in (``on``), or takes them back."""
        service = self.service
        room, seat = service.joined(client)
        on = data.get("on")
        if type(on) is not bool:
            raise Refusal("bad_message", "on must be true or false")
        if room.match is None or room.driver is None:
            raise Refusal("not_started", "the game starts when every human seat is taken")
        self.driving.catch_up(room)  # the time until now counts for the turn as it was
        room.driver.set_autopilot(seat, on)
        service.update(client, room, [], ref)
        self.driving.kick(room)

    async def on_accept_round(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """The sender's seat asks for the next deal."""
        service = self.service
        room, seat = service.joined(client)
        if room.match is None or room.state == Status.PLAYING or room.finished:
            raise Refusal("illegal", "there is no deal to accept now", reason="not_allowed",
                          values={"action": "accept_round"})
        if room.resting:  # its computers would play again: they must fit the quota again
            service.quotas.check_deal(room.room_id, room.computer_seats)
        if not room.seats[seat].accepted:
            service.commit(room, LogEntry("accept", seat))
            room.accept(seat)
        service.status(room)
        self.driving.kick(room)

    async def on_leave(self, client: Client, data: dict[str, Any], ref: Ref) -> None:
        """The sender gives its seat up (it keeps its key) and its connection is closed."""
        self.service.detach(client)
        self.service.send(client, {"type": "left"})
        client.outbox.put_nowait(None)  # the writer closes the connection once "left" is out
