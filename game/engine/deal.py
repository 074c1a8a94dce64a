"""Dealing a round: an explicit deck checked, the hands dealt, the starting card turned.

`Round.__init__` calls `deal` once; it fills the round's hands and piles and applies
what the starting card does under the rules (docs/rules.md, "Common ground" and each
preset): a rank that may not start goes back into the pile, and where starting cards
have effects a wild lets the first player name the suit, a draw card is pending for
them, a skip passes them over and a reverse turns the direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import Card
from .effects import CardTable
from .errors import RulesError
from .events import (
    CardsDrawn,
    DirectionChanged,
    DrawReason,
    Event,
    RoundStarted,
    StartCard,
    StartCardReturned,
    TurnSkipped,
)
from .phases import SUIT
from .rules import Rules

if TYPE_CHECKING:
    from .round import Round


def check_deck(rules: Rules, table: CardTable, deck: Sequence[Card], players: int) -> list[Card]:
    """The explicit ``deck`` (top first) as a list, if the rules' deck could hold it and it
    deals ``players`` hands and a starting card.

    Raises:
        RulesError: a non-card, more copies of a card than the deck has, or too few cards.
    """
    counts: dict[Card, int] = {}
    for card in deck:
        if not isinstance(card, Card):
            raise RulesError(f"deck entries must be cards, not {card!r}")
        counts[card] = counts.get(card, 0) + 1
        allowed = table.deck_counts.get(card, 0)
        if counts[card] > allowed:
            raise RulesError(f"the {rules.deck} deck has {allowed} of {card.code}, "
                             f"but the explicit deck has more")
    needed = rules.cards_per_hand(players) * players + 1
    if len(deck) < needed:
        raise RulesError(f"the explicit deck has {len(deck)} cards; dealing needs {needed}")
    return list(deck)


def deal(r: Round, log: list[Event] | None) -> int:
    """Deal ``r``'s hands from its pile, turn the starting card and apply its effect;
    return the seat whose turn begins.

    Raises:
        RulesError: no card of the deck may start the discard pile.
    """
    per_hand = r.rules.cards_per_hand(r.players)
    # Play starts clockwise on the screen (seat + 1 sits on each seat's left), or the other way
    # where the rules say so (``counter_clockwise``: the colour deck's source).
    r.direction = -1 if r.rules.counter_clockwise else 1
    if log is not None:
        log.append(RoundStarted(r.number, r.dealer, r.first, r.direction, per_hand))
    for _ in range(per_hand):
        for k in range(r.players):
            r.hands[(r.first + k) % r.players].append(r.pile.pop())
    if log is not None:
        for seat, hand in enumerate(r.hands):
            log.append(CardsDrawn(seat, len(hand), DrawReason.DEAL, tuple(hand)))
    returns = r.rules.start_returns
    tries = 0
    while True:
        card = r.pile.pop()
        if card.rank not in returns:
            break
        tries += 1
        if tries > len(r.pile) + 1:
            raise RulesError("no card of this deck may start the discard pile")
        if log is not None:
            log.append(StartCardReturned(card))
        if r.explicit:
            r.pile.insert(0, card)
        else:
            r.pile.insert(r.rng.randrange(len(r.pile) + 1), card)
    r.discard.append(card)
    r.suit = card.suit
    if log is not None:
        log.append(StartCard(card))
    effect = r.table.effects[card]
    if r.rules.start_effects:
        if effect.wild:
            # The first player names the colour, then plays as usual.
            r.phase = SUIT
            r.start_choice = True
        elif effect.draws:
            r.pending = effect.draws
            r.pending_by = card
            return r.first
        elif effect.skip:
            if log is not None:
                log.append(TurnSkipped(r.first))
            return (r.first + r.direction) % r.players
        elif effect.reverse:
            # A Reverse turned to start turns play the other way from the start ("si c'est la
            # première carte, le jeu commencera dans le sens des aiguilles d'une montre").
            r.direction = -r.direction
            if log is not None:
                log.append(DirectionChanged(r.direction))
    return r.first
