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

from game.engine import Action, Match, PlayerView, RulesError, TimeOut, parse_action
from game.engine.events import Event, RoundStarted
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

    def decisions(self) -> list[int]:
        """The indices of the moments the seat decided from (its own moves, not a turn the
        clock played for it)."""
        return [i for i, m in enumerate(self.moments) if m.action is not None]


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


@dataclass
class Recorder:
    """Builds the story of each deal of an online seat from the server's updates (its view and
    the events redacted for it), and what the seat sent (`acted`). Nothing else is asked."""

    moments: list[Moment] = field(default_factory=list)
    complete: bool = False
    deal: int | None = None

    def update(self, view: PlayerView, events: list[Event], earlier: list[Event] | None = None) -> None:
        """One update: a new deal starts a new story (from ``earlier``, the deal's events so far,
        when the seat came back to a deal under way)."""
        if self.deal != view.round_number or (self.moments and self.moments[-1].view.seat != view.seat):
            self.deal = view.round_number
            self.moments = []
            if earlier is not None:
                events = list(earlier) + list(events)
            # Complete when the story holds the deal's first event (a new deal's opening).
            self.complete = any(isinstance(e, RoundStarted) for e in events)
        if len(self.moments) < MAX_MOMENTS:
            self.moments.append(Moment(tuple(events), view))

    def acted(self, action: Action) -> None:
        """The seat sent ``action`` from the last view it had: its decision there."""
        if self.moments:
            last = self.moments[-1]
            if last.view.my_turn and action in last.view.legal and not isinstance(action, TimeOut):
                self.moments[-1] = replace(last, action=action)

    def story(self) -> Story | None:
        """The current deal's story so far (None before the first update)."""
        if not self.moments:
            return None
        return Story(self.moments[0].view.seat, tuple(self.moments), self.complete)
