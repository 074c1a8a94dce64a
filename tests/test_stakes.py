"""A deal in a match to a target is worth the chance of winning the match after it."""

import random

import pytest

from game.ai.playout import playout, reward
from game.ai.stakes import MatchOdds, PairOdds, Stakes, deal_gains, match_odds, stakes_for
from game.engine import PRESETS
from game.engine.actions import parse_action
from game.engine.scoring import hand_total
from tests.support import make_match

GAINS = [20, 30, 40, 45, 50, 60, 80]


def test_match_odds_share_the_match_and_favour_the_seat_nearer_the_target():
    odds = MatchOdds(4, 200, GAINS)
    even = odds.chances((0, 0, 0, 0))
    assert sum(even) == pytest.approx(1.0)
    assert all(0.2 < c < 0.3 for c in even)
    ahead = odds.chances((150, 60, 60, 0))
    assert sum(ahead) == pytest.approx(1.0)
    assert ahead[0] > ahead[1] > ahead[3] and ahead[0] > 0.5


def test_a_score_at_the_target_has_won_the_match_unless_the_lead_is_tied():
    odds = MatchOdds(4, 200, GAINS)
    assert odds.chances((205, 190, 0, 0)) == (1.0, 0.0, 0.0, 0.0)
    tied = odds.chances((205, 205, 0, 0))  # a tie for highest plays another deal
    assert 0.4 < tied[0] < 0.6 and 0.4 < tied[1] < 0.6 and tied[2] < 0.05
    pairs = MatchOdds(4, 200, GAINS, pairs=True)
    assert pairs.winners((210, 0, 210, 0)) == (0, 2)  # partners tied at the top: their team won


def test_a_deal_won_past_the_target_is_worth_the_match_and_a_loss_then_nothing():
    m = make_match("points", ["3H", "KS", "2C", "9D"], "7H", "2D 4D 6D 9C 5S 5C")
    r = m.round.clone(random.Random(0))
    r.apply(parse_action("play 3H"), events=False)  # seat 0 goes out: 10 + 2 + 9 points
    assert r.over and r.result is not None and r.result.points == (21, 0, 0, 0)
    odds = MatchOdds(4, 200, GAINS)
    near = (180, 0, 150, 0)
    assert reward(r, (0,), Stakes(odds, near, (0,))) == 1.0
    assert reward(r, (2,), Stakes(odds, near, (2,))) == 0.0
    # The same loss, when the winner was far from the target, still leaves a chance.
    far = (0, 0, 150, 0)
    assert reward(r, (2,), Stakes(odds, far, (2,))) > 0.4


def test_a_lost_deal_is_worth_more_the_fewer_points_it_gives_a_rival():
    stakes = Stakes(MatchOdds(4, 200, GAINS), (120, 150, 0, 0), (1,))
    assert stakes.after((10, 0, 0, 0)) > stakes.after((40, 0, 0, 0)) > stakes.after((80, 0, 0, 0)) == 0.0


def test_an_unfinished_deal_is_judged_by_who_is_likely_to_go_out():
    m = make_match("points", ["3H 4H 5H 6H 7C", "KS QS JS TS 9S", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"],
                   "7H", "2S 3S 4S 5S 6S 7S 8D 9D TD JD QD KD AD AS AC")
    r = m.round.clone(random.Random(0))
    playout(r, random.Random(0), horizon=3)
    assert not r.over
    odds = MatchOdds(4, 200, GAINS)
    shares = [reward(r, (s,), Stakes(odds, (0, 0, 0, 0), (s,))) for s in range(4)]
    assert sum(shares) == pytest.approx(1.0, abs=1e-9)
    # A seat sure to go out scores the other hands as they are.
    values = r.table.values
    others = sum(hand_total(h, values) for h in r.hands[1:])
    certain = Stakes(odds, (0, 0, 0, 0), (0,)).unfinished(r, [1.0, 0.0, 0.0, 0.0])
    assert certain == odds.chances((others, 0, 0, 0))[0]


def test_the_gains_of_a_deal_are_learnt_from_deals_played_out_at_the_table():
    rules = PRESETS["points"]
    gains = deal_gains(rules, 4, deals=40)
    assert gains == deal_gains(rules, 4, deals=40)  # seeded: the same table, the same odds
    assert len(gains) >= 30 and all(g > 0 for g in gains)
    assert 20 < sum(gains) / len(gains) < 100  # three hands of a few cards each
    assert match_odds(rules, 4) is match_odds(rules, 4)
    assert match_odds(rules, 4).target == 200


def test_only_a_match_to_a_target_has_stakes():
    points = make_match("points", ["3H KS", "KD QD", "2C 4C", "9S 9D"], "7H", "2D 4D 6D 9C 5S 5C")
    classic = make_match("classic", ["3H KS", "KD QD", "2C 4C", "9S 9D"], "7H", "2D 4D 6D 9C 5S 5C")
    assert stakes_for(points.view(0), (0,)) is not None
    assert stakes_for(classic.view(0), (0,)) is None


def test_the_odds_after_one_seat_scored_match_the_odds_worked_out_afresh():
    quick, fresh = MatchOdds(4, 200, GAINS), MatchOdds(4, 200, GAINS)
    before = (120, 150, 30, 0)
    for seat in range(4):
        for gain in (5, 30, 60, 100):
            after = tuple(s + (gain if k == seat else 0) for k, s in enumerate(before))
            assert quick.chances(after, before) == fresh.chances(after)


def test_with_pair_scores_the_odds_follow_the_pairs_totals():
    odds = PairOdds(300, GAINS)
    even = odds.chances((0, 0, 0, 0))
    assert sum(even) == pytest.approx(1.0) and even[0] == even[2] and even[1] == even[3]
    assert 0.2 < even[0] < 0.3 and 0.2 < even[1] < 0.3
    # Neither partner of pair 0-2 leads alone, but their total of 200 does.
    ahead = odds.chances((100, 150, 100, 0))
    assert sum(ahead) == pytest.approx(1.0)
    assert ahead[0] == ahead[2] > ahead[1] == ahead[3]
    assert odds.chances((160, 0, 150, 0)) == (0.5, 0.0, 0.5, 0.0)  # 310: that pair has won
    assert odds.winners((160, 0, 150, 0)) == (0, 2)


def test_a_pair_table_with_pair_scores_reads_the_pair_race():
    rules = PRESETS["colors"].with_options({"pairs": True, "target": 300})
    assert isinstance(match_odds(rules, 4), PairOdds)
    alone = rules.with_options({"pair_scores": False})
    assert isinstance(match_odds(alone, 4), MatchOdds)
