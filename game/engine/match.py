"""`Match`: deal after deal at one table, with dealer rotation, scores and a winner.

A match owns the injected random generator, the current `Round` and the running
scores. It ends when a deal ends with a score at or above the target (the highest
score wins; a tie for highest plays another deal), or after every deal when the
rules have no target (one-round presets; ``next_round`` still deals again, as the
``duel`` rules' "new round" asks, with the first player moving on).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .actions import Action, TimeOut
from .cards import Card
from .errors import RulesError
from .events import Event, MatchEnded
from .explain import refusal, why_not
from .phases import OVER, Status
from .position import describe_match
from .round import Round
from .rules import Rules
from .scoring import RoundResult, match_winners
from .view import PlayerView


class Match:
    """A game at one table: rounds, scores, and who won.

    ``seed`` (or an injected ``rng``) makes it reproducible; ``deck`` (top first)
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
        self.rules = rules
        self.players = players
        self.first_seat = first
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
        return log

    def shuffle_draw_pile(self, rng: random.Random) -> None:
        """Shuffle the draw pile, whose order nobody may know.

        A front end calls it after restoring an earlier state (Undo), so that taking a
        turn back never shows what the pile will give.
        """
        rng.shuffle(self.round.pile)

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
            if r.phase == OVER or not self.rules.turn_seconds or seat != r.to_act:
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
        log = self.round.apply(action, seat, events=events)
        if self.round.phase is OVER:
            self._score(log if events else None)
        return log

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
            winners = match_winners(self.scores, self.target, self.rules.pairs)
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
            seat=seat, players=self.players, rules=self.rules,
            hand=tuple(r.hands[seat]), hand_counts=tuple(len(h) for h in r.hands),
            discard=tuple(r.discard), suit=r.suit, draw_count=len(r.pile),
            direction=r.direction, to_act=r.to_act if playing else None, phase=r.phase,
            pending=r.pending, pending_by=r.pending_by,
            legal=self.legal_actions(seat) if playing else (),
            drawn_card=r.last_drawn if mine else None, follow=r.follow,
            follow_suit=r.follow_suit, called=r.called,
            exposed=tuple(sorted(s for s in r.exposed if len(r.hands[s]) == 1)),
            turn_no=r.turn_no, passes=r.passes, round_number=r.number, dealer=r.dealer,
            first=r.first, scores=tuple(self.scores), target=self.target, status=self.status,
            result=r.result, winners=self.winners, drawn=r.drawn, played=r.played, run_next=r.run_next,
            start_choice=r.start_choice, exposed_until=tuple(sorted(r.exposed.items())),
        )

    # ---- persistence and comparison ------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.status = Status(self.status)  # saves written before `Status` hold plain strings

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        mine, theirs = dict(self.__dict__), dict(other.__dict__)
        return (mine.pop("rng").getstate() == theirs.pop("rng").getstate()
                and mine == theirs)

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """The current deal with every hand, the scores and the status (see `describe_match`)."""
        return describe_match(self)
