"""Seeded random games for the engine's property tests (`tests/test_properties.py`,
`tests/test_properties_hidden.py`): every preset and player count (`CASES`, `per_case`), a
game driven by a seeded ``random.Random`` among ``legal_actions()`` (play-biased in the long
``colors`` games), with an occasional out-of-turn Denounce and, where the rules have a timer, an
occasional TimeOut (`drive`)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator

import pytest
from hypothesis import strategies as st

from game.engine import (
    PRESETS,
    CardsDrawn,
    Match,
    Play,
    Rules,
    Status,
    TimeOut,
    deck_for,
)

CASES = [
    (name, players)
    for name, rules in PRESETS.items()
    for players in range(rules.min_players, rules.max_players + 1)
]
CASE_IDS = [f"{name}-{players}" for name, players in CASES]

ROUND_BOUND = 5_000  # actions one deal may take before we call it endless
ROUND_LIMIT = 200  # deals one match may take
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

per_case = pytest.mark.parametrize(("name", "players"), CASES, ids=CASE_IDS)


# ---- driving games ---------------------------------------------------------------------------
@dataclasses.dataclass
class Step:
    """One applied action (or a new deal, when ``action`` is None) and its events."""

    action: object
    seat: int | None
    events: list


def choose(match: Match, rng: random.Random) -> tuple[object, int | None]:
    """The policy: a random legal action; play-biased for colors; some out-of-turn denounces."""
    r = match.round
    if r.exposed and rng.random() < 0.3:
        others = [s for s in range(match.players) if s != r.to_act]
        seat = rng.choice(others)
        out_of_turn = match.legal_actions(seat)
        if out_of_turn:
            return rng.choice(out_of_turn), seat
    if match.rules.turn_seconds and rng.random() < 0.02:
        return TimeOut(), None
    legal = match.legal_actions()
    if match.rules.name == "colors" and rng.random() < 0.8:
        plays = [a for a in legal if type(a) is Play]
        if plays:
            return rng.choice(plays), None
    return rng.choice(legal), None


def drive(match: Match, rng: random.Random) -> Iterator[Step]:
    """Play ``match`` to its end, yielding after every action and every new deal."""
    actions_this_round = 0
    while match.status != Status.MATCH_OVER:
        if match.status == Status.ROUND_OVER:
            assert len(match.results) < ROUND_LIMIT, "the match does not end"
            actions_this_round = 0
            yield Step(None, None, match.next_round())
            continue
        assert match.status == Status.PLAYING
        action, seat = choose(match, rng)
        events = match.apply(action, seat)
        actions_this_round += 1
        assert actions_this_round <= ROUND_BOUND, (
            f"deal {match.round.number} still playing after {ROUND_BOUND} actions")
        yield Step(action, seat, events)


def new_game(name: str, players: int, seed: int) -> tuple[Match, random.Random]:
    """A seeded match and the seeded policy that plays it."""
    return Match(PRESETS[name], players, seed), random.Random(seed * 7919 + 1)


def copy(obj):
    return pickle.loads(pickle.dumps(obj))


def placed_codes(match: Match) -> list[str]:
    """The code of every card in a hand, the draw pile or the discard pile, sorted: the cards in
    play as a multiset (compared after every action of thousands of games: a sorted list compares
    several times faster than a `Counter`, and says the same)."""
    r = match.round
    codes = [c.code for hand in r.hands for c in hand]
    codes += [c.code for c in r.pile]
    codes += [c.code for c in r.discard]
    codes.sort()
    return codes


def deck_codes(rules: Rules) -> list[str]:
    """The code of every card of the rules' deck, sorted (see `placed_codes`)."""
    return sorted(c.code for c in deck_for(rules.deck))


def assert_redacted(events, players: int) -> None:
    for event in events:
        for seat in range(players):
            shown = event.for_seat(seat)
            if type(event) is CardsDrawn:
                assert event.cards is not None and len(event.cards) == event.count
                if seat == event.seat:
                    assert event.seen_by(seat) is True
                    assert shown == event
                else:
                    assert event.seen_by(seat) is False
                    assert shown.cards is None
                    assert (shown.seat, shown.count, shown.reason) == (
                        event.seat, event.count, event.reason)
                    assert shown.for_seat(seat) == shown
            else:
                assert event.seen_by(seat) is True
                assert shown == event
