"""The match controller: a command queue in front of the engine, computer turns, undo.

Scenes never call the engine directly: they `submit` actions. Each fixed update step
the controller applies at most one queued action, unless an animation blocks, and
hands the events (redacted for the seat being shown) to the table through
`take_events`. When a computer seat is to act it starts a seeded think timer, asks
the computer player for an action from that seat's view only, and queues it like a
human action. The controller knows nothing of pygame, so it is tested directly.

`to_save` turns everything needed to go on exactly where the game stopped into a
payload for `game.saves`; `from_save` rebuilds the controller from one (the computer
players learn the round again from its public events). ``on_change`` is called after
every change worth saving.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace

from game.ai import (
    LEVELS,
    ComputerPlayer,
    default_helpers,
    player_for,
    reaction_delay,
    think_delay,
    will_denounce,
)
from game.engine import PLAYING, Action, IllegalAction, Match, PlayerView, RoundResult, TimeOut
from game.engine.actions import Denounce
from game.engine.events import Event
from game.engine.scoring import team_of
from game.saves import safe_loads


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
        self.speed = speed
        self.undo_allowed = undo_allowed
        self.queue: deque[tuple[int | None, Action]] = deque()
        self.outbox: deque[Event] = deque()
        self.error: IllegalAction | None = None  # the last refusal, for the table to explain
        self.busy: Callable[[], bool] = lambda: False
        humans = self.humans
        self.viewer = humans[0] if humans else 0
        self.think_left: float | None = None
        self.react_left: float | None = None
        self.timer_left: float | None = None
        self._timer_key: tuple[int, int, int] | None = None
        # (match pickled at a human turn start, turn, length of `history` then)
        self._undo: list[tuple[bytes, int, int]] = []
        self._players = {i: self._computer(s.level) for i, s in enumerate(seats) if not s.is_human}
        self._thinking: tuple[tuple[object, ...], Future[Action]] | None = None
        self._executor: ThreadPoolExecutor | None = None
        self.on_change: Callable[[], None] = lambda: None
        self.covered = False  # a resumed hot-seat game: nobody has been handed the device yet
        self.settled = False  # the finished match is already counted in the statistics
        if history is None:  # a new match: deal on the table
            history = list(match.start_events)
            for event in history:
                self.outbox.append(event.for_seat(self.viewer))
        self.history = history  # this round's events, unredacted: what a resumed computer relearns
        self._tell_computers(history)

    # ---- who plays ---------------------------------------------------------------------------
    @staticmethod
    def _computer(level: str) -> ComputerPlayer:
        """The computer player of ``level``; Hard searches on the machine's other cores too."""
        return player_for(level, helpers=default_helpers())

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
        """Change a computer's level mid-game; the round goes on."""
        if self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is a human seat")
        self.seats[seat] = replace(self.seats[seat], level=level)
        player = self._players[seat] = self._computer(level)
        if getattr(player, "observe", None) is not None:  # the new player learns the round so far
            self._tell(seat, player, self.history)
        self.on_change()

    # ---- commands ---------------------------------------------------------------------------
    def submit(self, action: Action, seat: int | None = None) -> None:
        """Queue an action for ``seat`` (default: the seat to act)."""
        self.queue.append((seat, action))

    def take_events(self) -> list[Event]:
        """The events since the last call, as the shown seat may see them."""
        out = list(self.outbox)
        self.outbox.clear()
        return out

    def update(self, dt: float) -> None:
        """One fixed step: apply a queued action, or run computer thinking and the turn timer."""
        if self.busy():
            return
        if self.queue:
            seat, action = self.queue.popleft()
            self._apply(action, seat)
            return
        match = self.match
        if match.status != PLAYING:
            return
        self._computer_denounce(dt)
        to_act = match.to_act
        assert to_act is not None
        if not self.seats[to_act].is_human:
            self._computer_turn(to_act, dt)
            return
        self._run_timer(to_act, dt)

    def _turn_key(self) -> tuple[object, ...]:
        r = self.match.round
        return (id(self.match), r.number, r.turn_no, r.to_act, r.phase, r.drawn, len(r.discard), r.pending,
                r.follow, len(r.hands[r.to_act]))

    def _computer_turn(self, seat: int, dt: float) -> None:
        """Think (in the background for slow players) while the think delay runs, then act."""
        key = self._turn_key()
        if self._thinking is None or self._thinking[0] != key:
            player = self._players[seat]
            view = self.match.view(seat)
            rng = random.Random(self.rng.random())
            self.think_left = self.think_time()
            self._thinking = (key, self._think(player, view, rng))
        assert self.think_left is not None
        self.think_left -= dt
        future = self._thinking[1]
        if self.think_left > 0 or not future.done():
            return
        self._thinking = None
        self.think_left = None
        try:
            action = future.result()
        except Exception:  # a computer player must never stop the game: play something legal
            action = self.match.legal_actions()[0]
        self._apply(action, seat)

    def _think(self, player: ComputerPlayer, view: PlayerView, rng: random.Random) -> Future[Action]:
        """Start ``player``'s choice: on a worker thread for searching players, else at once."""
        if getattr(player, "slow", False):
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="huit-ai")
            # The worker gets its own copy, so events observed meanwhile cannot race it.
            return self._executor.submit(copy.deepcopy(player).choose, view, rng)
        future: Future[Action] = Future()
        try:
            future.set_result(player.choose(view, rng))
        except Exception as exc:  # reported through the future, handled like a slow player's
            future.set_exception(exc)
        return future

    def think_time(self) -> float:
        """A computer's think delay: seeded, scaled by the speed setting (0: instant)."""
        if self.speed <= 0:
            return 0.0
        return think_delay(self.rng, 1 / self.speed)

    def _run_timer(self, seat: int, dt: float) -> None:
        seconds = self.match.rules.turn_seconds
        if not seconds:
            self.timer_left = None
            return
        if self.handoff_to is not None:
            return  # the clock waits while the device changes hands (or a resumed game is covered)
        key = (self.match.round.number, self.match.round.turn_no, seat)
        if key != self._timer_key or self.timer_left is None:
            self._timer_key = key
            self.timer_left = float(seconds)
        assert self.timer_left is not None
        self.timer_left -= dt
        if self.timer_left <= 0:
            self.timer_left = None
            self._apply(TimeOut(), seat)

    def _computer_denounce(self, dt: float) -> None:
        if not self.match.round.exposed:
            self.react_left = None
            return
        if self.react_left is None:
            scale = 1 / self.speed if self.speed > 0 else 0.3  # instant play still leaves a moment
            self.react_left = reaction_delay(self.rng, scale)
        self.react_left -= dt
        if self.react_left > 0:
            return
        self.react_left = None
        for seat, config in enumerate(self.seats):
            if config.is_human:
                continue
            team = team_of(seat, self.match.players, self.match.rules.pairs)
            for action in self.match.legal_actions(seat):
                if (isinstance(action, Denounce) and action.seat not in team  # never the partner
                        and will_denounce(config.level, self.rng)):
                    self._apply(action, seat)
                    return

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
        self.think_left = None
        for event in events:
            self.outbox.append(event.for_seat(self.viewer))
        self.history.extend(events)
        self._tell_computers(events)
        self.on_change()
        return True

    def _tell_computers(self, events: list[Event]) -> None:
        """Computer players that learn from public events get them, redacted for their seat."""
        for seat, player in self._players.items():
            self._tell(seat, player, events)

    def _tell(self, seat: int, player: ComputerPlayer, events: list[Event]) -> None:
        observe = getattr(player, "observe", None)
        if observe is not None:
            for event in events:
                observe(seat, event.for_seat(seat), self.match.rules, self.match.players)

    # ---- rounds and undo ------------------------------------------------------------------
    def next_round(self) -> None:
        """Deal the next round (after the result screen)."""
        events = self.match.next_round()
        for event in events:
            self.outbox.append(event.for_seat(self.viewer))
        self.history = list(events)
        self._tell_computers(events)
        self._undo.clear()
        self.settled = False
        self.on_change()

    @property
    def can_undo(self) -> bool:
        """Whether Undo would take back a turn now."""
        return (bool(self._undo) and self.solo and self.undo_allowed and self.match.rules.undo
                and self.match.status == PLAYING)

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
        del self.history[seen:]
        self.queue.clear()
        self.outbox.clear()
        self._thinking = None
        self.think_left = None
        self.react_left = None
        self.error = None
        self.on_change()
        return True

    # ---- saving ----------------------------------------------------------------------------
    def to_save(self) -> dict[str, object]:
        """Everything needed to go on exactly from here, as a `game.saves` payload."""
        timer = None
        if self._timer_key is not None and self.timer_left is not None:
            timer = (self._timer_key, self.timer_left)
        return {
            "match": self.match,
            "seats": [{"kind": s.kind, "level": s.level, "name": s.name} for s in self.seats],
            "rng": self.rng.getstate(), "viewer": self.viewer, "undo": list(self._undo),
            "history": list(self.history), "queue": list(self.queue), "timer": timer, "settled": self.settled,
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
            if isinstance(timer, tuple) and len(timer) == 2:
                controller._timer_key, controller.timer_left = tuple(timer[0]), float(timer[1])  # type: ignore
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
        return self.match.to_act if self.think_left is not None else None

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
