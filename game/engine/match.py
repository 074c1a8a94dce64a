"""`Match`: deal after deal at one table, with dealer rotation, scores and a winner.

A match owns the injected random generator, the current `Round` and the running
scores. It ends when a deal ends with a score at or above the target (the highest
score wins; a tie for highest plays another deal), or after every deal when the
rules have no target (one-round presets; ``next_round`` still deals again, as the
``duel`` rules' "new round" asks, with the first player moving on).

A match keeps its record as plain data: how it began (``seed``, ``first_seat``, the
first deal's explicit ``first_deck``, or the ``position`` it was set up from) and a
``log`` of everything applied since, one `Entry` each::

    (2, "play 7H")        seat 2 played the seven of hearts (any action, in its notation)
    ("next", None)        the next deal (or ("next", "AS 2H …"): dealt from that deck, top first)
    ("shuffle", 8813)     the draw pile shuffled with random.Random(8813) (after an undo)

`Match.replay` rebuilds a match from its beginning and log through `apply` and
`next_round`, so a log that breaks the rules is refused by the rules themselves, and
`rewound` rebuilds it as it stood after the log's first entries (Undo). The log is
the match's, never the round's: a search's playouts clone and play rounds and pay
nothing for it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from .actions import Action, TimeOut, parse_action
from .cards import Card, parse_cards
from .errors import IllegalAction, RulesError
from .events import Event, MatchEnded
from .explain import refusal, why_not
from .phases import OVER, Status
from .position import describe_match
from .round import Round
from .rules import Rules
from .scoring import RoundResult, match_winners
from .state import view_values
from .view import PlayerView

Entry = tuple[int | str, str | int | None]
"""One entry of a match's log, as plain data: ``(seat, "play 7H")``, ``("next", None)`` (or a
deck in notation), ``("shuffle", seed)``."""

NEXT: Final = "next"
SHUFFLE: Final = "shuffle"
SEED_LIMIT: Final = 1 << 64
"""Seeds a match takes in its record: whole numbers from 0 below this."""


class Match:
    """A game at one table: rounds, scores, who won, and the record of how it got there.

    ``seed`` (or an injected ``rng``) makes it reproducible; without either, the match
    draws a seed of its own, so it can always be replayed. ``deck`` (top first)
    deals the first round from an explicit order; ``first`` sets who starts it.

    Raises:
        RulesError: a seating or deck the rules cannot play.
    """

    def __init__(
        self, rules: Rules, players: int, seed: int | None = None, *,
        rng: random.Random | None = None, deck: Sequence[Card] | None = None,
        first: int | None = None,
    ) -> None:
        rules.check_players(players)
        if first is not None and (type(first) is not int or not 0 <= first < players):
            raise RulesError(f"first must be a seat from 0 to {players - 1}, not {first!r}")
        if rng is None and seed is None:
            seed = random.Random().randrange(SEED_LIMIT)  # a fresh seed, from the system's entropy
        self.rules = rules
        self.players = players
        self.first_seat = first
        # The record: how the match began and what was applied since (see the module doc).
        self.seed = seed if rng is None else None
        self.start_state = rng.getstate() if rng is not None else None  # an injected generator's
        self.first_deck = tuple(deck) if deck is not None else None
        self.position: dict[str, Any] | None = None  # set by `snapshot.from_plain`
        self.log: list[Entry] = []
        self.rng = rng if rng is not None else random.Random(seed)
        self.scores = [0] * players
        self.results: list[RoundResult] = []
        self.status = Status.PLAYING
        self.winners: tuple[int, ...] = ()
        self.target = rules.target_for(players)
        self.start_events: list[Event] = []
        self.round = self._deal(1, self._first_of(1, first), deck, self.start_events)

    # ---- rounds --------------------------------------------------------------------------
    def _first_of(self, number: int, chosen: int | None) -> int:
        if chosen is not None:
            return chosen
        policy = self.rules.first_player
        if policy == "seat0":
            return self.first_seat or 0  # "the human always starts": the chosen seat, every round
        if policy == "random":
            return self.rng.randrange(self.players)
        if number == 1:
            return 0  # the first dealer is the last seat, so seat 0 starts
        return (self.round.first + 1) % self.players

    def _deal(self, number: int, first: int, deck: Sequence[Card] | None,
              log: list[Event]) -> Round:
        return Round(self.rules, self.players, self.rng, first=first, deck=deck,
                     number=number, dealer=(first - 1) % self.players, log=log)

    def next_round(self, deck: Sequence[Card] | None = None) -> list[Event]:
        """Deal the next round and return its opening events.

        Raises:
            IllegalAction: the current round is still being played, or the match is won.
        """
        if self.status == Status.PLAYING:
            raise refusal("finish_round")
        if self.status == Status.MATCH_OVER and self.target:
            raise refusal("match_won")
        number = self.round.number + 1
        log: list[Event] = []
        self.round = self._deal(number, self._first_of(number, None), deck, log)
        self.status = Status.PLAYING
        self.winners = ()
        self.log.append((NEXT, None if deck is None else " ".join(card.code for card in deck)))
        return log

    def shuffle_draw_pile(self, seed: int) -> None:
        """Shuffle the draw pile with ``random.Random(seed)``, and log it.

        A front end calls it after restoring an earlier state (Undo), with a seed drawn
        from its own generator, so that taking a turn back never shows what the pile
        will give, and a replay of the log shuffles the same way.

        Raises:
            RulesError: ``seed`` is not a whole number from 0 below `SEED_LIMIT`.
        """
        if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
            raise RulesError(f"a shuffle's seed must be a whole number from 0 below 2**64, not {seed!r}")
        self.round.shuffle_pile(random.Random(seed))
        self.log.append((SHUFFLE, seed))

    # ---- playing -------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """What ``seat`` (default: the seat to act) may do now."""
        if self.status != Status.PLAYING:
            return ()
        return self.round.legal_actions(seat)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` between rounds."""
        return self.round.to_act if self.status == Status.PLAYING else None

    def check(self, action: Action, seat: int | None = None) -> None:
        """Refuse ``action`` (for ``seat``, default the seat to act) as `apply` would, or return.

        Nothing changes: a caller may check, store the action, and only then apply it
        (the room server does, so that a change it could not store never happened).

        Raises:
            IllegalAction: the refusal `apply` would give now (the same key and values):
                the round is over; a time-out without a turn timer or for a seat not to
                act; otherwise the round's reason why the action is not legal.
        """
        if self.status != Status.PLAYING:
            raise refusal("round_over")
        r = self.round
        if seat is None:
            seat = r.to_act
        if type(action) is TimeOut:
            if not r.may_time_out(action, seat):
                raise why_not(r, action, seat)
        elif action not in r.legal_actions(seat):
            raise why_not(r, action, seat)

    def apply(self, action: Action, seat: int | None = None, *, events: bool = True) -> list[Event]:
        """Carry out ``action`` (for ``seat``, default the seat to act) and return the events.

        Raises:
            IllegalAction: not legal now; the message is for the player.
        """
        if self.status != Status.PLAYING:
            raise refusal("round_over")
        r = self.round
        actor = r.to_act if seat is None or seat == r.to_act else seat
        log = r.apply(action, seat, events=events)
        self.log.append((actor, str(action)))
        if r.phase is OVER:
            self._score(log if events else None)
        return log

    # ---- the record ----------------------------------------------------------------------
    @classmethod
    def replay(
        cls, rules: Rules, players: int, entries: Sequence[Entry], seed: int | None = None, *,
        rng: random.Random | None = None, deck: Sequence[Card] | None = None,
        first: int | None = None, events: list[Event] | None = None,
    ) -> Match:
        """The match that began as ``Match(rules, players, seed, rng=rng, deck=deck,
        first=first)`` and then went through ``entries`` (a log); see `play_log`.

        Raises:
            RulesError: the beginning or an entry the rules cannot play (the entry's
                index and why).
        """
        match = cls(rules, players, seed, rng=rng, deck=deck, first=first)
        if events is not None:
            events[:] = match.start_events
        match.play_log(entries, events)
        return match

    def play_log(self, entries: Sequence[Entry], events: list[Event] | None = None) -> None:
        """Apply a log's ``entries`` in order, each added to this match's own log.

        ``events``, when given, holds this deal's events so far; it ends holding the
        events of the deal being played when the entries are done (a new deal starts it
        again from the deal's opening events). Entries of earlier deals are applied
        without building events, which is faster and changes nothing else.

        Raises:
            RulesError: an entry of the wrong shape, or one the rules refuse now
                (naming its index in ``entries`` and the reason).
        """
        last_deal = -1
        if events is not None:
            for i, entry in enumerate(entries):
                if type(entry) is tuple and entry and entry[0] == NEXT:
                    last_deal = i
        for i, entry in enumerate(entries):
            try:
                if type(entry) is not tuple or len(entry) != 2:
                    raise RulesError(f"an entry is a pair, not {entry!r:.60}")
                head, arg = entry
                if type(head) is int:
                    if type(arg) is not str or len(arg) > 40:
                        raise RulesError(f"an action is written in its notation, not {arg!r:.60}")
                    wanted = events is not None and i > last_deal
                    done = self.apply(parse_action(arg), head, events=wanted)
                    if wanted and events is not None:
                        events.extend(done)
                elif head == NEXT:
                    if arg is not None and type(arg) is not str:
                        raise RulesError(f"a deck is written in card notation, not {arg!r:.60}")
                    opening = self.next_round(None if arg is None else parse_cards(arg))
                    if events is not None:
                        events[:] = opening
                elif head == SHUFFLE:
                    self.shuffle_draw_pile(arg)  # type: ignore[arg-type]  # checked there
                else:
                    raise RulesError(f"unknown entry {head!r:.40}")
            except (IllegalAction, ValueError) as exc:  # RulesError is a ValueError too
                raise RulesError(f"log entry {i}: {exc}") from None

    def rewound(self, length: int, events: list[Event] | None = None) -> Match:
        """A new match: this one as it stood after the first ``length`` entries of its log.

        It is rebuilt from the beginning (the seed, or the position it was set up
        from) by replaying those entries; ``events`` as in `play_log`. Undo is this.

        Raises:
            ValueError: ``length`` is not from 0 to the log's length.
            RulesError: the record no longer replays (it always does unless tampered with).
        """
        if type(length) is not int or not 0 <= length <= len(self.log):
            raise ValueError(f"length must be from 0 to {len(self.log)}, not {length!r}")
        if self.position is not None:
            from .snapshot import from_plain  # the position module builds matches: import it late

            match = from_plain(self.rules, self.players, self.position, events)
        else:
            rng = None
            if self.start_state is not None:
                rng = random.Random()
                rng.setstate(self.start_state)
            match = Match(self.rules, self.players, self.seed, rng=rng, deck=self.first_deck,
                          first=self.first_seat)
            if events is not None:
                events[:] = match.start_events
        match.play_log(self.log[:length], events)
        return match

    def _score(self, log: list[Event] | None) -> None:
        result = self.round.result
        assert result is not None
        self.results.append(result)
        for seat, points in enumerate(result.points):
            self.scores[seat] += points
        if not self.target:
            self.status = Status.MATCH_OVER
            self.winners = result.winners
        else:
            winners = match_winners(self.scores, self.target, self.rules.pairs, self.rules.pair_scores)
            if winners:
                self.status = Status.MATCH_OVER
                self.winners = winners
            else:
                self.status = Status.ROUND_OVER
        if log is not None and self.status == Status.MATCH_OVER:
            log.append(MatchEnded(self.winners, tuple(self.scores)))

    # ---- looking -------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know now (see `PlayerView`).

        Raises:
            ValueError: no such seat.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat!r}")
        r = self.round
        playing = self.status == Status.PLAYING
        mine = playing and r.to_act == seat
        return PlayerView(
            seat=seat, hand=tuple(r.hands[seat]), hand_counts=tuple(len(h) for h in r.hands),
            draw_count=len(r.pile), to_act=r.to_act if playing else None,
            legal=self.legal_actions(seat) if playing else (),
            drawn_card=r.last_drawn if mine else None,
            exposed=tuple(sorted(s for s in r.exposed if len(r.hands[s]) == 1)),
            scores=tuple(self.scores), target=self.target, status=self.status, winners=self.winners,
            **view_values(r),
        )

    # ---- comparison ----------------------------------------------------------------------
    _RECORD: Final = ("seed", "start_state", "first_deck", "position", "log", "start_events", "rng")

    def __eq__(self, other: object) -> bool:
        """The same position: rules, seats, scores, results, the deal (every card and pile in
        order) and the random generator's state, however each match got there (its record
        aside)."""
        if not isinstance(other, Match):
            return NotImplemented
        mine = {k: v for k, v in self.__dict__.items() if k not in self._RECORD}
        theirs = {k: v for k, v in other.__dict__.items() if k not in self._RECORD}
        return self.rng.getstate() == other.rng.getstate() and mine == theirs

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """The current deal with every hand, the scores and the status (see `describe_match`)."""
        return describe_match(self)
