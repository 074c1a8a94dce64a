"""Card values, hand totals and the colour deck's experience points."""

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import PRESETS, experience_points, parse_cards
from game.engine.effects import card_table
from game.engine.scoring import blocked_result, finished_result, hand_total, match_winners, standings


def values(name):
    return card_table(PRESETS[name]).values


def test_standard_values_eight_fifty_faces_ten_ace_one():
    assert hand_total(parse_cards("8S KH QD JC TS AS 2H 7C 9D"), values("classic")) == (
        50 + 10 * 4 + 1 + 2 + 7 + 9)


def test_points_action_cards_keep_their_usual_values():
    # a two 2, a jack or the queen of spades 10, an ace 1
    assert hand_total(parse_cards("2C JH QS AD"), values("points")) == 2 + 10 + 10 + 1


def test_colors_values_numbers_face_actions_twenty_wilds_fifty():
    cards = parse_cards("R7 B0 G+2 Yskip Rrev W W+4")
    assert hand_total(cards, values("colors")) == 7 + 0 + 20 * 3 + 50 * 2


def test_action_values_follow_the_source_table():
    cards = parse_cards("AH 2H 7H 8H 9H TH QH JH KH XJ")
    assert hand_total(cards, values("action")) == (
        10 + 20 + 70 + 5000 + 90 + 200 + 500 + 750 + 1250 + 2500)


def test_winner_scores_every_other_hand():
    hands = [[], parse_cards("8S 3H"), parse_cards("KD")]
    result = finished_result(0, hands, values("classic"), "hands", False)
    assert result.points == (63, 0, 0)
    assert result.winners == (0,)


def test_pair_winner_scores_only_the_opponents_hands():
    hands = [[], parse_cards("R9"), parse_cards("B5"), parse_cards("W")]
    result = finished_result(0, hands, values("colors"), "hands", True)
    assert result.winners == (0, 2)
    assert result.points == (59, 0, 0, 0)


def test_blocked_tie_for_lowest_across_teams_scores_nothing():
    hands = [parse_cards("3H"), parse_cards("2C AD"), parse_cards("KS")]
    result = blocked_result(hands, values("points"), "hands", "difference", False)
    assert result.tie and result.winner is None and result.points == (0, 0, 0)


def test_experience_points_ten_per_player_for_the_winner_ten_for_losers():
    assert experience_points(2, [0]) == (20, 10)
    assert experience_points(3, [1]) == (10, 30, 10)
    assert experience_points(4, [2]) == (10, 10, 40, 10)


def test_experience_points_in_pairs_and_for_abandoning():
    assert experience_points(4, [0, 2], pairs=True) == (20, 10, 20, 10)
    assert experience_points(3, [0], abandoned=[2]) == (30, 10, -20)


def test_match_goes_to_the_highest_score_at_the_target():
    assert match_winners((120, 199, 40, 0), 200, False) == ()
    assert match_winners((120, 230, 210, 0), 200, False) == (1,)


def test_match_tie_for_highest_at_the_target_plays_another_deal():
    assert match_winners((230, 230, 40, 0), 200, False) == ()


def test_match_in_pairs_partners_level_at_the_top_win_together():
    assert match_winners((510, 0, 510, 0), 500, True) == (0, 2)
    assert match_winners((510, 510, 0, 0), 500, True) == ()


def test_standings_add_partners_up_only_in_pair_play_with_pair_scores():
    assert standings((60, 10, 100, 5), True, True) == (160, 15, 160, 15)
    assert standings((60, 10, 100, 5), True, False) == (60, 10, 100, 5)
    assert standings((60, 10, 100), False, True) == (60, 10, 100)


def test_match_in_pairs_with_pair_scores_goes_to_the_pair_whose_total_reaches_the_target():
    assert match_winners((60, 0, 100, 0), 150, True, True) == (0, 2)
    assert match_winners((60, 0, 100, 0), 150, True, False) == ()
    assert match_winners((60, 100, 100, 60), 150, True, True) == ()  # level pairs: another deal


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.integers(0, 400), min_size=4, max_size=4), target=st.integers(1, 600))
def test_pooled_pair_winners_are_the_pair_alone_at_the_top_at_or_past_the_target(scores, target):
    pairs = {(0, 2): scores[0] + scores[2], (1, 3): scores[1] + scores[3]}
    leader = max(pairs, key=pairs.__getitem__)
    others = [total for team, total in pairs.items() if team != leader]
    alone = all(total < pairs[leader] for total in others)
    expected = leader if alone and pairs[leader] >= target else ()
    assert match_winners(scores, target, True, True) == expected
