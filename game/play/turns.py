"""`TurnDriver`: the computer seats, the reaction to a missed "Card" call and the turn timer.

One component for both owners of a table: the local `MatchController` and the room
server. It is driven by time, never by a loop of its own:

* ``advance(dt)`` tells it that ``dt`` seconds went by. It returns the `Move` it wants
  made now (a seat and an action), or None. The owner applies that move its own way
  (the table with its undo snapshots and saving; the server checks it, commits it to
  its database, applies it and tells every seat) and then reports what happened.
* ``observe(events)`` reports every applied change, whoever made it: the computers
  learn the events (each redacted for its seat, `Event.for_seat`), and whatever the
  driver was about to do on the old position is dropped.
* ``due()`` says how many seconds until the driver acts by itself (0: advance now;
  None: nothing until someone acts or a search finishes, see ``wake``), so an owner
  that sleeps can sleep exactly that long.

What it does by itself, each in its own countdown:

* The computer to act thinks: it is asked for its choice from its seat's view with a
  generator seeded from the owner's (`Pace.rng`); a player that `searches` chooses on
  a worker thread, on a copy of itself. Its move comes when both the think delay
  (`game.ai.pace.think_delay` times `Pace.think_scale`) has run and the choice is made.
  A choice that fails or is not legal gives way to the first legal action: a computer
  never stops the game.
* While a computer may denounce another player's missed "Card" call (never its
  partner's), a reaction delay runs (`reaction_delay` times `Pace.reaction_scale`);
  then each such computer in seat order catches it if `will_denounce` says so for its
  level (Easy only half the time); if none does, another reaction delay starts.
* Under timed rules the human seat to act has a clock of ``turn_seconds`` per turn
  (a turn: `TurnKey`); it counts only while ``may_time(seat)`` allows (the table: not
  while the device is being passed; the server: not while that player is away, who
  finds the time that was left on returning) and gives a `TimeOut` move at zero.
  Where the rules play for that player (``timeout_policy`` "autoplay"), the move
  played is what Medium would play from the player's view (``TimeOut(then)``), and
  the rest of that turn is played the same way.
* The autopilot: a person's seat may be played by a Medium stand-in, which acts like a
  computer (think delay and all) until the person takes back control (`set_autopilot`,
  or any action of theirs, which the owner reports with `person_acted`). It comes on
  by itself after `AUTOPILOT_AFTER` turns in a row lost to the clock; the owner hears
  of it from `take_switched_on`. Every person's seat has its stand-in from the start,
  knowing the round as a computer would (told its events when first needed), so it plays
  with what the player could know.

A move it returned is owed until the next `observe`: an owner that could not apply it
(the server's disk refused the commit) gets it again from the next ``advance``.
"""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from game.ai import ComputerPlayer, player_for, reaction_delay, think_delay, will_denounce
from game.engine import Action, IllegalAction, Match, Status, TimeOut
from game.engine.actions import Denounce
from game.engine.autopilot import Autopilot, TurnKey
from game.engine.events import Event, RoundStarted, TimedOut
from game.engine.scoring import team_of

log = logging.getLogger("huit.play")

# A `TurnKey` (game.engine.autopilot's): one player's turn. Its clock runs across the draws and
# plays of that turn and starts again at the next.

DONE: Final = 1e-6
"""A countdown this close to zero has run (clocks and float sums never land exactly on it)."""
AUTOPILOT_AFTER: Final = 2
"""Turns in a row a person may lose to the clock before the autopilot plays for them."""
STAND_IN: Final = "medium"
"""The level that plays a person's turn for them: on the autopilot, and when their time runs out."""
UNTOLD_AT_MOST: Final = 1_000
"""The events of a round kept for the stand-ins at most before they are told anyway (a round
that long keeps its memory and the wait of a late telling bounded)."""


@dataclass(frozen=True)
class Move:
    """An action the driver wants made now for ``seat``; the owner applies it."""

    seat: int
    action: Action


