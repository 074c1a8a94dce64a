"""Hard's helper processes: they play out guesses of the same decision, paired, and never cost a move."""

from __future__ import annotations

import multiprocessing
import random
import time

import pytest

from game.ai import hard as hard_module
from game.ai import parallel as helpers_module
from game.ai.hard import Hard, search_candidates
from game.ai.judge import judge_for
from game.ai.parallel import Helpers, HelperSearch, _Task
from game.ai.playout import outcomes
from game.ai.sampler import Guesser
from game.engine.scoring import team_of
from tests.support import make_match
from tools.arena import main as arena_main


def _decision():
    """A classic decision with several candidates (four cards follow)."""
    m = make_match("classic", ["3H 5H 9H KH 7H", "KS QS JS TS 4C"], "2H", "2S 4S 5S 6S 9S 4D 5D")
    view = m.view(0)
    _, candidates = search_candidates(view)
    assert len(candidates) >= 4
    return view, candidates


def _begin(pool, view, candidates, seconds, seed=1):
    """A search of the classic decision handed to ``pool`` (None: the pool would not help)."""
    return pool.begin(view, Guesser(view, None), candidates, [frozenset()] * view.players, 30,
                      random.Random(seed), seconds, 1)


def _rows_until(search, count, seconds=60.0):
    """The rows the helpers send, until ``count`` of them arrived (a spawned helper takes a moment)."""
    rows = []
    until = time.monotonic() + seconds
    while len(rows) < count and time.monotonic() < until:
        rows.extend(search.rows())
        time.sleep(0.01)
    return rows


@pytest.fixture
def pool():
    made = Helpers(1)
    yield made
    made.close()


def test_a_helper_plays_every_living_candidate_out_on_each_of_its_guesses(pool):
    view, candidates = _decision()
    search = _begin(pool, view, candidates, 30.0)
    assert search is not None
    try:
        rows = _rows_until(search, 5)
        assert len(rows) >= 5
        for played, row in rows:
            assert played == tuple(range(len(candidates)))
            assert len(row) == len(played) and all(0.0 <= x <= 1.0 for x in row)
        search.narrow([1, 3])
        time.sleep(0.2)
        list(search.rows())  # the rows played before the helper heard of the drop
        later = _rows_until(search, 3)
        assert later and all(played == (1, 3) for played, _ in later)
    finally:
        search.end()


def test_one_search_at_a_time_uses_the_pool(pool):
    view, candidates = _decision()
    first = _begin(pool, view, candidates, 5.0)
    assert first is not None
    assert _begin(pool, view, candidates, 5.0, seed=2) is None
    first.end()
    again = _begin(pool, view, candidates, 5.0, seed=3)
    assert again is not None
    again.end()


@pytest.mark.parametrize("judged", [True, False])
def test_a_helper_row_is_what_the_searcher_would_score_on_that_guess(judged):
    # A helper's row is the searcher's own computation on the helper's guess: the candidates
    # are compared on one guess with the same random numbers (paired), unfinished playouts
    # judged as the searcher judges them.
    view, candidates = _decision()
    guesser = Guesser(view, None)
    lacked = [frozenset()] * view.players
    judge = judge_for(view.rules, view.players) if judged else None
    task = _Task(1, view, guesser, candidates, lacked, 3, 0.25, 5.0, judge)
    rng = random.Random(0.25)
    guess = guesser.sample(rng)
    team = team_of(view.seat, view.players, view.rules.pairs)
    expected = outcomes(guess, candidates, rng.random(), lacked, 3, team, None, judge)
    assert task.row() == expected


def test_a_dead_helper_leaves_the_search_to_go_on_alone(pool, monkeypatch):
    view, candidates = _decision()
    search = _begin(pool, view, candidates, 30.0)
    assert search is not None
    assert _rows_until(search, 1)
    search.end()
    for process in pool._processes:
        process.kill()
        process.join(timeout=5)
    monkeypatch.setattr(hard_module, "shared", lambda count: pool)
    hard = Hard(0.2, helpers=1)
    assert hard.choose(view, random.Random(0)) in view.legal
    assert hard.last_playouts > 0
    # The pool is free again and knows its helper is gone.
    assert _begin(pool, view, candidates, 1.0) is None


def test_a_timed_search_with_a_helper_merges_its_rows(pool, monkeypatch):
    view, candidates = _decision()
    warm = _begin(pool, view, candidates, 30.0)
    assert warm is not None and _rows_until(warm, 1)  # the helper is up
    warm.end()
    monkeypatch.setattr(hard_module, "shared", lambda count: pool)
    merged = []
    original = Hard._merge

    def counting(helping, alive, scores):
        made = original(helping, alive, scores)
        merged.append(made)
        return made

    monkeypatch.setattr(Hard, "_merge", staticmethod(counting))
    for seed in range(2):
        assert Hard(0.5, helpers=1).choose(view, random.Random(seed)) in view.legal
    assert sum(merged) > 0


def test_a_fixed_playout_count_never_calls_on_helpers(monkeypatch):
    # Reproducible A/B runs and the no-peeking test depend on it.
    def refuse(count):
        raise AssertionError("helpers started")

    monkeypatch.setattr(hard_module, "shared", refuse)
    view, _ = _decision()
    assert Hard(None, max_playouts=40, helpers=2).choose(view, random.Random(0)) in view.legal


def test_the_arena_refuses_a_negative_helper_count(capsys):
    with pytest.raises(SystemExit):
        arena_main(["--helpers", "-1"])
    assert "--helpers" in capsys.readouterr().err


def test_the_default_leaves_one_core_to_the_game():
    assert 0 <= helpers_module.default_helpers() <= helpers_module.MAX_HELPERS


@pytest.mark.parametrize("garbled", [("row",), 42, ("row", 1, (0, 1))])
def test_a_garbled_helper_message_leaves_that_helper_out(garbled):
    ours, theirs = multiprocessing.Pipe()
    search = HelperSearch(Helpers(1), 1, [ours])
    theirs.send(garbled)
    assert list(search.rows()) == []
    assert ours.closed  # a helper still alive sees its pipe close and exits
    assert list(search.rows()) == []  # and nothing more is read from it
    theirs.close()
