"""Reading a player's choices: would a hand have made the plays its player was seen to make?

Every card a player played since a moment left its hand, so the hand it held then is
its hand now plus the cards it played after, less a card it drew and played at once
(a card kept from a draw ends the reading: which card of the hand came in then is
unknown). For each free choice (the first card of a turn with no penalty owed, the suit
it named after a wild, and, where a player may draw while holding a card that plays, a
draw at the start of a turn) the reading keeps what Medium weighs (`Situation`): a guessed
hand "fits" when Medium's tips (`play_score`, `suit_preference`, `KEEP_FOR_DRAW`) would
have made the last `CHECKED` of those choices from it. Such a draw tells much: Medium
draws rather than play a wild only when it keeps that wild, so "no hearts" marked alone
would leave the wilds too likely in a hand that drew. The sampler deals guesses that fit where it can: a
player who keeps its eights, sheds its high cards and follows its long suit gives much
away with every card. Nothing here is certain (the player may not play by these tips),
so a guess that cannot be made to fit in a few tries is kept as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final

from game.engine import Card, DrawReason, Rules
from game.engine import events as ev
from game.engine.effects import card_table
from game.engine.scoring import team_of

from .tips import KEEP_FOR_DRAW, TIE_NOISE, Situation, play_scores, situation, suit_preference

_DRAW: Final = DrawReason.DRAW  # a global: `observe` runs for every event at every computer seat
TIE = 2 * TIE_NOISE  # scores closer than this may have gone either way (Medium's tie-break noise)
CHECKED = 6  # the newest choices a hand is checked against (each costs time in every guess)
# The most one card more or less in a hand moves a play's score: 3 for its suit, 1 for its rank,
# 4 more for a wild whose suit to name turns from one the next player lacks to another.
SHIFT = 8.0


@dataclass(frozen=True, slots=True)
class Played:
    """A card its player played; ``situation`` is set when the play was a free choice."""

    card: Card
    situation: Situation | None
    suit: str  # in force before the play
    rank: str  # of the top card before the play
    drawn: bool = False  # the card it had just drawn (played in the turn it drew it)


@dataclass(frozen=True, slots=True)
class Drew:
    """Cards its player drew; ``situation`` is set when the draw was a free choice (the first
    action of its turn, owing nothing, where a player may draw while holding a card that plays)."""

    count: int
    situation: Situation | None = None
    suit: str = ""  # in force when it drew
    rank: str = ""  # of the top card when it drew
    kept: bool = False  # set by `Reading._back`: the card drawn may still be in the hand


@dataclass(frozen=True, slots=True)
class Named:
    """The suit a player named after its wild, with the suits the next player lacked."""

    suit: str
    lacks: frozenset[str]


class Reading:
    """The plays, draws and suit calls of each other player this round, fed with one seat's
    redacted events."""

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        self.seat = seat
        self.rules = rules
        self.players = players
        table = card_table(rules)
        self.wilds = table.wild_ranks
        self.suits = table.suits
        # Where a player may draw while holding a card that plays, drawing is a choice too (Medium
        # draws rather than play a wild it keeps); elsewhere a draw is forced: the marks say it all.
        self.draws_chosen = rules.draw_when_playable
        self.steps: list[list[Played | Named | Drew]] = [[] for _ in range(players)]
        self.counts = [0] * players
        self.direction = 1
        self.turn: int | None = None
        self.free = False  # the seat to act has done nothing yet this turn and owes no penalty
        self.owes: int | None = None  # the seat a pending penalty falls on
        self.naming: int | None = None  # the seat whose wild now asks for a suit
        self.drawing: int | None = None  # the seat to act, if it has just drawn a card this turn

    def __eq__(self, other: object) -> bool:
        # Two readings of the same events are equal (a restored table relearns the round).
        return isinstance(other, Reading) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]

    def observe(self, event: ev.Event, suit: str | None, rank: str | None,
                lacks_of: Callable[[int], frozenset[str]]) -> None:
        """Update from one event; ``suit`` and ``rank``: in force before it; ``lacks_of(seat)``:
        the suits ``seat`` was seen to lack."""
        # `type(event) is` rather than `match`: it runs for every event at every computer seat,
        # where a class pattern per case cost a tenth of the whole update (measured).
        if type(event) is ev.RoundStarted:
            self.steps = [[] for _ in range(self.players)]
            self.counts = [0] * self.players
            self.direction = event.direction
            self.turn = self.owes = self.naming = self.drawing = None
            self.free = False
        elif type(event) is ev.CardsDrawn:
            seat = event.seat
            self.counts[seat] += event.count
            if seat != self.seat:
                if (self.draws_chosen and seat == self.turn and self.free and event.reason == _DRAW
                        and suit is not None and rank is not None):
                    self.steps[seat].append(Drew(event.count, self._situation(seat, lacks_of), suit, rank))
                else:
                    self.steps[seat].append(Drew(event.count))
            if seat == self.turn:
                self.free = False
                # The next card it plays this turn is the one it drew (nothing else plays then).
                self.drawing = seat if event.reason == _DRAW else None
        elif type(event) is ev.CardPlayed:
            self._played(event.seat, event.card, suit, rank, lacks_of)
        elif type(event) is ev.SuitChosen:
            seat = event.seat
            if seat == self.naming and seat != self.seat:
                nxt = (seat + self.direction) % self.players
                self.steps[seat].append(Named(event.suit, lacks_of(nxt)))
            self.naming = None
        elif type(event) is ev.DirectionChanged:
            self.direction = event.direction
        elif type(event) is ev.PenaltyPending:
            self.owes = event.seat
        elif type(event) is ev.TurnStarted:
            self.turn = event.seat
            self.free = self.owes != self.turn
            self.owes = None
            self.drawing = None
        elif type(event) is ev.TimedOut:
            self.free = False  # the game chose for that player

    def _played(self, seat: int, card: Card, suit: str | None, rank: str | None,
                lacks_of: Callable[[int], frozenset[str]]) -> None:
        chosen = None
        if seat != self.seat and seat == self.turn and self.free and suit is not None and rank is not None:
            chosen = self._situation(seat, lacks_of)
        if seat != self.seat and suit is not None and rank is not None:
            self.steps[seat].append(Played(card, chosen, suit, rank, self.drawing == seat))
        self.counts[seat] -= 1
        self.free = False
        self.drawing = None
        self.naming = seat if card.rank in self.wilds and self.counts[seat] else None

    def _situation(self, seat: int, lacks_of: Callable[[int], frozenset[str]]) -> Situation:
        """What Medium weighs, besides its hand, at a free choice of ``seat`` now."""
        nxt = (seat + self.direction) % self.players
        partner_next = nxt != seat and nxt in team_of(seat, self.players, self.rules.pairs)
        return situation(self.rules, self.players, self.counts[nxt] <= 2 and not partner_next,
                         partner_next, lacks_of(nxt))

    def _back(self, seat: int) -> Iterator[Played | Named | Drew]:
        """``seat``'s plays, suit calls and chosen draws, newest first, as far back as its hand can
        be rebuilt.

        A card drawn and played in the same turn was not in the hand before that draw, so it
        is left out; the walk stops at a draw whose cards may still be in the hand (which
        cards of the hand came in then is unknown), after that draw if it was a choice: a card
        kept from a draw did not play either (Medium plays a drawn card that it would play)."""
        played_drawn = False
        for step in reversed(self.steps[seat]):
            if isinstance(step, Drew):
                kept = not played_drawn or step.count != 1
                played_drawn = False
                if step.situation is not None:
                    yield replace(step, kept=True) if kept else step
                if kept:
                    return
            elif isinstance(step, Played) and step.drawn:
                played_drawn = True
            else:
                played_drawn = False
                yield step

    def read(self, seat: int) -> bool:
        """Whether ``seat`` made any choice a hand can be checked against (see `fits`)."""
        return any(isinstance(step, Named) or step.situation is not None for step in self._back(seat))

    def fits(self, seat: int, hand: Sequence[Card], limit: int = CHECKED) -> bool:
        """Whether Medium's tips, holding ``hand`` now, would have made ``seat``'s last ``limit``
        choices (going back in time, each card played goes back into the hand)."""
        held = list(hand)
        checked = 0
        for step in self._back(seat):
            if isinstance(step, Named):
                if not self._named_fits(step, held):
                    return False
            elif isinstance(step, Drew):
                if not self._drew_fits(step, held):
                    return False
            else:
                held.append(step.card)
                if step.situation is None:
                    continue
                if not self._played_fits(step, held):
                    return False
            checked += 1
            if checked >= limit:
                break
        return True

    def scored(self, seat: int, hand: Sequence[Card],
               limit: int | None = CHECKED) -> Iterator[tuple[bool, list[float]]]:
        """What Medium's tips score each option of ``seat``'s last ``limit`` choices (None: every
        choice that can be read), newest first, holding ``hand`` now: per choice, whether it
        named a suit, and the score of what the player chose, then of each other card it could
        have played (or suit it could have named) from the hand it held then. A choice with
        nothing else to choose from has a single score. Counted as `fits` counts them (a chosen
        draw counts, unscored), so that both read the same choices."""
        held = list(hand)
        checked = 0
        wilds = self.wilds
        for step in self._back(seat):
            if isinstance(step, Drew):
                # Counted, not scored: the opponent model (`game.ai.weighted`) grades plays and suit calls.
                checked += 1
                if limit is not None and checked >= limit:
                    return
                continue
            if isinstance(step, Named):
                lacks = step.lacks
                yield True, [suit_preference(step.suit, held, lacks),
                             *(suit_preference(s, held, lacks) for s in self.suits if s != step.suit)]
            else:
                held.append(step.card)
                situation = step.situation
                if situation is None:
                    continue
                chosen = step.card
                # In the hand's order (not a set's): the weights must not depend on string hashing.
                others = [card for card in playing(held, step.suit, step.rank, wilds) if card != chosen]
                yield False, play_scores((chosen, *others), held, situation)
            checked += 1
            if limit is not None and checked >= limit:
                return

    def _played_fits(self, step: Played, held: list[Card]) -> bool:
        situation = step.situation
        assert situation is not None
        chosen = step.card
        # (The rule that a 10 may not be the last card never bites: the hand held two or more.)
        others = [card for card in playing(held, step.suit, step.rank, self.wilds) if card != chosen]
        if not others:
            return True
        scores = play_scores((chosen, *others), held, situation)
        return max(scores[1:]) <= scores[0] + TIE

    def _drew_fits(self, step: Drew, held: list[Card]) -> bool:
        """Whether Medium's tips would have drawn rather than play a card of ``held``.

        A kept draw: ``held`` is the hand just after it, the card drawn among them, unknown.
        That card did not play either (Medium plays a drawn card it would play, and nothing
        else may be played then), but the hand before it lacked it: a card that scores just
        above the line with it may have scored below without it (one card fewer of a suit or
        rank moves a score by `SHIFT` at most), so each card that could have been the one
        drawn is tried."""
        line = KEEP_FOR_DRAW + TIE
        scores = self._scores(step, held)
        best = max(scores.values(), default=-math.inf)
        if best <= line:
            return True
        if not step.kept or best > line + SHIFT:
            return False
        for drawn, card in enumerate(held):
            if scores.get(card, -math.inf) > line:
                continue  # drawn, it would have been played at once
            before = [c for i, c in enumerate(held) if i != drawn]
            if max(self._scores(step, before).values(), default=-math.inf) <= line:
                return True
        return False

    def _scores(self, step: Drew, held: list[Card]) -> dict[Card, float]:
        """What Medium's tips score each card of ``held`` that plays on ``step``'s table."""
        playable = playing(held, step.suit, step.rank, self.wilds)
        if not playable:
            return {}
        assert step.situation is not None
        return dict(zip(playable, play_scores(playable, held, step.situation), strict=True))

    def _named_fits(self, step: Named, held: list[Card]) -> bool:
        chosen = suit_preference(step.suit, held, step.lacks)
        return all(suit_preference(s, held, step.lacks) <= chosen for s in self.suits)


def playing(held: Sequence[Card], suit: str, rank: str, wilds: frozenset[str]) -> list[Card]:
    """The cards of ``held`` that play on a ``rank`` with ``suit`` in force, each once, in the
    hand's order."""
    return list(dict.fromkeys(
        card for card in held if card.suit == suit or card.rank == rank or card.rank in wilds))
