"""The information-set search (`game.ai.ismcts`): legal moves, no peeking, a sound tree."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import player_for
from game.ai.hard import Hard
from game.ai.ismcts import Ismcts, Node
from game.ai.players import ARENA_LEVELS, Medium
from game.engine import PRESETS, Match, PlayerView
from tests.support import make_match, mid_game, random_moves
from tests.test_ai import CASES, shuffled_hidden
from tools.arena import main as arena_main
from tools.arena import play_match


def walk(node: Node):
    yield node
    for child in node.children.values():
        yield from walk(child)


@pytest.mark.parametrize(("opponents", "paired"), [("policy", False), ("ucb", False), ("policy", True)])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_information_set_search_plays_only_legal_moves_to_the_end(name, players, opponents, paired):
    rules = PRESETS[name]
    seats = [Ismcts(None, max_playouts=12, min_playouts=1, opponents=opponents, paired=paired) if s % 2 == 0
             else player_for("medium") for s in range(players)]
    match = play_match(rules, seats, seed=players)  # the match applies only legal actions
    assert match.status in ("round_over", "match_over")


def test_the_information_set_search_plays_pair_games_to_the_end_for_its_side():
    rules = PRESETS["colors"].with_options(pairs=True, turn_seconds=10)
    seats = [Ismcts(None, max_playouts=10, min_playouts=1), player_for("medium"),
             Ismcts(None, max_playouts=10, min_playouts=1, opponents="ucb"), player_for("easy")]
    match = play_match(rules, seats, seed=3)
    assert match.status == "match_over"
    assert match.winners in ((0, 2), (1, 3))


@pytest.mark.parametrize("paired", [False, True])
@pytest.mark.parametrize("name", list(PRESETS))
def test_the_information_set_search_never_peeks_at_cards_it_cannot_see(name, paired):
    rules = PRESETS[name]
    rng = random.Random(13)
    checked = 0
    for match in mid_game(rules, rng):
        seat = match.to_act
        choice = Ismcts(None, max_playouts=40, min_playouts=1, paired=paired).choose(match.view(seat),
                                                                                 random.Random(5))
        for trial in range(3):
            other = shuffled_hidden(match, seat, random.Random(trial))
            assert other.view(seat) == match.view(seat)
            again = Ismcts(None, max_playouts=40, min_playouts=1, paired=paired).choose(other.view(seat),
                                                                                        random.Random(5))
            assert again == choice
        checked += 1
    assert checked


def position(name: str, seed: int, moves: int) -> PlayerView | None:
    """The view of the seat to act after ``moves`` random legal actions of a ``name`` deal (four
    players where the rules allow them), or None once the deal is over."""
    rules = PRESETS[name]
    match = Match(rules, 4 if rules.max_players >= 4 else 2, seed)
    random_moves(match, random.Random(seed), moves)
    return match.view(match.to_act) if match.status == "playing" else None


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000), moves=st.integers(0, 25),
       iterations=st.integers(1, 80), opponents=st.sampled_from(["policy", "ucb"]))
def test_the_tree_counts_each_iteration_once_down_one_path(name, seed, moves, iterations, opponents):
    view = position(name, seed, moves)
    if view is None:
        return
    searcher = Ismcts(None, max_playouts=iterations, min_playouts=1, opponents=opponents)
    evaluation = searcher.evaluate(view, random.Random(seed))
    candidates = [e.action for e in evaluation.estimates]
    assert all(a in view.legal for a in candidates)
    if len(candidates) < 2:
        assert evaluation.playouts == 0
        return
    root = searcher.last_tree
    assert root is not None
    assert evaluation.playouts == iterations == root.visits
    assert set(root.children) <= set(candidates)  # the root only tries the candidates
    assert sum(e.playouts for e in evaluation.estimates) == root.visits  # each iteration takes one
    for node in walk(root):
        # An iteration goes on to at most one child; none goes on below a node it has just added.
        assert sum(child.visits for child in node.children.values()) <= node.visits
        if node is not root:
            assert 1 <= node.visits <= node.avail  # chosen only where it was available
            assert 0.0 <= node.mean() <= 1.0
    best = evaluation.best()
    assert best.playouts == max(e.playouts for e in evaluation.estimates)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000), moves=st.integers(0, 25),
       iterations=st.integers(2, 60))
def test_the_paired_search_plays_every_living_candidate_on_each_guess(name, seed, moves, iterations):
    view = position(name, seed, moves)
    if view is None:
        return
    searcher = Ismcts(None, max_playouts=iterations, min_playouts=1, paired=True)
    evaluation = searcher.evaluate(view, random.Random(seed))
    if len(evaluation.estimates) < 2:
        return
    root = searcher.last_tree
    assert root is not None
    guesses = root.visits
    # The first candidates are dropped after FIRST_CHECK guesses at the earliest: until then
    # every candidate is played out on every guess, so the comparison stays paired.
    assert all(e.playouts == guesses for e in evaluation.estimates) or guesses >= 24
    assert sum(e.playouts for e in evaluation.estimates) == evaluation.playouts
    for estimate in evaluation.estimates:
        child = root.children.get(estimate.action)
        assert (child.visits if child else 0) == estimate.playouts
        assert 0.0 <= estimate.chance <= 1.0
    for node in walk(root):
        assert sum(child.visits for child in node.children.values()) <= node.visits or node is root
        if node is not root:
            assert 1 <= node.visits <= node.avail


def test_the_estimates_are_the_mean_rewards_of_the_root_children():
    m = make_match("duel", ["3H 3C 8S", "KD QD JD"], "7H", "2S 4S 5S 6S 9S TS")
    searcher = Ismcts(None, max_playouts=200)
    evaluation = searcher.evaluate(m.view(0), random.Random(2))
    root = searcher.last_tree
    assert root is not None
    for estimate in evaluation.estimates:
        child = root.children[estimate.action]
        assert estimate.chance == pytest.approx(child.total / child.visits)
        assert estimate.playouts == child.visits


def test_the_information_set_search_finds_the_winning_last_two_cards():
    # Playing the 3H leaves 3C: a rank switch the opponent cannot stop; the eight is kept.
    m = make_match("duel", ["3H 3C 8S", "KD QD JD"], "7H", "2S 4S 5S 6S 9S TS")
    assert str(Ismcts(None, max_playouts=300).choose(m.view(0), random.Random(2))) == "play 3H"


def test_the_information_set_search_stops_when_asked():
    m = make_match("duel", ["3H 3C 8S", "KD QD JD"], "7H", "2S 4S 5S 6S 9S TS")
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    searcher = Ismcts(None, max_playouts=10_000, per_guess=2)
    evaluation = searcher.evaluate(m.view(0), random.Random(2), stop=stop)
    assert evaluation.playouts == 6  # three guesses of two iterations each, then the stop


def test_with_too_few_iterations_the_information_set_search_plays_mediums_choice():
    m = make_match("duel", ["3H 8C 5S", "5D 6S 2D"], "7H", "KD QD JD")
    searcher = Ismcts(None, max_playouts=2, min_playouts=10)
    assert searcher.choose(m.view(0), random.Random(1)) == Medium().choose(m.view(0), random.Random(1))


def test_the_arena_levels_name_todays_hard_and_the_information_set_search(capsys, monkeypatch):
    from tools import arena

    monkeypatch.setenv(arena.CPU_CLOCK, "")  # restored after the test: --cpu-clock sets it
    assert isinstance(player_for("hard-before"), Hard) and not isinstance(player_for("hard-before"), Ismcts)
    assert isinstance(player_for("ismcts", playouts=5), Ismcts)
    assert player_for("ismcts-paired", playouts=5).paired  # type: ignore[attr-defined]
    assert set(ARENA_LEVELS) == {"hard-before", "ismcts", "ismcts-paired", "hard-weighted"}
    arena_main(["--preset", "duel", "--a", "ismcts", "--b", "hard-before", "--games", "2", "--jobs", "1",
                "--playouts", "6", "--cpu-clock"])
    assert "ismcts (A, one seat) vs hard-before" in capsys.readouterr().out


def test_the_arena_can_count_a_searchs_budget_in_cpu_time(monkeypatch):
    import time

    from tools import arena

    monkeypatch.setenv(arena.CPU_CLOCK, "1")
    assert arena.seat_player("ismcts", 0.1, None, 30, 0).clock is time.thread_time  # type: ignore[attr-defined]
    assert arena.seat_player("hard-before", 0.1, None, 30, 0).clock is time.thread_time  # type: ignore[attr-defined]
    assert arena.seat_player("pimc", 0.1, None, 30, 0).clock is time.thread_time  # type: ignore[attr-defined]
    monkeypatch.delenv(arena.CPU_CLOCK)
    assert arena.seat_player("hard", 0.1, None, 30, 0).clock is not time.thread_time  # type: ignore[attr-defined]
    assert arena.seat_player("pimc", 0.1, None, 30, 0).clock is time.perf_counter  # type: ignore[attr-defined]


def test_an_unknown_way_with_the_opponents_is_refused():
    with pytest.raises(ValueError, match="opponents"):
        Ismcts(None, max_playouts=5, opponents="oracle")
