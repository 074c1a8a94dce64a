"""Hard with guesses weighted by an opponent model (`game.ai.weighted`, the arena's ``hard-weighted``):
the model's chances, the graded reading, the learnt confidence, legal play and no peeking."""

import math
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import player_for
from game.ai import weighted as weighted_module
from game.ai.hard import Hard
from game.ai.knowledge import Knowledge
from game.ai.players import ARENA_LEVELS
from game.ai.sampler import Guesser
from game.ai.weighted import OpponentModel, WeightedHard, choice_probabilities, chosen_probability
from game.engine import PRESETS
from game.engine import events as ev
from game.engine.cards import parse_card, parse_cards
from game.engine.determinize import unseen_cards
from tests.support import act, make_match, mid_game
from tests.test_ai import CASES, shuffled_hidden
from tools.arena import main as arena_main
from tools.arena import play_match
from tools.inference import decisions


def knowing(*events, seat=0, players=2, name="duel"):
    """The Knowledge of ``seat`` in a game where every seat was dealt four cards and 7H turned."""
    knowledge = Knowledge(seat, PRESETS[name], players)
    for event in (ev.RoundStarted(1, 0, 0, 1, 4), *(ev.CardsDrawn(s, 4, "deal") for s in range(players)),
                  ev.StartCard(parse_card("7H")), *events):
        knowledge.observe(event)
    return knowledge


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.floats(-60, 1000, allow_nan=False), min_size=1, max_size=12),
       temperature=st.floats(0.05, 10), uniform=st.floats(0, 1))
def test_the_models_chances_over_the_options_sum_to_one(scores, temperature, uniform):
    chances = choice_probabilities(scores, temperature, uniform)
    assert math.isclose(sum(chances), 1.0, rel_tol=1e-9)
    assert all(c >= uniform / len(scores) * (1 - 1e-9) for c in chances)
    chance, responsibility = chosen_probability(scores, temperature, uniform)
    assert math.isclose(chance, chances[0], rel_tol=1e-9)
    assert 0.0 <= responsibility <= 1.0 + 1e-12


def test_the_model_prefers_what_medium_scores_higher_and_flattens_with_the_uniform_share():
    sharp = choice_probabilities([6.0, 0.0, 3.0], 1.0, 0.0)
    assert sharp[0] > sharp[2] > sharp[1]
    assert choice_probabilities([6.0, 0.0, 3.0], 1.0, 1.0) == pytest.approx([1 / 3] * 3)
    assert choice_probabilities([2.0, 2.0], 0.3, 0.1) == pytest.approx([0.5, 0.5])


