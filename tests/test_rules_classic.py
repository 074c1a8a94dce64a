"""docs/rules.md, `classic`: you vs 1 to 3 computers, the winner scores the losers' cards."""

import pytest

from game.engine import IllegalAction, Match, RulesError, parse_cards, preset
from game.engine.events import (
    CardPlayed,
    DirectionChanged,
    PenaltyPending,
    RoundEnded,
    StartCard,
    StartCardReturned,
    TurnSkipped,
    TurnStarted,
)
from tests.support import act, codes, hand, legal, make_match, stacked_deck


def card(code):
    return parse_cards(code)[0]


# ---- seating and dealing -----------------------------------------------------------------

def test_classic_deals_seven_cards_each_at_two_players():
    m = Match(preset("classic"), 2, seed=3)
    assert [len(h) for h in m.round.hands] == [7, 7]
    assert len(m.round.pile) == 52 - 14 - 1


@pytest.mark.parametrize("players", [3, 4])
def test_classic_deals_five_cards_each_at_three_or_four_players(players):
    m = Match(preset("classic"), players, seed=3)
    assert [len(h) for h in m.round.hands] == [5] * players
    assert len(m.round.pile) == 52 - 5 * players - 1


@pytest.mark.parametrize("players", [1, 5])
def test_classic_seats_two_to_four_players(players):
    with pytest.raises(RulesError, match="seat 2 to 4 players"):
        Match(preset("classic"), players, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_human_always_starts_every_classic_round(players):
    cards = ["5H"] + ["KC", "QC", "JC"][: players - 1]
    m = make_match("classic", cards, "4H")
    assert (m.round.first, m.round.to_act) == (0, 0)
    for number in (2, 3):
        act(m, "play 5H")
        assert m.round.result.winner == 0
        m.next_round(deck=stacked_deck(cards, "4H"))
        assert (m.round.number, m.round.first, m.round.to_act) == (number, 0, 0)


def test_human_starts_a_shuffled_second_round():
    m = make_match("classic", ["5H", "KC", "QC"], "4H")
    act(m, "play 5H")
    m.next_round()
    assert (m.round.first, m.round.to_act) == (0, 0)


# ---- the starting card -------------------------------------------------------------------

def test_classic_starting_eight_goes_back_into_the_pile():
    m = make_match("classic", ["5H 9C", "KC 3C", "QD 2S"], "8H", "6C 7D")
    assert codes(m.round.discard) == ["6C"]
    assert m.round.suit == "C"
    assert codes(m.round.pile) == ["8H", "7D"]
    shown = [e for e in m.start_events if isinstance(e, (StartCardReturned, StartCard))]
    assert shown == [StartCardReturned(card("8H")), StartCard(card("6C"))]


def test_classic_seeded_start_is_never_an_eight():
    for seed in range(150):
        m = Match(preset("classic"), 4, seed=seed)
        assert m.round.top.rank != "8"
        assert sum(len(h) for h in m.round.hands) + len(m.round.pile) + 1 == 52


# ---- eights wild, no other action cards --------------------------------------------------

def test_classic_eight_is_wild_and_announces_a_suit():
    m = make_match("classic", ["8C KD", "KS QS", "2D 3D"], "4H")
    assert legal(m) == {"play 8C"}
    act(m, "play 8C")
    assert legal(m) == {"suit S", "suit H", "suit D", "suit C"}
    act(m, "suit S")
    assert (m.round.suit, m.round.to_act) == ("S", 1)


@pytest.mark.parametrize(("played", "start"), [
    ("JH", "4H"), ("2H", "4H"), ("AH", "4H"), ("QS", "4S"),
])
def test_classic_jacks_twos_aces_and_queen_of_spades_have_no_effect(played, start):
    m = make_match("classic", [f"{played} 3C", "5D 9C", "6D TC"], start, "TD JD QD KD 6S")
    events = act(m, f"play {played}")
    assert events == [CardPlayed(0, card(played)), TurnStarted(1)]
    assert (m.round.to_act, m.round.direction) == (1, 1)
    assert hand(m, 1) == ["5D", "9C"]
    assert not any(isinstance(e, (TurnSkipped, DirectionChanged, PenaltyPending)) for e in events)


def test_classic_draws_one_at_a_time_until_playable_then_plays_it():
    m = make_match("classic", ["KC 3D", "QS 9D", "JS 2C"], "4H", "9S 6H JD")
    act(m, "draw")
    assert hand(m, 0) == ["KC", "3D", "9S"]
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert legal(m) == {"play 6H"}
    with pytest.raises(IllegalAction, match="You cannot pass"):
        act(m, "pass")
    act(m, "play 6H")
    assert (m.round.top.code, m.round.to_act) == ("6H", 1)


def test_classic_drawing_with_a_playable_card_is_refused():
    m = make_match("classic", ["KC 4S", "QS 9D"], "4H", "9S 6H")
    with pytest.raises(IllegalAction, match="You may not draw while you hold a card that plays"):
        act(m, "draw")
    assert hand(m, 0) == ["KC", "4S"]


# ---- turn order --------------------------------------------------------------------------

def test_classic_turn_order_goes_round_the_table():
    m = make_match("classic", ["5H 2C", "6H 2D", "7H 2S", "9H 3S"], "4H")
    seats = []
    for code in ("5H", "6H", "7H", "9H"):
        seats.append(m.round.to_act)
        act(m, f"play {code}")
    seats.append(m.round.to_act)
    assert seats == [0, 1, 2, 3, 0]


def test_classic_turn_order_wraps_at_three_players():
    m = make_match("classic", ["5H 2C", "6H 2D", "7H 2S"], "4H")
    events = act(m, "play 5H", "play 6H", "play 7H")
    assert [e.seat for e in events if isinstance(e, TurnStarted)] == [1, 2, 0]


# ---- the end -----------------------------------------------------------------------------

def test_classic_first_to_empty_the_hand_scores_the_cards_left_in_the_other_hands():
    m = make_match("classic", ["5H 6H", "9H 8C", "JH AS"], "4H")
    events = act(m, "play 5H", "play 9H", "play JH", "play 6H")
    result = m.round.result
    assert (result.winner, result.blocked) == (0, False)
    assert result.totals == (0, 50, 1)
    assert result.points == (51, 0, 0)
    assert m.scores == [51, 0, 0]
    assert RoundEnded(result) in events
    assert m.winners == (0,)


def test_classic_winner_counts_tens_and_faces_10_and_others_face_value():
    m = make_match("classic", ["5H 6H", "9H TC", "JH KD", "2H 7D"], "4H")
    act(m, "play 5H", "play 9H", "play JH", "play 2H", "play 6H")
    assert m.round.result.totals == (0, 10, 10, 7)
    assert m.round.result.points == (27, 0, 0, 0)


def test_classic_a_non_starting_seat_can_win_and_score():
    m = make_match("classic", ["5H KC", "6H 7H"], "4H", options={"reshuffle": False})
    act(m, "play 5H", "play 6H")
    assert legal(m) == {"pass"}
    act(m, "pass", "play 7H")
    assert m.round.result.winner == 1
    assert m.round.result.points == (0, 10)
    assert m.scores == [0, 10]


def test_classic_blocked_round_lowest_hand_wins():
    m = make_match("classic", ["KC 9D", "QS 3D", "2C AS"], "4H")
    act(m, "pass", "pass", "pass")
    result = m.round.result
    assert result.blocked
    assert result.totals == (19, 13, 3)
    assert (result.winner, result.winners, result.tie) == (2, (2,), False)
    assert m.winners == (2,)
    assert result.points[0] == result.points[1] == 0


def test_classic_blocked_round_tie_for_lowest_has_no_winner():
    m = make_match("classic", ["KC 9D", "2S AD", "2C AS"], "4H")
    act(m, "pass", "pass", "pass")
    result = m.round.result
    assert result.totals == (19, 3, 3)
    assert (result.blocked, result.tie, result.winner, result.winners) == (True, True, None, ())
    assert result.points == (0, 0, 0)


# ---- options -----------------------------------------------------------------------------

def test_classic_options_match_the_option_table():
    opts = preset("classic").options()
    assert opts["hand_size"] == 0
    assert opts["draw_until_playable"] is True
    assert opts["draw_when_playable"] is False
    assert opts["max_draws"] == 0
    assert opts["reshuffle"] is True
    assert opts["target"] == 0
    assert opts["undo"] is True
    for name in ("twos_draw_two", "queen_spades_draw_five", "jacks_skip", "aces_reverse",
                 "stacking", "last_card_call"):
        assert opts[name] is False
