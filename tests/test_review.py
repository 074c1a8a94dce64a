"""The review's pure part: a seat's story of a deal (from the record, from a server's updates), the
cost of its decisions by Hard's estimates, the three costliest, the analysis in worker processes,
and the records kept with the statistics."""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.hard import Estimate, Evaluation
from game.ai.players import Medium
from game.client.review_data import ReviewDataError, story_from_json, story_to_json
from game.engine import PRESETS, Match, Play, Status
from game.engine.events import CardsDrawn, TimedOut
from game.review.analysis import Cost, costliest, judge, judged
from game.review.background import Analysis
from game.review.story import Recorder, story_of_deal
from game.saves import DataStore, decode_game, encode_game
from game.saves.games import SavedSeat, SavedTable
from game.saves.reviews import KEEP, ReviewRecord, Reviews
from tests.review_support import play_on, played


def test_a_story_holds_only_the_seats_views_and_its_redacted_events():
    match = played("classic", 4, seed=11)
    story = story_of_deal(match, 2)
    assert story.complete and story.seat == 2
    replay = match.rewound(0)
    assert story.moments[0].view == replay.view(2)
    for moment in story.moments:
        assert moment.view.seat == 2
        for event in moment.events:
            assert event == event.for_seat(2)  # nothing another seat alone may see
            if isinstance(event, CardsDrawn) and event.seat != 2:
                assert event.cards is None
    # Each moment after the first follows one logged action; the seat's own carry its action.
    assert len(story.moments) == len(match.log) + 1
    mine = [entry for entry in match.log if entry[0] == 2]
    assert [str(story.moments[i].action) for i in story.decisions()] == [a for _, a in mine]


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000), seat=st.integers(0, 3))
def test_every_moment_of_a_story_is_the_seats_own_view_then_and_its_json_reads_back(preset, seed, seat):
    players = 2 if preset == "duel" else 4
    match = played(preset, players, seed)
    seat %= players
    story = story_of_deal(match, seat)
    replay = match.rewound(0)
    for moment, entry in zip(story.moments, [*match.log, None], strict=True):
        assert moment.view == replay.view(seat)  # the seat's view then, nothing else
        assert all(event == event.for_seat(seat) for event in moment.events)
        if entry is not None:
            replay.play_log([entry])
    slim = story.slim()
    assert story_from_json(json.loads(json.dumps(story_to_json(slim)))) == slim
    assert all(slim.moments[i].view == story.moments[i].view for i in slim.decisions())


def test_a_resumed_games_story_equals_the_uninterrupted_ones():
    seed = 5
    whole = play_on(Match(PRESETS["classic"], 3, seed),
                    random.Random(seed), actions=25)
    rng_state = random.Random(99).getstate()
    saved = encode_game(SavedTable(whole, [], [SavedSeat("human", "medium", "Ana")] + [
        SavedSeat("computer", "medium", "")] * 2, 0, rng_state))
    resumed = decode_game(saved).match
    for match in (whole, resumed):
        play_on(match, random.Random(7))
    assert whole.log == resumed.log and whole.status != Status.PLAYING
    assert story_of_deal(resumed, 0) == story_of_deal(whole, 0)
    assert story_to_json(story_of_deal(resumed, 0).slim()) == story_to_json(story_of_deal(whole, 0).slim())
    one, other = story_of_deal(whole, 0).slim(), story_of_deal(resumed, 0).slim()
    first = judged(one)[0]
    assert judge(one, first, guesses=4) == judge(other, first, guesses=4)


def test_a_story_reads_back_from_its_json_and_a_damaged_one_is_refused():
    story = story_of_deal(played("points", 3, seed=2), 1).slim()
    text = json.dumps(story_to_json(story))
    assert story_from_json(json.loads(text)) == story
    damaged = json.loads(text)
    damaged["moments"][3]["view"]["hand_counts"] = "many"
    with pytest.raises(ReviewDataError):
        story_from_json(damaged)
    with pytest.raises(ReviewDataError):
        story_from_json({"rules": {}, "moments": []})


