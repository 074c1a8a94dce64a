"""Rule tests for the `colors` preset (docs/rules.md, "`colors`: the colour deck")."""

from collections import Counter

import pytest

from game.engine import PRESETS, IllegalAction, Match, RulesError, deck_for, parse_cards
from game.engine.events import (
    CardPlayed,
    CardsDrawn,
    Challenged,
    Denounced,
    DirectionChanged,
    LastCardCalled,
    PenaltyPending,
    StartCard,
    StartCardReturned,
    SuitChosen,
    TimedOut,
    TurnSkipped,
)
from tests.support import act, events_of, hand, legal, make_match

PILE = "R9 B2 G3 Y4 B6 G7 Y8 B9"


def colors(hands, start="R3", pile=PILE, **kw):
    """A colours match from these hands. Most rules here are written seat 0, 1, 2 in turn: they play
    clockwise (``counter_clockwise`` off) unless the test gives that option itself."""
    kw["options"] = {"counter_clockwise": False, **kw.get("options", {})}
    return make_match("colors", hands, start, pile, **kw)


def codes(text):
    return text.split()


def pile_top_first(m):
    return [c.code for c in reversed(m.round.pile)]


# ---- deck and seating ----------------------------------------------------------------------

def test_colour_deck_has_108_cards_zero_once_and_the_rest_twice_per_colour():
    counts = Counter(c.code for c in deck_for("colors"))
    assert sum(counts.values()) == 108
    for colour in "RBGY":
        assert counts[colour + "0"] == 1
        for rank in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "+2", "skip", "rev"]:
            assert counts[colour + rank] == 2, colour + rank
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert len(counts) == 4 * 13 + 2


def test_colors_deals_seven_cards_to_two_to_four_players_from_the_colour_deck():
    for players in (2, 3, 4):
        m = Match(PRESETS["colors"], players, seed=3)
        r = m.round
        assert [len(h) for h in r.hands] == [7] * players
        everything = [c for h in r.hands for c in h] + r.pile + r.discard
        assert Counter(everything) == Counter(deck_for("colors"))
    for players in (1, 5):
        with pytest.raises(RulesError):
            Match(PRESETS["colors"], players, seed=3)


# ---- +2 and stacking -----------------------------------------------------------------------

def test_plus_two_makes_the_next_player_draw_two_and_lose_the_turn():
    m = colors(["R+2 B1 G2", "Y4 Y5 Y6", "B7 G8 Y9"])
    events = act(m, "play R+2")
    assert PenaltyPending(1, 2) in events
    assert m.round.to_act == 1 and m.round.phase == "penalty"
    assert legal(m) == {"draw"}
    events = act(m, "draw")
    assert hand(m, 1) == codes("Y4 Y5 Y6 R9 B2")
    assert events_of(events, CardsDrawn) == [CardsDrawn(1, 2, "penalty", tuple(parse_cards("R9 B2")))]
    assert TurnSkipped(1) in events
    assert m.round.to_act == 2


def test_plus_two_answered_with_plus_two_passes_the_total_on_two_four_six():
    m = colors(["R+2 B+2 G1 G2", "Y+2 B3 G4 Y1"], pile="R4 R5 R6 R7 R8 R9 B1")
    pending = []
    for step, seat in (("play R+2", 1), ("play Y+2", 0), ("play B+2", 1)):
        events = act(m, step)
        pending += [e.amount for e in events_of(events, PenaltyPending) if e.seat == seat]
        assert m.round.to_act == seat
    assert pending == [2, 4, 6]
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 1) == codes("B3 G4 Y1 R4 R5 R6 R7 R8 R9")
    assert m.round.to_act == 0 and m.round.pending == 0


def test_a_pending_plus_two_may_be_answered_only_by_a_plus_two():
    m = colors(["R+2 B1 G2", "G+2 W W+4", "B7 G8 Y9"])
    act(m, "play R+2")
    assert legal(m) == {"play G+2", "draw"}


def test_wild_cannot_be_played_on_a_pending_plus_two_but_can_afterwards():
    m = colors(["R+2 B1 G2", "W Y5 Y6", "W B7 G8"])
    act(m, "play R+2")
    with pytest.raises(IllegalAction, match="draw card that stacks, or draw 2 cards"):
        act(m, "play W")
    act(m, "draw")
    assert m.round.to_act == 2
    assert "play W" in legal(m)
    act(m, "play W", "suit Y")
    assert m.round.suit == "Y" and m.round.to_act == 0


