"""Rule tests for the `action` preset (docs/rules.md, "`action`: action eights")."""

from collections import Counter

import pytest

from game.engine import PRESETS, IllegalAction, Match, RulesError, deck_for, parse_cards
from game.engine.events import (
    CardsDrawn,
    DirectionChanged,
    PenaltyPending,
    PlayAgain,
    SuitChosen,
    TimedOut,
    TurnSkipped,
    TurnStarted,
)
from tests.support import act, events_of, hand, legal, make_match

PILE = "2S 3S 4S 5S 6S 7S 9S 2D"


def action(hands, start="5H", pile=PILE, **kw):
    return make_match("action", hands, start, pile, **kw)


def codes(text):
    return text.split()


def again_events(events):
    return [(e.seat, e.why) for e in events_of(events, PlayAgain)]


# ---- deck and deal -------------------------------------------------------------------------

def test_action_deck_is_two_52_card_decks_and_four_jokers():
    counts = Counter(c.code for c in deck_for("double"))
    assert sum(counts.values()) == 108
    assert counts["XJ"] == 4
    assert len(counts) == 53
    assert all(n == 2 for code, n in counts.items() if code != "XJ")
    assert PRESETS["action"].deck == "double"


def test_action_deals_ten_cards_each_to_two_to_six_players():
    assert PRESETS["action"].hand_size == 10
    for players in (2, 6):
        m = Match(PRESETS["action"], players, seed=5)
        r = m.round
        assert [len(h) for h in r.hands] == [10] * players
        everything = [c for h in r.hands for c in h] + r.pile + r.discard
        assert Counter(everything) == Counter(deck_for("double"))
    with pytest.raises(RulesError):
        Match(PRESETS["action"], 7, seed=5)


# ---- wilds and action cards ----------------------------------------------------------------

def test_eight_is_wild_and_its_player_announces_the_suit():
    m = action(["8S 2C 3D", "4D 6C 7C"])
    assert "play 8S" in legal(m)
    act(m, "play 8S")
    assert m.round.phase == "suit" and m.round.to_act == 0
    assert legal(m) == {"suit S", "suit H", "suit D", "suit C"}
    events = act(m, "suit D")
    assert SuitChosen(0, "D") in events
    assert m.round.suit == "D" and m.round.to_act == 1
    assert legal(m) == {"play 4D"}


def test_joker_is_a_wild_plus_four_the_next_player_draws_four_and_loses_the_turn():
    m = action(["XJ 2C 3D", "4D 6C 7D", "9C TC JD"])
    assert "play XJ" in legal(m)
    act(m, "play XJ")
    assert m.round.phase == "suit"
    events = act(m, "suit C")
    assert PenaltyPending(1, 4) in events
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 1) == codes("4D 6C 7D 2S 3S 4S 5S")
    assert m.round.to_act == 2 and m.round.suit == "C"


def test_jack_is_a_skip():
    m = action(["JH 2C 3D", "4H 6C 7D", "9H TC JD"])
    events = act(m, "play JH")
    assert TurnSkipped(1) in events
    assert m.round.to_act == 2
    assert hand(m, 1) == codes("4H 6C 7D")


def test_queen_is_a_reverse():
    m = action(["QH 2C 3D", "4H 6C 7D", "9H TC JD"])
    events = act(m, "play QH")
    assert DirectionChanged(-1) in events
    assert m.round.direction == -1 and m.round.to_act == 2
    act(m, "play 9H")
    assert m.round.to_act == 1


def test_queen_acts_as_a_skip_at_two_players():
    m = action(["QH 4H 3D", "6H 6C 7D"])
    events = act(m, "play QH")
    assert TurnSkipped(1) in events
    assert m.round.to_act == 0
    assert legal(m) == {"play 4H"}


def test_king_makes_the_next_player_draw_two_and_lose_the_turn():
    m = action(["KH 2C 3D", "4H 6C 7D", "9H TC JD"])
    events = act(m, "play KH")
    assert PenaltyPending(1, 2) in events
    assert legal(m) == {"draw"}
    events = act(m, "draw")
    assert CardsDrawn(1, 2, "penalty", tuple(parse_cards("2S 3S"))) in events
    assert hand(m, 1) == codes("4H 6C 7D 2S 3S")
    assert m.round.to_act == 2


# ---- stacking ------------------------------------------------------------------------------

def test_plus_two_may_be_answered_by_plus_two_or_plus_four():
    m = action(["KH 2C 3D", "KS XJ 4H", "9H TC JD"])
    act(m, "play KH")
    assert legal(m) == {"play KS", "play XJ", "draw"}
    act(m, "play KS")
    assert m.round.to_act == 2 and m.round.pending == 4


def test_only_plus_four_may_answer_plus_four():
    m = action(["XJ 2C 3D", "KS XJ 4H", "9H TC JD"])
    act(m, "play XJ", "suit H")
    assert legal(m) == {"play XJ", "draw"}
    with pytest.raises(IllegalAction, match="draw card that stacks, or draw 4 cards"):
        act(m, "play KS")


