"""docs/rules.md, "Common ground": turns, legal cards, wilds, reshuffles, blocked rounds, secrets."""

import pytest

from game.engine import IllegalAction, Match, parse_cards, preset
from game.engine.events import (
    CardPlayed,
    CardsDrawn,
    MatchEnded,
    Passed,
    Reshuffled,
    RoundEnded,
    SuitChosen,
    TurnStarted,
)
from tests.support import act, codes, hand, legal, make_match

ALL_SUITS = {"suit S", "suit H", "suit D", "suit C"}


def kinds(events):
    return [type(e) for e in events]


# ---- a turn ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["duel", "classic", "points"])
def test_turn_offers_the_legal_plays_and_no_draw_while_one_plays(name):
    m = make_match(name, ["7C 5H 9D", "KS QS JS"], "7H")
    assert legal(m) == {"play 7C", "play 5H"}


@pytest.mark.parametrize("name", ["duel", "classic", "points"])
def test_turn_offers_only_a_draw_when_no_card_plays(name):
    m = make_match(name, ["KC 3D", "KS QS"], "4H", "9S 5H")
    assert legal(m) == {"draw"}


def test_playing_a_card_puts_it_on_the_discard_pile_and_passes_the_turn():
    m = make_match("duel", ["5H 9C", "KS QS"], "4H")
    events = act(m, "play 5H")
    assert codes(m.round.discard) == ["4H", "5H"]
    assert hand(m, 0) == ["9C"]
    assert m.round.to_act == 1
    assert events == [CardPlayed(0, parse_cards("5H")[0]), TurnStarted(1)]


# ---- legal cards -------------------------------------------------------------------------

def test_same_suit_is_legal():
    m = make_match("duel", ["2H KC", "KS QS"], "9H")
    assert legal(m) == {"play 2H"}
    act(m, "play 2H")
    assert m.round.top.code == "2H"


def test_same_rank_is_legal():
    m = make_match("duel", ["9C KD", "KS QS"], "9H")
    assert legal(m) == {"play 9C"}
    act(m, "play 9C")
    assert m.round.suit == "C"


def test_eight_is_legal_on_any_card():
    m = make_match("duel", ["8D KC", "KS QS"], "4H")
    assert legal(m) == {"play 8D"}


def test_illegal_play_names_the_suit_to_follow():
    m = make_match("duel", ["KC 5H", "KS QS"], "4H")
    with pytest.raises(IllegalAction, match=r"You must follow ♥ or 4♥, or play an eight\."):
        act(m, "play KC")
    assert hand(m, 0) == ["KC", "5H"]
    assert codes(m.round.discard) == ["4H"]


def test_playing_a_card_not_held_is_refused():
    m = make_match("duel", ["KC 5H", "KS QS"], "4H")
    with pytest.raises(IllegalAction, match=r"You do not hold 6♥\."):
        act(m, "play 6H")


def test_playing_out_of_turn_is_refused():
    m = make_match("duel", ["KC 5H", "6H QS"], "4H")
    with pytest.raises(IllegalAction, match=r"It is not your turn: seat 0 plays\."):
        act(m, "1: play 6H")
    assert hand(m, 1) == ["6H", "QS"]


def test_after_a_wild_only_the_announced_suit_or_a_wild_is_legal():
    # 5S has the eight's own suit and 5C the old suit: neither follows the announced hearts.
    m = make_match("duel", ["8S 2D 3D 4D", "8D 5H 5S 5C"], "9C")
    act(m, "play 8S", "suit H")
    assert m.round.suit == "H"
    assert legal(m) == {"play 8D", "play 5H"}


def test_illegal_play_after_a_wild_names_the_announced_suit():
    m = make_match("duel", ["8S 2D", "5S 5H"], "9C")
    act(m, "play 8S", "suit H")
    with pytest.raises(IllegalAction, match=r"You must follow ♥ or 8♠, or play an eight\."):
        act(m, "play 5S")


# ---- wilds -------------------------------------------------------------------------------