class Computer(NamedTuple):
    """A computer seat: its level (how readily it catches a missed call) and its player."""

    level: str
    player: ComputerPlayer


@dataclass
class Pace:
    """How quickly the computers act; the owner may change it at any time.

    ``rng`` is the owner's generator: the delays and the computers' seeds are drawn from
    it (the table saves its state, so a resumed game goes on exactly). ``think_scale``
    multiplies the think delay and ``reaction_scale`` the reaction delay; 0 means at once.
    """

    rng: random.Random = field(default_factory=random.Random)
    think_scale: float = 1.0
    reaction_scale: float = 1.0


class _Decision:
    """A computer's choice in progress, for one seat on one position."""

    __slots__ = ("seat", "left", "future", "move")

    def __init__(self, seat: int, left: float, future: Future[Action]) -> None:
        self.seat = seat
        self.left = left  # seconds of think delay still to run
        self.future = future
        self.move: Move | None = None  # once ready: the move, owed until the next `observe`


def _always(seat: int) -> bool:
    return True


class TurnDriver:
    """What happens at one table by itself: computer turns, catching missed calls, the turn clock.

    ``computers`` maps each computer seat to its `Computer`; every other seat is a
    person's. ``pace``: the owner's generator and delay scales. ``may_time(seat)``:
    whether the clock of that human seat may run now. ``executor``: where searching
    players choose (default: one worker thread of the driver's own). ``wake``: called
    (from the worker thread) when a search finishes, so an owner sleeping until `due`
    can look again. All of these are attributes the owner may set later.
    """

    def __init__(
        self, match: Match, computers: Mapping[int, Computer], *, pace: Pace | None = None,
        may_time: Callable[[int], bool] = _always, executor: Executor | None = None,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.match = match
        self.computers: dict[int, Computer] = dict(computers)
        self.pace = pace if pace is not None else Pace()
        self.may_time = may_time
        self.executor = executor
        self.wake = wake
        self._own_executor: ThreadPoolExecutor | None = None
        self._decision: _Decision | None = None
        self._react_left: float | None = None  # the reaction delay running, if a call can be caught
        self._caught: Move | None = None  # a computer caught a missed call: owed until `observe`
        self._timer: tuple[TurnKey, float] | None = None  # the human clock: its turn and seconds left
        # A Medium for every person's seat, learning the round like a computer: it plays on the
        # autopilot, and the move made for a player whose time ran out. Most never play: each is
        # told the round's events only once it is needed (`stand_in`), not as they come (a server
        # with hundreds of rooms spent a tenth of its time teaching Mediums that never play).
        self._stand_ins: dict[int, ComputerPlayer] = {
            seat: player_for(STAND_IN) for seat in range(match.players) if seat not in self.computers}
        self._untold: list[Event] = []  # the events the stand-ins have not been told yet
        self._autopilot: set[int] = set()
        self._lost_in_a_row: dict[int, int] = {}  # person's seat -> turns in a row lost to the clock
        self._lost: TurnKey | None = None  # a turn lost to the clock that the stand-in plays on
        self._timeout: tuple[TurnKey, Move] | None = None  # a time-out move owed, for its turn
        self._switched: list[int] = []  # seats the clock put on the autopilot, for the owner to hear of
        self._before: TurnKey | None = None  # the turn being played when the last events came
        # The clock's length where the owner runs it shorter than the rules say (the server's
        # ranked clock, `serve --ranked-clock`); None: the rules' ``turn_seconds``.
        self.turn_seconds: float | None = None

    # ---- the owner tells ------------------------------------------------------------------
    def observe(self, events: Iterable[Event]) -> None:
        """Something was applied (``events``, unredacted): the computers learn it, and what
        the driver was about to do on the old position is dropped."""
        events = list(events)
        for seat, computer in self.computers.items():
            self._tell(seat, computer.player, events)
        if self._stand_ins:
            self._keep_untold(events)
        if not events:
            return
        self._decision = None
        owed, self._timeout = self._timeout, None
        if self._caught is not None:
            self._caught = None
            self._react_left = None  # still open after this? then another reaction delay
        # The turn these events were played in: the owed time-out's, else the one seen last
        # (a log replayed action by action); None for a whole deal told at once.
        before = owed[0] if owed is not None else self._before
        self._before = self._playing()
        lost = [e.seat for e in events if type(e) is TimedOut]
        if lost:
            if self._timer is not None:
                self._timer = None  # that clock ran out: the next turn starts a fresh one
            for seat in lost:
                self._count_lost(seat)
            # The same turn goes on (a wild's suit to name, a drawn card to play or keep):
            # the stand-in plays the rest of it.
            if before is not None and before == self._before and before[2] == lost[-1]:
                self._lost = before
        if self._lost is not None and self._lost != self._before:
            self._lost = None

    def person_acted(self, seat: int) -> None:
        """The person at ``seat`` acted themselves: they have control (the autopilot goes off),
        and their turns lost to the clock in a row start again from none."""
        self._lost_in_a_row.pop(seat, None)
        if self._lost is not None and self._lost[2] == seat:
            self._lost = None  # the rest of a turn lost to the clock is theirs again
            if self._decision is not None and self._decision.seat == seat:
                self._decision = None
        self.set_autopilot(seat, False)

    def set_autopilot(self, seat: int, on: bool) -> None:
        """Let the stand-in play the person's turns at ``seat`` (``on``), or give them back.

        Raises:
            ValueError: ``seat`` is a computer's, or no seat at this table.
        """
        if seat not in self._stand_ins:
            raise ValueError(f"seat {seat} is not a person's seat at this table")
        if on:
            self._autopilot.add(seat)
            return
        if seat in self._autopilot:
            self._autopilot.discard(seat)
            self._lost_in_a_row.pop(seat, None)
            if self._decision is not None and self._decision.seat == seat:
                self._decision = None  # the person plays this turn after all

    def on_autopilot(self, seat: int) -> bool:
        """Whether the stand-in plays the turns of the person at ``seat``."""
        return seat in self._autopilot

    def plays_for(self, seat: int | None) -> bool:
        """Whether the driver plays this person's turn now: the autopilot is on, or this turn was
        lost to the clock (the stand-in plays the rest of it)."""
        if seat is None or seat not in self._stand_ins:
            return False
        return seat in self._autopilot or (self._lost is not None and self._lost == self._playing())

    def clear_autopilot(self) -> None:
        """Nobody on the autopilot and no turn lost in a row (what a replayed log or a save made
        before the autopilot leaves); a turn lost to the clock is still played on."""
        self._autopilot.clear()
        self._lost_in_a_row.clear()
        self._switched.clear()

    def take_switched_on(self) -> list[int]:
        """The seats the clock put on the autopilot since the last call (so the owner can say so)."""
        out, self._switched = self._switched, []
        return out

    @property
    def autopilot(self) -> Autopilot:
        """The autopilot as a save keeps it: the seats it plays, each person's turns in a row lost
        to the clock (one number per seat) and the turn lost to the clock that it is playing on,
        if any. Setting it restores a saved one (checked when the save was read).

        Raises:
            ValueError: (setting) it names a seat that is not a person's at this table.
        """
        counts = tuple(self._lost_in_a_row.get(s, 0) for s in range(self.match.players))
        return Autopilot(on=tuple(sorted(self._autopilot)), lost_in_a_row=counts, lost_turn=self._lost)

    @autopilot.setter
    def autopilot(self, value: Autopilot) -> None:
        if not set(value.on) <= self._stand_ins.keys():
            raise ValueError(f"the autopilot plays only people's seats, not {value.on!r:.40}")
        self._autopilot = set(value.on)
        self._lost_in_a_row = {s: n for s, n in enumerate(value.lost_in_a_row) if n and s in self._stand_ins}
        self._lost = value.lost_turn
        self._switched.clear()

    def seat_computer(self, seat: int, computer: Computer, history: Iterable[Event] = ()) -> None:
        """Put ``computer`` at ``seat`` (a level changed mid-round); it first learns ``history``,
        the round's events so far. A choice the seat had in progress is dropped."""
        self.computers[seat] = computer
        self._stand_ins.pop(seat, None)
        self._tell_stand_ins()  # (told now: the untold events are one list for every stand-in)
        self._autopilot.discard(seat)
        self._tell(seat, computer.player, list(history))
        if self._decision is not None and self._decision.seat == seat:
            self._decision = None
        if self._caught is not None and self._caught.seat == seat:
            self._caught, self._react_left = None, None

    def reset(self, match: Match) -> None:
        """Go on with ``match`` instead (an earlier position restored: Undo). Thinking and
        reactions start again; the clock keeps what it had for the turns it knows."""
        self.match = match
        self._decision = None
        self._caught, self._react_left = None, None
        self._timeout, self._lost, self._before = None, None, self._playing()

    def advance(self, dt: float) -> Move | None:
        """``dt`` seconds went by: run the countdowns; return the move to make now, if any."""
        match = self.match
        if match.status != Status.PLAYING:
            return None
        dt = max(0.0, dt)
        caught = self._react(dt)
        seat = match.to_act
        assert seat is not None
        driven = seat in self.computers or self.plays_for(seat)
        turn = self._think(seat, dt) if driven else self._time(seat, dt)
        return caught if caught is not None else turn

    def due(self) -> float | None:
        """Seconds until `advance` would return a move by itself (0: now, or something is to
        start: advance now); None: nothing until someone acts or a search finishes."""
        match = self.match
        if match.status != Status.PLAYING:
            return None
        times: list[float] = []
        if self._caught is not None:
            return 0.0
        if self._catchable():
            if self._react_left is None:
                return 0.0
            times.append(max(0.0, self._react_left))
        seat = match.to_act
        assert seat is not None
        if seat in self.computers or self.plays_for(seat):
            decision = self._decision
            if decision is None or decision.seat != seat or decision.move is not None:
                return 0.0
            if decision.left > DONE:
                times.append(decision.left)
            elif decision.future.done():
                return 0.0
        elif self._seconds():
            timer = self._timer
            if timer is None or timer[0] != self._turn_key(seat):
                return 0.0
            if timer[1] <= DONE:
                return 0.0
            if self.may_time(seat):
                times.append(timer[1])
        return min(times) if times else None

    # ---- what the owner may read -------------------------------------------------------------
    @property
    def players(self) -> dict[int, ComputerPlayer]:
        """The computer player at each computer seat."""
        return {seat: computer.player for seat, computer in self.computers.items()}

    @property
    def thinking(self) -> int | None:
        """The seat whose choice is in progress (a computer's, or a stand-in's), if any."""
        return self._decision.seat if self._decision is not None else None

    @property
    def think_left(self) -> float | None:
        """Seconds of think delay left for the computer thinking (0 while its search runs
        on), or None when no computer is thinking."""
        return max(0.0, self._decision.left) if self._decision is not None else None

    @property
    def timer_left(self) -> float | None:
        """What the clock of the turn being played shows: seconds left (the whole turn if it
        has not started yet), or None when no clock runs this turn (untimed rules, a
        computer's turn, between rounds)."""
        seat = self._timed_seat()
        if seat is None:
            return None
        timer = self._timer
        if timer is None or timer[0] != self._turn_key(seat):
            return self._seconds()
        return max(0.0, timer[1])

    @property
    def timer_running(self) -> bool:
        """Whether the clock of the turn being played counts now (see ``may_time``)."""
        seat = self._timed_seat()
        return seat is not None and self.may_time(seat)

    @property
    def timer(self) -> tuple[TurnKey, float] | None:
        """The human clock as a save keeps it: (the turn it belongs to, seconds left), or None.

        Setting it restores a saved clock; it counts on if that turn is the one being played.
        """
        return self._timer

    @timer.setter
    def timer(self, value: tuple[TurnKey, float] | None) -> None:
        if value is None:
            self._timer = None
            return
        key, left = value
        if len(key) != 3 or not all(type(n) is int for n in key):
            raise ValueError(f"a turn is three whole numbers, not {key!r}")
        self._timer = ((key[0], key[1], key[2]), float(left))

    def think_time(self) -> float:
        """One think delay, drawn from the pace (0 at once, drawing nothing)."""
        scale = self.pace.think_scale
        return think_delay(self.pace.rng, scale) if scale > 0 else 0.0

    def reaction_time(self) -> float:
        """One reaction delay before a computer denounces, drawn from the pace (0: at once)."""
        scale = self.pace.reaction_scale
        return reaction_delay(self.pace.rng, scale) if scale > 0 else 0.0

    def close(self) -> None:
        """Let the driver's own worker thread go (a search under way finishes first)."""
        if self._own_executor is not None:
            self._own_executor.shutdown(wait=False)
            self._own_executor = None

    # ---- inside ------------------------------------------------------------------------------
    def _tell(self, seat: int, player: ComputerPlayer, events: list[Event]) -> None:
        rules, players = self.match.rules, self.match.players
        for event in events:
            player.observe(seat, event.for_seat(seat), rules, players)

    def _turn_key(self, seat: int) -> TurnKey:
        r = self.match.round
        return (r.number, r.turn_no, seat)

    def _playing(self) -> TurnKey | None:
        """The turn being played now, if the round is on."""
        match = self.match
        seat = match.to_act
        return None if match.status != Status.PLAYING or seat is None else self._turn_key(seat)

    def _count_lost(self, seat: int) -> None:
        """Another turn of ``seat`` lost to the clock: the autopilot comes on after enough in a row."""
        if seat not in self._stand_ins:
            return
        lost = self._lost_in_a_row[seat] = self._lost_in_a_row.get(seat, 0) + 1
        if lost >= AUTOPILOT_AFTER and seat not in self._autopilot:
            self._autopilot.add(seat)
            self._switched.append(seat)

    def _player(self, seat: int) -> ComputerPlayer:
        """Who chooses for ``seat``: its computer, or the person's stand-in."""
        computer = self.computers.get(seat)
        return computer.player if computer is not None else self.stand_in(seat)

    def stand_in(self, seat: int) -> ComputerPlayer:
        """The stand-in of the person at ``seat``, told everything so far."""
        self._tell_stand_ins()
        return self._stand_ins[seat]

    def _keep_untold(self, events: list[Event]) -> None:
        """Keep ``events`` for the stand-ins, from the last deal on: a Medium forgets a round at the
        next deal (all but which seats it saw bluff with a wild, `Knowledge.erratic`: a stand-in
        told late knows that of the rounds it was told only), so what came before is never told,
        and telling one when needed costs one round's events at most."""
        dealt = [i for i, event in enumerate(events) if type(event) is RoundStarted]
        if dealt:
            self._untold = events[dealt[-1]:]
        else:
            self._untold += events
        if len(self._untold) > UNTOLD_AT_MOST:  # (a round this long is all but unknown: bounded anyway)
            self._tell_stand_ins()

    def _tell_stand_ins(self) -> None:
        """Tell every stand-in the events they have not been told, in order."""
        untold, self._untold = self._untold, []
        for seat, stand_in in self._stand_ins.items():
            self._tell(seat, stand_in, untold)

    def _time_out(self, seat: int) -> Action:
        """The time-out for ``seat``: with the move Medium would play, where the rules play for
        the player (a plain `TimeOut` if it cannot choose: the engine's own rule then plays)."""
        if self.match.rules.timeout_policy != "autoplay":
            return TimeOut()
        try:
            then = self.stand_in(seat).choose(self.match.view(seat), random.Random(self.pace.rng.random()))
            if isinstance(then, TimeOut):
                return TimeOut()
            action = TimeOut(then)
            self.match.check(action, seat)
            return action
        except IllegalAction as exc:
            log.error("the stand-in at seat %d chose an illegal move (%s); the rules play", seat, exc.key)
        except Exception:
            log.exception("the stand-in at seat %d failed to choose; the rules play", seat)
        return TimeOut()

    def _timed_seat(self) -> int | None:
        """The human seat to act when its turn is timed."""
        match = self.match
        if match.status != Status.PLAYING or not match.rules.turn_seconds:
            return None
        seat = match.to_act
        return None if seat is None or seat in self.computers or self.plays_for(seat) else seat

    def _catchable(self) -> list[Move]:
        """Each missed call a computer may denounce now (never its partner's), in seat order."""
        match = self.match
        if not match.round.exposed:
            return []
        found = []
        for seat in sorted(self.computers):
            team = team_of(seat, match.players, match.rules.pairs)
            found += [Move(seat, a) for a in match.legal_actions(seat)
                      if isinstance(a, Denounce) and a.seat not in team]
        return found

    def _react(self, dt: float) -> Move | None:
        if self._caught is not None:
            return self._caught
        catchable = self._catchable()
        if not catchable:
            self._react_left = None
            return None
        if self._react_left is None:
            self._react_left = self.reaction_time()
        self._react_left -= dt
        if self._react_left > DONE:
            return None
        for move in catchable:
            if will_denounce(self.computers[move.seat].level, self.pace.rng):
                self._caught = move
                return move
        self._react_left = self.reaction_time()  # nobody caught it this time: another moment
        return None

    def _think(self, seat: int, dt: float) -> Move | None:
        decision = self._decision
        if decision is None or decision.seat != seat:
            decision = self._decision = self._start(seat)
        decision.left -= dt
        if decision.move is not None:
            return decision.move
        if decision.left > DONE or not decision.future.done():
            return None
        decision.move = Move(seat, self._settle(decision))
        return decision.move

    def _start(self, seat: int) -> _Decision:
        """Ask the computer (or stand-in) at ``seat`` for its choice (searching players on the worker)."""
        player = self._player(seat)
        view = self.match.view(seat)
        rng = random.Random(self.pace.rng.random())
        left = self.think_time()
        future: Future[Action]
        if player.searches:
            worker = self.executor
            if worker is None:
                if self._own_executor is None:
                    self._own_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="huit-ai")
                worker = self._own_executor
            # The worker gets its own copy, so events observed meanwhile cannot race it.
            future = worker.submit(copy.deepcopy(player).choose, view, rng)
            wake = self.wake
            if wake is not None:
                future.add_done_callback(lambda _: wake())
        else:
            future = Future()
            try:
                future.set_result(player.choose(view, rng))
            except Exception as exc:  # reported through the future, handled like a search's
                future.set_exception(exc)
        return _Decision(seat, left, future)

    def _settle(self, decision: _Decision) -> Action:
        """The action chosen, or the first legal one if the choice failed or is not legal."""
        seat = decision.seat
        try:
            action = decision.future.result()
            self.match.check(action, seat)
            return action
        except IllegalAction as exc:
            log.error("the computer at seat %d chose an illegal action (%s); it plays another", seat, exc.key)
        except Exception:
            log.exception("the computer at seat %d failed to choose; it plays the first legal action", seat)
        return self.match.legal_actions(seat)[0]

    def _seconds(self) -> float:
        """The length of a turn's clock (0: no clock): the rules', or the owner's shorter one."""
        seconds = float(self.match.rules.turn_seconds)
        return min(seconds, self.turn_seconds) if seconds and self.turn_seconds is not None else seconds

    def _time(self, seat: int, dt: float) -> Move | None:
        seconds = self._seconds()
        if not seconds:
            self._timer = None
            return None
        key = self._turn_key(seat)
        if self._timer is None or self._timer[0] != key:
            self._timer = (key, float(seconds))
        left = self._timer[1]
        if left > DONE and self.may_time(seat):
            left = max(0.0, left - dt)
            self._timer = (key, left)
        if left > DONE:
            return None
        if self._timeout is None or self._timeout[0] != key:  # chosen once, owed until `observe`
            self._timeout = (key, Move(seat, self._time_out(seat)))
        return self._timeout[1]
