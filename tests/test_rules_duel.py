"""docs/rules.md, `duel`: two players, one round at a time, eights wild, draw until playable."""

import pytest

from game.engine import IllegalAction, Match, RulesError, parse_cards, preset
from game.engine.events import (
    CardPlayed,
    CardsDrawn,
    DirectionChanged,
    MatchEnded,
    PenaltyPending,
    RoundEnded,
    StartCard,
    StartCardReturned,
    TurnSkipped,
    TurnStarted,
)
from tests.support import act, codes, hand, legal, make_match, stacked_deck


def kinds(events):
    return [type(e) for e in events]


def card(code):
    return parse_cards(code)[0]


# ---- deck, hands and who starts ----------------------------------------------------------

def test_duel_deals_seven_cards_each_from_52_cards_without_jokers():
    m = Match(preset("duel"), 2, seed=5)
    r = m.round
    assert [len(h) for h in r.hands] == [7, 7]
    everything = r.hands[0] + r.hands[1] + r.pile + r.discard
    assert len(everything) == 52
    assert len(set(everything)) == 52
    assert card("XJ") not in everything


def test_duel_seats_exactly_two_players():
    with pytest.raises(RulesError, match="seat 2 to 2 players"):
        Match(preset("duel"), 3, seed=1)


def test_player_one_starts_the_first_duel_round():
    m = Match(preset("duel"), 2, seed=9)
    assert m.round.first == 0
    assert m.round.to_act == 0


def _finish_with_a_win(m, winner):
    """Play the current round (dealt by ``_deal_quick``) so ``winner`` goes out."""
    assert m.round.to_act == winner
    act(m, "play 5H")
    assert m.round.result.winner == winner


def _deal_quick(m, first):
    cards = ["KC", "KC"]
    cards[first] = "5H"
    m.next_round(deck=stacked_deck(cards, "4H", first=first))


def test_first_player_alternates_each_new_duel_round():
    m = make_match("duel", ["5H", "KC"], "4H")
    assert m.round.first == 0
    _finish_with_a_win(m, 0)
    _deal_quick(m, 1)
    assert (m.round.number, m.round.first, m.round.to_act) == (2, 1, 1)
    _finish_with_a_win(m, 1)
    _deal_quick(m, 0)
    assert (m.round.number, m.round.first, m.round.to_act) == (3, 0, 0)


def test_first_player_alternates_on_a_shuffled_new_round_too():
    m = make_match("duel", ["5H", "KC"], "4H")
    act(m, "play 5H")
    m.next_round()
    assert (m.round.first, m.round.to_act) == (1, 1)


# ---- the starting card -------------------------------------------------------------------

def test_starting_eight_goes_back_to_the_bottom_of_an_explicit_deck():
    m = make_match("duel", ["5H 9C", "KC 3C"], "8C", "5D 6D")
    assert codes(m.round.discard) == ["5D"]
    assert m.round.suit == "D"
    assert m.round.pile[0].code == "8C"
    assert codes(m.round.pile) == ["8C", "6D"]
    returned = [e for e in m.start_events if isinstance(e, (StartCardReturned, StartCard))]
    assert returned == [StartCardReturned(card("8C")), StartCard(card("5D"))]


def test_several_starting_eights_are_all_turned_back():
    m = make_match("duel", ["5H 9C", "KC 3C"], "8C", "8D 7S 6D")
    assert codes(m.round.discard) == ["7S"]
    assert sorted(codes(m.round.pile)) == ["6D", "8C", "8D"]
    assert m.round.pile[-1].code == "6D"


def test_starting_card_is_never_an_eight_and_goes_back_at_a_random_place():
    positions = set()
    for seed in range(300):
        m = Match(preset("duel"), 2, seed=seed)
        assert m.round.discard[0].rank != "8"
        assert len(m.round.discard) == 1
        for event in m.start_events:
            if isinstance(event, StartCardReturned):
                assert event.card in m.round.pile
                positions.add(m.round.pile.index(event.card))
    assert len(positions) > 3


# ---- eights wild, nothing else -----------------------------------------------------------

def test_eight_is_wild_in_duel():
    m = make_match("duel", ["8C KD", "KS QS"], "4H")
    assert legal(m) == {"play 8C"}
    act(m, "play 8C")
    assert m.round.phase == "suit"


@pytest.mark.parametrize(("played", "start"), [
    ("JH", "4H"), ("2H", "4H"), ("AH", "4H"), ("QS", "4S"), ("KH", "4H"),
])
def test_duel_has_no_skip_reverse_or_draw_cards(played, start):
    m = make_match("duel", [f"{played} 3C", "5D 9C"], start, "TD JD QD KD 6D")
    events = act(m, f"play {played}")
    assert events == [CardPlayed(0, card(played)), TurnStarted(1)]
    assert m.round.to_act == 1
    assert m.round.direction == 1
    assert hand(m, 1) == ["5D", "9C"]
    assert not any(isinstance(e, (TurnSkipped, DirectionChanged, PenaltyPending)) for e in events)


