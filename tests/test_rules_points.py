"""docs/rules.md, `points`: deal after deal to 50 points per player, optional action cards."""

import pytest

from game.engine import IllegalAction, Match, RulesError, parse_cards, preset
from game.engine.events import (
    CardPlayed,
    CardsDrawn,
    DirectionChanged,
    MatchEnded,
    PenaltyPending,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
)
from tests.support import act, codes, hand, legal, make_match, stacked_deck

ACTIONS = {"twos_draw_two": True, "queen_spades_draw_five": True, "jacks_skip": True,
           "aces_reverse": True}


def card(code):
    return parse_cards(code)[0]


def kinds(events):
    return [type(e) for e in events]


def quick_deal(scores, losers=("KC",)):
    """A points match whose seat 0 goes out with its first card, scores set beforehand."""
    hands = ["5H", *losers]
    m = make_match("points", hands, "4H")
    m.scores = list(scores)
    return m


# ---- seating and dealing -----------------------------------------------------------------

@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
def test_points_deals_seven_at_two_and_five_at_three_or_more(players, size):
    m = Match(preset("points"), players, seed=2)
    assert [len(h) for h in m.round.hands] == [size] * players
    assert len(m.round.pile) == 52 - size * players - 1


@pytest.mark.parametrize("players", [1, 8])
def test_points_seats_two_to_seven_players(players):
    with pytest.raises(RulesError, match="seat 2 to 7 players"):
        Match(preset("points"), players, seed=1)


# ---- dealer and first player -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_dealer_is_the_last_seat_so_seat_zero_starts(players):
    m = Match(preset("points"), players, seed=4)
    assert (m.round.dealer, m.round.first, m.round.to_act) == (players - 1, 0, 0)
    started = [e for e in m.start_events if isinstance(e, RoundStarted)]
    assert started == [RoundStarted(1, players - 1, 0, 1, 5 if players > 2 else 7)]


def test_dealer_rotates_and_seat_after_dealer_starts():
    m = make_match("points", ["5H", "KC", "QC"], "4H")
    act(m, "play 5H")
    assert m.status == "round_over"
    events = m.next_round(deck=stacked_deck(["KC", "5H", "QC"], "4H", first=1))
    assert events[0] == RoundStarted(2, 0, 1, 1, 1)
    assert (m.round.dealer, m.round.first, m.round.to_act) == (0, 1, 1)
    act(m, "play 5H")
    events = m.next_round(deck=stacked_deck(["KC", "QC", "5H"], "4H", first=2))
    assert events[0] == RoundStarted(3, 1, 2, 1, 1)
    assert (m.round.dealer, m.round.first, m.round.to_act) == (1, 2, 2)
    act(m, "play 5H")
    m.next_round()
    assert (m.round.dealer, m.round.first, m.round.to_act) == (2, 0, 0)


# ---- scoring -----------------------------------------------------------------------------

def test_points_winner_scores_the_cards_left_in_all_other_hands():
    m = make_match("points", ["5H 6H", "9H 8C", "JH AS", "2H TC"], "4H")
    act(m, "play 5H", "play 9H", "play JH", "play 2H", "play 6H")
    result = m.round.result
    assert result.totals == (0, 50, 1, 10)
    assert result.points == (61, 0, 0, 0)
    assert m.scores == [61, 0, 0, 0]


def test_points_face_cards_and_tens_count_10_others_face_value():
    m = make_match("points", ["5H 6H", "9H KD", "JH QC", "2H 7S"], "4H")
    act(m, "play 5H", "play 9H", "play JH", "play 2H", "play 6H")
    assert m.round.result.totals == (0, 10, 10, 7)
    assert m.scores == [27, 0, 0, 0]


def test_points_scores_add_up_over_deals():
    m = make_match("points", ["5H", "KC"], "4H")
    act(m, "play 5H")
    m.next_round(deck=stacked_deck(["9C", "5H"], "4H", first=1))
    act(m, "play 5H")
    assert m.scores == [10, 9]


