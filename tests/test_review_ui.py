"""The review of a deal, by real pygame events into real scenes: it opens from the result screen
and from Statistics, its progress bar moves while the screen steps through the deal, Escape stops
the analysis, every frame draws only the reviewed seat's cards, and a hot-seat deal is reviewed
seat by seat behind the cover."""

from __future__ import annotations

import random
import time
from functools import partial

import pygame
import pytest

from game.ai.players import Medium
from game.client.art import CardArt
from game.client.controller import MatchController, SeatConfig
from game.client.scenes.table import TableScene
from game.engine import Status
from tests.client_support import STEP, make_app, press, run_until, tap_label, top_name
from tests.review_support import played

WAIT = 120.0  # seconds an analysis is given at most in a test (the loop is bounded by it, never timed)


@pytest.fixture
def app():
    application = make_app((1280, 800))
    yield application
    top = application.stack.top
    if type(top).__name__ == "ReviewScene":
        top.exit()
    application.store.flush()
    pygame.display.quit()


def at_result(app, match, seats) -> None:
    """A table whose deal is over: the result screen opens over it."""
    assert match.status != Status.PLAYING
    app.start(TableScene(app, MatchController(match, seats, rng=random.Random(1), speed=0)))
    app.stack.apply_requests()
    assert run_until(app, lambda: top_name(app) == "ResultScene", 100), top_name(app)


def solo(players: int) -> list[SeatConfig]:
    return [SeatConfig("human", name="Ana")] + [SeatConfig("computer", "medium")] * (players - 1)


def until_done(app, scene) -> None:
    deadline = time.monotonic() + WAIT
    while scene.running and time.monotonic() < deadline:
        app.frame(STEP)
        time.sleep(0.01)
    assert not scene.running


def slow_analysis(monkeypatch, guesses: int) -> None:
    """The review screens of the test start analyses of ``guesses`` guesses a decision (long enough
    to be seen under way: the session's workers are quick once started)."""
    from game.client.scenes import review
    from game.review.background import Analysis

    monkeypatch.setattr(review, "Analysis", partial(Analysis, guesses=guesses))


def test_the_review_opens_from_the_result_screen_and_steps_while_its_bar_moves(app, monkeypatch):
    slow_analysis(monkeypatch, 100)
    match = played("duel", seed=3)
    at_result(app, match, solo(2))
    tap_label(app, "Review")
    assert top_name(app) == "ReviewScene"
    scene = app.stack.top
    assert scene.stage == "review" and scene.running and scene.next_frame() is not None
    seen_progress = {scene.analysis.progress}
    steps_while_running = 0
    deadline = time.monotonic() + WAIT
    while scene.running and time.monotonic() < deadline:
        before = scene.index
        press(app, pygame.K_RIGHT, frames=1)  # the screen answers while the workers work
        if scene.running:
            steps_while_running += scene.index == before + 1
        seen_progress.add(scene.analysis.progress)
        time.sleep(0.01)
    assert not scene.running and steps_while_running >= 1
    assert len(seen_progress) >= 3  # 0, some, all: the bar moved
    assert len(scene.marked) <= 3
    assert [c.moment for c in scene.marked] == sorted(c.moment for c in scene.marked)
    if scene.marked:  # the next costly decision jumps to a marked step
        tap_label(app, "Next costly move")
        assert scene.index in [c.moment for c in scene.marked]
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ResultScene"


def test_escape_while_analysing_cancels_the_workers_then_closes(app, monkeypatch):
    slow_analysis(monkeypatch, 5000)
    at_result(app, played("classic", 4, seed=11), solo(4))
    tap_label(app, "Review")
    scene = app.stack.top
    assert scene.running
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ReviewScene" and not scene.running
    assert scene.analysis.cancelled and scene.analysis.busy() == 0
    assert "Stop the analysis" not in [c.element.text for c in scene.controls]
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ResultScene"