def test_the_recorder_builds_from_a_servers_updates_the_story_the_record_gives():
    match = Match(PRESETS["duel"], 2, 4)
    rng = random.Random(4)
    recorder = Recorder()
    recorder.update(match.view(0), [e.for_seat(0) for e in match.start_events])
    bots = [Medium(), Medium()]
    while match.status == Status.PLAYING:
        seat = match.to_act
        action = bots[seat].choose(match.view(seat), rng)
        if seat == 0:
            recorder.acted(action)  # what this client sent
        events = match.apply(action, seat)
        recorder.update(match.view(0), [e.for_seat(0) for e in events])
    story = recorder.story()
    assert story is not None and story.complete
    assert story == story_of_deal(match, 0)
    assert judged(story.slim())  # the recorded data gives a review


def test_a_late_comers_story_starts_with_the_deal_so_far_and_says_it():
    match = played("duel", seed=8)
    recorder = Recorder()
    view = match.view(1)
    recorder.update(view, [])
    assert recorder.story() is not None and not recorder.story().complete


def test_a_reconnection_mid_deal_brings_back_the_missed_events_and_a_gap_is_never_silent():
    match = Match(PRESETS["duel"], 2, 4)
    rng = random.Random(5)
    recorder = Recorder()
    recorder.update(match.view(0), [e.for_seat(0) for e in match.start_events])
    bots = [Medium(), Medium()]
    everything = [e for e in match.start_events]
    step = 0
    while match.status == Status.PLAYING:
        seat = match.to_act
        action = bots[seat].choose(match.view(seat), rng)
        if seat == 0:
            recorder.acted(action)
        events = match.apply(action, seat)
        everything.extend(events)
        step += 1
        if 6 <= step < 12:
            continue  # the connection is down: these updates never arrive
        if step == 12:  # back: the server sends the deal so far (`earlier`) with no new events
            recorder.update(match.view(0), [], [e.for_seat(0) for e in everything])
            continue
        recorder.update(match.view(0), [e.for_seat(0) for e in events])
    story = recorder.story()
    assert story is not None and story.complete
    assert [e for m in story.moments for e in m.events] == [e.for_seat(0) for e in everything]
    whole = story_of_deal(match, 0)
    assert story.events_before(len(story.moments) - 1) == whole.events_before(len(whole.moments) - 1)
    # A deal so far that does not continue what was recorded: the story says it is incomplete.
    recorder = Recorder()
    recorder.update(match.view(0), [e.for_seat(0) for e in match.start_events])
    recorder.update(match.view(0), [], [e.for_seat(0) for e in everything[len(match.start_events) + 1:]])
    assert recorder.story() is not None and not recorder.story().complete


def test_a_move_the_server_refused_or_the_clock_overtook_is_not_the_players_decision():
    match = Match(PRESETS["duel"], 2, 4)
    while match.to_act != 0:
        match.apply(Medium().choose(match.view(match.to_act), random.Random(1)), match.to_act)
    view = match.view(0)
    legal = [a for a in view.legal]
    recorder = Recorder()
    recorder.update(view, [])
    recorder.acted(legal[0])
    recorder.refused()  # the server's `illegal` error
    recorder.update(view, [])
    assert recorder.story().decisions() == []
    recorder.acted(legal[0])
    recorder.update(view, [TimedOut(0)])  # the clock played first
    assert recorder.story().decisions() == []
    recorder.acted(legal[0])
    events = match.apply(legal[0], 0)
    recorder.update(match.view(0), [e.for_seat(0) for e in events])
    story = recorder.story()
    assert [story.moments[i].action for i in story.decisions()] == [legal[0]]


class FakeHard:
    """A searcher whose estimates are given: each candidate's chance from a table of cards."""

    def __init__(self, chances: dict[str, float]) -> None:
        self.chances = chances
        self.seen: list[object] = []

    def observe(self, seat, event, rules, players) -> None:
        self.seen.append(event)

    def evaluate(self, view, rng, *, narrow=True, stop=None):
        from game.ai.hard import search_candidates
        _, candidates = search_candidates(view)
        estimates = tuple(Estimate(a, self.chances.get(str(a), 0.5), 10) for a in candidates)
        best = max(range(len(estimates)), key=lambda i: estimates[i].chance)
        return Evaluation(estimates, 10 * len(estimates), best)


