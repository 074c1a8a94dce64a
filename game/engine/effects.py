"""What each card does under a rule set, compiled once per `Rules` for the hot loop.

`CardTable` answers the questions the round asks on every move (is it wild? how
many cards does it make the next player draw? may it answer a pending draw?)
with one dictionary look-up per card instead of walking the rule fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import Card, deck_for, suits_of
from .rules import Rules

_NUMBER_RANKS: Final = frozenset("A23456789T0")


@dataclass(frozen=True, slots=True)
class CardEffect:
    """The effect of one card under one rule set."""

    wild: bool
    draws: int
    skip: bool
    reverse: bool
    again: bool
    number: bool  # a plain number card: may start or continue a run, may be a twin
    key: str  # the stacking table's name for it (its code if listed by code, else rank)


class CardTable:
    """Effects of every card of a rule set's deck, the stacking table and card values."""

    __slots__ = ("effects", "suits", "values", "answers", "deck_counts", "wild_ranks")

    def __init__(self, rules: Rules) -> None:
        draw_cards = dict(rules.draw_cards)
        if rules.twos_draw_two:
            draw_cards["2"] = 2
        if rules.queen_spades_draw_five:
            draw_cards["QS"] = 5
        skips = set(rules.skip_ranks) | ({"J"} if rules.jacks_skip else set())
        reverses = set(rules.reverse_ranks) | ({"A"} if rules.aces_reverse else set())
        deck = deck_for(rules.deck)
        self.effects: dict[Card, CardEffect] = {}
        self.deck_counts: dict[Card, int] = {}
        for card in deck:
            self.deck_counts[card] = self.deck_counts.get(card, 0) + 1
            if card in self.effects:
                continue
            key = card.code if card.code in draw_cards else card.rank
            draws = draw_cards.get(key, 0)
            wild = card.rank in rules.wild_ranks
            skip = card.rank in skips
            reverse = card.rank in reverses
            again = card.rank in rules.again_ranks
            number = (not (wild or draws or skip or reverse or again)
                      and card.rank in _NUMBER_RANKS)
            self.effects[card] = CardEffect(wild, draws, skip, reverse, again, number, key)
        self.wild_ranks = rules.wild_ranks
        self.suits = suits_of(rules.deck)
        self.values = dict(rules.card_values)
        # For each drawing card (by key): the keys that may answer it. None: any draw card.
        self.answers: dict[str, frozenset[str] | None] = {k: None for k in draw_cards}
        for key, answers in rules.stack_on:
            if key in draw_cards:
                self.answers[key] = frozenset(answers)

    def can_answer(self, card: Card, pending_by: Card) -> bool:
        """Whether ``card`` may be stacked on the draw card ``pending_by``."""
        effect = self.effects[card]
        if not effect.draws:
            return False
        allowed = self.answers.get(self.effects[pending_by].key)
        return allowed is None or effect.key in allowed

    def stackable(self, pending_by: Card) -> bool:
        """Whether any card at all may answer ``pending_by`` under this table."""
        allowed = self.answers.get(self.effects[pending_by].key)
        return allowed is None or bool(allowed)


_TABLES: dict[Rules, CardTable] = {}


def card_table(rules: Rules) -> CardTable:
    """The compiled `CardTable` of ``rules`` (cached: rules are immutable)."""
    table = _TABLES.get(rules)
    if table is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        table = _TABLES[rules] = CardTable(rules)
    return table