def test_every_frame_draws_only_the_reviewed_seats_cards(app, monkeypatch):
    match = played("classic", 3, seed=21)
    at_result(app, match, solo(3))
    tap_label(app, "Review")
    scene = app.stack.top
    scene.analysis.cancel()
    drawn: list[object] = []
    real_face = CardArt.face

    def face(self, card, *, markers=False):
        drawn.append(card)
        return real_face(self, card, markers=markers)

    monkeypatch.setattr(CardArt, "face", face)
    replay = match.rewound(0)
    log = list(match.log)
    for step in range(len(scene.story.moments)):
        assert scene.index == step
        truth = replay.view(0)
        shown = scene.frame_view()
        assert shown.seat == 0 and shown.hand == truth.hand and shown.hand_counts == truth.hand_counts
        drawn.clear()
        app.stack.top.draw(app.screen)
        allowed = set(truth.hand) | {truth.top}
        assert drawn and set(drawn) <= allowed, (step, drawn)
        if step < len(log):
            head, text = log[step]
            replay.play_log([(head, text)])
        press(app, pygame.K_RIGHT, frames=1)


def test_a_hot_seat_deal_is_reviewed_seat_by_seat_behind_the_cover(app, monkeypatch):
    match = played("classic", 3, seed=21)
    seats = [SeatConfig("human", name="Léa"), SeatConfig("human", name="Marc"),
             SeatConfig("computer", "medium")]
    at_result(app, match, seats)
    tap_label(app, "Review")
    scene = app.stack.top
    assert scene.stage == "pick" and scene.analysis is None
    drawn: list[object] = []
    def face(self, card, *, markers=False):
        drawn.append(card)
        return pygame.Surface((2, 2))

    monkeypatch.setattr(CardArt, "face", face)
    tap_label(app, "Marc's review")
    assert scene.stage == "cover" and scene.analysis is None and scene.story is None
    scene.draw(app.screen)
    assert drawn == []  # behind the cover: no card at all
    tap_label(app, "I am Marc: show")
    assert scene.stage == "review" and scene.story.seat == 1
    scene.analysis.cancel()
    scene.draw(app.screen)
    assert drawn and set(drawn) <= set(scene.frame_view().hand) | {scene.frame_view().top}


def test_the_review_opens_from_statistics_on_the_last_deals(app):
    at_result(app, played("duel", seed=3), solo(2))
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(STEP)
    app.push("Statistics")
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    assert len(scene.deals) == 1
    label = next(c.element.text for c in scene.controls if c.key == "review")
    assert "Duel, round 1 (solo)" in label
    tap_label(app, label)
    assert top_name(app) == "ReviewScene"
    review = app.stack.top
    assert review.stage == "review" and review.story is not None and review.story.seat == 0
    until_done(app, review)
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "StatisticsScene"


def test_a_review_that_cannot_be_read_says_so(app):
    at_result(app, played("duel", seed=3), solo(2))
    record = app.stack.top.reviews[0]
    broken = type(record)(record.key, record.mode, record.seat, record.names, record.preset, record.deal,
                          {"rules": {}, "complete": True, "moments": "no"})
    app.push("Review", records=[broken])
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    assert scene.problem is not None and scene.problem.startswith("This round's review cannot be read")
    assert scene.analysis is None


def tell(room, match, events) -> None:
    """The server's update to seat 0, as it comes down the (scripted) connection."""
    from game.net.wire import event_to_json, view_to_json

    room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                       "events": [event_to_json(e.for_seat(0)) for e in events], "timer": None})


