"""Helpers for rule tests: build a match from the hands you want, not a shuffled deck."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from game.engine import Card, Match, parse_action, parse_cards, preset


def stacked_deck(hands: Sequence[str], start: str, pile: str = "", first: int = 0) -> list[Card]:
    """The deck (top first) that deals ``hands`` (one string of codes per seat).

    Cards are dealt one at a time round the table from ``first``; then ``start`` is
    turned, and ``pile`` (top first) is the draw pile. All hands must be the same size.
    """
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    if any(len(h) != size for h in parsed):
        raise ValueError("all hands must have the same number of cards")
    n = len(parsed)
    deck: list[Card] = []
    for i in range(size):
        for k in range(n):
            deck.append(parsed[(first + k) % n][i])
    return deck + parse_cards(start) + parse_cards(pile)


def make_match(
    name: str, hands: Sequence[str], start: str, pile: str = "", *,
    options: dict[str, Any] | None = None, first: int = 0, seed: int = 0,
) -> Match:
    """A match of preset ``name`` dealt exactly ``hands``, ``start`` and ``pile``.

    ``hand_size`` is set from the hands unless ``options`` gives it.
    """
    size = len(parse_cards(hands[0]))
    opts = {"hand_size": size}
    opts.update(options or {})
    rules = preset(name, opts)
    return Match(rules, len(hands), seed, deck=stacked_deck(hands, start, pile, first),
                 first=first)


def act(match: Match, *steps: str) -> list[Any]:
    """Apply actions written in the replay notation (``"play 7H"``, ``"1: denounce 0"``)."""
    events: list[Any] = []
    for step in steps:
        seat = None
        if ":" in step:
            head, _, step = step.partition(":")
            seat = int(head)
        events += match.apply(parse_action(step), seat)
    return events


def legal(match: Match, seat: int | None = None) -> set[str]:
    """The legal actions, as notation strings."""
    return {str(a) for a in match.legal_actions(seat)}


def hand(match: Match, seat: int) -> list[str]:
    """A seat's hand as codes."""
    return [c.code for c in match.round.hands[seat]]


def codes(cards: Any) -> list[str]:
    """Cards as their codes."""
    return [c.code for c in cards]


def events_of(events: list[Any], kind: type) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if type(e) is kind]


def random_moves(match: Match, rng: Any, moves: int) -> None:
    """Play up to ``moves`` random legal actions of ``match`` while it is being played: a
    position somewhere in a game, for the tests that look at a decision from it."""
    for _ in range(moves):
        if match.status != "playing":
            return
        match.apply(rng.choice(match.legal_actions()))


def mid_game(rules: Any, rng: Any, deals: int = 6) -> Iterator[Match]:
    """Matches of ``rules`` (its fewest players; seeds 0 to ``deals`` - 1), each after up to 29
    random legal actions, that are still being played: the positions the tests that look at a
    computer's decision (does it peek?) start from. ``rng`` draws the moves."""
    for seed in range(deals):
        match = Match(rules, rules.min_players, seed)
        random_moves(match, rng, rng.randrange(0, 30))
        if match.status == "playing":
            yield match
