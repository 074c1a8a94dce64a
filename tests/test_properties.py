"""Invariants of the engine over seeded random games, for every preset and player count: cards
are conserved, only legal actions apply, every game ends, pickling and seeds reproduce a game,
turns stay in seats and scores never fall.

The games are driven as `tests/seeded_games.py` says; what a seat may see is checked in
`tests/test_properties_hidden.py`. Hypothesis picks the seeds; the bulk runs (thousands of
games) use plain loops over seeds to stay fast.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import (
    PRESETS,
    Accept,
    CallLastCard,
    Challenge,
    ChooseSuit,
    Denounce,
    Draw,
    EndTurn,
    IllegalAction,
    Match,
    Pass,
    Play,
    Round,
    Status,
    TimeOut,
    deck_for,
)
from tests.seeded_games import (
    CASES,
    SEEDS,
    assert_redacted,
    copy,
    deck_codes,
    drive,
    new_game,
    per_case,
    placed_codes,
)


# ---- cards are conserved ---------------------------------------------------------------------
@per_case
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS)
def test_every_card_is_in_exactly_one_place_after_every_action(name, players, seed):
    match, rng = new_game(name, players, seed)
    full = deck_codes(match.rules)
    assert placed_codes(match) == full
    for step in drive(match, rng):
        assert placed_codes(match) == full, f"after {step.action} by {step.seat}"


def test_the_seeded_games_are_thousands_over_every_preset():
    assert sorted({name for name, _ in CASES}) == sorted(PRESETS)
    assert 100 * len(CASES) >= 1800


# One test per preset (its player counts, 100 seeds each), not one of all 1,800 games: a single
# test of some 17 s could be the last one a pytest worker runs while the other has nothing left.
@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_thousands_of_seeded_games_conserve_cards_keep_turns_in_seats_and_end(preset_name):
    games = 0
    cases = [(name, players) for name, players in CASES if name == preset_name]
    for name, players in cases:
        full = deck_codes(PRESETS[name])
        hand_scoring = PRESETS[name].scoring == "hands"
        for seed in range(100):
            match, rng = new_game(name, players, seed)
            scores = list(match.scores)
            for step in drive(match, rng):
                assert placed_codes(match) == full, (name, players, seed, step.action)
                if match.status == Status.PLAYING:
                    assert 0 <= match.to_act < players, (name, players, seed)
                if hand_scoring:
                    assert all(a >= b for a, b in zip(match.scores, scores, strict=True))
                    scores = list(match.scores)
            assert match.status == Status.MATCH_OVER
            games += 1
    assert games == 100 * len(cases) > 0


HOUSE_RULES = [
    ("duel", 2, {"reshuffle": False}),
    ("classic", 4, {"reshuffle": False, "draw_when_playable": True}),
    ("points", 3, {"twos_draw_two": True, "queen_spades_draw_five": True, "jacks_skip": True,
                   "aces_reverse": True, "draw_until_playable": True, "stacking": True}),
    ("points", 5, {"reshuffle": False, "aces_reverse": True}),
    ("colors", 4, {"pairs": True, "turn_seconds": 10}),
    ("colors", 3, {"reshuffle": False, "challenge_wild_four": False, "stacking": False}),
    ("action", 4, {"reshuffle": False, "twin_card": False, "runs": False}),
    ("action", 3, {"turn_seconds": 0, "max_draws": 0, "draw_until_playable": True}),
]


@pytest.mark.parametrize(("name", "players", "options"), HOUSE_RULES,
                         ids=[f"{n}-{p}-{'-'.join(o)}" for n, p, o in HOUSE_RULES])
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_house_rules_keep_cards_in_place_turns_in_seats_and_games_ending(
        name, players, options, seed):
    rules = PRESETS[name].with_options(options)
    match = Match(rules, players, seed)
    rng = random.Random(seed)
    full = deck_codes(rules)
    scores = list(match.scores)
    for step in drive(match, rng):
        assert placed_codes(match) == full, f"after {step.action} by {step.seat}"
        assert_redacted(step.events, players)
        if match.status == Status.PLAYING:
            assert 0 <= match.to_act < players
        assert all(a >= b for a, b in zip(match.scores, scores, strict=True))
        scores = list(match.scores)
    assert match.status == Status.MATCH_OVER


@pytest.mark.parametrize("pooled", [True, False], ids=["pair_scores", "own_scores"])
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_a_pair_match_ends_the_deal_a_pair_leads_at_the_target(pooled, seed):
    rules = PRESETS["colors"].with_options({"pairs": True, "target": 150, "pair_scores": pooled})
    match = Match(rules, 4, seed)
    rng = random.Random(seed)
    for _ in drive(match, rng):
        if match.status == Status.PLAYING:
            continue
        counted = [match.scores[s] + match.scores[(s + 2) % 4] if pooled else match.scores[s]
                   for s in range(4)]
        best = max(counted)
        leaders = {s % 2 for s in range(4) if counted[s] == best}
        if best >= 150 and len(leaders) == 1:
            assert match.status == Status.MATCH_OVER
            assert set(match.winners) == {s for s in range(4) if s % 2 in leaders}
        else:
            assert match.status == Status.ROUND_OVER and match.winners == ()
    assert match.status == Status.MATCH_OVER


# ---- only legal actions apply ----------------------------------------------------------------
DECK_CARDS = {kind: sorted(set(deck_for(kind)), key=lambda c: c.code)
              for kind in ("standard", "double", "colors")}


def illegal_choices(match: Match) -> list[tuple[object, int | None]]:
    """Actions (with the seat that tries them) that are not in that seat's legal actions."""
    r = match.round
    rules = match.rules
    seat = r.to_act
    legal = set(match.legal_actions())
    out: list[tuple[object, int | None]] = []
    hand = set(r.hands[seat])
    out += [(Play(c), None) for c in hand if Play(c) not in legal]
    absent = next((c for c in DECK_CARDS[rules.deck] if c not in hand), None)
    if absent is not None:
        out.append((Play(absent), None))
    simple = [Draw(), Pass(), EndTurn(), CallLastCard(), Challenge(), Accept()]
    out += [(a, None) for a in simple if a not in legal]
    suits = "SHDC" if rules.deck != "colors" else "RBGY"
    wrong = "RBGY" if rules.deck != "colors" else "SHDC"
    out += [(ChooseSuit(s), None) for s in suits if ChooseSuit(s) not in legal]
    out.append((ChooseSuit(wrong[0]), None))
    out += [(Denounce(s), None) for s in range(match.players) if Denounce(s) not in legal]
    for other in range(match.players):
        if other == seat:
            continue
        theirs = set(match.legal_actions(other))
        out += [(Denounce(s), other) for s in range(match.players) if Denounce(s) not in theirs]
        out.append((Draw(), other))
        out += [(Play(c), other) for c in set(r.hands[other])][:1]
    if not rules.turn_seconds:
        out.append((TimeOut(), None))
    return out


