"""Rebuilding a round from a view plus the hidden cards gives back the same game."""

import pickle
import random

import pytest

from game.engine import PRESETS, Match
from game.engine.determinize import round_from_view, unseen_cards
from tests.support import random_moves

CASES = [(name, n) for name, rules in PRESETS.items() for n in (rules.min_players, rules.max_players)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_view_and_the_true_hidden_cards_rebuild_the_real_round(name, players):
    rng = random.Random(7)
    for seed in range(12):
        match = Match(PRESETS[name], players, seed)
        random_moves(match, rng, rng.randrange(0, 60))
        if match.status != "playing":
            continue
        r = match.round
        seat = rng.randrange(players)
        view = match.view(seat)
        rebuilt = round_from_view(view, r.hands, r.pile, random.Random(0), bluff_by=r.bluff_by)
        rebuilt.rng = r.rng
        assert rebuilt == r
        assert rebuilt.legal_actions() == r.legal_actions()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_unseen_cards_are_exactly_the_other_hands_and_the_pile(name, players):
    match = Match(PRESETS[name], players, 3)
    for _ in range(25):
        if match.status != "playing":
            break
        match.apply(random.Random(len(match.round.discard)).choice(match.legal_actions()))
    view = match.view(0)
    hidden = sorted(c.code for s, h in enumerate(match.round.hands) if s != 0 for c in h)
    hidden += [c.code for c in match.round.pile]
    assert sorted(c.code for c in unseen_cards(view)) == sorted(hidden)


def test_a_clone_plays_on_without_touching_the_original():
    match = Match(PRESETS["colors"], 3, 4)
    before = pickle.loads(pickle.dumps(match.round))
    clone = match.round.clone(random.Random(1))
    rng = random.Random(2)
    while not clone.over:
        clone.apply(rng.choice(clone.legal_actions()), events=False)
    assert match.round == before
    assert clone.over and not match.round.over