def test_playing_a_wild_asks_its_player_to_announce_a_suit():
    m = make_match("duel", ["8S 2D", "5S 5H"], "9C")
    act(m, "play 8S")
    assert m.round.phase == "suit"
    assert m.round.to_act == 0
    assert legal(m) == ALL_SUITS
    with pytest.raises(IllegalAction, match="Choose the suit to announce first"):
        act(m, "play 2D")


def test_announced_suit_is_in_force_and_the_turn_passes():
    m = make_match("duel", ["8S 2D", "5S 5H"], "9C")
    events = act(m, "play 8S", "suit H")
    assert SuitChosen(0, "H") in events
    assert m.round.suit == "H"
    assert m.round.to_act == 1


def test_announcing_a_suit_without_a_wild_is_refused():
    m = make_match("duel", ["9D 2D", "5S 5H"], "9C")
    with pytest.raises(IllegalAction, match="only after playing a wild"):
        act(m, "suit H")


def test_eight_can_finish_the_round():
    m = make_match("duel", ["8S", "5S"], "9C")
    events = act(m, "play 8S")
    assert m.round.over
    assert m.round.result.winner == 0
    assert not m.round.result.blocked
    assert legal(m) == set()
    assert not any(isinstance(e, SuitChosen) for e in events)
    assert kinds(events) == [CardPlayed, RoundEnded, MatchEnded]
    with pytest.raises(IllegalAction, match="The round is over"):
        act(m, "suit H")


# ---- the draw pile runs out --------------------------------------------------------------

def test_empty_draw_pile_is_refilled_from_the_discards_under_the_top_card():
    m = make_match("duel", ["5H 9C", "6H KD"], "4H")
    act(m, "play 5H", "play 6H")
    assert m.round.pile == []
    events = act(m, "draw")
    assert events[0] == Reshuffled(2)
    assert codes(m.round.discard) == ["6H"]
    assert m.round.suit == "H"
    drawn = events[1]
    assert isinstance(drawn, CardsDrawn) and drawn.count == 1
    (card,) = drawn.cards
    assert card.code in {"4H", "5H"}
    assert sorted(hand(m, 0)) == sorted(["9C", card.code])
    assert sorted(codes(m.round.pile) + [card.code]) == ["4H", "5H"]
    assert legal(m) == {f"play {card.code}"}


def test_reshuffle_keeps_top_card_and_announced_suit():
    m = make_match("duel", ["5H 8S 2C", "6H KC 3C"], "4H")
    act(m, "play 5H", "play 6H", "play 8S", "suit D")
    events = act(m, "draw")
    assert events[0] == Reshuffled(3)
    assert codes(m.round.discard) == ["8S"]
    assert m.round.suit == "D"
    assert len(m.round.pile) == 2
    # Hearts do not follow the announced diamonds: drawing goes on, then nothing is left.
    act(m, "draw", "draw")
    assert sorted(hand(m, 1)) == sorted(["KC", "3C", "4H", "5H", "6H"])
    assert m.round.suit == "D"
    assert legal(m) == {"pass"}


def test_nothing_to_draw_means_the_player_who_cannot_play_passes():
    m = make_match("duel", ["KC 3D", "QS 9D"], "4H")
    assert legal(m) == {"pass"}
    with pytest.raises(IllegalAction, match="There is nothing left to draw"):
        act(m, "draw")
    events = act(m, "pass")
    assert events == [Passed(0), TurnStarted(1)]
    assert m.round.to_act == 1
    assert hand(m, 0) == ["KC", "3D"]


def test_pass_is_refused_while_a_card_plays():
    m = make_match("duel", ["KC 5H", "QS 9D"], "4H")
    with pytest.raises(IllegalAction, match="You cannot pass"):
        act(m, "pass")


def test_without_reshuffle_an_empty_pile_is_not_refilled():
    m = make_match("duel", ["5H 9C", "6H KD"], "4H", options={"reshuffle": False})
    act(m, "play 5H", "play 6H")
    assert legal(m) == {"pass"}


