"""The table's controller for an online room: the server is the engine.

`RemoteController` keeps the table's contract (`TableControl`) as `MatchController`
does, but every decision goes over a `RoomConnection`: `submit` sends the action,
and the seat's view, its redacted events and the room's status come back. Like the
local controller it hands the table one server update per step and none while a
card is flying, so the animations play in order. The scenes read the game from the
seat's view and the past rounds' results from the room status (`results`).

Server refusals become `error` (an `IllegalAction` with the engine's reason key, so
the table explains them in the player's language). The lobby drives the same
object before the table exists: it reads `refusal`, `room` and `ready` (and, for a
quick match, `queued` until the server seats the player).

It reads the server's messages as their types (`game.net.messages.from_server`, once, as
they come off the connection) and sends its own as types. What the scenes read of the
room, the quick match's wait and the player's profile are those types (`status`,
`queue_status`, `player`); a room's seats are read through `RoomStatus.seat_rows`.

Every other person who said hello has a tag (``Ana #3F2K9Q``) so two Anas can be told apart:
the seats are `OnlineSeat`s that carry it, and their names are written with it
(`game.net.profiles.tagged`, the one format), so the table, the result, the vote and the
move log show the same ``Ana #3F2K9Q``; `with_tags` adds it where a screen has names of its own.

What a ranked room puts at stake (votes on an abandon, the countdown to a takeover, the points
and tokens a match earned, whether leaving is an abandon) is read and kept by its base,
`ranked_seat.RankedSeat`, from the same room statuses.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from game.engine import Action, IllegalAction, PlayerView, RoundResult, Status
from game.engine.events import Event, TimedOut
from game.net.client import CLOSED, CONNECTED, RECONNECTING, RoomConnection
from game.net.messages import (
    AcceptRound,
    ActionMessage,
    Autopilot,
    Error,
    FreeSeat,
    Joined,
    PlayerProfile,
    Queued,
    React,
    Reaction,
    RoomStatus,
    ServerMessage,
    Unqueued,
    Update,
    from_server,
)
from game.net.profiles import tagged
from game.net.replies import SeatRow
from game.net.wire import WireError, event_from_json, result_from_json, view_from_json
from game.play.avatars import is_person_avatar
from game.review.story import Recorder

from . import stakes
from .controller import SeatConfig
from .i18n import tr
from .ranked_seat import MAX_FIGURE, RankedSeat

_LOG = logging.getLogger("huit.remote")

MAX_CODE: Final = 40
"""The longest error code a server may name (codes are short words: ``bad_key``)."""

MAX_SERVER_TEXT: Final = 300
"""The longest sentence of a server's shown to the player; more is cut with an ellipsis."""

MAX_SEATS: Final = 16
"""More seats than any rule set has: a room status with more is not one this client can show."""

MAX_TIMER: Final = 24 * 3600.0
"""The longest turn clock a server may announce, in seconds; anything else is no clock."""

MAX_TAG: Final = 8
"""The longest tag shown (servers give six characters; those before issue 32 made three)."""

_NOBODY: Final = SeatRow(kind=None, level=None, name=None, tag=None, connected=False, accepted=False,
                         avatar=None)
"""A seat a room status gives as no object: shown as a computer with no name."""


@dataclass(frozen=True)
class OnlineSeat(SeatConfig):
    """A seat of an online room, with the tag of its player (``3F2``) when another person who said
    hello claimed it (kept when a computer took it from them; None for this device's own seat)."""

    tag: str | None = None


def with_tags(seats: Sequence[SeatConfig], names: Sequence[str]) -> list[str]:
    """``names`` (a name per seat, as the table writes them) with each other person's tag after
    it, ``Ana #3F2K9Q``; a local game's names, and this device's own, as they are."""
    out = list(names)
    for i, seat in enumerate(seats[:len(out)]):
        tag = seat.tag if isinstance(seat, OnlineSeat) else None
        if tag and out[i] != tagged(out[i].removesuffix(f" #{tag}"), tag):
            out[i] = tagged(out[i], tag)
    return out


def shorten(text: str) -> str:
    """A server's sentence cut to `MAX_SERVER_TEXT` characters."""
    return text if len(text) <= MAX_SERVER_TEXT else text[:MAX_SERVER_TEXT - 1] + "…"


# Errors that mean the seat cannot be had (before the table) or is lost (after).
FATAL = ("unknown_room", "bad_key", "seat_taken", "no_free_seat", "bad_rules", "version", "replaced",
         "abandoned", "no_profile", "server_full", "too_many_requests", "no_tokens", "one_seat",
         "too_many_seats", "seat_freed")

