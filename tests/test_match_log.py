"""A match's record: its log of plain data, replaying it, and rewinding it (the engine's undo)."""

from __future__ import annotations

import copy
import random

import pytest

from game.engine import PRESETS, Match, Round, RulesError, Status, parse_action
from tests.support import act, make_match

SEATINGS = [(name, players) for name, rules in PRESETS.items()
            for players in sorted({rules.min_players, rules.max_players})]


def play(match: Match, rng: random.Random, steps: int, *, shuffles: bool = False) -> None:
    """Random legal actions, new deals when one ends (until the match is won), and now and then a
    shuffle of the draw pile (as an undo does)."""
    for _ in range(steps):
        if match.status != Status.PLAYING:
            if match.status == Status.MATCH_OVER and match.target:
                return
            match.next_round()
        elif shuffles and rng.random() < 0.05:
            match.shuffle_draw_pile(rng.randrange(1 << 64))
        else:
            match.apply(rng.choice(match.legal_actions()))


def test_the_log_holds_actions_deals_and_shuffles_as_plain_data():
    m = make_match("classic", ["3H 9C", "5H 6S"], "7H", "KD QD JD")
    act(m, "play 3H", "play 5H")
    m.shuffle_draw_pile(77)
    assert m.log == [(0, "play 3H"), (1, "play 5H"), ("shuffle", 77)]
    m = Match(PRESETS["points"], 3, 5)
    play(m, random.Random(3), 3000, shuffles=True)
    assert ("next", None) in m.log and any(e[0] == "shuffle" for e in m.log)
    assert all(type(e) is tuple and len(e) == 2 and type(e[0]) in (int, str) for e in m.log)
    assert all(str(parse_action(text)) == text for seat, text in m.log if type(seat) is int)


def test_an_action_applied_for_the_seat_to_act_is_logged_with_that_seat():
    m = make_match("colors", ["R1 R2", "R5 G6"], "R3", "B1 B2 B4 B5 B6")
    m.apply(parse_action("play R1"))  # no seat given: the seat to act
    m.apply(parse_action("denounce 0"))  # seat 1's turn: no "Card" was called
    assert m.log == [(0, "play R1"), (1, "denounce 0")]


@pytest.mark.parametrize("name,players", SEATINGS)
def test_a_replayed_match_equals_the_original_with_the_same_log(name, players):
    for seed in range(3):
        original = Match(PRESETS[name], players, seed)
        play(original, random.Random(seed), 400, shuffles=True)
        events: list = []
        replayed = Match.replay(original.rules, players, original.log, original.seed,
                                first=original.first_seat, events=events)
        assert replayed == original
        assert replayed.log == original.log
        assert replayed.round.pile == original.round.pile  # the same next draws


@pytest.mark.parametrize("name,players", SEATINGS)
def test_replaying_gives_the_events_of_the_deal_being_played(name, players):
    original = Match(PRESETS[name], players, 4)
    rng = random.Random(4)
    seen = list(original.start_events)
    for _ in range(300):
        if original.status != Status.PLAYING:
            if original.status == Status.MATCH_OVER and original.target:
                break
            seen = original.next_round()
        else:
            seen += original.apply(rng.choice(original.legal_actions()))
    events: list = []
    Match.replay(original.rules, players, original.log, original.seed, events=events)
    assert events == seen


@pytest.mark.parametrize("name,players", SEATINGS)
def test_rewinding_gives_the_match_as_it_stood_after_that_many_entries(name, players):
    rng = random.Random(players)
    match = Match(PRESETS[name], players, 8)
    kept: dict[int, Match] = {0: copy.deepcopy(match)}
    for _ in range(250):
        play(match, rng, 1, shuffles=True)
        if rng.random() < 0.2:
            kept[len(match.log)] = copy.deepcopy(match)
        if rng.random() < 0.05 and kept:  # an undo at a random point, then play goes on from there
            length = rng.choice(sorted(kept))
            match = match.rewound(length)
            assert match == kept[length] and len(match.log) == length
            kept = {k: v for k, v in kept.items() if k <= length}
    for length, then in kept.items():
        assert match.rewound(length) == then


def test_rewinding_gives_the_events_of_that_deal_so_far():
    m = Match(PRESETS["classic"], 3, 2)
    rng = random.Random(1)
    history = list(m.start_events)
    lengths = []
    for _ in range(12):
        lengths.append((len(m.log), list(history)))
        history += m.apply(rng.choice(m.legal_actions()))
    for length, then in lengths:
        events: list = []
        m.rewound(length, events)
        assert events == then


def test_a_match_without_a_seed_or_with_its_own_generator_replays_too():
    unseeded = Match(PRESETS["points"], 4)
    assert type(unseeded.seed) is int
    given = Match(PRESETS["points"], 4, rng=random.Random(5))
    assert given.seed is None and given.start_state is not None
    for m in (unseeded, given):
        play(m, random.Random(2), 200, shuffles=True)
        assert m.rewound(len(m.log)) == m
        assert m.rewound(0) == Match(PRESETS["points"], 4, m.seed, rng=_generator(m.start_state))


def _generator(state):
    if state is None:
        return None
    rng = random.Random()
    rng.setstate(state)
    return rng


def test_a_match_dealt_from_an_explicit_deck_replays_with_that_deck():
    m = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    act(m, "play 3H", "play 5H")
    assert m.rewound(1).round.hands[0] == m.rewound(0).round.hands[0][1:]
    assert m.rewound(2) == m


@pytest.mark.parametrize("entry,why", [
    ((0, "play 9C"), "log entry 0"),  # not in the hand: the rules refuse it
    ((1, "play 5H"), "log entry 0"),  # not that seat's turn
    ((0, "fly"), "not an action"),
    ((0, 5), "notation"),
    (("next", None), "log entry 0"),  # the deal is not over
    (("shuffle", -1), "seed"),
    (("shuffle", "x"), "seed"),
    (("dance", 1), "unknown entry"),
    ([0, "play 3H"], "pair"),
    ((0, "play 3H", 1), "pair"),
    ((0, "play " + "3H" * 100), "notation"),
])
def test_a_log_the_rules_refuse_is_refused_with_the_entry_and_why(entry, why):
    m = make_match("classic", ["3H 9C 4C", "5H 6S 2D"], "7H", "KD QD JD TD")
    with pytest.raises(RulesError) as caught:
        Match.replay(m.rules, 2, [entry], m.seed, deck=m.first_deck, first=m.first_seat)
    assert why in str(caught.value)


def test_rewinding_past_the_log_is_refused():
    m = Match(PRESETS["duel"], 2, 1)
    with pytest.raises(ValueError):
        m.rewound(1)
    with pytest.raises(ValueError):
        m.rewound(-1)


def test_the_log_belongs_to_the_match_so_playouts_on_rounds_pay_nothing():
    assert "log" not in Round.__slots__
    r = Match(PRESETS["classic"], 4, 3).round.clone()
    r.apply(r.legal_actions()[0], events=False)
    assert not hasattr(r, "log")


def test_shuffling_the_draw_pile_is_logged_and_reproducible():
    a, b = Match(PRESETS["duel"], 2, 9), Match(PRESETS["duel"], 2, 9)
    a.shuffle_draw_pile(12345)
    b.play_log([("shuffle", 12345)])
    assert a.round.pile == b.round.pile and a.log == b.log == [("shuffle", 12345)]
