"""The learnt judge of unfinished playouts (`game.ai.judge`) and the tool that fits it."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import judge as judge_module
from game.ai.hard import Hard
from game.ai.judge import FEATURES, Judge, judge_for, seat_features
from game.ai.judge_weights import WEIGHTS
from game.ai.players import player_for
from game.ai.playout import SHARPNESS, playout, reward
from game.engine import PRESETS, Round
from tools import fit_judge


def _unfinished(preset: str, players: int, seed: int, steps: int = 12) -> Round:
    """A round of ``preset`` played ``steps`` actions by the playout policy, still going."""
    rng = random.Random(seed)
    while True:
        r = Round(PRESETS[preset], players, random.Random(rng.random()), first=rng.randrange(players))
        playout(r, rng, horizon=steps)
        if not r.over:
            return r


def test_every_preset_has_a_judge_at_every_player_count_it_seats():
    for name, rules in PRESETS.items():
        assert set(WEIGHTS[name]) == set(range(rules.min_players, min(rules.max_players, 4) + 1)), name
        for players in range(rules.min_players, rules.max_players + 1):
            assert judge_for(rules, players) is not None


def test_a_player_count_not_learnt_takes_the_nearest_one_learnt():
    action = PRESETS["action"]
    assert judge_for(action, 6).weights == judge_for(action, 4).weights  # type: ignore[union-attr]


def test_rules_of_no_learnt_preset_are_judged_by_the_hand_sizes(monkeypatch):
    monkeypatch.setattr(judge_module, "_JUDGES", {})
    monkeypatch.setattr(judge_module, "WEIGHTS", {})
    assert judge_for(PRESETS["duel"], 2) is None


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000))
def test_a_judge_with_the_hand_size_weights_judges_as_the_hand_sizes(preset, seed):
    rules = PRESETS[preset]
    r = _unfinished(preset, min(rules.max_players, 3), seed)
    sizes = Judge(fit_judge.hand_sizes())
    for team in ((0,), (1,)):
        assert reward(r, team, None, sizes) == pytest.approx(reward(r, team, None, None))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000))
def test_the_learnt_judge_gives_each_unfinished_round_out_as_shares(preset, seed):
    rules = PRESETS[preset]
    players = min(rules.max_players, 4)
    r = _unfinished(preset, players, seed)
    judge = judge_for(rules, players)
    assert judge is not None
    shares = [reward(r, (seat,), None, judge) for seat in range(players)]
    assert all(0.0 < s < 1.0 for s in shares)
    assert sum(shares) == pytest.approx(1.0)


def test_the_features_read_the_hand_and_who_acts():
    r = _unfinished("colors", 4, 5)
    to_act = r.to_act
    after = (to_act + r.direction) % r.players
    mine = dict(zip(FEATURES, seat_features(r, to_act), strict=True))
    theirs = dict(zip(FEATURES, seat_features(r, after), strict=True))
    assert mine["to_act"] == 1.0 and theirs["to_act"] == 0.0
    assert mine["next"] == 0.0 and theirs["next"] == 1.0
    hand = r.hands[to_act]
    assert mine["cards"] == len(hand)
    assert mine["wilds"] == sum(1 for c in hand if r.table.effects[c].wild)
    assert mine["in_suit"] == sum(1 for c in hand if not r.table.effects[c].wild and c.suit == r.suit)


def test_the_learnt_weights_prize_wilds_and_a_last_card():
    # What every fit found (docs/ai.md): an eight or a wild in hand, and a last card, make a
    # seat likelier to win; more cards, less likely. A fit that lost them would be broken.
    for name, rows in WEIGHTS.items():
        for players, row in rows.items():
            weights = dict(zip(FEATURES, row, strict=True))
            assert weights["wilds"] > 0 and weights["one"] > 0 and weights["cards"] < 0, (name, players)


def test_the_learnt_judge_foretells_winners_better_than_the_hand_sizes():
    # On rounds other than those it was fitted on (another seed).
    held = fit_judge.positions("duel", 2, 150, 987)
    learnt = judge_for(PRESETS["duel"], 2)
    assert learnt is not None
    assert fit_judge.log_loss(learnt.weights, held) < fit_judge.log_loss(fit_judge.hand_sizes(), held)
    assert fit_judge.log_loss(learnt.weights, held) < math.log(2)


def test_the_fit_finds_the_weights_that_chose_the_winners():
    # Winners drawn from a known multinomial logit: the fit must recover its weights.
    truth = [-0.3, 0.8, 0.0, -0.2, 0.1, 0.2, 0.0, 0.0, 0.6, 0.05]
    rng = random.Random(3)
    data = []
    for _ in range(6000):
        rows = [tuple(float(rng.randint(0, 6)) if i != 2 else 0.0 for i in range(len(FEATURES)))
                for _ in range(3)]
        scores = [math.exp(sum(w * f for w, f in zip(truth, row, strict=True))) for row in rows]
        winner = rng.choices(range(3), weights=scores)[0]
        data.append((rows, winner))
    weights = fit_judge.fit(data)
    for found, true in zip(weights, truth, strict=True):
        assert found == pytest.approx(true, abs=0.08)
    assert fit_judge.log_loss(weights, data) <= fit_judge.log_loss(truth, data)


def test_the_fit_writes_weights_the_judge_reads(tmp_path, monkeypatch):
    target = tmp_path / "judge_weights.py"
    monkeypatch.setattr(fit_judge, "WEIGHTS_FILE", target)
    fit_judge.write({"duel": {2: [0.5] * len(FEATURES)}})
    space: dict[str, object] = {}
    exec(target.read_text(encoding="utf-8"), space)  # noqa: S102 - the file the tool just wrote
    written = space["WEIGHTS"]
    assert written["duel"][2] == (0.5,) * len(FEATURES)  # type: ignore[index]
    assert set(written) == set(WEIGHTS)  # the other presets' weights are kept  # type: ignore[arg-type]


def test_hard_judges_with_the_learnt_judge_and_hard_before_by_the_hand_sizes():
    hard, before = player_for("hard"), player_for("hard-before")
    assert isinstance(hard, Hard) and hard.judged
    assert isinstance(before, Hard) and not before.judged
    assert SHARPNESS == 0.7  # what hard-before's hand sizes mean (docs/ai.md)