def test_blocked_deal_scores_the_differences():
    m = make_match("points", ["KC 2S", "3C 2D", "9S TC"], "4H")
    act(m, "pass", "pass", "pass")
    result = m.round.result
    assert result.blocked
    assert result.totals == (12, 5, 19)
    assert result.winner == 1
    assert result.points == (0, (12 - 5) + (19 - 5), 0)
    assert m.scores == [0, 21, 0]


def test_blocked_deal_tie_for_lowest_scores_nothing():
    m = make_match("points", ["KC 2S", "3C 2D", "3S 2C"], "4H")
    act(m, "pass", "pass", "pass")
    result = m.round.result
    assert result.totals == (12, 5, 5)
    assert (result.tie, result.winner) == (True, None)
    assert result.points == (0, 0, 0)
    assert m.scores == [0, 0, 0]


# ---- the end of the game -----------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_points_target_is_50_per_player(players):
    assert Match(preset("points"), players, seed=0).target == 50 * players


def test_score_reaching_the_target_ends_the_game():
    m = quick_deal([90, 40])
    events = act(m, "play 5H")
    assert m.scores == [100, 40]
    assert m.status == "match_over"
    assert m.winners == (0,)
    assert events[-1] == MatchEnded((0,), (100, 40))
    with pytest.raises(IllegalAction, match="The match is over"):
        m.next_round()


def test_score_below_the_target_deals_again():
    m = quick_deal([89, 40])
    events = act(m, "play 5H")
    assert m.scores == [99, 40]
    assert m.status == "round_over"
    assert not any(isinstance(e, MatchEnded) for e in events)
    m.next_round()
    assert m.status == "playing"
    assert m.round.number == 2


def test_points_target_at_three_players_is_150():
    m = quick_deal([140, 0, 0], ("KC", "QC"))
    act(m, "play 5H")
    assert m.scores == [160, 0, 0]
    assert (m.status, m.winners) == ("match_over", (0,))
    m = quick_deal([120, 0, 0], ("KC", "QC"))
    act(m, "play 5H")
    assert (m.scores, m.status) == ([140, 0, 0], "round_over")


def test_tie_for_highest_score_plays_another_deal():
    m = quick_deal([90, 100])
    act(m, "play 5H")
    assert m.scores == [100, 100]
    assert m.status == "round_over"
    assert m.winners == ()
    m.next_round(deck=stacked_deck(["3C", "5H"], "4H", first=1))
    act(m, "play 5H")
    assert m.scores == [100, 103]
    assert (m.status, m.winners) == ("match_over", (1,))


def test_a_tie_for_highest_goes_on_while_another_seat_scores():
    m = make_match("points", ["AC", "AD", "5H"], "4H", first=2)
    m.scores = [150, 150, 100]
    act(m, "play 5H")
    assert m.scores == [150, 150, 102]
    assert (m.status, m.winners) == ("round_over", ())


def test_highest_score_wins_when_a_tied_leader_scores():
    m = quick_deal([150, 150, 100], ("AC", "AD"))
    events = act(m, "play 5H")
    assert m.scores == [152, 150, 100]
    assert (m.status, m.winners) == ("match_over", (0,))
    assert events[-1] == MatchEnded((0,), (152, 150, 100))


# ---- options: all off by default ---------------------------------------------------------

def test_points_options_are_all_off_by_default():
    opts = preset("points").options()
    for name in ("twos_draw_two", "queen_spades_draw_five", "jacks_skip", "aces_reverse",
                 "draw_until_playable", "draw_when_playable", "stacking", "last_card_call"):
        assert opts[name] is False
    assert opts["hand_size"] == 0
    assert opts["reshuffle"] is True


@pytest.mark.parametrize(("played", "start"), [("2H", "4H"), ("QS", "4S"), ("JH", "4H"),
                                               ("AH", "4H")])