# ---- drawing -----------------------------------------------------------------------------

def test_cannot_play_draws_one_card_at_a_time_until_one_plays():
    m = make_match("duel", ["KC 3D", "QS 9D"], "4H", "9S 2C 6H JD")
    events = act(m, "draw")
    assert [e for e in events if isinstance(e, CardsDrawn)] == [
        CardsDrawn(0, 1, "draw", (card("9S"),))]
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 0) == ["KC", "3D", "9S", "2C"]
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 0) == ["KC", "3D", "9S", "2C", "6H"]
    assert legal(m) == {"play 6H"}
    assert m.round.to_act == 0
    act(m, "play 6H")
    assert m.round.top.code == "6H"
    assert codes(m.round.pile) == ["JD"]


def test_drawn_eight_must_be_played_and_announces_a_suit():
    m = make_match("duel", ["KC 3D", "QS 9D"], "4H", "2S 8C 6H")
    act(m, "draw", "draw")
    assert legal(m) == {"play 8C"}
    act(m, "play 8C")
    assert legal(m) == {"suit S", "suit H", "suit D", "suit C"}
    act(m, "suit D")
    assert (m.round.suit, m.round.to_act, hand(m, 0)) == ("D", 1, ["KC", "3D", "2S"])


def test_drawn_playable_card_must_be_played_not_kept():
    m = make_match("duel", ["KC 3D", "QS 9D"], "4H", "6H JD")
    act(m, "draw")
    with pytest.raises(IllegalAction, match="You cannot pass"):
        act(m, "pass")
    with pytest.raises(IllegalAction, match="You cannot draw again"):
        act(m, "draw")


def test_drawing_while_holding_a_playable_card_is_refused():
    m = make_match("duel", ["KC 5H", "QS 9D"], "4H", "6H JD")
    assert "draw" not in legal(m)
    with pytest.raises(IllegalAction, match="You may not draw while you hold a card that plays"):
        act(m, "draw")
    assert hand(m, 0) == ["KC", "5H"]
    assert len(m.round.pile) == 2


def test_drawing_while_holding_an_eight_is_refused():
    m = make_match("duel", ["KC 8S", "QS 9D"], "4H", "6H JD")
    with pytest.raises(IllegalAction, match="You may not draw"):
        act(m, "draw")


# ---- the end of a round ------------------------------------------------------------------

def test_emptying_the_hand_wins_the_duel_round():
    m = make_match("duel", ["5H 6H", "KC 9H"], "4H")
    act(m, "play 5H", "play 9H")
    events = act(m, "play 6H")
    result = m.round.result
    assert (result.winner, result.winners, result.blocked, result.tie) == (0, (0,), False, False)
    assert m.status == "match_over"
    assert m.winners == (0,)
    assert kinds(events) == [CardPlayed, RoundEnded, MatchEnded]


def test_blocked_round_lowest_total_wins():
    m = make_match("duel", ["KC 9D", "QS 3D"], "4H")
    act(m, "pass", "pass")
    result = m.round.result
    assert result.blocked
    assert result.totals == (19, 13)
    assert (result.winner, result.winners, result.tie) == (1, (1,), False)
    assert m.winners == (1,)


def test_blocked_round_with_equal_totals_is_a_tie():
    m = make_match("duel", ["KC 3D", "TS 3C"], "4H")
    act(m, "pass", "pass")
    result = m.round.result
    assert result.blocked and result.tie
    assert result.totals == (13, 13)
    assert (result.winner, result.winners) == (None, ())
    assert m.winners == ()


def test_blocked_round_counts_ace_1_tens_and_faces_10_others_face_value():
    m = make_match("duel", ["AC KS QC JS", "TC 9S 7C 2S"], "4H")
    act(m, "pass", "pass")
    assert m.round.result.totals == (31, 28)
    assert m.round.result.winner == 1


def test_hand_totals_count_an_eight_as_50():
    m = make_match("duel", ["5H 6H", "8C AH"], "4H")
    act(m, "play 5H", "play AH", "play 6H")
    assert m.round.result.totals == (0, 50)


def test_no_points_carry_over_between_duel_rounds():
    m = make_match("duel", ["5H", "8C"], "4H")
    act(m, "play 5H")
    assert m.round.result.points == (0, 0)
    assert m.scores == [0, 0]
    _deal_quick(m, 1)
    assert m.scores == [0, 0]
    act(m, "play 5H")
    assert m.round.result.points == (0, 0)
    assert m.scores == [0, 0]
    assert m.winners == (1,)


def test_duel_options_match_the_option_table():
    opts = preset("duel").options()
    assert opts["hand_size"] == 7
    assert opts["draw_until_playable"] is True
    assert opts["draw_when_playable"] is False
    assert opts["max_draws"] == 0
    assert opts["reshuffle"] is True
    assert opts["target"] == 0
    assert opts["undo"] is False
    for name in ("twos_draw_two", "queen_spades_draw_five", "jacks_skip", "aces_reverse",
                 "stacking", "last_card_call"):
        assert opts[name] is False