def test_two_passes_in_a_row_block_a_two_player_round():
    m = make_match("duel", ["KC 3D", "QS 9D"], "4H")
    act(m, "pass")
    assert m.status == "playing"
    events = act(m, "pass")
    assert m.round.over
    result = m.round.result
    assert result.blocked
    assert result.totals == (13, 19)
    assert result.winner == 0
    assert RoundEnded(result) in events


def test_every_player_in_turn_must_pass_to_block_three_players():
    m = make_match("classic", ["KC 3D", "QS 9D", "JC 2S"], "4H")
    act(m, "pass", "pass")
    assert m.status == "playing"
    assert m.round.to_act == 2
    act(m, "pass")
    assert m.round.over
    assert m.round.result.blocked


def test_a_play_between_passes_starts_the_block_count_again():
    m = make_match("duel", ["KC 3D", "9H QS"], "4H", options={"reshuffle": False})
    act(m, "pass", "play 9H", "pass")
    assert m.status == "playing"
    assert m.round.to_act == 1
    act(m, "pass")
    assert m.round.result.blocked


# ---- hidden information ------------------------------------------------------------------

def test_view_hides_other_hands_and_the_draw_pile():
    m = make_match("duel", ["5H 9C", "6H KD"], "4H", "QS JD 2C")
    view = m.view(1)
    assert codes(view.hand) == ["6H", "KD"]
    assert view.hand_counts == (2, 2)
    assert view.draw_count == 3
    text = repr(view)
    for secret in parse_cards("5H 9C QS JD 2C"):
        assert repr(secret) not in text


def test_drawn_card_is_shown_only_to_its_drawer():
    m = make_match("points", ["KC 3D", "6H KD"], "4H", "9H 2C")
    events = act(m, "draw")
    drawn = [e for e in events if isinstance(e, CardsDrawn)][0]
    assert codes(drawn.for_seat(0).cards) == ["9H"]
    assert drawn.for_seat(1).cards is None
    assert drawn.for_seat(1).count == 1
    assert m.view(0).drawn_card.code == "9H"
    assert m.view(1).drawn_card is None
    assert "9H" not in repr(m.view(1))


def test_dealt_hands_are_hidden_from_the_other_seats_in_the_start_events():
    m = make_match("classic", ["5H 9C", "6H KD", "7S 7D"], "4H", "QS")
    for seat in range(3):
        dealt = [e.for_seat(seat) for e in m.start_events if isinstance(e, CardsDrawn)]
        assert [e.count for e in dealt] == [2, 2, 2]
        for other, event in enumerate(dealt):
            if other == seat:
                assert codes(event.cards) == hand(m, seat)
            else:
                assert event.cards is None


def test_reshuffle_event_reveals_only_a_count():
    m = make_match("duel", ["5H 9C", "6H KD"], "4H")
    act(m, "play 5H", "play 6H")
    reshuffled = act(m, "draw")[0]
    assert reshuffled == Reshuffled(2)
    assert reshuffled.for_seat(1) == Reshuffled(2)


def test_seeded_views_never_reveal_the_pile_order():
    m = Match(preset("classic"), 3, seed=11)
    pile = m.round.pile
    for seat in range(3):
        text = repr(m.view(seat))
        for card in pile:
            assert repr(card) not in text


@pytest.mark.parametrize("name", ["classic", "points", "action"])
def test_the_standard_presets_start_clockwise_and_counter_clockwise_as_a_house_rule(name):
    from game.engine import PRESETS, Match

    rules = PRESETS[name]
    assert not rules.counter_clockwise and "counter_clockwise" in rules.exposed
    for option, direction in ((False, 1), (True, -1)):
        m = Match(rules.with_options({"counter_clockwise": option}), 3, seed=2)
        assert m.start_events[0].direction == direction == m.round.direction  # no start card acts here


def test_the_duel_has_no_direction_to_choose():
    from game.engine import PRESETS, RulesError

    with pytest.raises(RulesError, match="counter_clockwise"):
        PRESETS["duel"].with_options({"counter_clockwise": True})