def test_a_hand_that_fits_the_players_choice_weighs_more_than_one_that_does_not():
    # Seat 1 followed 7H with 9H: holding 7C and two more clubs, Medium would have switched to clubs.
    model = OpponentModel(knowing(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H"))).reading)
    fits, _ = model.weigh(1, parse_cards("7C 2S 3D"))
    misfits, _ = model.weigh(1, parse_cards("7C 2C 3C"))
    assert fits > misfits
    assert fits <= model.weigh(1, parse_cards("7C 2S 3D"))[1]  # never above its ceiling


def test_a_hand_long_in_the_named_suit_weighs_more():
    model = OpponentModel(knowing(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("8C")),
                                  ev.SuitChosen(1, "S")).reading)
    assert model.weigh(1, parse_cards("2S 3S 4D"))[0] > model.weigh(1, parse_cards("2D 3D 4S"))[0]


def test_a_player_whose_choices_the_model_keeps_calling_unlikely_gets_a_flatter_model(monkeypatch):
    # Seat 1 followed 7H with 9H. From 7C 2C 3C 9H, Medium would have switched to its clubs: the
    # model calls that choice unlikely; from 2H 3H 7C 9H it was one of Medium's three best.
    reading = knowing(ev.TurnStarted(1), ev.CardPlayed(1, parse_card("9H"))).reading
    erratic, steady = OpponentModel(reading), OpponentModel(reading)
    start = erratic.share(1)
    for _ in range(20):
        assert steady.kept(1, parse_cards("2H 3H 7C"))
    shares = []
    for _ in range(20):
        erratic.kept(1, parse_cards("7C 2C 3C"))
        shares.append(erratic.share(1))
    assert steady.share(1) < start < shares[0]
    assert shares[-1] == pytest.approx(shares[0], rel=0.2)  # evidence of one choice counts once
    unlikely = parse_cards("7C 2C 3C")
    assert erratic.weigh(1, unlikely)[0] > OpponentModel(reading).weigh(1, unlikely)[0]  # flatter
    monkeypatch.setattr(weighted_module, "FLAT", shares[-1] / 2)
    assert not erratic.kept(1, unlikely)  # no longer worth reading


def test_the_weighted_sampler_keeps_the_hands_the_choices_make_likely():
    # Seat 1 followed 7D with 9D: Medium holding 7C and more clubs would have switched to clubs.
    m = make_match("duel", ["7D 3D 4D 5D", "9D 7C 6S 9S"], "7H", "KS QS JS TS 2C 3C 4C 5C 6C 9C TC")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play 7D", "play 9D")]:
        knowledge.observe(event.for_seat(0))
    rng = random.Random(3)
    plain = Guesser(m.view(0), knowledge)
    weighted = Guesser(m.view(0), knowledge, OpponentModel(knowledge.reading))
    sharp = Guesser(m.view(0), knowledge, OpponentModel(knowledge.reading, temperature=0.3, uniform=0.02))
    assert weighted.readable == [1]

    def misfits(hands):
        return sum(not knowledge.reading.fits(1, hand) for hand in hands)

    unread = [Guesser(m.view(0), None).sample(rng).hands[1] for _ in range(300)]
    graded = [weighted.sample(rng).hands[1] for _ in range(300)]
    assert misfits(graded) < misfits(unread) / 2
    assert misfits([sharp.sample(rng).hands[1] for _ in range(300)]) < misfits(unread) / 10
    assert all(knowledge.reading.fits(1, plain.sample(rng).hands[1]) for _ in range(50))
    for round_ in (weighted.sample(rng) for _ in range(50)):  # every guess still fits the view
        assert round_.hands[0] == m.round.hands[0]
        assert [len(h) for h in round_.hands] == [len(h) for h in m.round.hands]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_hard_weighted_plays_only_legal_moves_to_the_end(name, players):
    rules = PRESETS[name]
    seats = [WeightedHard(None, max_playouts=8, min_playouts=1) if s % 2 == 0 else player_for("medium")
             for s in range(players)]
    match = play_match(rules, seats, seed=players)  # the match applies only legal actions
    assert match.status in ("round_over", "match_over")


def test_hard_weighted_plays_pair_games_for_its_side():
    rules = PRESETS["colors"].with_options(pairs=True, turn_seconds=10)
    seats = [WeightedHard(None, max_playouts=8, min_playouts=1), player_for("medium"),
             WeightedHard(None, max_playouts=8, min_playouts=1), player_for("easy")]
    match = play_match(rules, seats, seed=3)
    assert match.status == "match_over"
    assert match.winners in ((0, 2), (1, 3))


@pytest.mark.parametrize("name", list(PRESETS))
def test_hard_weighted_never_peeks_at_cards_it_cannot_see(name):
    rules = PRESETS[name]
    rng = random.Random(17)
    checked = 0
    for match in mid_game(rules, rng):
        seat = match.to_act
        choice = WeightedHard(None, max_playouts=30, min_playouts=1).choose(match.view(seat),
                                                                            random.Random(5))
        for trial in range(3):
            other = shuffled_hidden(match, seat, random.Random(trial))
            assert other.view(seat) == match.view(seat)
            again = WeightedHard(None, max_playouts=30, min_playouts=1).choose(other.view(seat),
                                                                               random.Random(5))
            assert again == choice
        checked += 1
    assert checked


def test_hard_weighted_grades_its_guesses_with_a_model_of_the_seats_own_reading():
    m = make_match("duel", ["7D 3D 4D 5D", "9D 7C 6S 9S"], "7H", "KS QS JS TS 2C 3C 4C 5C 6C 9C TC")
    player = WeightedHard(None, max_playouts=20, min_playouts=1)
    for event in [*m.start_events, *act(m, "play 7D", "play 9D")]:
        player.observe(0, event.for_seat(0), m.rules, 2)
    guesser = player.guesses_for(m.view(0))
    assert isinstance(guesser, Guesser) and isinstance(guesser.weigher, OpponentModel)
    assert guesser.weigher.reading is player.knowledge[0].reading
    assert not isinstance(Hard(None, max_playouts=20).guesses_for(m.view(0)), OpponentModel)


def test_the_arena_seats_hard_weighted_beside_todays_hard(capsys):
    assert "hard-weighted" in ARENA_LEVELS
    weighted = player_for("hard-weighted", playouts=5)
    assert isinstance(weighted, WeightedHard)
    assert type(player_for("hard-before")) is Hard and type(player_for("hard")) is Hard
    arena_main(["--preset", "duel", "--a", "hard-weighted", "--b", "hard-before", "--games", "2",
                "--jobs", "1", "--playouts", "6"])
    assert "hard-weighted (A, one seat) vs hard-before" in capsys.readouterr().out


def test_after_a_reshuffle_the_weighted_guesses_keep_the_reshuffles_facts():
    # The marks and the reshuffle's facts stay hard: the pile only from the refill, every card
    # held since before the reshuffle in some hand; and the kept hands still mostly fit.
    checked = fitted = dealt = 0
    for match, view, knowledge, _ in decisions("classic", 4, 25, 0, after_reshuffle=True):
        refill = knowledge.refill
        assert refill is not None
        old = Counter(unseen_cards(view)) - refill
        guesser = Guesser(view, knowledge, OpponentModel(knowledge.reading))
        rng = random.Random(checked)
        for _ in range(5):
            guess = guesser.sample(rng)
            assert all(card in refill for card in guess.pile)
            held = Counter(card for seat, hand in enumerate(guess.hands) if seat != 0 for card in hand)
            assert not old - held
            assert [len(h) for h in guess.hands] == [len(h) for h in match.round.hands]
            for seat in guesser.readable:
                dealt += 1
                fitted += knowledge.reading.fits(seat, guess.hands[seat])
        checked += 1
    assert checked > 20 and dealt > 100
    assert fitted / dealt > 0.55  # (the plain reading: 0.86; a softer model keeps more misfits)


def test_a_helper_process_plays_out_the_weighted_guesses():
    # The guesser travels to the helpers (`game.ai.parallel`) with its model: their rows come back.
    from game.ai.hard import search_candidates
    from game.ai.parallel import Helpers

    m = make_match("duel", ["7D 3D 4D 5D", "9D 7C 6S 9S"], "7H", "KS QS JS TS 2C 3C 4C 5C 6C 9C TC")
    knowledge = Knowledge(0, m.rules, 2)
    for event in [*m.start_events, *act(m, "play 7D", "play 9D")]:
        knowledge.observe(event.for_seat(0))
    view = m.view(0)
    _, candidates = search_candidates(view)
    assert len(candidates) >= 2
    pool = Helpers(1)
    try:
        search = pool.begin(view, Guesser(view, knowledge, OpponentModel(knowledge.reading)), candidates,
                            [frozenset()] * 2, 30, random.Random(1), 30.0, 1)
        assert search is not None
        rows = []
        for _ in range(6000):  # up to a minute for the spawned helper to answer
            rows.extend(search.rows())
            if rows:
                break
            time.sleep(0.01)
        search.end()
    finally:
        pool.close()
    assert rows and all(len(row) == len(candidates) for _, row in rows)