def test_an_online_deal_is_reviewed_from_what_the_server_sent_this_seat(app):
    from game.ai.players import Medium
    from game.client.remote import RemoteController
    from game.client.review_data import story_from_json
    from game.engine import PRESETS, Match
    from game.review.story import story_of_deal
    from tests.test_table_contract import ScriptedRoom

    match = Match(PRESETS["duel"], 2, 3)
    room = ScriptedRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    app.start(TableScene(app, controller))
    app.stack.apply_requests()
    rng, bots = random.Random(3), [Medium(), Medium()]
    for _ in range(2000):
        if match.status != Status.PLAYING:
            break
        app.frame(STEP)
        seat = match.to_act
        if controller.view().to_act != seat or controller.view().turn_no != match.view(0).turn_no:
            continue  # this client has not seen the last move yet
        action = bots[seat].choose(match.view(seat), rng)
        if seat == 0:
            controller.submit(action, 0)  # this player's move, sent to the server
        else:
            tell(room, match, match.apply(action, 1))  # the other player's, as the server tells it
    assert run_until(app, lambda: top_name(app) == "ResultScene", 300), top_name(app)
    result = app.stack.top
    assert [r.mode for r in result.reviews] == ["online"] and result.reviews[0].seat == 0
    story = story_from_json(result.reviews[0].story)
    assert story == story_of_deal(match, 0).slim()  # the same as the record would give: nothing more
    tap_label(app, "Review")
    scene = app.stack.top
    assert top_name(app) == "ReviewScene" and scene.stage == "review" and scene.analysis.total > 0
    until_done(app, scene)
    assert len(app.store.read_reviews().records) == 1


def test_an_online_rejoin_mid_deal_and_a_refused_move_leave_no_gap_and_no_false_decision():
    from game.ai.players import Medium
    from game.client.remote import RemoteController
    from game.engine import PRESETS, Match
    from game.net.wire import event_to_json, view_to_json
    from game.review.story import story_of_deal
    from tests.test_table_contract import ScriptedRoom

    class RefusingRoom(ScriptedRoom):
        """Refuses seat 0's move when told (its view went stale), as a server's ``illegal`` error."""
        refuse = False

        def send(self, message) -> None:
            wire = message if isinstance(message, dict) else message.to_json(version=False)
            if self.refuse and wire["type"] == "action":
                self.refuse = False
                self.inbox.append({"type": "error", "code": "illegal", "message": "Not your turn.",
                                   "reason": "error.not_your_turn", "values": {}})
                return
            super().send(message)

    match = Match(PRESETS["duel"], 2, 3)
    room = RefusingRoom(match)
    controller = RemoteController(room, speed=0)  # type: ignore[arg-type]
    controller.update(0.0)
    rng, bots = random.Random(3), [Medium(), Medium()]
    made: list[object] = []  # seat 0's moves the server took from this client
    refused = away = 0
    for step in range(2000):
        if match.status != Status.PLAYING:
            break
        controller.update(0.0)
        seat = match.to_act
        action = bots[seat].choose(match.view(seat), rng)
        if 8 <= step < 14:  # the connection is down: the deal goes on (the clock plays seat 0)
            match.apply(action, seat)
            away += 1
            continue
        if step == 14:  # back in the deal under way: the server sends the deal so far
            so_far = story_of_deal(match, 0)
            room.inbox.append({"type": "update", "room": room.room, "view": view_to_json(match.view(0)),
                               "events": [], "timer": None, "earlier": [
                                   event_to_json(e) for e in so_far.events_before(len(so_far.moments) - 1)]})
            controller.update(0.0)
        if seat == 0:
            if not refused:  # the first move this client sends is refused
                room.refuse, refused = True, 1
                controller.submit(action, 0)
                controller.update(0.0)
            controller.submit(action, 0)
            made.append(action)
        else:
            tell(room, match, match.apply(action, 1))
    controller.update(0.0)
    assert away and refused and match.status != Status.PLAYING
    story = controller.recorder.story()
    whole = story_of_deal(match, 0)
    assert story is not None and story.complete  # nothing of the deal is missing
    assert story.events_before(len(story.moments) - 1) == whole.events_before(len(whole.moments) - 1)
    assert [story.moments[i].action for i in story.decisions()] == made  # the refused one not counted


