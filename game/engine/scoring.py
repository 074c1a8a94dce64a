"""Card values, hand totals and the result of a finished or blocked round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card

if TYPE_CHECKING:
    from .rules import Rules


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a deal ended.

    ``winner`` is the seat that went out or held the lowest hand (``None`` on a tie);
    ``winners`` are the seats that share the win (both partners in pair play).
    ``points`` are what each seat scores for this deal; ``totals`` are the hand values.
    """

    winner: int | None
    winners: tuple[int, ...]
    blocked: bool
    tie: bool
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    totals: tuple[int, ...]


def card_value(card: Card, values: dict[str, int]) -> int:
    """A card's points: from the rule set's table by rank, else its face number."""
    value = values.get(card.rank)
    return card.number if value is None else value


def hand_total(hand: Sequence[Card], values: dict[str, int]) -> int:
    """The points of all cards in a hand."""
    return sum(card_value(c, values) for c in hand)


def team_of(seat: int, players: int, pairs: bool) -> tuple[int, ...]:
    """The seats that win with ``seat``: partners sit opposite in pair play."""
    if pairs:
        return tuple(sorted({seat, (seat + players // 2) % players}))
    return (seat,)


def standings(scores: Sequence[int], pairs: bool, pooled: bool) -> tuple[int, ...]:
    """What each seat has toward the target: its own score, or in pair play with ``pooled``
    scores (the ``pair_scores`` option) its pair's, the partners' points added up."""
    players = len(scores)
    if not (pairs and pooled):
        return tuple(scores)
    return tuple(sum(scores[s] for s in team_of(seat, players, True)) for seat in range(players))


def match_winners(scores: Sequence[int], target: int, pairs: bool, pooled: bool = False) -> tuple[int, ...]:
    """The seats that have won a match to ``target`` at these scores: the highest standing (see
    `standings`), at or above the target and held by one team (a tie for highest plays another
    deal); else ``()``."""
    counted = standings(scores, pairs, pooled)
    best = max(counted)
    if best < target:
        return ()
    players = len(scores)
    teams = {team_of(s, players, pairs) for s in range(players) if counted[s] == best}
    return teams.pop() if len(teams) == 1 else ()


def finished_result(
    winner: int, hands: Sequence[Sequence[Card]], values: dict[str, int],
    scoring: str, pairs: bool,
) -> RoundResult:
    """The result when ``winner`` emptied the hand: it scores the cards of its opponents."""
    n = len(hands)
    totals = tuple(hand_total(h, values) for h in hands)
    team = team_of(winner, n, pairs)
    points = [0] * n
    if scoring != "none":
        points[winner] = sum(t for s, t in enumerate(totals) if s not in team)
    return RoundResult(winner, team, False, False, tuple(points),
                       tuple(tuple(h) for h in hands), totals)


def blocked_result(
    hands: Sequence[Sequence[Card]], values: dict[str, int], scoring: str,
    blocked_scoring: str, pairs: bool,
) -> RoundResult:
    """The result of a blocked deal: the lowest hand wins; a tie for lowest wins nothing."""
    n = len(hands)
    totals = tuple(hand_total(h, values) for h in hands)
    low = min(totals)
    lowest = [s for s in range(n) if totals[s] == low]
    teams = {team_of(s, n, pairs) for s in lowest}
    frozen_hands = tuple(tuple(h) for h in hands)
    if len(teams) > 1:
        return RoundResult(None, (), True, True, (0,) * n, frozen_hands, totals)
    winner = lowest[0]
    team = teams.pop()
    points = [0] * n
    if scoring != "none":
        others = [t for s, t in enumerate(totals) if s not in team]
        if blocked_scoring == "difference":
            points[winner] = sum(t - low for t in others)
        else:
            points[winner] = sum(others)
    return RoundResult(winner, team, True, False, tuple(points), frozen_hands, totals)


@dataclass(frozen=True, slots=True)
class CountedHand:
    """One hand counted in a deal's score: ``cards`` with each one's value, their ``total``, and
    what the hand ``gives`` the scorer (its total, less the lowest total in a blocked deal scored
    as a difference)."""

    seat: int
    cards: tuple[tuple[Card, int], ...]
    total: int
    gives: int


@dataclass(frozen=True, slots=True)
class DealScore:
    """How a finished deal was scored, card by card (the result screen and the terminal show it).

    ``scorer`` is the seat the deal's ``points`` went to (``None``: a tie, nobody scores);
    ``hands`` are the hands counted for it, in seat order: its opponents' (in pair play, not its
    partner's), or every hand on a tie. ``less`` is what each hand's total gave less (the lowest
    total, in a blocked deal scored as a difference; else 0). ``scored`` says whether the rules
    score points at all: the duel's hands are counted all the same, and score nothing. When they
    do, the hands' ``gives`` add up to ``points``.
    """

    scorer: int | None
    points: int
    hands: tuple[CountedHand, ...]
    less: int
    scored: bool


def deal_score(result: RoundResult, rules: Rules) -> DealScore:
    """How ``result`` was scored under ``rules``: each counted hand card by card (see `DealScore`)."""
    values = dict(rules.card_values)
    scored = rules.scoring != "none"

    def counted(seat: int, less: int) -> CountedHand:
        cards = tuple((card, card_value(card, values)) for card in result.hands[seat])
        return CountedHand(seat, cards, result.totals[seat], result.totals[seat] - less)

    if result.winner is None:  # a tie for the lowest hand: every hand shows, nobody scores
        return DealScore(None, 0, tuple(counted(s, 0) for s in range(len(result.hands))), 0, scored)
    winner = result.winner
    less = result.totals[winner] if result.blocked and rules.blocked_scoring == "difference" else 0
    hands = tuple(counted(s, less) for s in range(len(result.hands)) if s not in result.winners)
    return DealScore(winner, result.points[winner], hands, less, scored)


def experience_points(
    players: int, winners: Sequence[int], pairs: bool = False,
    abandoned: Sequence[int] = (),
) -> tuple[int, ...]:
    """The ``colors`` ranking's experience points for one finished game, per seat.

    The winner earns 10 × players (20, 30, 40); in pair play each winning partner
    earns 20; a loser still earns 10; a player who abandoned loses 20.
    """
    won = set(winners)
    out = []
    for seat in range(players):
        if seat in abandoned:
            out.append(-20)
        elif seat in won:
            out.append(20 if pairs else 10 * players)
        else:
            out.append(10)
    return tuple(out)