def test_plus_two_then_plus_four_makes_the_next_player_draw_six():
    m = action(["KH 2C 3D", "XJ 6C 4H", "9H TC JD"])
    act(m, "play KH", "play XJ")
    events = act(m, "suit D")
    assert PenaltyPending(2, 6) in events
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 2) == codes("9H TC JD 2S 3S 4S 5S 6S 7S")
    assert m.round.to_act == 0 and m.round.pending == 0


# ---- drawing: the good draw ----------------------------------------------------------------

def test_good_draw_the_drawn_card_may_be_played_at_once():
    m = action(["2C 3D 4C", "6C 7D 9C"], pile="9H 2S")
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert legal(m) == {"play 9H", "pass"}
    act(m, "play 9H")
    assert m.round.top.code == "9H" and m.round.to_act == 1


def test_good_draw_the_drawn_card_may_be_kept_with_a_pass():
    m = action(["2C 3D 4C", "6C 7D 9C"], pile="9H 2S")
    act(m, "draw", "pass")
    assert hand(m, 0) == codes("2C 3D 4C 9H")
    assert m.round.to_act == 1


def test_unplayable_drawn_card_the_turn_passes():
    m = action(["2C 3D 4C", "6C 7D 9C"], pile="2S 9H")
    act(m, "draw")
    assert legal(m) == {"pass"}
    act(m, "pass")
    assert hand(m, 0) == codes("2C 3D 4C 2S") and m.round.to_act == 1


def test_drawing_while_holding_a_playable_card_is_refused():
    m = action(["2H 3D 4C", "6C 7D 9C"])
    assert legal(m) == {"play 2H"}
    with pytest.raises(IllegalAction, match="may not draw while you hold a card that plays"):
        act(m, "draw")


# ---- twin card -----------------------------------------------------------------------------

def test_twin_card_lets_you_play_another_card():
    m = action(["5H 5S 2D 3C", "6C 7D 9D 4C"], start="5H")
    assert legal(m) == {"play 5H", "play 5S"}
    events = act(m, "play 5H")
    assert again_events(events) == [(0, "twin")]
    assert m.round.to_act == 0
    assert legal(m) == {"play 5S", "end"}


def test_twin_card_end_stops_the_turn():
    m = action(["5H 5S 2D 3C", "6C 7D 9D 4C"], start="5H")
    act(m, "play 5H", "end")
    assert m.round.to_act == 1
    assert hand(m, 0) == codes("5S 2D 3C")


def test_twin_card_with_nothing_more_to_play_ends_by_itself():
    m = action(["5H 9C 2D 3C", "6C 7D 9D 4C"], start="5H")
    events = act(m, "play 5H")
    assert again_events(events) == []
    assert m.round.to_act == 1


def test_twin_card_does_not_apply_to_action_cards():
    m = action(["JH 9C 2D 3H", "6C 7D 9D 4C", "9S 7S 6S 4S"], start="JH")
    events = act(m, "play JH")
    assert again_events(events) == []
    assert TurnSkipped(1) in events
    assert m.round.to_act == 2


# ---- runs ----------------------------------------------------------------------------------

def test_run_goes_on_with_the_same_suit_one_rank_up_ace_low():
    m = action(["AH 2H 3H 6C", "6D 7D 9D 4C"], start="9H")
    events = act(m, "play AH")
    assert again_events(events) == [(0, "run")]
    assert legal(m) == {"play 2H", "end"}
    act(m, "play 2H")
    assert legal(m) == {"play 3H", "end"}
    assert m.round.to_act == 0


def test_run_takes_neither_another_suit_nor_a_lower_rank():
    m = action(["5H 6C 4H 6H", "6D 7D 9D 4C"], start="9H")
    act(m, "play 5H")
    assert legal(m) == {"play 6H", "end"}
    with pytest.raises(IllegalAction, match="next card of your run"):
        act(m, "play 6C")


def test_run_does_not_wrap_round_to_the_ace():
    m = action(["9H AH 2C 3C", "6D 7D 9D 4C"], start="9S")
    events = act(m, "play 9H")
    assert again_events(events) == []
    assert m.round.to_act == 1
    assert hand(m, 0) == codes("AH 2C 3C")


def test_end_stops_a_run():
    m = action(["AH 2H 3H 6C", "6D 7D 9D 4C"], start="9H")
    act(m, "play AH", "end")
    assert m.round.to_act == 1
    assert hand(m, 0) == codes("2H 3H 6C")


def test_run_that_cannot_go_on_ends_the_turn_by_itself():
    m = action(["AH 2H 3H 6C", "6D 7D 9D 4C"], start="9H")
    act(m, "play AH", "play 2H", "play 3H")
    assert m.round.to_act == 1
    assert hand(m, 0) == ["6C"]


