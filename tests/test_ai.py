"""Computer players: legal moves on every preset, no peeking, Medium beats Easy, Hard searches."""

import random

import pytest

from game.ai import player_for
from game.ai.arena import play_match, run, wilson
from game.ai.hard import Hard
from game.ai.knowledge import Knowledge
from game.ai.players import Easy, Medium
from game.engine import PRESETS, Match
from game.engine.determinize import round_from_view, unseen_cards
from tests.support import act, make_match

CASES = [(name, n) for name, rules in PRESETS.items()
         for n in sorted({rules.min_players, 4, rules.max_players})
         if rules.min_players <= n <= rules.max_players]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_level_plays_only_legal_moves_to_the_end(name, players):
    rules = PRESETS[name]
    levels = ["easy", "medium", "hard"]
    seats = [Hard(None, max_playouts=8, min_playouts=1) if levels[s % 3] == "hard"
             else player_for(levels[s % 3]) for s in range(players)]
    match = play_match(rules, seats, seed=players)
    assert match.status in ("round_over", "match_over")


def shuffled_hidden(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with every card ``seat`` cannot see dealt again at random."""
    view = match.view(seat)
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands = []
    for s, count in enumerate(view.hand_counts):
        if s == seat:
            hands.append(list(view.hand))
        else:
            hands.append([pool.pop() for _ in range(count)])
    other = Match(match.rules, match.players, 0)
    other.__dict__.update(match.__dict__)
    other.round = round_from_view(view, hands, pool, random.Random(0), bluff_by=match.round.bluff_by)
    return other


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("name", list(PRESETS))
def test_a_computer_never_peeks_at_cards_it_cannot_see(level, name):
    rules = PRESETS[name]
    rng = random.Random(11)
    for seed in range(6):
        match = Match(rules, rules.min_players, seed)
        for _ in range(rng.randrange(0, 30)):
            if match.status != "playing":
                break
            match.apply(rng.choice(match.legal_actions()))
        if match.status != "playing":
            continue
        seat = match.to_act
        player = Hard(None, max_playouts=30, min_playouts=1) if level == "hard" else player_for(level)
        choice = player.choose(match.view(seat), random.Random(5))
        for trial in range(3):
            other = shuffled_hidden(match, seat, random.Random(trial))
            assert other.view(seat) == match.view(seat)
            again = Hard(None, max_playouts=30, min_playouts=1) if level == "hard" else player_for(level)
            assert again.choose(other.view(seat), random.Random(5)) == choice


def test_medium_beats_easy_at_duel_beyond_luck():
    side_a, _ = run("duel", 2, "medium", "easy", games=400, budget=0.0, seed=0, jobs=1)
    low, _ = wilson(side_a.wins, side_a.games)
    assert side_a.games == 400
    assert low > 0.5


def test_wilson_interval_brackets_the_rate():
    low, high = wilson(60, 100)
    assert low < 0.6 < high
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691


def test_hard_skips_search_with_one_legal_action():
    m = make_match("duel", ["3H 9C", "5S 6S"], "7H", "KD QD JD")
    hard = Hard(None, max_playouts=50)
    assert [str(a) for a in m.view(0).legal] == ["play 3H"]
    assert str(hard.choose(m.view(0), random.Random(1))) == "play 3H"
    assert hard.last_playouts == 0


def test_hard_falls_back_to_medium_rules_without_enough_playouts():
    m = make_match("duel", ["3H 8C 5S", "5D 6S 2D"], "7H", "KD QD JD")
    hard = Hard(None, max_playouts=2, min_playouts=10)
    assert hard.choose(m.view(0), random.Random(1)) == Medium().choose(m.view(0), random.Random(1))
    assert hard.last_playouts == 2


def test_hard_finds_the_winning_last_two_cards():
    # Playing the 3H leaves 3C: a rank switch the opponent cannot stop; the eight is kept.
    m = make_match("duel", ["3H 3C 8S", "KD QD JD"], "7H", "2S 4S 5S 6S 9S TS")
    hard = Hard(None, max_playouts=300)
    assert str(hard.choose(m.view(0), random.Random(2))) == "play 3H"


def test_a_forced_draw_shows_what_the_opponent_lacks():
    m = make_match("duel", ["3H 9C 4D", "5S 6S 2D"], "7H", "KS QD JD TD")
    knowledge = Knowledge(0, m.rules, 2)
    for event in m.start_events:
        knowledge.observe(event.for_seat(0))
    for event in act(m, "play 3H", "draw"):
        knowledge.observe(event.for_seat(0))
    cohorts = knowledge.hand_cohorts(1, len(m.round.hands[1]))
    assert "H" in cohorts[0].no_suits and "3" in cohorts[0].no_ranks and cohorts[0].no_wild


def test_easy_picks_among_the_legal_actions_at_random():
    m = make_match("duel", ["3H 7C 4H", "5S 6S 2D"], "7H", "KD QD JD")
    seen = {str(Easy().choose(m.view(0), random.Random(i))) for i in range(40)}
    assert seen == {str(a) for a in m.view(0).legal}


def test_medium_keeps_its_eight_and_names_its_long_suit():
    m = make_match("duel", ["8C 4H 5S 6S", "KD QD JD TD"], "7H", "2C 3C 9C")
    assert str(Medium().choose(m.view(0), random.Random(0))) == "play 4H"
    m = make_match("duel", ["8C 5S 6S 2S", "KD QD JD TD"], "7H", "2C 3C 9C")
    act(m, "play 8C")
    assert str(Medium().choose(m.view(0), random.Random(0))) == "suit S"
