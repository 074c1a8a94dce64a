"""A deal as one seat lived it: the moments of its view, and the seat's decisions among them.

A `Story` is what a review shows and analyses, and all it may use: the seat's views one
after the other and the events redacted for it (``event.for_seat``), nothing of the other
hands or of the draw pile. It is built the same way from two sources: on this device from
the match's record (`story_of_deal`: the deal's log replayed through the engine, so a resumed
game gives the story of the uninterrupted one), and online from what the server sent the
seat (`Recorder`: each update's view and events as they came).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from game.engine import (
    Accept,
    Action,
    CallLastCard,
    Challenge,
    ChooseSuit,
    Denounce,
    Draw,
    Match,
    Pass,
    Play,
    PlayerView,
    RulesError,
    TimeOut,
    parse_action,
)
from game.engine.events import (
    CardPlayed,
    CardsDrawn,
    Challenged,
    Denounced,
    DrawReason,
    Event,
    LastCardCalled,
    Passed,
    RoundStarted,
    SuitChosen,
    TimedOut,
)
from game.engine.match import NEXT, SHUFFLE, Entry

MAX_MOMENTS = 2000
"""The most moments a story keeps (a deal is a few hundred at most; a longer one is cut)."""


@dataclass(frozen=True)
class Moment:
    """One step of a deal seen from the seat: what happened since the previous step (events
    redacted for the seat), the seat's view after it, and what the seat did from that view
    (``action``: its decision, or None when it was someone else's move)."""

    events: tuple[Event, ...]
    view: PlayerView
    action: Action | None = None


@dataclass(frozen=True)
class Story:
    """One seat's deal: every `Moment`, in order. ``complete``: it starts at the deal's first
    event (a player who joined an online deal late has the moves from then on)."""

    seat: int
    moments: tuple[Moment, ...]
    complete: bool = True

    def __post_init__(self) -> None:
        if not self.moments:
            raise ValueError("a story has at least one moment")
        if any(m.view.seat != self.seat for m in self.moments):
            raise ValueError("every moment of a story is the same seat's view")

    def events_before(self, index: int) -> list[Event]:
        """Every event the seat had seen when it looked at moment ``index``'s view."""
        return [e for m in self.moments[:index + 1] for e in m.events]

    def slim(self) -> Story:
        """The story as a review keeps it: the views the seat decided from whole (the search
        needs them), the others without their legal actions and with only the discard pile's
        top card (all a step of the review shows), so ten deals weigh little on the disk."""
        moments = tuple(m if m.action is not None else replace(
            m, view=replace(m.view, legal=(), discard=m.view.discard[-1:])) for m in self.moments)
        return replace(self, moments=moments)

    def played_for_it(self) -> int:
        """How many of the seat's turns someone else played for it (the autopilot, the clock):
        its turns with no decision of its own, after which the events show the seat's move."""
        count = 0
        for here, after in zip(self.moments, self.moments[1:], strict=False):
            if here.action is None and here.view.my_turn and any(
                    _moved(e, self.seat) for e in after.events):
                count += 1
        return count

    def decisions(self) -> list[int]:
        """The indices of the moments the seat decided from (its own moves, not a turn the
        clock played for it)."""
        return [i for i, m in enumerate(self.moments) if m.action is not None]


_TURN_DRAWS = (DrawReason.DRAW, DrawReason.PENALTY, DrawReason.TIMEOUT)


def _moved(event: Event, seat: int) -> bool:
    """Whether ``event`` is ``seat`` making a move of its turn (or the clock making it)."""
    if isinstance(event, CardsDrawn):
        return event.seat == seat and event.reason in _TURN_DRAWS
    return isinstance(event, (CardPlayed, Passed, SuitChosen, TimedOut)) and event.seat == seat


def story_of_deal(match: Match, seat: int, deal: int | None = None) -> Story:
    """The story of ``seat`` in deal ``deal`` (default: the match's current deal), rebuilt
    from the match's record (its beginning and its log).

    Raises:
        RulesError: a deal the record does not hold, or a record that does not replay.
    """
    log: list[Entry] = list(match.log)
    starts = [0] + [i + 1 for i, entry in enumerate(log) if entry[0] == NEXT]
    first_deal = match.round.number - (len(starts) - 1)  # a match set up from a position starts later
    wanted = match.round.number if deal is None else deal
    index = wanted - first_deal
    if not 0 <= index < len(starts):
        raise RulesError(f"the record holds deals {first_deal} to {match.round.number}, not {wanted}")
    begin = starts[index]
    end = starts[index + 1] - 1 if index + 1 < len(starts) else len(log)
    opening: list[Event] = []
    replayed = match.rewound(begin, opening)
    moments = [Moment(tuple(e.for_seat(seat) for e in opening), replayed.view(seat))]
    for entry in log[begin:end]:
        head, arg = entry
        if head == SHUFFLE:  # a reshuffle after an undo: nothing anyone sees
            replayed.shuffle_draw_pile(arg)  # type: ignore[arg-type]  # the log's own seed
            continue
        if type(head) is not int or type(arg) is not str:
            raise RulesError(f"a deal's log holds actions, not {entry!r:.60}")
        action = parse_action(arg)
        if head == seat and not isinstance(action, TimeOut):  # the clock's move is not a decision
            moments[-1] = replace(moments[-1], action=action)
        done = replayed.apply(action, head, events=True)
        moments.append(Moment(tuple(e.for_seat(seat) for e in done), replayed.view(seat)))
    return Story(seat, tuple(moments[:MAX_MOMENTS]))


def done_in(action: Action, seat: int, events: list[Event]) -> bool:
    """Whether ``events`` (an update's) show ``seat`` making ``action``: the proof the server
    took the move the seat sent (a refused one never shows). An action whose effect names no
    seat of its own (ending a run) is shown by any event that is not the clock's for the seat."""
    if any(isinstance(e, TimedOut) and e.seat == seat for e in events):
        return False  # the clock played the turn first: the move sent came too late
    match action:
        case Play(card=card):
            return any(isinstance(e, CardPlayed) and e.seat == seat and e.card == card for e in events)
        case Draw() | Accept():
            return any(isinstance(e, CardsDrawn) and e.seat == seat for e in events)
        case Pass():
            return any(isinstance(e, Passed) and e.seat == seat for e in events)
        case ChooseSuit(suit=suit):
            return any(isinstance(e, SuitChosen) and e.seat == seat and e.suit == suit for e in events)
        case CallLastCard():
            return any(isinstance(e, LastCardCalled) and e.seat == seat for e in events)
        case Denounce(seat=target):
            return any(isinstance(e, Denounced) and e.by == seat and e.seat == target for e in events)
        case Challenge():
            return any(isinstance(e, Challenged) and e.by == seat for e in events)
    return bool(events)


@dataclass
class Recorder:
    """Builds the story of each deal of an online seat from the server's updates (its view and
    the events redacted for it), and what the seat sent (`acted`). Nothing else is asked.

    A move sent is the seat's decision only once an update shows it made (`done_in`): one the
    server refused (`refused`, on its ``illegal`` error) or the clock overtook is never judged."""

    moments: list[Moment] = field(default_factory=list)
    complete: bool = False
    deal: int | None = None
    pending: tuple[int, Action] | None = None
    """The move sent and not yet seen made: the moment it was sent from, and the move."""

    def update(self, view: PlayerView, events: list[Event], earlier: list[Event] | None = None) -> None:
        """One update: a new deal starts a new story (from ``earlier``, the deal's events so far,
        when the seat came back to a deal under way). ``earlier`` for the deal under way (a
        reconnection) brings back the events missed meanwhile; a story it does not continue
        (the deal's events as the server has them do not begin with the ones recorded) is
        marked incomplete, never left with a silent gap."""
        if self.deal != view.round_number or (self.moments and self.moments[-1].view.seat != view.seat):
            self.deal = view.round_number
            self.moments = []
            self.pending = None
            if earlier is not None:
                events = list(earlier) + list(events)
            # Complete when the story holds the deal's first event (a new deal's opening).
            self.complete = any(isinstance(e, RoundStarted) for e in events)
        elif earlier is not None:
            seen = [e for m in self.moments for e in m.events]
            if list(earlier[:len(seen)]) == seen:
                events = list(earlier[len(seen):]) + list(events)  # what happened while away
            else:
                self.complete = False
        if self.pending is not None:
            index, action = self.pending
            if done_in(action, view.seat, events):
                self.moments[index] = replace(self.moments[index], action=action)
                self.pending = None
            elif any(isinstance(e, TimedOut) and e.seat == view.seat for e in events):
                self.pending = None
        if len(self.moments) < MAX_MOMENTS:
            self.moments.append(Moment(tuple(events), view))

    def acted(self, action: Action) -> None:
        """The seat sent ``action`` from the last view it had: its decision there once an
        update shows it made."""
        if self.moments:
            last = self.moments[-1]
            if last.view.my_turn and action in last.view.legal and not isinstance(action, TimeOut):
                self.pending = (len(self.moments) - 1, action)

    def refused(self) -> None:
        """The server refused the move sent (an ``illegal`` error): it was never made."""
        self.pending = None

    def story(self) -> Story | None:
        """The current deal's story so far (None before the first update)."""
        if not self.moments:
            return None
        return Story(self.moments[0].view.seat, tuple(self.moments), self.complete)
