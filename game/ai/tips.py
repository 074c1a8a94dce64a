"""Medium's preferences as pure functions of a hand: how much it likes each play, which suit it names.

`Medium` decides with them from its view; `Reading` replays them on a guessed hand to
tell whether an opponent who plays by these tips would have made the choices it was
seen to make. Both must stay in step, so the tips are written once, here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from game.engine import Card, Rules
from game.engine.effects import CardTable, card_table
from game.engine.scoring import card_value

WILD_KEPT = -50.0  # a wild played while the next player is in no danger
WILD_NEEDED = -8.0  # ... while the next player is about to go out, or with two cards left
KEEP_FOR_DRAW = -40.0  # a best play scored at or below this is left for a draw, where drawing is allowed
TIE_NOISE = 0.01  # the random share added to each score, so that equal cards are chosen at random


@dataclass(frozen=True, slots=True)
class Situation:
    """What Medium weighs besides its hand when it chooses a card: who plays next and how close
    to going out that player is, whether points are at stake. Made with `situation`."""

    table: CardTable
    players: int
    danger: bool  # the next player (not a partner) holds two cards or fewer
    partner_next: bool
    lacks: frozenset[str]  # suits the next player was seen to lack
    sheds: bool  # high cards are worth shedding (points count)


def situation(rules: Rules, players: int, danger: bool, partner_next: bool,
              lacks: frozenset[str] = frozenset()) -> Situation:
    """The `Situation` of a choice under ``rules`` at ``players`` players."""
    sheds = rules.scoring != "none" or bool(rules.target_for(players))
    return Situation(card_table(rules), players, danger, partner_next, lacks, sheds)


def play_score(card: Card, hand: Sequence[Card], situation: Situation) -> float:
    """How much Medium likes playing ``card`` from ``hand`` (higher is better; no tie-break noise).

    Wilds are kept for when nothing else plays (or the next player is about to go out); a
    card that leaves more of its suit in hand scores higher, a same-rank card kept for a
    later switch a little; a suit the next player lacks is a bonus; skips and draw cards
    are saved for a next player low on cards (never against a partner); high cards are
    shed when points count."""
    return play_scores((card,), hand, situation)[0]


def play_scores(cards: Sequence[Card], hand: Sequence[Card], situation: Situation) -> list[float]:
    """`play_score` of each of ``cards`` (all in ``hand``), counting the hand once."""
    if len(hand) == 1:
        return [1000.0] * len(cards)
    counts: dict[str, int] = {}
    ranks: dict[str, int] = {}
    for other in hand:
        own = other.suit
        if own is not None:
            counts[own] = counts.get(own, 0) + 1
        rank = other.rank
        ranks[rank] = ranks.get(rank, 0) + 1
    wild_base = WILD_NEEDED if situation.danger or len(hand) == 2 else WILD_KEPT
    terms = _card_terms(situation.table, situation.players, situation.sheds)
    lacks = situation.lacks
    # Skips and draw cards: saved for a next player low on cards, never played at a partner.
    action_bonus = -15 if situation.partner_next else 20 if situation.danger else -2
    out = []
    for card in cards:
        wild, action, shed = terms[card]
        own = card.suit
        if wild:  # it names the suit it then holds most of
            score = wild_base
            suit, most = None, 0
            for name, n in counts.items():
                if name == own:
                    n -= 1
                if n > most:
                    suit, most = name, n
        else:
            score = 0.0
            suit = own
            most = counts.get(own, 0) - 1 if own is not None else 0
        score += 3.0 * most + ranks[card.rank] - 1  # the long suit, a same-rank card to switch later
        if suit in lacks:
            score += 4.0
        if action:
            score += action_bonus
        if shed:
            score += shed
        out.append(score)
    return out


_TERMS: dict[tuple[CardTable, int, bool], dict[Card, tuple[bool, bool, float]]] = {}


def _card_terms(table: CardTable, players: int, sheds: bool) -> dict[Card, tuple[bool, bool, float]]:
    """Per card of ``table``'s deck, what `play_scores` reads off the card alone: whether it is
    wild, whether it is a skip or draw card (a reverse counts as a skip between two players),
    and the tenth of its value shed when points count (0.0 otherwise). Worked out once per
    table, player count and scoring: the playouts score cards at every step."""
    key = (table, players, sheds)
    terms = _TERMS.get(key)
    if terms is None:
        terms = _TERMS[key] = {
            card: (effect.wild, bool(effect.draws or effect.skip or (effect.reverse and players == 2)),
                   card_value(card, table.values) / 10.0 if sheds else 0.0)
            for card, effect in table.effects.items()}
    return terms


def bluff_likely(held: int) -> bool:
    """Whether a Wild +4 played from a hand of ``held`` cards (the +4 included) probably broke
    the rule, i.e. the hand held a card of the colour in force (about a quarter of the deck)."""
    return 1 - 0.75 ** held > 0.6


def suit_preference(suit: str, hand: Collection[Card], lacks: Collection[str]) -> float:
    """How much Medium likes naming ``suit``: the cards of it in ``hand``, half a card more
    for a suit the next player lacks."""
    return sum(1 for c in hand if c.suit == suit) + (0.5 if suit in lacks else 0.0)
