"""What a seat may see, over seeded random games of every preset and player count: views never
show another hand or the draw pile and do not change when the hidden cards are shuffled; events
show drawn cards only to the drawing seat, and they are the cards that reach the hand."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter

from hypothesis import given, settings

from game.engine import (
    Card,
    CardsDrawn,
    Match,
    Play,
    PlayerView,
    Status,
)
from game.engine.events import (
    CardPlayed,
    Challenged,
    Denounced,
    Passed,
    PenaltyPending,
    PlayAgain,
    RoundStarted,
    TimedOut,
    TurnSkipped,
    TurnStarted,
)
from tests.seeded_games import CASES, SEEDS, assert_redacted, drive, new_game, per_case, placed_codes


# ---- views never leak ------------------------------------------------------------------------
def cards_in(value) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, (tuple, list)):  # a card of a hand taken at once (rather than a call each)
        found = []
        for v in value:
            if isinstance(v, Card):
                found.append(v)
            else:
                found += cards_in(v)
        return found
    if type(value) is Play:
        return [value.card]
    return []


LOOKED_AT = tuple(f.name for f in dataclasses.fields(PlayerView) if f.name not in ("rules", "result"))
"""The view's fields searched for hidden cards (listed once: the check runs at every position)."""


def assert_view_hides(match: Match, seat: int, view: PlayerView) -> None:
    r = match.round
    own = tuple(r.hands[seat])
    public = set(own) | set(r.discard)
    secret = [tuple(r.pile), tuple(reversed(r.pile))]
    secret += [tuple(h) for s, h in enumerate(r.hands) if s != seat]
    for name in LOOKED_AT:
        value = getattr(view, name)
        for card in cards_in(value):
            assert card in public, f"view of {seat} shows {card} in {name}"
        if isinstance(value, tuple) and len(value) >= 2 and value not in (own, tuple(r.discard)):
            assert value not in secret, f"view of {seat} field {name} is hidden cards"
    assert view.hand == own
    assert view.hand_counts == tuple(len(h) for h in r.hands)
    assert view.draw_count == len(r.pile)
    assert all(a.card in own for a in view.legal if type(a) is Play)
    if view.drawn_card is not None:  # the card this seat just drew, maybe played since
        assert seat == r.to_act and view.drawn_card in public


def shuffle_hidden(match: Match, seat: int, rng: random.Random, pickled: bytes) -> Match:
    """A copy of ``match`` (``pickled``: it pickled, once for all the seats that try it) where the
    cards ``seat`` cannot see are dealt anew, same counts."""
    twin = pickle.loads(pickled)
    r = twin.round
    others = [s for s in range(twin.players) if s != seat]
    hidden = [c for s in others for c in r.hands[s]] + list(r.pile)
    rng.shuffle(hidden)
    i = 0
    for s in others:
        n = len(r.hands[s])
        r.hands[s][:] = hidden[i:i + n]
        i += n
    r.pile[:] = hidden[i:]
    if seat != r.to_act and r.last_drawn in match.round.hands[r.to_act]:
        r.last_drawn = rng.choice(r.hands[r.to_act])  # which card was drawn is hidden too
    return twin


@per_case
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_views_never_show_other_hands_or_the_draw_pile(name, players, seed):
    match, rng = new_game(name, players, seed)
    for _step in drive(match, rng):
        if match.status != Status.PLAYING:
            continue
        for seat in range(players):
            assert_view_hides(match, seat, match.view(seat))


@per_case
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_views_are_unchanged_when_hidden_cards_are_shuffled(name, players, seed):
    match, rng = new_game(name, players, seed)
    shuffler = random.Random(seed)
    checked = 0
    for _step in drive(match, rng):
        if match.status != Status.PLAYING or shuffler.random() > 0.15:
            continue
        pickled = pickle.dumps(match)  # (seeing the views changes nothing of the match)
        for seat in range(players):
            view = match.view(seat)
            twin = shuffle_hidden(match, seat, shuffler, pickled)
            assert placed_codes(twin) == placed_codes(match)
            assert twin.view(seat) == view, f"the view of seat {seat} depends on hidden cards"
            checked += 1
    assert checked or match.results


# ---- events are redacted ---------------------------------------------------------------------
SEATED_EVENTS = (CardPlayed, Passed, TurnSkipped, PenaltyPending, TurnStarted, PlayAgain,
                 TimedOut, CardsDrawn)


@per_case
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS)
def test_events_show_drawn_cards_only_to_the_drawing_seat(name, players, seed):
    match, rng = new_game(name, players, seed)
    assert_redacted(match.start_events, players)
    for step in drive(match, rng):
        assert_redacted(step.events, players)
        for event in step.events:
            if isinstance(event, SEATED_EVENTS):
                assert 0 <= event.seat < players
            if isinstance(event, (Denounced, Challenged)):
                assert 0 <= event.seat < players and 0 <= event.by < players
            if type(event) is RoundStarted:
                assert 0 <= event.first < players and 0 <= event.dealer < players


MOVING = (CardsDrawn, CardPlayed)  # the events that move cards into or out of a hand


def test_drawn_cards_in_events_are_the_cards_that_reach_the_hand():
    for name, players in CASES:
        for seed in range(15):
            match, rng = new_game(name, players, seed)
            hands = [tuple(h) for h in match.round.hands]
            for step in drive(match, rng):
                now = [tuple(h) for h in match.round.hands]
                if step.action is not None:
                    for seat in range(players):
                        moved = [e for e in step.events if type(e) in MOVING and e.seat == seat]
                        if not moved and now[seat] == hands[seat]:
                            continue  # no card named and the same cards in the same order: nothing to count
                        expected = Counter(hands[seat])
                        for event in moved:
                            if type(event) is CardsDrawn:
                                expected.update(event.cards)
                            else:
                                expected.subtract([event.card])
                        assert all(n >= 0 for n in expected.values())
                        assert +expected == Counter(now[seat]), (name, players, seed, step.action, seat)
                hands = now
