"""What one seat knows of the other hands, from the public events of the round.

A hand is tracked as "cohorts": groups of cards that entered the hand together
(the deal, one draw, a penalty) with what is known to be absent from them. When a
seat draws by choice under rules that forbid drawing with a playable card, it had
no card of the suit in force, of the top card's rank, and no wild: every card it
held then is marked so. After a 10 of the ``action`` rules, drawing shows it had no
card of that suit. A played card leaves the newest cohort that could hold it.
The sampler then deals the unseen cards so that every cohort keeps its marks.

Some draws only suggest what a hand lacks: drawing while a card could be played
(``draw_when_playable``) usually means nothing but a wild played, and taking a draw
penalty that a card could have answered usually means no such card. Those are
"soft" marks, which the sampler honours in most guesses, not all: a player who
draws on a whim must not fool the search for good. So is a drawn card kept where one
that follows may be kept (``colors``, ``action``, draw-one ``points``): players play
what they draw when they can, so it is probably not of the suit in force, of the top
rank, or a wild. So is a plain wild played: players
keep their wilds for when nothing else plays, so it suggests no card of the suit in
force or of the top rank. A player then caught holding such a card (a card it plays
fits none of its cohorts once the soft marks count) plays wilds on a whim: its soft
marks are dropped and its wilds no longer read.

A reshuffle tells where cards are: the pile had run out, so every card the seat could
not see was in a hand, and the new pile is made of the discards it saw played (`refill`).
Cohorts drawn since are "fresh" (refill cards); a played card of the refill leaves a
fresh cohort, any other an older one, so the sampler keeps the pile to the refill.

It also keeps the `Reading` of the other players' choices, and tracks its own seat's
draws as it tracks the others' (its opponents read them too, which its reading models).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from game.engine import Card, DrawReason, Follow, Rules
from game.engine import events as ev
from game.engine.effects import card_table

from .reading import Reading

# Members bound to globals: `observe` runs for every event at every computer seat.
_DRAW: Final = DrawReason.DRAW
_PENALTY: Final = DrawReason.PENALTY
_AGAIN: Final = Follow.AGAIN


@dataclass
class Cohort:
    """``count`` cards of one hand with what none of them can be."""

    count: int
    no_suits: set[str] = field(default_factory=set)
    no_ranks: set[str] = field(default_factory=set)
    no_wild: bool = False
    soft_suits: set[str] = field(default_factory=set)  # probably none of these (see the module doc)
    soft_ranks: set[str] = field(default_factory=set)
    soft_wild: bool = False  # probably no wild
    # Drawn from the pile the latest reshuffle made of known discards (None: partly):
    # see `Knowledge.refill`.
    fresh: bool | None = False

    def admits(self, card: Card, wild_ranks: frozenset[str]) -> bool:
        """Whether ``card`` could be one of these cards."""
        if card.rank in wild_ranks:
            return not self.no_wild
        return card.suit not in self.no_suits and card.rank not in self.no_ranks

    def hardened(self) -> Cohort:
        """A copy that takes the soft marks as certain."""
        return Cohort(self.count, self.no_suits | self.soft_suits, self.no_ranks | self.soft_ranks,
                      self.no_wild or self.soft_wild, fresh=self.fresh)

    @property
    def soft(self) -> bool:
        """Whether it carries any soft mark."""
        return bool(self.soft_suits or self.soft_ranks or self.soft_wild)


class Knowledge:
    """The public-information tracker of one seat, fed with its redacted events."""

    def __init__(self, seat: int, rules: Rules, players: int) -> None:
        self.seat = seat
        self.rules = rules
        self.players = players
        self.wilds = rules.wild_ranks
        self.cohorts: list[list[Cohort]] = [[] for _ in range(players)]
        self.suit: str | None = None
        self.top_rank: str | None = None
        self.again_suit: dict[int, str] = {}
        self.wild_four_suit: str | None = None  # suit in force when the pending Wild +4 was played
        self.erratic: set[int] = set()  # seats seen to play a wild while holding a card to follow
        # The seat that has just drawn a card in its turn and played nothing since (see `_kept`):
        # its newest cohort is that card, and the suit and top card in force are unchanged.
        self.drawing: int | None = None
        self.infer = not rules.draw_when_playable
        self.reading = Reading(seat, rules, players)
        # The discard pile as the events showed it (None: the round was not seen from its
        # start), and the cards the latest reshuffle turned into the draw pile (None: none yet).
        self.discard: list[Card] | None = None
        self.refill: Counter[Card] | None = None
        table = card_table(rules)
        # The non-wild ranks that may answer each draw card (a player who takes the penalty
        # instead probably holds none; wilds are kept back, so they prove nothing).
        self.answers: dict[str, set[str]] = {}
        if rules.stacking:
            for card, effect in table.effects.items():
                if effect.draws:
                    self.answers[card.rank] = {c.rank for c, e in table.effects.items()
                                               if not e.wild and table.can_answer(c, card)}

    def observe(self, event: ev.Event) -> None:
        """Update from one event (as this seat received it)."""
        self.reading.observe(event, self.suit, self.top_rank, self.lacking)
        # `type(event) is` rather than `match`: see `Reading.observe`.
        if type(event) is ev.RoundStarted:
            self.cohorts = [[] for _ in range(self.players)]
            self.again_suit = {}
            self.drawing = None
            self.discard = []
            self.refill = None
        elif type(event) is ev.CardsDrawn:
            self._drawn(event)
        elif type(event) is ev.StartCard:
            self.top_rank, self.suit = event.card.rank, event.card.suit
            if self.discard is not None:
                self.discard.append(event.card)
        elif type(event) is ev.CardPlayed:
            self._played(event.seat, event.card)
            if self.discard is not None:
                self.discard.append(event.card)
        elif type(event) is ev.Reshuffled:
            self._reshuffled(event.count)
        elif type(event) is ev.SuitChosen:
            self.suit = event.suit
        elif type(event) is ev.PlayAgain:
            if event.why == _AGAIN and self.suit is not None:
                self.again_suit[event.seat] = self.suit
        elif type(event) is ev.Passed:
            self._kept(event.seat)
        elif type(event) is ev.TurnStarted:
            self.drawing = None
            self.again_suit.pop(event.seat, None)

    def _kept(self, seat: int) -> None:
        """``seat`` ended its turn keeping the card it drew: the card probably could not be
        played (players play what they draw when it follows: Medium always does).

        Only a soft mark: where a drawn card that follows may be kept (``colors``, ``action``,
        draw-one ``points``), a player may keep it on a whim; where it must be played, a
        further draw has already marked it for certain."""
        drawing, self.drawing = self.drawing, None
        if drawing != seat or seat in self.erratic or not self.cohorts[seat]:
            return
        cohort = self.cohorts[seat][-1]
        again = self.again_suit.get(seat)
        if again is not None:
            cohort.soft_suits.add(again)
            return
        if self.suit is not None:
            cohort.soft_suits.add(self.suit)
        if self.top_rank is not None and self.top_rank not in self.wilds:
            cohort.soft_ranks.add(self.top_rank)
        cohort.soft_wild = True

    def _drawn(self, event: ev.CardsDrawn) -> None:
        seat = event.seat  # its own seat too: the others read its draws, and it reads their choices
        reason = event.reason
        if reason == _PENALTY and self.top_rank in self.answers:
            for cohort in self.cohorts[seat]:
                cohort.soft_ranks |= self.answers[self.top_rank]
        elif reason == _DRAW and not self.infer and seat not in self.again_suit:
            for cohort in self.cohorts[seat]:
                if self.suit is not None:
                    cohort.soft_suits.add(self.suit)
                if self.top_rank is not None and self.top_rank not in self.wilds:
                    cohort.soft_ranks.add(self.top_rank)
        if reason == _DRAW and self.infer:
            again = self.again_suit.get(seat)
            for cohort in self.cohorts[seat]:
                if again is not None:
                    cohort.no_suits.add(again)
                else:
                    if self.suit is not None:
                        cohort.no_suits.add(self.suit)
                    if self.top_rank is not None:
                        cohort.no_ranks.add(self.top_rank)
                    cohort.no_wild = True
        # One card drawn after a reshuffle came from it; several may have emptied the old pile first.
        fresh = self.refill is not None and (True if event.count == 1 else None)
        self.cohorts[seat].append(Cohort(event.count, fresh=fresh))
        self.drawing = seat if reason == _DRAW else None

    def _reshuffled(self, count: int) -> None:
        """The discards under the top card became the draw pile. The pile had run out, so every
        card this seat could not see was in a hand: from now on the pile holds only cards of
        the refill (known), and the cards held now (all marked not fresh) hold none of them."""
        discard = self.discard
        if discard is None or len(discard) - 1 != count:  # the discards were not all seen
            self.refill = None
            self.discard = None
            return
        self.refill = Counter(discard[:-1])
        del discard[:-1]
        for cohorts in self.cohorts:
            for cohort in cohorts:
                cohort.fresh = False

    def _played(self, seat: int, card: Card) -> None:
        suit, rank = self.suit, self.top_rank
        plain_wild = card.rank in self.wilds
        if plain_wild and card_table(self.rules).effects[card].draws:
            self.wild_four_suit = self.suit
            plain_wild = False
        self.top_rank = card.rank
        self.suit = card.suit
        cohorts = self.cohorts[seat]
        self.drawing = None
        soft = any(c.soft for c in cohorts)
        if soft and seat not in self.erratic and not any(
                c.count and c.hardened().admits(card, self.wilds) for c in cohorts):
            # It held a card its wild said it lacked: it plays wilds on a whim; stop reading them.
            self.erratic.add(seat)
            for cohort in cohorts:
                cohort.soft_suits.clear()
                cohort.soft_ranks.clear()
                cohort.soft_wild = False
        # A card of the refill was drawn since the reshuffle; any other was held before it.
        fresh = None if self.refill is None else card in self.refill
        held = [c for c in reversed(cohorts) if c.count]
        origin = [c for c in held if fresh is None or c.fresh in (None, fresh)]
        # The newest cohort that could hold it; if its marks were wrong, one of the right origin.
        source = next((c for c in origin if c.admits(card, self.wilds)), None)
        if source is None:
            source = next(iter(origin or held), None)
        if source is not None:
            source.count -= 1
        if plain_wild and seat not in self.again_suit and seat not in self.erratic:
            # Players keep their wilds for when nothing else plays (the sources' first tip):
            # one played probably means no card of the suit in force or of the top rank.
            for cohort in cohorts:
                if suit is not None:
                    cohort.soft_suits.add(suit)
                if rank is not None and rank not in self.wilds:
                    cohort.soft_ranks.add(rank)
        self.cohorts[seat] = [c for c in cohorts if c.count]

    def lacking(self, seat: int, count: int | None = None) -> frozenset[str]:
        """The suits ``seat`` was seen to lack in every card it holds (``count``: the cards it
        holds, if known; see `hand_cohorts`)."""
        cohorts = self.cohorts[seat] if count is None else self.hand_cohorts(seat, count)
        if not cohorts:
            return frozenset()
        out = set(cohorts[0].no_suits)
        for cohort in cohorts[1:]:
            out &= cohort.no_suits
        return frozenset(out)

    def hand_cohorts(self, seat: int, count: int) -> list[Cohort]:
        """The cohorts of ``seat``, made to add up to ``count`` (unknown cards are unmarked)."""
        cohorts = [Cohort(c.count, set(c.no_suits), set(c.no_ranks), c.no_wild, set(c.soft_suits),
                          set(c.soft_ranks), c.soft_wild, c.fresh) for c in self.cohorts[seat]]
        known = sum(c.count for c in cohorts)
        if known < count:
            cohorts.append(Cohort(count - known))
        while known > count and cohorts:
            drop = min(cohorts[0].count, known - count)
            cohorts[0].count -= drop
            known -= drop
            if not cohorts[0].count:
                cohorts.pop(0)
        return cohorts