def test_a_decisions_cost_is_the_best_estimate_less_the_played_ones():
    story = story_of_deal(played("duel", seed=3), 0)
    index = judged(story)[0]
    played_action = story.moments[index].action
    others = [a for a in story.moments[index].view.legal if a != played_action]
    fake = FakeHard({str(played_action): 0.30, str(others[0]): 0.72})
    cost = judge(story, index, player=lambda playouts: fake)  # type: ignore[arg-type,return-value]
    assert cost is not None and cost.best == others[0] and cost.points == 42
    assert len(fake.seen) == len(story.events_before(index))  # it saw what the seat had seen


def test_the_three_costliest_are_the_three_with_the_largest_cost_in_the_deals_order():
    costs = [Cost(i, Play.__new__(Play), 0.5 - c, Play.__new__(Play), 0.5, 2)
             for i, c in enumerate([0.05, 0.30, 0.0, 0.12, 0.29, 0.01, 0.12])]
    marked = costliest(costs)
    assert [c.moment for c in marked] == [1, 3, 4]  # 0.30, 0.29, then the earlier of the two 0.12
    assert costliest([costs[2]]) == []  # a decision that cost nothing is not marked


def test_the_analysis_runs_in_worker_processes_and_gives_what_judging_in_turn_gives():
    story = story_of_deal(played("duel", seed=3), 0).slim()
    analysis = Analysis(story, guesses=3)
    deadline = time.monotonic() + 120
    while not analysis.done and time.monotonic() < deadline:
        analysis.take_results()
        time.sleep(0.01)
    analysis.close()
    assert analysis.done and not analysis.cancelled and analysis.progress == 1.0
    assert analysis.costs == [c for c in (judge(story, i, guesses=3) for i in judged(story)) if c]


def test_cancelling_the_analysis_stops_its_workers_and_the_next_one_gets_them():
    story = story_of_deal(played("classic", 4, seed=11), 0).slim()
    analysis = Analysis(story, guesses=5000)
    analysis.take_results()
    analysis.cancel()
    assert analysis.cancelled and analysis.done and analysis.busy() == 0
    assert len(analysis.results) < analysis.total
    again = Analysis(story, guesses=2)  # the same workers, a new job: the old one's leftovers are passed over
    deadline = time.monotonic() + 120
    while not again.done and time.monotonic() < deadline:
        again.take_results()
        time.sleep(0.01)
    assert again.done and not again.cancelled and again.progress == 1.0
    assert again.costs == [c for c in (judge(story, i, guesses=2) for i in judged(story)) if c]


def record(key: str, seat: int = 0) -> ReviewRecord:
    return ReviewRecord(key, "solo", seat, ("Ana", "Computer 2"), "duel", 1, {"moments": []})


def test_only_the_last_deals_are_kept_and_the_same_deal_replaces_itself():
    kept = Reviews()
    for i in range(KEEP + 3):
        kept.add(record(f"deal {i}"))
    kept.add(record(f"deal {KEEP + 2}"))
    assert [r.key for r in kept.records] == [f"deal {i}" for i in range(3, KEEP + 3)]


def test_a_malformed_record_is_dropped_alone_and_a_damaged_file_loses_nothing_else(tmp_path):
    store = DataStore(tmp_path, background=False)
    store.add_reviews([record("a"), record("b")], wait=True)
    data = json.loads((tmp_path / "reviews.json").read_text().split("\n", 2)[2])
    data["records"][0]["seat"] = "zero"
    reviews, dropped = Reviews.parse(data)
    assert [r.key for r in reviews.records] == ["b"] and dropped == ["record 1"]
    (tmp_path / "reviews.json").write_bytes(b"HUIT reviews 1\n{}\nnot json")
    (tmp_path / "reviews.json.bak").unlink(missing_ok=True)
    store = DataStore(tmp_path, background=False)  # the game started again on the damaged file
    assert store.read_reviews().records == []
    assert store.reviews.problem is not None  # said, not fatal
    stats = store.read_statistics()
    store.write_statistics(stats)  # the statistics are their own file: untouched
    store.add_reviews([record("c")], wait=True)
    assert (tmp_path / "reviews.json.corrupt").is_file()  # the unreadable file kept aside
    assert [r.key for r in store.read_reviews().records] == ["c"]