def test_action_cards_do_nothing_with_the_options_off(played, start):
    m = make_match("points", [f"{played} 3C", "5D 9C", "6D TC"], start, "TD JD QD KD 6S")
    events = act(m, f"play {played}")
    assert events == [CardPlayed(0, card(played)), TurnStarted(1)]
    assert (m.round.to_act, m.round.direction) == (1, 1)
    assert hand(m, 1) == ["5D", "9C"]


def test_twos_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    m = make_match("points", ["2H 5C", "9C 7D"], "4H", "KS QS JS",
                   options={"twos_draw_two": True})
    events = act(m, "play 2H")
    assert hand(m, 1) == ["9C", "7D", "KS", "QS"]
    assert m.round.to_act == 0
    assert events == [
        CardPlayed(0, card("2H")), PenaltyPending(1, 2),
        CardsDrawn(1, 2, "penalty", (card("KS"), card("QS"))), TurnSkipped(1), TurnStarted(0),
    ]


def test_a_player_hit_by_a_draw_card_draws_and_loses_the_turn_at_three_players():
    m = make_match("points", ["2H 5C", "2C 7D", "9H 3S"], "4H", "KS QS JS",
                   options={"twos_draw_two": True})
    act(m, "play 2H")
    assert hand(m, 1) == ["2C", "7D", "KS", "QS"]
    assert m.round.to_act == 2
    assert m.round.pending == 0
    assert legal(m) == {"play 9H"}


def test_draw_card_penalty_reshuffles_the_discards_when_the_pile_runs_out():
    m = make_match("points", ["5H 2H 9S", "6H 3C 4C"], "4H", "KS",
                   options={"twos_draw_two": True})
    act(m, "play 5H", "play 6H")
    events = act(m, "play 2H")
    assert Reshuffled(3) in events
    assert hand(m, 1)[:3] == ["3C", "4C", "KS"]
    assert sorted(hand(m, 1)[3:]) in (["4H"], ["5H"], ["6H"])
    assert codes(m.round.discard) == ["2H"]
    assert m.round.to_act == 0


def test_queen_of_spades_draw_five_makes_the_next_player_draw_five():
    m = make_match("points", ["QS 5C", "9C 7D", "3D 4D"], "4S", "KH QH JH TH 9H 2D",
                   options={"queen_spades_draw_five": True})
    events = act(m, "play QS")
    assert hand(m, 1) == ["9C", "7D", "KH", "QH", "JH", "TH", "9H"]
    assert codes(m.round.pile) == ["2D"]
    assert m.round.to_act == 2
    assert TurnSkipped(1) in events


def test_only_the_queen_of_spades_draws_five():
    m = make_match("points", ["QH 5C", "9C 7D"], "4H", "KH QD JH TH 9H",
                   options={"queen_spades_draw_five": True})
    act(m, "play QH")
    assert hand(m, 1) == ["9C", "7D"]
    assert m.round.to_act == 1


def test_jacks_skip_the_next_player():
    m = make_match("points", ["JH 5C", "9H 7D", "3H 4D"], "4H", options={"jacks_skip": True})
    events = act(m, "play JH")
    assert m.round.to_act == 2
    assert events == [CardPlayed(0, card("JH")), TurnSkipped(1), TurnStarted(2)]
    assert hand(m, 1) == ["9H", "7D"]


def test_aces_reverse_the_direction():
    m = make_match("points", ["AH 5C", "9H 7D", "3H 4D"], "4H", options={"aces_reverse": True})
    events = act(m, "play AH")
    assert DirectionChanged(-1) in events
    assert (m.round.direction, m.round.to_act) == (-1, 2)
    act(m, "play 3H")
    assert m.round.to_act == 1