PROBED = 0.35
"""The share of a game's positions where illegal actions are tried (each try snapshots the whole
match to compare: at every position, the long Points games took most of the engine's tests' time;
more games at a share of their positions see as many kinds of position)."""


@per_case
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_only_legal_actions_apply(name, players, seed):
    match, rng = new_game(name, players, seed)
    probe = random.Random(seed)
    for _step in drive(match, rng):
        if match.status != Status.PLAYING or probe.random() > PROBED:
            continue
        before = pickle.dumps(match)
        snapshot = pickle.loads(before)
        candidates = illegal_choices(match)
        assert candidates
        for action, seat in probe.sample(candidates, min(3, len(candidates))):
            with pytest.raises(IllegalAction) as refused:
                match.apply(action, seat)
            assert str(refused.value), f"{action} by {seat} refused without a reason"
            assert match == snapshot, f"refused {action} by {seat} changed the match"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_that_is_not_at_the_table_cannot_denounce(players):
    tried = 0
    for seed in range(30):
        match, rng = new_game("colors", players, seed)
        for _step in drive(match, rng):
            if match.status != Status.PLAYING or not match.round.exposed:
                continue
            target = min(match.round.exposed)
            for stranger in (players, -1):
                snapshot = copy(match)
                try:
                    match.apply(Denounce(target), stranger)
                except IllegalAction:
                    pass
                else:
                    pytest.fail(f"seat {stranger} denounced seat {target} at a {players}-seat "
                                f"table (seed {seed})")
                assert match == snapshot
                assert Denounce(target) not in match.legal_actions(stranger)
                tried += 1
    assert tried > 0


COLOR_CASES = [(n, p) for n, p in CASES if PRESETS[n].last_card_call]


@pytest.mark.parametrize(("name", "players"), COLOR_CASES,
                         ids=[f"{n}-{p}" for n, p in COLOR_CASES])
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_card_call_is_legal_only_with_two_cards_and_a_card_to_play(name, players, seed):
    match, rng = new_game(name, players, seed)
    for _step in drive(match, rng):
        legal = match.legal_actions()
        if CallLastCard() in legal:
            assert len(match.round.hands[match.to_act]) == 2
            assert any(type(a) is Play for a in legal), f"card offered with {legal}"


