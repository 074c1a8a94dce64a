"""str(round), str(view) and str(match): the position in card notation, a view never showing a hidden card."""

from __future__ import annotations

import random

import pytest

from game.engine import PRESETS, Match, Play, Status, parse_card, parse_cards, preset

# Seat 0 is dealt the hearts and the 8S, seat 1 the clubs; 5H starts the pile; six cards stay.
DECK = parse_cards("7H 2C 8S 3C 9H 4C TH 5C JH 6C QH 7C KH 9C 5H AS 2S 3S 4S 5S 6S")


def test_a_dealt_position_prints_every_hand_in_card_notation():
    match = Match(PRESETS["classic"], 2, 0, deck=DECK)
    assert str(match.round) == (
        "classic, deal 1, dealer seat 1: seat 0 to act, phase play\n"
        "top 5H, suit H, draw pile 6, discard pile 1, direction +1\n"
        "seat 0 (to act): 7H 8S 9H TH JH QH KH\n"
        "seat 1: 2C 3C 4C 5C 6C 7C 9C"
    )


def test_a_view_prints_its_own_hand_the_others_counts_the_scores_and_its_legal_actions():
    match = Match(PRESETS["points"], 2, 0, deck=DECK)
    match.apply(Play(parse_card("7H")))
    assert str(match.view(1)) == (
        "points, deal 1, dealer seat 1: seat 1 to act, phase play; seen by seat 1\n"
        "top 7H, suit H, draw pile 6, discard pile 2, direction +1\n"
        "seat 0: 6 cards\n"
        "seat 1 (you, to act): 2C 3C 4C 5C 6C 7C 9C\n"
        "scores 0 0, target 100\n"
        "legal: play 7C"
    )


def test_a_pending_penalty_and_a_missed_card_call_are_shown():
    rules = preset("colors", {"hand_size": 2, "counter_clockwise": False})  # printed "direction +1"
    deck = parse_cards("R+2 B+2 W G7 R5 Y1 Y2")  # seat 0: R+2 W, seat 1: B+2 G7; R5 starts
    match = Match(rules, 2, 0, deck=deck, first=0)
    match.apply(Play(parse_card("R+2")))
    assert str(match.round) == (
        "colors, deal 1, dealer seat 1: seat 1 to act, phase penalty\n"
        "top R+2, suit R, draw pile 2, discard pile 2, direction +1\n"
        "pending penalty 2 (R+2)\n"
        "may be denounced: seat 0\n"
        "seat 0: W\n"
        "seat 1 (to act): B+2 G7"
    )
    assert "pending penalty 2 (R+2)" in str(match.view(0))


def test_a_finished_deal_prints_its_result_and_the_match_its_scores():
    match = Match(preset("points", {"hand_size": 1}), 2, 0, deck=parse_cards("7H 2C 5H 9S 9D"))
    match.apply(Play(parse_card("7H")))
    assert match.status == Status.ROUND_OVER
    assert str(match) == (
        "points, deal 1, dealer seat 1: over\n"
        "top 7H, suit H, draw pile 2, discard pile 2, direction +1\n"
        "seat 0: -\n"
        "seat 1: 2C\n"
        "result: seat 0 went out; points 2 0\n"
        "scores 2 0, target 100; round_over"
    )
    assert str(match.view(1)).splitlines()[0] == (
        "points, deal 1, dealer seat 1: round over; seen by seat 1")


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_views_text_never_shows_a_card_its_seat_cannot_see(name):
    rules = PRESETS[name]
    rng = random.Random(11)
    players = min(3, rules.max_players)
    for seed in range(3):
        match = Match(rules, players, seed)
        for _ in range(200):
            if match.status != Status.PLAYING:
                break
            for seat in range(players):
                view = match.view(seat)
                words = set(str(view).replace(",", " ").replace(":", " ").replace("(", " ")
                            .replace(")", " ").split())
                seen = {c.code for c in view.hand} | {c.code for c in view.discard}
                hidden = {c.code for s, hand in enumerate(match.round.hands) if s != seat for c in hand}
                hidden |= {c.code for c in match.round.pile}
                assert not (words & (hidden - seen)), (seat, str(view))
            match.apply(rng.choice(match.legal_actions()))