# ---- skip and reverse ----------------------------------------------------------------------

def test_skip_makes_the_next_player_lose_the_turn():
    m = colors(["Rskip B1 G2", "R5 Y5 Y6", "B7 G8 Y9"])
    events = act(m, "play Rskip")
    assert TurnSkipped(1) in events
    assert m.round.to_act == 2
    assert hand(m, 1) == codes("R5 Y5 Y6")


def test_reverse_changes_the_direction_of_play():
    m = colors(["Rrev B1 G2", "Y4 Y5 Y6", "R7 G8 Y9"])
    events = act(m, "play Rrev")
    assert DirectionChanged(-1) in events
    assert m.round.direction == -1 and m.round.to_act == 2
    act(m, "play R7")
    assert m.round.to_act == 1


def test_skip_at_two_players_lets_you_play_again():
    m = colors(["Rskip R5 G2", "Y4 Y5 Y6"])
    events = act(m, "play Rskip")
    assert TurnSkipped(1) in events
    assert m.round.to_act == 0
    assert "play R5" in legal(m)


def test_reverse_at_two_players_lets_you_play_again():
    m = colors(["Rrev R5 G2", "Y4 Y5 Y6"])
    act(m, "play Rrev")
    assert m.round.to_act == 0
    act(m, "play R5")
    assert m.round.to_act == 1


# ---- the starting card ---------------------------------------------------------------------

def test_starting_plus_two_makes_the_first_player_draw_two_and_lose_the_turn():
    m = colors(["B1 G2 Y3", "B4 G5 Y6"], start="R+2", first=1)
    assert PenaltyPending(1, 2) in m.start_events
    assert m.round.to_act == 1 and m.round.pending == 2
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert hand(m, 1) == codes("B4 G5 Y6 R9 B2")
    assert m.round.to_act == 0


def test_starting_skip_makes_the_first_player_lose_the_turn():
    m = colors(["B1 G2 Y3", "B4 G5 Y6", "B7 G8 Y9"], start="Rskip", first=1)
    assert TurnSkipped(1) in m.start_events
    assert m.round.to_act == 2


def test_starting_reverse_makes_play_go_the_other_way():
    m = colors(["B1 G2 Y3", "R4 G5 Y6", "B7 G8 Y9"], start="Rrev", first=1)
    assert DirectionChanged(-1) in m.start_events
    assert m.round.to_act == 1 and m.round.direction == -1
    act(m, "play R4")
    assert m.round.to_act == 0


# ---- the direction at the start (seat + 1 sits on the left of each seat on the screen) ------

COUNTER = {"counter_clockwise": True}


def test_colours_play_starts_counter_clockwise():
    assert PRESETS["colors"].counter_clockwise
    m = colors(["B1 G2 Y3", "R4 G5 Y6", "B7 G8 Y9", "Y1 Y2 G3"], options=COUNTER)
    assert m.start_events[0].direction == -1 and m.round.direction == -1
    assert m.view(0).direction == -1
    events = act(m, "play Y3")
    assert not any(isinstance(e, DirectionChanged) for e in events)
    assert m.round.to_act == 3  # the seat on the right of seat 0
    act(m, "draw")
    act(m, "pass")
    assert m.round.to_act == 2


def test_a_starting_reverse_makes_colours_start_clockwise():
    m = colors(["B1 G2 Y3", "R4 G5 Y6", "B7 G8 Y9", "Y1 Y2 G3"], start="Rrev", first=1, options=COUNTER)
    assert m.start_events[0].direction == -1
    assert DirectionChanged(1) in m.start_events
    assert m.round.to_act == 1 and m.round.direction == 1
    act(m, "play R4")
    assert m.round.to_act == 2


def test_a_starting_skip_passes_the_first_player_counter_clockwise():
    m = colors(["B1 G2 Y3", "R4 G5 Y6", "B7 G8 Y9", "Y1 Y2 G3"], start="Rskip", first=1, options=COUNTER)
    assert TurnSkipped(1) in m.start_events
    assert m.round.to_act == 0


def test_counter_clockwise_off_starts_colours_clockwise():
    m = colors(["B1 G2 Y3", "R4 G5 Y6", "B7 G8 Y9"], options={"counter_clockwise": False})
    assert m.round.direction == 1
    act(m, "play Y3")
    assert m.round.to_act == 1