def test_eight_ends_a_run():
    m = action(["6H 7H 8H 9H 2C", "6D 7D 9D 4C 5C"], start="5H")
    act(m, "play 6H", "play 7H", "play 8H")
    assert m.round.phase == "suit"
    act(m, "suit C")
    assert m.round.to_act == 1 and m.round.suit == "C"
    assert hand(m, 0) == codes("9H 2C")


def test_ten_ends_a_run_and_asks_for_another_card_of_its_suit():
    m = action(["9H TH 3H 4C", "6D 7D 9D 4D"], start="9S")
    act(m, "play 9H")
    assert legal(m) == {"play TH", "end"}
    events = act(m, "play TH")
    assert again_events(events) == [(0, "again")]
    assert legal(m) == {"play 3H"}


# ---- the 10 --------------------------------------------------------------------------------

def test_ten_you_must_play_again_a_card_of_the_same_suit():
    m = action(["TH 3H 9C 4D", "6D 7D 9D 4S"])
    act(m, "play TH")
    assert m.round.to_act == 0
    assert legal(m) == {"play 3H"}
    with pytest.raises(IllegalAction, match="After a 10 you must play another ♥ card"):
        act(m, "play 9C")
    act(m, "play 3H")
    assert m.round.to_act == 1
    assert hand(m, 0) == codes("9C 4D")


def test_ten_without_a_card_of_its_suit_draws_one_and_plays_it_if_it_follows():
    m = action(["TH 9C 4D", "6D 7D 9D"], pile="6H 2S")
    act(m, "play TH")
    assert legal(m) == {"draw"}
    act(m, "draw")
    # the good draw: a drawn card that follows may be played at once, or kept
    assert legal(m) == {"play 6H", "pass"}
    act(m, "play 6H")
    assert m.round.top.code == "6H"
    assert m.round.to_act == 1
    assert hand(m, 0) == codes("9C 4D")


def test_ten_drawn_card_that_does_not_follow_the_turn_passes():
    m = action(["TH 9C 4D", "6D 7D 9D"], pile="6S 2S")
    act(m, "play TH", "draw")
    assert legal(m) == {"pass"}
    act(m, "pass")
    assert hand(m, 0) == codes("9C 4D 6S")
    assert m.round.to_act == 1


def test_ten_can_never_be_the_last_card():
    m = action(["TH", "6D"], pile="2S 3S")
    assert legal(m) == {"draw"}
    with pytest.raises(IllegalAction, match="A 10 can never be your last card"):
        act(m, "play TH")


def test_ten_can_never_be_the_last_card_even_after_another_ten():
    m = action(["TH TH", "6D 7D"], pile="2S 3S")
    act(m, "play TH")
    assert legal(m) == {"draw"}
    assert hand(m, 0) == ["TH"]


# ---- the timer -----------------------------------------------------------------------------

def test_timer_is_ten_seconds_a_turn():
    assert PRESETS["action"].turn_seconds == 10


def test_timeout_gives_one_penalty_card_and_the_turn_passes():
    m = action(["2H 3D 4C", "6C 7D 9C"])
    events = act(m, "timeout")
    assert events == [TimedOut(0), CardsDrawn(0, 1, "timeout", tuple(parse_cards("2S"))),
                      TurnStarted(1)]
    assert hand(m, 0) == codes("2H 3D 4C 2S")
    assert m.round.top.code == "5H" and m.round.to_act == 1


def test_timeout_after_a_wild_takes_a_penalty_card_names_a_suit_and_passes():
    m = action(["8S 2C 3C 4D", "6H 7D 9D 4S"])
    act(m, "play 8S")
    events = act(m, "timeout")
    assert events_of(events, CardsDrawn) == [CardsDrawn(0, 1, "timeout", tuple(parse_cards("2S")))]
    assert m.round.suit == "C" and m.round.to_act == 1


def test_timeout_is_refused_when_the_timer_is_off():
    m = action(["2H 3D 4C", "6C 7D 9C"], options={"turn_seconds": 0})
    with pytest.raises(IllegalAction, match="no turn timer"):
        act(m, "timeout")


# ---- scoring -------------------------------------------------------------------------------

def test_winner_scores_the_action_values_of_the_cards_left():
    m = action(["AH 2H 3H 4H 5H 6H 7H 8H",
                "AC 2C 3C 4C 5C 6C 7C 8C",
                "9C TC JC QC KC XJ 9D 9S"], start="9H")
    act(m, "play AH", "play 2H", "play 3H", "play 4H", "play 5H", "play 6H", "play 7H",
        "play 8H")
    res = m.round.result
    assert res.winner == 0 and res.winners == (0,)
    low = 10 + 20 + 30 + 40 + 50 + 60 + 70 + 5000
    high = 90 + 200 + 750 + 500 + 1250 + 2500 + 90 + 90
    assert res.totals == (0, low, high)
    assert res.points == (low + high, 0, 0)
    assert m.status == "match_over" and m.winners == (0,)