def test_after_a_reverse_draw_cards_and_skips_hit_the_next_player_the_other_way():
    both = {"aces_reverse": True, "twos_draw_two": True, "jacks_skip": True}
    m = make_match("points", ["AH 5C", "9H 7D", "2H 4D"], "4H", "KS QS JS", options=both)
    act(m, "play AH", "play 2H")
    assert (hand(m, 1), m.round.to_act) == (["9H", "7D", "KS", "QS"], 0)
    m = make_match("points", ["AH 5C", "9H 7D", "JH 4D"], "4H", options=both)
    events = act(m, "play AH", "play JH")
    assert TurnSkipped(1) in events
    assert m.round.to_act == 0


def test_a_reverse_at_two_players_acts_as_a_skip():
    m = make_match("points", ["AH 5H", "9H 7D"], "4H", options={"aces_reverse": True})
    events = act(m, "play AH")
    assert m.round.to_act == 0
    assert TurnSkipped(1) in events
    assert legal(m) == {"play 5H"}


# ---- options: drawing --------------------------------------------------------------------

def test_draw_one_and_play_it_if_it_plays_or_keep_it_and_pass():
    m = make_match("points", ["KC 3D", "QS 9D"], "4H", "9H 2C")
    act(m, "draw")
    assert hand(m, 0) == ["KC", "3D", "9H"]
    assert legal(m) == {"play 9H", "pass"}
    act(m, "pass")
    assert m.round.to_act == 1
    assert hand(m, 0) == ["KC", "3D", "9H"]


def test_good_draw_can_be_played_at_once():
    m = make_match("points", ["KC 3D", "QS 9D"], "4H", "9H 2C")
    act(m, "draw", "play 9H")
    assert (m.round.top.code, m.round.to_act) == ("9H", 1)


def test_unplayable_draw_passes_the_turn_without_another_draw():
    m = make_match("points", ["KC 3D", "QS 9D"], "4H", "2C 9H")
    act(m, "draw")
    assert legal(m) == {"pass"}
    with pytest.raises(IllegalAction, match="You cannot draw again"):
        act(m, "draw")
    act(m, "pass")
    assert (m.round.to_act, hand(m, 0)) == (1, ["KC", "3D", "2C"])


def test_points_drawing_with_a_playable_card_is_refused():
    m = make_match("points", ["KC 4S", "QS 9D"], "4H", "2C 9H")
    with pytest.raises(IllegalAction, match="You may not draw while you hold a card that plays"):
        act(m, "draw")


def test_draw_until_playable_option_keeps_drawing():
    m = make_match("points", ["KC 3D", "QS 9D"], "4H", "2C 7S 9H",
                   options={"draw_until_playable": True})
    act(m, "draw")
    assert legal(m) == {"draw"}
    act(m, "draw", "draw")
    assert legal(m) == {"play 9H"}


# ---- options: values and the last card ---------------------------------------------------

def test_action_cards_keep_their_point_values():
    m = make_match("points", ["5H", "2C", "JD", "QS", "AD"], "4H", options=ACTIONS)
    act(m, "play 5H")
    assert m.round.result.totals == (0, 2, 10, 10, 1)
    assert m.round.result.points == (23, 0, 0, 0, 0)


@pytest.mark.parametrize(("last", "start"), [("2H", "4H"), ("QS", "4S"), ("JH", "4H"),
                                             ("AH", "4H")])
def test_finishing_on_an_action_card_ends_the_deal_without_its_effect(last, start):
    m = make_match("points", [last, "KC", "9C"], start, "TD JD QD KD 6D", options=ACTIONS)
    events = act(m, f"play {last}")
    assert kinds(events) == [CardPlayed, RoundEnded]
    assert (m.status, m.round.result.winner) == ("round_over", 0)
    assert (hand(m, 1), hand(m, 2)) == (["KC"], ["9C"])
    assert m.round.direction == 1
    assert m.round.result.points == (19, 0, 0)
    assert len(m.round.pile) == 5