def test_every_colours_deal_starts_counter_clockwise_unless_a_reverse_is_turned():
    seen = set()
    for seed in range(40):
        m = Match(PRESETS["colors"], 3, seed=seed)
        assert m.start_events[0].direction == -1
        turned = next(e for e in m.start_events if isinstance(e, StartCard)).card
        reverse = turned.rank == "rev"
        seen.add(reverse)
        assert m.round.direction == (1 if reverse else -1)
    assert seen == {True, False}


def test_starting_wild_lets_the_first_player_choose_the_colour_then_play():
    m = colors(["B1 G2 Y3", "G5 B4 Y6"], start="W", first=1)
    assert m.round.to_act == 1 and m.round.phase == "suit"
    assert legal(m) == {"suit R", "suit B", "suit G", "suit Y"}
    events = act(m, "suit G")
    assert SuitChosen(1, "G") in events
    assert m.round.to_act == 1 and m.round.phase == "play" and m.round.suit == "G"
    assert legal(m) == {"play G5", "draw"}
    act(m, "play G5")
    assert m.round.to_act == 0


def test_starting_wild_four_is_returned_and_another_card_turned():
    m = colors(["B1 G2 Y3", "B4 G5 Y6"], start="W+4", pile="G6 B2 R8", first=0)
    returned = events_of(m.start_events, StartCardReturned)
    assert [e.card.code for e in returned] == ["W+4"]
    assert [e.card.code for e in events_of(m.start_events, StartCard)] == ["G6"]
    assert m.round.top.code == "G6" and m.round.suit == "G"
    assert pile_top_first(m) == ["B2", "R8", "W+4"]
    assert m.round.pending == 0 and m.round.phase == "play" and m.round.to_act == 0


# ---- drawing -------------------------------------------------------------------------------

def test_cannot_play_draws_one_card_and_may_play_it():
    m = colors(["B5 G7 Y1", "Y4 Y5 Y6"])
    assert legal(m) == {"draw"}
    act(m, "draw")
    assert legal(m) == {"play R9", "pass"}
    with pytest.raises(IllegalAction, match="only play the card you drew"):
        act(m, "play B5")
    act(m, "play R9")
    assert m.round.top.code == "R9" and m.round.to_act == 1
    assert hand(m, 0) == codes("B5 G7 Y1")


def test_playable_drawn_card_may_be_kept_with_a_pass():
    m = colors(["B5 G7 Y1", "Y4 Y5 Y6"])
    act(m, "draw", "pass")
    assert hand(m, 0) == codes("B5 G7 Y1 R9")
    assert m.round.top.code == "R3" and m.round.to_act == 1


def test_unplayable_drawn_card_leaves_only_pass():
    m = colors(["B5 G7 Y1", "Y4 Y5 Y6"], pile="B2 R9")
    act(m, "draw")
    assert legal(m) == {"pass"}
    with pytest.raises(IllegalAction, match="cannot draw again"):
        act(m, "draw")
    act(m, "pass")
    assert hand(m, 0) == codes("B5 G7 Y1 B2") and m.round.to_act == 1


def test_player_may_draw_instead_of_playing():
    m = colors(["R5 B7 G1", "Y4 Y5 Y6"], pile="B2 R9")
    assert legal(m) == {"play R5", "draw"}
    act(m, "draw")
    assert legal(m) == {"pass"}
    act(m, "pass")
    assert hand(m, 0) == codes("R5 B7 G1 B2") and m.round.to_act == 1


# ---- Wild +4 and the challenge ---------------------------------------------------------------

def test_wild_four_accepted_the_next_player_draws_four_and_loses_the_turn():
    m = colors(["W+4 B5 G1", "Y4 Y5 Y6"])
    act(m, "play W+4", "suit B")
    assert m.round.phase == "challenge" and legal(m) == {"challenge", "accept"}
    act(m, "accept")
    assert hand(m, 1) == codes("Y4 Y5 Y6 R9 B2 G3 Y4")
    assert m.round.to_act == 0 and m.round.suit == "B"


