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


# ---- the deal's score, card by card ------------------------------------------------------------
def test_the_deal_score_counts_each_opponents_cards_with_their_values():
    from game.engine import deal_score

    hands = [[], parse_cards("8S KH 3C"), parse_cards("KD")]
    result = finished_result(0, hands, values("classic"), "hands", False)
    score = deal_score(result, PRESETS["classic"])
    assert (score.scorer, score.points, score.less, score.scored) == (0, 73, 0, True)
    assert [(h.seat, [(c.code, v) for c, v in h.cards], h.total, h.gives) for h in score.hands] == [
        (1, [("8S", 50), ("KH", 10), ("3C", 3)], 63, 63), (2, [("KD", 10)], 10, 10)]


def test_the_deal_score_uses_each_decks_values():
    from game.engine import deal_score

    for name, cards, expected in (("colors", "R7 G+2 W+4", [7, 20, 50]),
                                  ("action", "8H QH XJ AH", [5000, 500, 2500, 10])):
        result = finished_result(1, [parse_cards(cards), []], values(name), "hands", False)
        (hand,) = deal_score(result, PRESETS[name]).hands
        assert [v for _, v in hand.cards] == expected and hand.total == sum(expected)


def test_in_pairs_the_deal_score_counts_the_two_opponents_not_the_partner():
    from game.engine import deal_score

    rules = PRESETS["colors"].with_options({"pairs": True})
    hands = [parse_cards("B5"), parse_cards("R9"), [], parse_cards("W")]
    score = deal_score(finished_result(2, hands, values("colors"), "hands", True), rules)
    assert score.scorer == 2 and score.points == 59
    assert [h.seat for h in score.hands] == [1, 3] and sum(h.gives for h in score.hands) == 59


def test_a_blocked_deal_scored_as_a_difference_counts_each_hand_less_the_lowest():
    from game.engine import deal_score

    hands = [parse_cards("3H"), parse_cards("KC 4D"), parse_cards("8S")]
    result = blocked_result(hands, values("points"), "hands", "difference", False)
    score = deal_score(result, PRESETS["points"])
    assert score.less == 3 and score.points == (14 - 3) + (50 - 3)
    assert [(h.seat, h.total, h.gives) for h in score.hands] == [(1, 14, 11), (2, 50, 47)]


def test_a_tie_shows_every_hand_and_scores_nothing_and_the_duel_counts_but_scores_nothing():
    from game.engine import deal_score

    hands = [parse_cards("3H"), parse_cards("2C AD")]
    tie = deal_score(blocked_result(hands, values("duel"), "none", "hands", False), PRESETS["duel"])
    assert tie.scorer is None and tie.points == 0 and [h.seat for h in tie.hands] == [0, 1]
    duel = deal_score(finished_result(0, [[], parse_cards("8S 2C")], values("duel"), "none", False),
                      PRESETS["duel"])
    assert not duel.scored and duel.points == 0 and duel.hands[0].total == 52


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["duel", "classic", "points", "colors", "action"]), st.integers(0, 10_000))
def test_every_finished_deal_in_every_preset_adds_up_to_the_points_scored(name, seed):
    import random

    from game.engine import Match

    rules = PRESETS[name]
    players = 4 if rules.max_players >= 4 else 2
    match = Match(rules.with_options({"pairs": True}) if name == "colors" and seed % 2 else rules,
                  players, seed)
    chooser = random.Random(seed)
    for _ in range(3000):
        if match.round.over:
            break
        match.apply(chooser.choice(match.legal_actions()))
    if not match.round.over:
        return
    view = match.view(0)
    score = view.deal_score
    assert score is not None and score.scorer == view.result.winner
    if score.scorer is not None and score.scored:
        assert sum(h.gives for h in score.hands) == score.points == view.result.points[score.scorer]
    for hand in score.hands:
        assert tuple(c for c, _ in hand.cards) == view.result.hands[hand.seat]
        assert sum(v for _, v in hand.cards) == hand.total
