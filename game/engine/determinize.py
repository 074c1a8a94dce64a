"""Rebuild a full `Round` from one seat's view and a guess at the cards it cannot see.

Computer players search over possible deals ("determinizations"): they guess the
other hands and the draw-pile order from what their view allows, then play the
game forward on the rebuilt round. Nothing here reads the real game state: every
field a view shows as it is (the round's declaration names it, `game.engine.state`) comes
from the view; the rest is written here: the guessed hidden cards, whose turn it is, the
card just drawn, and whether a Wild +4 now pending was a bluff, which only its player knows.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .cards import Card
from .effects import card_table
from .errors import RulesError
from .round import Round, restored_round
from .state import values_from_view
from .view import PlayerView


def unseen_cards(view: PlayerView) -> list[Card]:
    """The cards ``view.seat`` cannot see: the deck minus its hand and the discard pile.

    They are somewhere in the other hands or the draw pile.
    """
    counts = Counter(card_table(view.rules).deck_counts)
    counts.subtract(view.hand)
    counts.subtract(view.discard)
    out: list[Card] = []
    for card, n in counts.items():
        out.extend([card] * max(0, n))
    return out


def round_from_view(
    view: PlayerView, hands: Sequence[Sequence[Card]], pile: Sequence[Card], rng: random.Random,
    bluff_by: int | None = None,
) -> Round:
    """A round equal to the real one as far as ``view.seat`` can tell, with the guessed
    ``hands`` (``hands[view.seat]`` must be the view's own hand) and ``pile`` (top last).

    Raises:
        RulesError: the guess does not fit the view (wrong hand sizes or pile size).
    """
    if len(hands) != view.players:
        raise RulesError(f"{view.players} hands expected, got {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != view.hand_counts[seat]:
            raise RulesError(f"seat {seat} holds {view.hand_counts[seat]} cards, the guess {len(hand)}")
    if list(hands[view.seat]) != list(view.hand):
        raise RulesError("the guess must keep the seat's own hand")
    if len(pile) != view.draw_count:
        raise RulesError(f"the draw pile has {view.draw_count} cards, the guess {len(pile)}")
    guessed = {
        "rng": rng, "hands": [list(h) for h in hands], "pile": list(pile), "bluff_by": bluff_by,
        "to_act": view.to_act if view.to_act is not None else 0,
        "last_drawn": view.drawn_card if view.drawn_card is not None else _last_drawn(view, hands),
        "explicit": False,
    }
    return restored_round(values_from_view(Round, view) | guessed)


def _last_drawn(view: PlayerView, hands: Sequence[Sequence[Card]]) -> Card | None:
    """Another seat is mid-turn after drawing: its drawn card is the last of its guessed hand."""
    if view.drawn and view.to_act is not None and view.to_act != view.seat:
        hand = hands[view.to_act]
        return hand[-1] if hand else None
    return None