def test_wild_four_bluff_challenged_its_player_draws_four_and_challenger_plays():
    m = colors(["W+4 R5 B1", "Y4 B5 Y6"])
    act(m, "play W+4", "suit B")
    events = act(m, "challenge")
    assert Challenged(1, 0, True) in events
    assert hand(m, 0) == codes("R5 B1 R9 B2 G3 Y4")
    assert hand(m, 1) == codes("Y4 B5 Y6")
    assert m.round.to_act == 1 and m.round.phase == "play" and m.round.pending == 0
    assert "play B5" in legal(m)
    act(m, "play B5")
    assert m.round.to_act == 0


def test_wild_four_honest_challenged_the_challenger_draws_six_and_loses_the_turn():
    m = colors(["W+4 B5 G1", "Y4 Y5 Y6"])
    act(m, "play W+4", "suit G")
    events = act(m, "challenge")
    assert Challenged(1, 0, False) in events
    assert hand(m, 0) == codes("B5 G1")
    assert hand(m, 1) == codes("Y4 Y5 Y6 R9 B2 G3 Y4 B6 G7")
    assert m.round.to_act == 0 and m.round.suit == "G"


# ---- the last-card call -------------------------------------------------------------------

def test_card_is_called_before_playing_the_next_to_last_card():
    m = colors(["R5 R6", "Y4 Y5", "B7 G8"])
    assert legal(m) == {"play R5", "play R6", "draw", "card"}
    events = act(m, "card", "play R5")
    assert LastCardCalled(0) in events
    assert m.round.exposed == {}
    assert legal(m, 2) == set()
    with pytest.raises(IllegalAction, match="cannot be denounced"):
        act(m, "2: denounce 0")


def test_card_call_is_not_offered_when_no_card_can_be_played():
    m = colors(["B4 G6", "Y4 Y5"])
    assert legal(m) == {"draw"}


def test_forgotten_card_call_any_other_player_denounces_and_offender_draws_two():
    m = colors(["R5 R6", "Y4 Y5", "B7 G8"])
    act(m, "play R5")
    assert "denounce 0" in legal(m)
    assert legal(m, 2) == {"denounce 0"}
    events = act(m, "2: denounce 0")
    assert Denounced(2, 0) in events
    assert hand(m, 0) == codes("R6 R9 B2")
    assert m.round.to_act == 1
    assert legal(m, 2) == set()


def test_next_player_may_denounce_during_its_own_turn():
    m = colors(["R5 R6", "Y4 Y6"])
    act(m, "play R5")
    assert "denounce 0" in legal(m)
    assert "play Y4" not in legal(m)
    events = act(m, "denounce 0")
    assert Denounced(1, 0) in events
    assert hand(m, 0) == codes("R6 R9 B2")
    assert m.round.to_act == 1


def test_denounce_window_closes_at_the_end_of_the_next_players_turn():
    m = colors(["R5 R6", "R7 Y5", "B7 G8"])
    act(m, "play R5", "play R7")
    assert m.round.to_act == 2
    assert "denounce 0" not in legal(m, 2)
    with pytest.raises(IllegalAction, match="Seat 0 cannot be denounced now"):
        act(m, "2: denounce 0")
    with pytest.raises(IllegalAction):
        act(m, "1: denounce 0")
    assert hand(m, 0) == ["R6"]


# ---- the turn timer ------------------------------------------------------------------------

def test_timeout_is_refused_without_a_turn_timer():
    m = colors(["R5 B7 G1", "Y4 Y5 Y6"])
    assert PRESETS["colors"].turn_seconds == 0
    with pytest.raises(IllegalAction, match="no turn timer"):
        act(m, "timeout")


def test_turn_timer_runs_out_and_the_game_plays_for_the_player():
    m = colors(["B5 R7 G1", "Y4 Y5 Y6"], options={"turn_seconds": 20})
    events = act(m, "timeout")
    assert TimedOut(0) in events
    assert events_of(events, CardPlayed) == [CardPlayed(0, parse_cards("R7")[0])]
    assert hand(m, 0) == codes("B5 G1")
    assert m.round.to_act == 1


def test_turn_timer_with_nothing_to_play_draws_for_the_player():
    m = colors(["B5 G7 Y1", "Y4 Y5 Y6"], pile="B2 R9", options={"turn_seconds": 20})
    events = act(m, "timeout")
    assert [e.reason for e in events_of(events, CardsDrawn)] == ["draw"]
    assert hand(m, 0) == codes("B5 G7 Y1 B2")
    assert m.round.to_act == 1