def drawn_texts(monkeypatch, scene) -> list[str]:
    """Every text ``scene`` draws in one frame (through `ui.fit`, as every text of the screen)."""
    from game.client import ui

    texts: list[str] = []
    real = ui.fit

    def fit(surface, text, *args, **kwargs):
        texts.append(text)
        return real(surface, text, *args, **kwargs)

    monkeypatch.setattr(ui, "fit", fit)
    scene.draw(pygame.Surface(scene.app.size))
    monkeypatch.setattr(ui, "fit", real)
    return texts


def control_texts(scene) -> list[str]:
    return [c.element.text for c in scene.controls]


def test_a_stopped_analysis_gives_no_verdict_on_what_it_did_not_judge_and_resumes(app, monkeypatch):
    slow_analysis(monkeypatch, 5000)
    at_result(app, played("classic", 4, seed=11), solo(4))
    tap_label(app, "Review")
    scene = app.stack.top
    assert scene.running
    tap_label(app, "Stop the analysis")
    analysis = scene.analysis
    assert not scene.running and not analysis.whole and len(analysis.results) < analysis.total
    texts = drawn_texts(monkeypatch, scene)
    stopped = [t for t in texts if t.startswith("Analysis stopped")]
    assert stopped == [f"Analysis stopped: {len(analysis.results)} of {analysis.total} decisions judged, "
                       "so no verdict on the others."]
    assert not any(t.startswith("No costly decision") or t == "The costliest decisions" for t in texts)
    assert "Resume the analysis" in control_texts(scene)
    analysis.guesses = 40  # the rest judged quickly
    tap_label(app, "Resume the analysis")
    assert scene.running and "Stop the analysis" in control_texts(scene)
    until_done(app, scene)
    assert analysis.whole and not analysis.cancelled
    texts = drawn_texts(monkeypatch, scene)
    assert not any(t.startswith("Analysis stopped") for t in texts)
    assert "Resume the analysis" not in control_texts(scene)
    assert ("The costliest decisions" in texts) != any(t.startswith("No costly decision") for t in texts)


def test_escape_from_statistics_review_stops_the_analysis_then_leaves(app, monkeypatch):
    slow_analysis(monkeypatch, 5000)
    at_result(app, played("classic", 4, seed=11), solo(4))
    app.go_to_menu()
    app.stack.apply_requests()
    app.frame(STEP)
    app.push("Statistics")
    app.stack.apply_requests()
    app.frame(STEP)
    tap_label(app, next(t for t in control_texts(app.stack.top) if t.startswith("Review:")))
    scene = app.stack.top
    assert top_name(app) == "ReviewScene" and scene.running
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "ReviewScene" and not scene.running and scene.analysis.cancelled
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "StatisticsScene"


def recorded(app, *seeds: int) -> None:
    """Deals kept for review (one solo duel a seed), as a finished deal keeps them."""
    from game.client.review_data import story_to_json
    from game.review.story import story_of_deal
    from game.saves.reviews import ReviewRecord

    for seed in seeds:
        match = played("duel", seed=seed)
        app.store.add_reviews([ReviewRecord(f"deal{seed}", "solo", 0, ("Ana", "Medium"), "duel", seed,
                                            story_to_json(story_of_deal(match, 0).slim()))])
    app.store.flush()


@pytest.mark.parametrize("touch", [True, False], ids=["touch", "mouse"])
def test_statistics_arrows_cycle_the_deals_and_the_label_opens_the_review(app, touch):
    recorded(app, 3, 4, 5)
    app.push("Statistics")
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    assert len(scene.deals) == 3

    def label() -> str:
        return next(c.element.text for c in scene.controls if c.key == "review")

    seen = [label()]
    for _ in range(2):
        tap_label(app, "▸", touch=touch)
        assert top_name(app) == "StatisticsScene"  # the arrow chose, it did not open
        seen.append(label())
    assert len(set(seen)) == 3
    tap_label(app, "◂", touch=touch)
    assert label() == seen[1]
    tap_label(app, label(), touch=touch)
    assert top_name(app) == "ReviewScene"
    assert app.stack.top.record.key == scene.deals[scene.deal][0].key