# ---- every game ends -------------------------------------------------------------------------
@per_case
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_every_game_ends_with_a_result(name, players, seed):
    match, rng = new_game(name, players, seed)
    for _step in drive(match, rng):
        pass
    assert match.status == Status.MATCH_OVER
    assert match.legal_actions() == ()
    assert match.to_act is None
    assert match.results and match.round.result is match.results[-1]
    last = match.results[-1]
    assert last.tie or last.winner in last.winners
    assert all(0 <= s < players for s in match.winners)
    with pytest.raises(IllegalAction):
        match.apply(Draw())


# ---- pickling --------------------------------------------------------------------------------
@per_case
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_pickling_round_trips_match_round_and_views(name, players, seed):
    match, rng = new_game(name, players, seed)
    sampler = random.Random(seed)
    assert copy(match) == match
    for _step in drive(match, rng):
        if sampler.random() > 0.1:
            continue
        assert copy(match) == match
        round_copy = copy(match.round)
        assert isinstance(round_copy, Round) and round_copy == match.round
        assert round_copy.legal_actions() == match.round.legal_actions()
        for seat in range(players):
            view = match.view(seat)
            assert copy(view) == view
    assert copy(match) == match
    assert copy(match.round) == match.round


def transcript(match: Match, rng: random.Random) -> list[tuple]:
    out = []
    for step in drive(match, rng):
        legal = match.legal_actions() if match.status == Status.PLAYING else ()
        out.append((step.action, step.seat, step.events, legal))
    return out


@per_case
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, cut=st.floats(min_value=0.0, max_value=1.0))
def test_an_unpickled_match_continues_identically(name, players, seed, cut):
    match, rng = new_game(name, players, seed)
    length = sum(1 for _ in drive(*new_game(name, players, seed)))
    stop = int(cut * length)
    for i, _step in enumerate(drive(match, rng)):
        if i + 1 >= stop:
            break
    saved, policy_state = pickle.dumps(match), rng.getstate()
    resumed = pickle.loads(saved)
    assert resumed == match
    assert resumed.round.rng is resumed.rng
    assert resumed.legal_actions() == match.legal_actions()
    for seat in range(players):
        assert resumed.legal_actions(seat) == match.legal_actions(seat)
        assert resumed.view(seat) == match.view(seat)
    rest = transcript(match, rng)
    twin_rng = random.Random()
    twin_rng.setstate(policy_state)
    assert transcript(resumed, twin_rng) == rest
    assert resumed == match


# ---- reproducibility -------------------------------------------------------------------------
@per_case
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_same_rules_players_and_seed_give_identical_games(name, players, seed):
    first, rng1 = new_game(name, players, seed)
    second, rng2 = new_game(name, players, seed)
    assert first == second
    assert first.start_events == second.start_events
    assert transcript(first, rng1) == transcript(second, rng2)
    assert first == second
    assert first.results == second.results and first.scores == second.scores


def test_different_seeds_deal_different_games():
    for name, players in CASES:
        deals = {
            tuple(tuple(c.code for c in h) for h in Match(PRESETS[name], players, seed).round.hands)
            for seed in range(5)
        }
        assert len(deals) == 5, (name, players)


# ---- turns and scores ------------------------------------------------------------------------
@per_case
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS)
def test_turn_order_stays_within_seats(name, players, seed):
    match, rng = new_game(name, players, seed)
    assert 0 <= match.to_act < players
    for _step in drive(match, rng):
        if match.status == Status.PLAYING:
            assert 0 <= match.to_act < players
            assert 0 <= match.round.to_act < players
            assert match.round.direction in (1, -1)
            for seat in range(players):
                assert match.view(seat).to_act == match.to_act
        else:
            assert match.to_act is None


HAND_SCORED = [(n, p) for n, p in CASES if PRESETS[n].scoring == "hands"]


@pytest.mark.parametrize(("name", "players"), HAND_SCORED,
                         ids=[f"{n}-{p}" for n, p in HAND_SCORED])
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS)
def test_scores_never_decrease_when_hands_are_scored(name, players, seed):
    match, rng = new_game(name, players, seed)
    scores = list(match.scores)
    assert scores == [0] * players
    for _step in drive(match, rng):
        assert all(now >= before for now, before in zip(match.scores, scores, strict=True)), (
            f"scores went from {scores} to {match.scores}")
        scores = list(match.scores)
    assert sum(match.scores) == sum(sum(r.points) for r in match.results)