FREED_WHY: Final = ("owner", "away")
"""Why a server says a seat was freed (``seat_freed``'s ``reason``), each said in the player's language."""

ONLINE_POLL: Final = 0.05
"""Messages arrive on the connection's thread at any moment: a resting table looks this often."""


class RemoteController(RankedSeat):
    """Plays one seat of a server's room for the table (a `TableControl`); what a ranked room puts
    at stake for the seat is its base's (`RankedSeat`)."""

    can_undo = False  # an online game cannot be taken back
    undo_offered = False
    can_set_levels = False  # the room's computers keep the levels it was created with
    can_rematch = False  # a room ends with its match
    handoff_to: int | None = None  # each player has their own device

    def __init__(self, connection: RoomConnection, *, speed: float = 1.0) -> None:
        super().__init__()
        self.connection = connection
        self.speed = speed
        self.undo_allowed = False
        self.busy: Callable[[], bool] = lambda: False
        self.on_change: Callable[[], None] = lambda: None
        self.on_key: Callable[[str, int, str], None] = lambda room, seat, key: None
        self.on_profile: Callable[[PlayerProfile], None] = lambda profile: None
        self.player: PlayerProfile | None = None  # what the server said of this player (hello)
        self.queue_status: Queued | None = None  # a quick match's wait, until the server seats us
        self.error: IllegalAction | None = None
        self.refusal: str | None = None  # why the seat cannot be had or was lost (translated)
        self.refusal_code: str | None = None  # the server's error code for it
        self.status: RoomStatus | None = None  # the latest room status
        self.room_id: str | None = connection.room
        self.viewer = connection.seat if connection.seat is not None else 0
        self.seats: list[SeatConfig] = []
        self._timer_left: float | None = None  # as the server last said, counted down here
        self.autopilot_on = False  # the server plays this seat's turns (its last word, or what was asked)
        self._autopilot_notices: list[int] = []
        self.accepted = False  # this seat asked for the next deal
        self._view: PlayerView | None = None
        self._results: list[RoundResult] | None = None  # read from the room status when first asked
        self._incoming: deque[ServerMessage] = deque()
        self.outbox: deque[Event] = deque()
        self.reactions: deque[tuple[int, str]] = deque(maxlen=MAX_SEATS)  # (seat, id) heard, for the table
        self._past: list[Event] | None = None  # the deal so far, sent on (re)joining it (`take_past`)
        # This seat's deal as the server sent it, for the review after it (`game.review`): its views
        # and redacted events only, never anything asked of the server for it.
        self.recorder = Recorder()

    # ---- what the scenes read ----------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """Whether the game has started, this seat has its view and the room's seats are known (the
        table can open). A room that deals at once (one person and computers) sends its first update
        before its room status; the table waits for both, as it draws every seat."""
        return self._view is not None and self._view.seat < len(self.seats)

    @property
    def dealt(self) -> bool:
        """Whether the server has sent this seat its view of the game (`view` has one)."""
        return self._view is not None

    def view(self) -> PlayerView:
        """This seat's latest view (only once `ready`)."""
        if self._view is None:
            raise RuntimeError("no view yet: the game has not started")
        return self._view

    @property
    def results(self) -> list[RoundResult]:
        """The results of the room's deals so far, up to the shown one, oldest first."""
        if self._results is None:
            results = self._room_results()
            view = self._view
            if view is not None:
                results = results[:view.round_number]
                if view.result is not None and len(results) < view.round_number:
                    results.append(view.result)  # the room status can come just after the deal's last update
            self._results = results
        return self._results

    @property
    def humans(self) -> list[int]:
        """The human seats of the room."""
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def local_seats(self) -> tuple[int, ...]:
        """The one seat this device plays."""
        return (self.viewer,)

    @property
    def thinking(self) -> int | None:
        """The server-side computer to act, if any (the table shows it thinking)."""
        to_act = self._view.to_act if self._view is not None else None
        if to_act is not None and to_act < len(self.seats) and not self.seats[to_act].is_human:
            return to_act
        return None

    @property
    def kind(self) -> str:
        """``private``, ``public`` or ``quick`` (``private`` when the server does not say)."""
        kind = self.status.kind if self.status is not None else None
        return kind if kind in ("private", "public", "quick") else "private"

    @property
    def owns_room(self) -> bool:
        """Whether this device holds the seat of a public room's owner while it waits for players:
        its first human seat, the one its creator took (only the owner may free a seat)."""
        status = self.status
        if status is None or self.kind != "public" or status.state != "waiting":
            return False
        rows = status.seat_rows()
        owner = next((i for i, row in enumerate(rows) if row is not None and row.human), None)
        return owner is not None and owner == self.viewer

    def free_seat(self, seat: int) -> None:
        """Give ``seat`` back to the lobby (the owner of a public room waiting for players): its
        person is told, and the room's next status shows it free."""
        self.connection.send(FreeSeat(seat=seat))

    online = True  # the game goes on at the server for the others while this device pauses
    for_show = False  # this device plays a seat

    @property
    def awaiting_deal(self) -> bool:
        """Whether this seat asked for the next deal and the room waits for other players."""
        return self.accepted

    @property
    def timer_left(self) -> float | None:
        """Seconds left on the clock of whoever is to act, or None: no clock, or the one to act is
        away (the server runs no clock for a seat whose person is not connected: the table says
        whom it waits for instead of a clock stuck at 0)."""
        if self._timer_left is None or self._view is None:
            return self._timer_left
        return None if self._view.to_act in self.waiting_for else self._timer_left

    @property
    def waiting_for(self) -> list[int]:
        """The other human seats the room waits for (free or disconnected)."""
        if self.status is None:
            return []
        seats = self.status.waiting_for or []
        return [s for s in seats if type(s) is int and 0 <= s < MAX_SEATS and s != self.viewer]

    def notice(self, names: list[str]) -> str:
        """A line about the connection or an absent player, or ``""`` when all is well."""
        if self.refusal:
            return self.refusal
        status = self.connection.status
        if status == RECONNECTING:
            return tr("online.reconnecting")
        if status == CLOSED:
            return tr("online.closed")
        if status != CONNECTED:
            return tr("online.connecting", address=f"{self.connection.host}:{self.connection.port}")
        away = self.takeover_notice(names)
        if away:  # a ranked game: the seat of someone away goes to a computer when the time runs out
            return away
        if self._view is not None and self._view.my_turn:
            return ""  # "Your turn" matters more than who the room waits for
        absent = set(self.waiting_for)
        room = self.status
        if self.accepted and room is not None and room.state in (Status.ROUND_OVER, Status.MATCH_OVER):
            for i, seat in enumerate(room.seat_rows()):  # who has not asked for the deal yet
                if seat is not None and seat.human and not seat.accepted:
                    absent.add(i)
        absent.discard(self.viewer)
        waiting = [names[s] for s in sorted(absent) if 0 <= s < len(names)]
        if waiting:
            return tr("online.waiting_for", names=", ".join(waiting))
        return ""

    # ---- commands ----------------------------------------------------------------------------
    def submit(self, action: Action, seat: int | None = None) -> None:
        """Send ``action`` for this seat (refused at once while the connection is down); acting
        takes this seat off the autopilot (the server does the same)."""
        if not self.connection.connected:
            self.error = IllegalAction(tr("online.not_connected"))
            return
        self.autopilot_on = False
        self.recorder.acted(action)
        self.connection.send(ActionMessage(action=str(action)))

    def react(self, reaction: str) -> None:
        """Send a quick reaction (an id of `REACTIONS`) from this seat; the server relays it to the
        room (this seat's own bubble comes back with it) or refuses it (too soon: `error`)."""
        if not self.connection.connected:
            self.error = IllegalAction(tr("online.not_connected"))
            return
        self.connection.send(React(reaction=reaction))

    def take_events(self) -> list[Event]:
        """The events since the last call, as the server redacted them for this seat."""
        out = list(self.outbox)
        self.outbox.clear()
        return out

    def take_past(self) -> list[Event] | None:
        """The deal so far as the server sent it on (re)joining the room, once; else None."""
        past, self._past = self._past, None
        return past

    def due(self) -> float | None:
        """Seconds until `update` should look again: at once while messages wait their turn,
        else `ONLINE_POLL` (the connection's thread cannot wake the loop itself)."""
        return 0.0 if self._incoming else ONLINE_POLL

    def update(self, dt: float) -> None:
        """Take in what arrived: at most one game update per step, none while cards fly."""
        if self._timer_left is not None:
            self._timer_left = max(0.0, self._timer_left - dt)
        self.count_down_takeovers(dt)
        self._incoming.extend(self.connection.poll_messages())  # read as their types once, by the connection
        applied = False
        while self._incoming:
            if isinstance(self._incoming[0], Update) and (applied or self.busy()):
                return
            message = self._incoming.popleft()
            try:
                applied = self._handle(message) or applied
            except Exception:  # a broken message from a server is dropped, never a crash of the game
                _LOG.warning("dropped a malformed %r message", message.TYPE)

    # ---- the autopilot: the server's, for this seat ---------------------------------------------
    can_autopilot = True

    def autopilot(self, seat: int) -> bool:
        """Whether the server plays this device's seat (``seat``) for its player."""
        return seat == self.viewer and self.autopilot_on

    def set_autopilot(self, seat: int, on: bool) -> None:
        """Ask the server to play this seat's turns (``on``), or to give them back.

        Raises:
            ValueError: ``seat`` is not this device's seat.
        """
        if seat != self.viewer:
            raise ValueError("only this device's seat can be put on the autopilot")
        if not self.connection.connected:
            self.error = IllegalAction(tr("online.not_connected"))
            return
        self.autopilot_on = on  # the next update says what the server made of it
        self.connection.send(Autopilot(on=on))

    def plays_for(self, seat: int) -> bool:
        """Whether the server plays this seat's turn now (its autopilot is on)."""
        return self.autopilot(seat)

    def take_autopilot_notices(self) -> list[int]:
        """This seat, if the server put it on the autopilot after turns lost to the clock."""
        out, self._autopilot_notices = self._autopilot_notices, []
        return out

    def next_round(self) -> None:
        """Ask for the next deal; it starts when every human seat has asked."""
        self.accepted = True
        self.connection.send(AcceptRound())

    def undo(self) -> bool:
        """Online games cannot be taken back."""
        return False

    def apply_settings(self, *, speed: float, undo_allowed: bool) -> None:
        """Keep the animation speed; undo stays off (the room decides the game)."""
        self.speed = speed

    def set_level(self, seat: int, level: str) -> None:
        """Refused: the room's computers keep the levels it was created with.

        Raises:
            ValueError: always.
        """
        raise ValueError("an online room's computer levels cannot be changed")

    def accept_handoff(self, seat: int) -> None:
        """Nothing to hand over: each player has their own device."""

    def leave(self) -> None:
        """Leave the table; the seat waits, keyed, for this device to come back."""
        self.connection.close(leave=True)

    # ---- messages ----------------------------------------------------------------------------
    def receive(self, data: dict[str, Any]) -> bool:
        """Apply a server's JSON object at once (read as its type); True when it was a game update.
        An object of a type this game does not know is left alone."""
        message = from_server(data)
        return False if message is None else self._handle(message)

    def _handle(self, message: ServerMessage) -> bool:
        """Apply one server message; True when it was a game update."""
        if isinstance(message, Joined):
            self._joined(message)
        elif isinstance(message, RoomStatus):
            self._room(message)
        elif isinstance(message, Update):
            return self._update(message)
        elif isinstance(message, Error):
            self._error(message)
        elif isinstance(message, PlayerProfile):
            self.player = message
            self.on_profile(message)
        elif isinstance(message, Queued):
            self.queue_status = message
        elif isinstance(message, Unqueued):
            self.queue_status = None
        elif isinstance(message, Reaction):
            seat, reaction = message.seat, message.reaction
            if seat is not None and 0 <= seat < len(self.seats) and reaction is not None:
                self.reactions.append((seat, reaction))  # (an id this game does not know: shown as nothing)
        return False

    def _joined(self, message: Joined) -> None:
        room, seat = message.room, message.seat
        if room is None or seat is None or not 0 <= seat < MAX_SEATS:
            return
        self.room_id = room
        self._seat_as(seat)
        self.refusal = self.refusal_code = None
        self.queue_status = None
        if message.key is not None:
            self.on_key(room, seat, message.key)

    def _room(self, message: RoomStatus) -> None:
        given, waiting = message.seats, message.waiting_for or []
        if (given is None or not 0 < len(given) <= MAX_SEATS or {"waiting_for", "results"} & message.strays
                or not all(type(s) is int for s in waiting)):
            return  # not a room status this client can show: keep the last good one
        self.status = message
        self.seats = self._seats_of(message)
        self._results = None
        self.read_standing(message)

    def _seat_as(self, seat: int) -> None:
        """This device plays ``seat`` (its own seat shows no tag)."""
        if seat != self.viewer:
            self.viewer = seat
            if self.status is not None:
                self.seats = self._seats_of(self.status)

    def _seats_of(self, status: RoomStatus) -> list[SeatConfig]:
        """The seats of a room status: who sits there, their name, avatar and tag."""
        seats: list[SeatConfig] = []
        # A seat that is not an object is shown as a computer with no name: the others keep their numbers.
        rows = [row or _NOBODY for row in status.seat_rows()]
        names = [(row.name or "")[:24] for row in rows]
        for i, (row, name) in enumerate(zip(rows, names, strict=True)):
            kind = "human" if row.human else "computer"
            level = row.level if row.level in ("easy", "medium", "hard") else "medium"
            tag = row.tag[:MAX_TAG] if row.tag is not None and row.tag.strip() else None
            if i == self.viewer:
                tag = None  # this device's own seat is the player's, with their name alone
            if name and tag:
                name = tagged(name, tag)  # as the result, the vote and the lobby write it: which Ana
            avatar = row.avatar  # a player's choice (protocol version 2), else the seat's default
            chosen = avatar if kind == "human" and is_person_avatar(avatar) else None
            seats.append(OnlineSeat(kind, str(level), name, chosen, tag))
        return seats

    def _room_results(self) -> list[RoundResult]:
        out = []
        for raw in (self.status.results if self.status is not None else None) or []:
            try:
                result = result_from_json(raw)
            except WireError:
                continue
            if result is not None and _plausible(result, len(self.seats)):
                out.append(result)
        return out

    def _update(self, message: Update) -> bool:
        if "events" in message.strays and (message.source or {}).get("events"):
            return False  # events that are not a list: not an update this client can show
        try:
            view = view_from_json(message.view)
            events = [event_from_json(e) for e in message.events or []]
        except WireError:
            return False  # a server of another version: keep the last good view
        earlier: list[Event] | None = None
        if isinstance(message.earlier, list):  # back in a deal under way: the move log is rebuilt
            try:
                self._past = earlier = [event_from_json(e) for e in message.earlier]
            except WireError:
                self._past = None  # a log this client cannot read: the moves from now on only
        self.recorder.update(view, events, earlier)
        before = self._view
        if before is not None and (view.round_number != before.round_number or view.status != before.status):
            self.accepted = False  # a new deal (or its end): ask again next time
        self._view = view
        self._results = None
        self._seat_as(view.seat)
        timer = message.timer  # seconds left, or null (not a number: read as null)
        if timer is None or not 0 <= timer <= MAX_TIMER:
            timer = None  # no clock (NaN is never within the bounds)
        self._timer_left = None if timer is None else float(timer)
        autopilot = message.autopilot
        if autopilot is not None:  # (a server from before the autopilot never says)
            timed_out = any(isinstance(e, TimedOut) and e.seat == view.seat for e in events)
            if autopilot and not self.autopilot_on and timed_out:
                self._autopilot_notices.append(view.seat)  # the clock, not the player, switched it on
            self.autopilot_on = autopilot
        self.outbox.extend(events)
        self.on_change()
        return True

    def _error(self, message: Error) -> None:
        # A server's words are shown as they come, so they are cut to what a sentence needs: a
        # hostile server's 100,000-character message would take the text box minutes to lay out.
        code = message.code[:MAX_CODE] if message.code is not None else ""
        said = message.message
        detail = shorten(said) if said is not None else code
        text = tr(f"online.error.{code}", detail=detail)
        if code == "no_tokens":  # said with the stake and the tokens free
            text = stakes.refusal_text(message)
        elif code == "seat_freed" and message.reason in FREED_WHY:  # who freed it: the owner, or time
            text = tr(f"online.error.seat_freed.{message.reason}")
        elif text == f"online.error.{code}":
            text = detail  # a code this client does not know: the server's own sentence
        if code in FATAL:
            self.refusal, self.refusal_code = text, code
        if code == "too_many_computers":  # a next deal the quota refused: the player may ask again
            self.accepted = False
        reason, values = message.reason, message.values
        if code == "illegal":
            self.recorder.refused()  # the move sent was never made: not the player's decision
        if code == "illegal" and reason is not None:
            self.error = IllegalAction(detail, key=reason[:MAX_CODE],
                                       values=values if values is not None else {})
        else:
            self.error = IllegalAction(text)


def _plausible(result: RoundResult, players: int) -> bool:
    """Whether a deal's result from a room status can be shown: a figure per seat, each a whole
    number within reason, and winners that are seats."""
    def seat(value: object) -> bool:
        return type(value) is int and 0 <= value < players

    def figure(value: object) -> bool:
        return type(value) is int and abs(value) <= MAX_FIGURE

    return (len(result.points) == len(result.totals) == len(result.hands) == players
            and all(figure(v) for v in (*result.points, *result.totals))
            and all(seat(w) for w in result.winners)
            and (result.winner is None or seat(result.winner)))