def test_previous_is_off_on_the_first_step_and_next_on_the_last(app):
    recorded(app, 3)
    app.push("Statistics")
    app.stack.apply_requests()
    app.frame(STEP)
    tap_label(app, next(t for t in control_texts(app.stack.top) if t.startswith("Review:")))
    scene = app.stack.top
    assert scene.index == 0
    assert "◂ Previous" not in control_texts(scene) and control_texts(scene)[scene.focus] == "Next ▸"
    press(app, pygame.K_RETURN, frames=1)
    press(app, pygame.K_RETURN, frames=1)  # the focus stayed on Next when Previous came
    assert scene.index == 2 and control_texts(scene)[scene.focus] == "Next ▸"
    for _ in range(len(scene.story.moments) + 2):
        press(app, pygame.K_RIGHT, frames=1)
    assert scene.index == len(scene.story.moments) - 1
    assert "Next ▸" not in control_texts(scene) and "◂ Previous" in control_texts(scene)
    press(app, pygame.K_LEFT, frames=1)
    assert {"◂ Previous", "Next ▸"} <= set(control_texts(scene))


def test_the_reviews_words_a_new_player_reads_in_every_language_with_plurals(app, monkeypatch):
    from game.client.i18n import set_language, tr
    from game.client.scenes.review import points_text, stopped_text
    from game.engine import ChooseSuit
    from game.review.analysis import Cost

    one = Cost(3, ChooseSuit("D"), 0.4, ChooseSuit("C"), 0.41, 1)
    twelve = Cost(3, ChooseSuit("D"), 0.3, ChooseSuit("C"), 0.42, 12)

    class Stopped:
        cancelled, failed, total = True, False, 1
        results: dict = {}

    try:
        set_language("en")
        assert points_text(twelve) == "about 12% more chance of winning"
        assert tr("review.hard_would", action="♣", points=points_text(twelve)) == \
            "Hard would have played ♣: about 12% more chance of winning"
        assert stopped_text(Stopped()) == "Analysis stopped before judging your only decision."
        for lang in ("en", "fr", "es", "de"):
            set_language(lang)
            for cost in (one, twelve):
                text = points_text(cost)
                assert f"{cost.points}" in text and "point" not in text.lower()  # no "points of chance"
            said = stopped_text(Stopped())
            assert "1 decisions" not in said and "1 décisions" not in said
    finally:
        set_language("en")


def test_an_online_deal_played_mostly_by_the_autopilot_says_how_many_moves_were_the_players(app, monkeypatch):
    from game.client.review_data import story_to_json
    from game.engine import PRESETS, Match
    from game.review.story import Recorder
    from game.saves.reviews import ReviewRecord

    match = Match(PRESETS["duel"], 2, 4)
    rng, bots = random.Random(4), [Medium(), Medium()]
    recorder = Recorder()
    recorder.update(match.view(0), [e.for_seat(0) for e in match.start_events])
    own = 0
    while match.status == Status.PLAYING:
        seat = match.to_act
        action = bots[seat].choose(match.view(seat), rng)
        if seat == 0 and not own:
            recorder.acted(action)  # the player's one move; the server's autopilot plays the others
            own = 1
        recorder.update(match.view(0), [e.for_seat(0) for e in match.apply(action, seat)])
    story = recorder.story()
    assert story is not None and len(story.decisions()) == 1 and story.played_for_it() > 1
    record = ReviewRecord("online", "online", 0, ("Paul", "Ben"), "duel", 1, story_to_json(story.slim()))
    app.push("Review", records=[record])
    app.stack.apply_requests()
    app.frame(STEP)
    scene = app.stack.top
    until_done(app, scene)
    texts = drawn_texts(monkeypatch, scene)
    total = 1 + story.played_for_it()
    assert f"You chose 1 of your {total} moves yourself; the autopilot or the clock played the others, " \
           "which are not judged." in texts