def test_turn_timer_with_a_wild_chooses_the_colour_for_the_player():
    m = colors(["W B5 B7", "Y4 Y5 Y6"], options={"turn_seconds": 20})
    events = act(m, "timeout")
    assert SuitChosen(0, "B") in events
    assert m.round.suit == "B" and m.round.to_act == 1


# ---- scoring: quick game and target --------------------------------------------------------

GO_OUT = ("play Rrev", "play Rskip", "play Rrev", "play Rskip", "play Gskip", "card",
          "play Grev", "play G5")
HANDS = ["Rrev Rskip Rrev Rskip Gskip Grev G5", "B7 Y0 Brev G+2 Yskip W W+4"]


def test_quick_game_is_the_default_first_out_wins():
    assert PRESETS["colors"].target == 0
    m = colors(HANDS)
    act(m, *GO_OUT)
    res = m.round.result
    assert (res.winner, res.winners, res.blocked, res.tie) == (0, (0,), False, False)
    assert m.status == "match_over" and m.winners == (0,)


def test_points_game_winner_scores_face_values_twenty_for_actions_fifty_for_wilds():
    m = colors(HANDS, options={"target": 500})
    act(m, *GO_OUT)
    res = m.round.result
    assert res.totals == (0, 7 + 0 + 20 + 20 + 20 + 50 + 50)
    assert res.points == (167, 0)
    assert m.scores == [167, 0]
    assert m.status == "round_over"


# ---- pair play -----------------------------------------------------------------------------

def test_pair_play_partners_sit_opposite_and_win_when_either_goes_out():
    m = colors(["B7", "Y2", "R5", "G4"], options={"pairs": True}, first=2)
    act(m, "play R5")
    res = m.round.result
    assert res.winner == 2 and res.winners == (0, 2)
    assert m.winners == (0, 2) and m.status == "match_over"
    m = colors(["B7", "R5", "Y2", "G4"], options={"pairs": True}, first=1)
    act(m, "play R5")
    assert m.round.result.winners == (1, 3)


def test_pair_wins_when_a_partner_reaches_the_target():
    m = colors(["B7", "W", "R5", "W+4"], options={"pairs": True, "target": 100}, first=2)
    act(m, "play R5")
    assert m.round.result.points == (0, 0, 100, 0)
    assert m.status == "match_over" and m.winners == (0, 2)


def test_pair_partners_points_add_up_toward_the_target_by_default():
    m = colors(["B7", "Y9", "R5", "Y2"], options={"pairs": True, "target": 100}, first=2)
    assert m.rules.pair_scores
    m.scores[0] = 45  # what seat 0 scored in earlier deals
    act(m, "play R5")
    assert m.round.result.points == (0, 0, 11, 0)
    assert m.scores == [45, 0, 11, 0]  # each seat keeps what it scored...
    assert m.status == "round_over"  # ...and 56 is short of 100
    m = colors(["B7", "W", "R5", "W+4"], options={"pairs": True, "target": 150}, first=2)
    m.scores[0] = 60
    act(m, "play R5")
    assert m.scores == [60, 0, 100, 0]  # neither partner has 150, their pair has 160
    assert m.status == "match_over" and m.winners == (0, 2)


def test_pair_scores_off_each_partner_needs_the_target_alone():
    m = colors(["B7", "W", "R5", "W+4"], options={"pairs": True, "target": 150, "pair_scores": False},
               first=2)
    m.scores[0] = 60
    act(m, "play R5")
    assert m.scores == [60, 0, 100, 0]
    assert m.status == "round_over" and m.winners == ()


def test_pairs_level_on_their_totals_play_another_deal():
    m = colors(["B7", "W", "R5", "W+4"], options={"pairs": True, "target": 150}, first=2)
    m.scores[0], m.scores[1], m.scores[3] = 60, 100, 60  # 160 each once seat 2 scores its 100
    act(m, "play R5")
    assert m.status == "round_over" and m.winners == ()


def test_pair_scores_is_offered_where_pair_play_is():
    assert "pair_scores" in PRESETS["colors"].options()
    for name in ("duel", "classic", "points", "action"):
        with pytest.raises(RulesError, match="pair_scores"):
            PRESETS[name].with_options({"pair_scores": False})


def test_pair_play_needs_four_players():
    with pytest.raises(RulesError, match="four players"):
        colors(["B7", "R5", "G4"], options={"pairs": True})
