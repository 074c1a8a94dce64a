"""The match controller: a command queue in front of the engine, computer turns, undo.

Scenes never call the engine directly: they `submit` actions. Each fixed update step
the controller applies at most one queued action, unless an animation blocks, and
hands the events (redacted for the seat being shown) to the table through
`take_events`. What happens by itself (a computer's think delay and choice, a
computer catching a missed "Card" call, the turn timer of a human seat) is the
`game.play.TurnDriver`'s: each step the controller advances it and applies the move
it returns like a human action. The controller knows nothing of pygame, so it is
tested directly.

`to_save` turns everything needed to go on exactly where the game stopped into a
payload for `game.saves`; `from_save` rebuilds the controller from one (the computer
players learn the round again from its public events). ``on_change`` is called after
every change worth saving.
"""

from __future__ import annotations

import pickle
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from game.ai import LEVELS, ComputerPlayer, default_helpers, player_for
from game.engine import Action, IllegalAction, Match, PlayerView, RoundResult, Status
from game.engine.events import Event
from game.play import Computer, Pace, TurnDriver
from game.saves import safe_loads

INSTANT_REACTION: Final = 0.3
"""At instant speed a missed "Card" call is still caught after this fraction of the usual moment."""


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a human or a computer of some level, and a display name."""

    kind: str = "human"
    level: str = "medium"
    name: str = ""

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
            if seat.kind not in ("human", "computer") or seat.level not in LEVELS:
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
        # (match pickled at a human turn start, turn, length of `history` then)
        self._undo: list[tuple[bytes, int, int]] = []
        self.on_change: Callable[[], None] = lambda: None
        self.covered = False  # a resumed hot-seat game: nobody has been handed the device yet
        self.settled = False  # the finished match is already counted in the statistics
        computers = {i: Computer(s.level, self._computer(s.level))
                     for i, s in enumerate(seats) if not s.is_human}
        # The clock waits while the device changes hands (or a resumed game is covered).
        self.driver = TurnDriver(match, computers, pace=Pace(self.rng),
                                 may_time=lambda seat: self.handoff_to is None)
        self.speed = speed
        if history is None:  # a new match: deal on the table
            history = list(match.start_events)
            for event in history:
                self.outbox.append(event.for_seat(self.viewer))
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
            return to_act if to_act is not None and self.seats[to_act].is_human else self.viewer
        if (self.hot_seat and to_act is not None and to_act != self.viewer
                and self.seats[to_act].is_human and not self.queue):
            return to_act
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
            self._apply(action, seat)
            return
        if self.match.status != Status.PLAYING:
            return
        move = self.driver.advance(dt)
        if move is not None:
            self._apply(move.action, move.seat)

    def _apply(self, action: Action, seat: int | None) -> bool:
        match = self.match
        actor = match.to_act if seat is None else seat
        snapshot = None
        if (actor is not None and self.solo and self.undo_allowed and match.rules.undo
                and self.seats[actor].is_human and actor == match.to_act):
            turn = match.round.turn_no + 1000 * match.round.number
            if not self._undo or self._undo[-1][1] != turn:
                snapshot = (pickle.dumps(match), turn, len(self.history))
        try:
            events = match.apply(action, seat)
        except IllegalAction as exc:
            self.error = exc
            return False
        if snapshot is not None:  # only a turn that really happened can be taken back
            self._undo.append(snapshot)
            del self._undo[:-50]
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
        self.settled = False
        self.on_change()

    @property
    def can_undo(self) -> bool:
        """Whether Undo would take back a turn now."""
        return (bool(self._undo) and self.solo and self.undo_allowed and self.match.rules.undo
                and self.match.status == Status.PLAYING)

    def undo(self) -> bool:
        """Take back the human's last turn and the computer moves after it."""
        if not self.can_undo:
            return False
        data, _, seen = self._undo.pop()
        try:
            restored = safe_loads(data)  # the snapshots may come from a save file: never trust them
        except Exception:
            restored = None
        if not isinstance(restored, Match):
            self._undo.clear()  # a damaged history: no undo rather than a crash
            return False
        self.match = restored
        self.match.shuffle_draw_pile(self.rng)  # taking a turn back must not show what comes next
        self.driver.reset(restored)
        del self.history[seen:]
        self.queue.clear()
        self.outbox.clear()
        self.error = None
        self.on_change()
        return True

    # ---- saving ----------------------------------------------------------------------------
    def to_save(self) -> dict[str, object]:
        """Everything needed to go on exactly from here, as a `game.saves` payload."""
        return {
            "match": self.match,
            "seats": [{"kind": s.kind, "level": s.level, "name": s.name} for s in self.seats],
            "rng": self.rng.getstate(), "viewer": self.viewer, "undo": list(self._undo),
            "history": list(self.history), "queue": list(self.queue), "timer": self.driver.timer,
            "settled": self.settled,
        }

    @classmethod
    def from_save(cls, payload: dict[str, object], *, speed: float = 1.0,
                  undo_allowed: bool = True) -> MatchController:
        """Rebuild a controller from `to_save`'s payload (already checked by `game.saves`).

        Raises:
            ValueError: the payload does not make a playable table (a bad seat, a bad
                random state, an undo entry of the wrong shape...).
        """
        try:
            match = payload["match"]
            if not isinstance(match, Match):
                raise TypeError("no match")
            seats = [SeatConfig(str(s["kind"]), str(s["level"]), str(s["name"]))
                     for s in payload["seats"]]  # type: ignore[attr-defined]
            rng = random.Random()
            rng.setstate(payload["rng"])  # type: ignore[arg-type]
            controller = cls(match, seats, rng=rng, speed=speed, undo_allowed=undo_allowed,
                             history=list(payload["history"]))  # type: ignore[call-overload]
            undo = [(bytes(d), int(t), int(n)) for d, t, n in payload["undo"]]  # type: ignore[attr-defined]
            queue = [(seat, action) for seat, action in payload["queue"]]  # type: ignore[attr-defined]
            if not all(isinstance(a, Action) and (s is None or type(s) is int) for s, a in queue):
                raise ValueError("a queued action is not an action")
            timer = payload["timer"]
            controller._undo = undo
            controller.queue.extend(queue)
            viewer = payload["viewer"]
            if type(viewer) is int and 0 <= viewer < match.players:
                controller.viewer = viewer
            if isinstance(timer, tuple) and len(timer) == 2:  # (turn, seconds left) of the human clock
                controller.driver.timer = (tuple(timer[0]), float(timer[1]))
            controller.settled = bool(payload["settled"])
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

    def apply_settings(self, *, speed: float, undo_allowed: bool) -> None:
        """Use the player's animation speed (think delays scale with it) and undo setting."""
        self.speed = speed
        self.undo_allowed = undo_allowed

    def leave(self) -> None:
        """Nothing to close: the app saves the game when the table is left."""
