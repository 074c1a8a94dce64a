"""The match controller: a command queue in front of the engine, computer turns, undo.

Scenes never call the engine directly: they `submit` actions. Each fixed update step
the controller applies at most one queued action, unless an animation blocks, and
hands the events (redacted for the seat being shown) to the table through
`take_events`. What happens by itself (a computer's think delay and choice, a
computer catching a missed "Card" call, the turn timer of a human seat) is the
`game.play.TurnDriver`'s: each step the controller advances it and applies the move
it returns like a human action. The controller knows nothing of pygame, so it is
tested directly.

Undo is the engine's: the controller keeps only its undo points, the length of the
match's log at the start of the person's last turns, and `undo` asks the match for
itself as it stood then (`Match.rewound`), then shuffles the draw pile through the
match's log, so that taking a turn back never shows what the pile gives next.

The autopilot is the driver's (a Medium stand-in plays a person's turns until they
take back control): any action a person asks for gives them control again (`submit`
then `person_acted`), and so does Undo.

`to_save` turns everything needed to go on exactly where the game stopped into a
`game.saves.SavedTable`; `from_save` rebuilds the controller from one (the computer
players learn the round again from its events). ``on_change`` is called after every
change worth saving.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from game.ai import LEVELS, ComputerPlayer, default_helpers, player_for
from game.engine import Action, IllegalAction, Match, PlayerView, RoundResult, RulesError, Status
from game.engine.events import Event
from game.engine.match import SEED_LIMIT
from game.play import Computer, Pace, TurnDriver
from game.play.avatars import is_avatar
from game.saves import SavedSeat, SavedTable

INSTANT_REACTION: Final = 0.3
"""At instant speed a missed "Card" call is still caught after this fraction of the usual moment."""
UNDO_STEPS: Final = 50
"""How many of the person's turns Undo can take back, one after the other."""


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a human or a computer of some level, a display name, and an avatar
    (an id of `game.play.avatars`; None: the seat's default, see `avatars.seat_avatars`)."""

    kind: str = "human"
    level: str = "medium"
    name: str = ""
    avatar: int | None = None

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == "human"


class MatchController:
    """Drives a `Match` for the table: queue, computer turns, timer, hot-seat viewer, undo."""

    def __init__(
        self, match: Match, seats: list[SeatConfig], *, rng: random.Random | None = None,
        speed: float = 1.0, undo_allowed: bool = True, history: list[Event] | None = None,
    ) -> None:
        if len(seats) != match.players:
            raise ValueError(f"{match.players} seats expected, got {len(seats)}")
        for seat in seats:
            if (seat.kind not in ("human", "computer") or seat.level not in LEVELS
                    or (seat.avatar is not None and not is_avatar(seat.avatar))):
                raise ValueError(f"bad seat {seat!r}")
        self.match = match
        self.seats = list(seats)
        self.rng = rng if rng is not None else random.Random()
        self.undo_allowed = undo_allowed
        self.queue: deque[tuple[int | None, Action]] = deque()
        self.outbox: deque[Event] = deque()
        self.error: IllegalAction | None = None  # the last refusal, for the table to explain
        self.busy: Callable[[], bool] = lambda: False
        humans = self.humans
        self.viewer = humans[0] if humans else 0
        self._undo: list[int] = []  # undo points: the log's length at the start of the person's turns
        self._undo_turn: tuple[int, int] | None = None  # the (deal, turn) of the newest point
        self.on_change: Callable[[], None] = lambda: None
        self.covered = False  # a resumed hot-seat game: nobody has been handed the device yet
        self.settled = False  # the finished match is already counted in the statistics
        computers = {i: Computer(s.level, self._computer(s.level))
                     for i, s in enumerate(seats) if not s.is_human}
        # The clock waits while the device changes hands (or a resumed game is covered).
        self.driver = TurnDriver(match, computers, pace=Pace(self.rng),
                                 may_time=lambda seat: self.handoff_to is None)
        self.speed = speed
        self._past: list[Event] | None = None  # a round under way to show in the move log (`take_past`)
        if history is None:  # a new match: deal on the table
            history = list(match.start_events)
            for event in history:
                self.outbox.append(event.for_seat(self.viewer))
        else:  # a resumed game: the table's move log is rebuilt from the round so far
            self._past = list(history)
        self.history = history  # this round's events, unredacted: what a resumed computer relearns
        self.driver.observe(history)

    # ---- who plays ---------------------------------------------------------------------------
    @staticmethod
    def _computer(level: str) -> ComputerPlayer:
        """The computer player of ``level``; Hard searches on the machine's other cores too."""
        return player_for(level, helpers=default_helpers())

    @property
    def speed(self) -> float:
        """The speed setting: computers' delays are divided by it (0: instant)."""
        return self._speed

    @speed.setter
    def speed(self, speed: float) -> None:
        self._speed = speed
        pace = self.driver.pace
        pace.think_scale = 1 / speed if speed > 0 else 0.0
        pace.reaction_scale = 1 / speed if speed > 0 else INSTANT_REACTION  # instant still leaves a moment

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def solo(self) -> bool:
        """One person against computers (undo is for solo play only)."""
        return len(self.humans) == 1

    @property
    def hot_seat(self) -> bool:
        """Two or more people share this device."""
        return len(self.humans) >= 2

    def view(self) -> PlayerView:
        """The view of the seat the table shows."""
        return self.match.view(self.viewer)

    @property
    def handoff_to(self) -> int | None:
        """The human seat the device must be passed to before anything is shown, if any."""
        to_act = self.match.to_act
        if self.covered and self.hot_seat:
            mine = to_act is not None and self.seats[to_act].is_human and not self.driver.on_autopilot(to_act)
            return to_act if mine else self.viewer
        if (self.hot_seat and to_act is not None and to_act != self.viewer
                and self.seats[to_act].is_human and not self.queue and not self.driver.on_autopilot(to_act)):
            return to_act  # (the autopilot plays on without the device changing hands)
        return None

    def accept_handoff(self, seat: int) -> None:
        """The player at ``seat`` has the device: show that seat from now on."""
        if not self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is not a human seat")
        self.viewer = seat
        self.covered = False

    def set_level(self, seat: int, level: str) -> None:
        """Change a computer's level mid-game; the round goes on (the new player learns it so far)."""
        if self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is a human seat")
        self.seats[seat] = replace(self.seats[seat], level=level)
        self.driver.seat_computer(seat, Computer(level, self._computer(level)), self.history)
        self.on_change()

    # ---- what the table shows ------------------------------------------------------------------
    @property
    def think_left(self) -> float | None:
        """Seconds of think delay left for the computer to act, or None when none is thinking."""
        return self.driver.think_left

    @property
    def timer_left(self) -> float | None:
        """Seconds left on the clock of the turn being played, or None when no clock runs."""
        return self.driver.timer_left

    def think_time(self) -> float:
        """A computer's think delay: seeded, scaled by the speed setting (0: instant)."""
        return self.driver.think_time()

    # ---- commands ---------------------------------------------------------------------------
    def submit(self, action: Action, seat: int | None = None) -> None:
        """Queue an action for ``seat`` (default: the seat to act)."""
        self.queue.append((seat, action))

    def take_events(self) -> list[Event]:
        """The events since the last call, as the shown seat may see them."""
        out = list(self.outbox)
        self.outbox.clear()
        return out

    def take_past(self) -> list[Event] | None:
        """The round so far, as the shown seat may see it, when the table must rebuild its move log
        from it (a resumed game, a turn taken back), once; else None."""
        past, self._past = self._past, None
        return None if past is None else [event.for_seat(self.viewer) for event in past]

    def due(self) -> float | None:
        """Seconds until `update` changes the game by itself (0: at the next step), or None: not
        until someone acts (or a search under way finishes: the table's thinking glow keeps
        frames coming meanwhile)."""
        if self.queue:
            return 0.0
        if self.match.status != Status.PLAYING:
            return None
        return self.driver.due()

    def update(self, dt: float) -> None:
        """One step of ``dt`` seconds: apply a queued action, or advance the turn driver and make its move."""
        if self.busy():
            return
        if self.queue:
            seat, action = self.queue.popleft()
            actor = self.match.to_act if seat is None else seat
            if actor is not None and 0 <= actor < len(self.seats) and self.seats[actor].is_human:
                # A person asked for something (even what the rules then refuse): they are here,
                # and take back control from the autopilot.
                self.driver.person_acted(actor)
            self._apply(action, seat)
            return
        if self.match.status != Status.PLAYING:
            return
        move = self.driver.advance(dt)
        if move is not None:
            self._apply(move.action, move.seat)

    def _apply(self, action: Action, seat: int | None) -> bool:
        """Apply ``action`` for ``seat``; a refusal becomes `error`."""
        match = self.match
        actor = match.to_act if seat is None else seat
        point = None
        if (actor is not None and self.solo and self.undo_allowed and match.rules.undo
                and self.seats[actor].is_human and actor == match.to_act):
            turn = (match.round.number, match.round.turn_no)
            if turn != self._undo_turn:  # the person's first action of this turn
                point = (len(match.log), turn)
        try:
            events = match.apply(action, seat)
        except IllegalAction as exc:
            self.error = exc
            return False
        if point is not None:  # only a turn that really happened can be taken back
            self._undo.append(point[0])
            self._undo_turn = point[1]
            del self._undo[:-UNDO_STEPS]
        self.error = None
        for event in events:
            self.outbox.append(event.for_seat(self.viewer))
        self.history.extend(events)
        self.driver.observe(events)
        self.on_change()
        return True

    # ---- rounds and undo ------------------------------------------------------------------
    def next_round(self) -> None:
        """Deal the next round (after the result screen)."""
        events = self.match.next_round()
        for event in events:
            self.outbox.append(event.for_seat(self.viewer))
        self.history = list(events)
        self.driver.observe(events)
        self._undo.clear()
        self._undo_turn = None
        self.settled = False
        self.on_change()

    @property
    def can_undo(self) -> bool:
        """Whether Undo would take back a turn now."""
        return (bool(self._undo) and self.solo and self.undo_allowed and self.match.rules.undo
                and self.match.status == Status.PLAYING)

    @property
    def undo_offered(self) -> bool:
        """Whether turns can be taken back at this table at all: one person, and undo allowed by the
        rules and the settings (a same-device game never can)."""
        return self.solo and self.undo_allowed and self.match.rules.undo

    def undo(self) -> bool:
        """Take back the human's last turn and the computer moves after it."""
        if not self.can_undo:
            return False
        self.driver.person_acted(self.humans[0])  # taking a turn back is taking back control
        length = self._undo.pop()
        history: list[Event] = []
        try:
            restored = self.match.rewound(length, history)
        except (RulesError, ValueError):  # a point past the log (a damaged save): no undo, no crash
            self._undo.clear()
            self._undo_turn = None
            return False
        # Taking a turn back must not show what comes next: the pile is shuffled (and logged).
        restored.shuffle_draw_pile(self.rng.randrange(SEED_LIMIT))
        self.match = restored
        self.driver.reset(restored)
        self.history = history
        self._past = list(history)  # the move log goes back to this turn
        self._undo_turn = None
        self.queue.clear()
        self.outbox.clear()
        self.error = None
        self.on_change()
        return True

    # ---- saving ----------------------------------------------------------------------------
    def to_save(self) -> SavedTable:
        """Everything needed to go on exactly from here, for `game.saves`."""
        return SavedTable(
            match=self.match, history=list(self.history),
            seats=[SavedSeat(s.kind, s.level, s.name, s.avatar) for s in self.seats], viewer=self.viewer,
            rng=self.rng.getstate(), timer=self.driver.timer, undo=list(self._undo),
            undo_turn=self._undo_turn, queue=list(self.queue), settled=self.settled,
            autopilot=self.driver.autopilot,
        )

    @classmethod
    def from_save(cls, table: SavedTable, *, speed: float = 1.0,
                  undo_allowed: bool = True) -> MatchController:
        """Rebuild a controller from a saved table (already checked by `game.saves`).

        Raises:
            ValueError: the table cannot be set up (a seat or a random state it refuses).
        """
        try:
            match = table.match
            seats = [SeatConfig(s.kind, s.level, s.name, s.avatar) for s in table.seats]
            rng = random.Random()
            rng.setstate(table.rng)
            controller = cls(match, seats, rng=rng, speed=speed, undo_allowed=undo_allowed,
                             history=list(table.history))
            controller._undo = [n for n in table.undo or () if type(n) is int]
            controller._undo_turn = table.undo_turn
            controller.queue.extend(table.queue or ())
            if type(table.viewer) is int and 0 <= table.viewer < match.players:
                controller.viewer = table.viewer
            if table.timer is not None:  # (turn, seconds left) of the human clock
                controller.driver.timer = table.timer
            if table.autopilot is not None:
                controller.driver.autopilot = table.autopilot
            else:  # a save from before the autopilot: off for everyone
                controller.driver.clear_autopilot()
            controller.settled = bool(table.settled)
        except Exception as exc:  # whatever is wrong with it, the menu says so; the game goes on
            raise ValueError(f"the saved table cannot be set up: {type(exc).__name__}: {exc}") from None
        controller.covered = controller.hot_seat
        return controller

    # ---- the table contract ----
    # What `TableControl` (game/client/table_control.py) asks beyond the methods above, read from
    # this controller's public state. Kept apart so the turn machinery above can change freely.
    @property
    def local_seats(self) -> tuple[int, ...]:
        """Every human seat: all of them are played on this device."""
        return tuple(self.humans)

    @property
    def results(self) -> list[RoundResult]:
        """The results of the match's rounds so far, oldest first."""
        return self.match.results

    @property
    def thinking(self) -> int | None:
        """The computer seat whose move is being thought out, if any."""
        return self.driver.thinking

    def notice(self, names: list[str]) -> str:
        """Nothing to say: no connection, nobody away."""
        return ""

    @property
    def can_autopilot(self) -> bool:
        """Every person at this table may hand their turns to the autopilot."""
        return True

    def autopilot(self, seat: int) -> bool:
        """Whether the autopilot plays the turns of the person at ``seat``."""
        return self.driver.on_autopilot(seat)

    def set_autopilot(self, seat: int, on: bool) -> None:
        """Turn the autopilot of the person at ``seat`` on or off (the game is saved).

        Raises:
            ValueError: ``seat`` is not a person's seat.
        """
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is not a person's seat")
        self.driver.set_autopilot(seat, on)
        self.on_change()

    def plays_for(self, seat: int) -> bool:
        """Whether the computer plays this person's turn now (the autopilot, or the rest of a turn
        lost to the timer)."""
        return self.driver.plays_for(seat)

    def take_autopilot_notices(self) -> list[int]:
        """The seats the turn timer put on the autopilot since the last call."""
        return self.driver.take_switched_on()

    @property
    def can_set_levels(self) -> bool:
        """The computers' levels may be changed during the game."""
        return True

    @property
    def awaiting_deal(self) -> bool:
        """Never: the next deal is dealt as soon as it is asked for."""
        return False

    @property
    def can_rematch(self) -> bool:
        """A won match may be followed by a new one with the same seats and rules."""
        return True

    @property
    def vote_due(self) -> int | None:
        """Never: nobody abandons a game on this device (only ranked online games vote)."""
        return None

    def vote(self, seat: int, penalise: bool) -> None:
        """Nothing to vote on here."""

    online = False  # the game waits on this device while it pauses
    for_show = False  # people play it (see `ExhibitionController`)
    leaving_is_abandon = False  # a game on this device is saved when left: nothing is at stake
    others_absent = False  # nobody here is absent from a ranked game: there is none
    earned = None  # no ranking points are earned on this device
    tokens_moved = None  # nor tokens staked
    earned_less = None

    def take_news(self) -> list[str]:
        """Nothing to say: votes are online."""
        return []

    def apply_settings(self, *, speed: float, undo_allowed: bool) -> None:
        """Use the player's animation speed (think delays scale with it) and undo setting."""
        self.speed = speed
        self.undo_allowed = undo_allowed

    def leave(self) -> None:
        """Nothing to close: the app saves the game when the table is left."""
